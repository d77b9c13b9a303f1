"""sim/affine_text owns which affine maps xDSL cannot read (`has_unreadable_map`) and
rewrites the ops that use them (`lower_affine_ops`); sim/bishengir's `needs_translation`
asks it."""

from __future__ import annotations

import pytest

from ascend_mlir.sim.affine_text import has_unreadable_map, lower_affine_ops
from ascend_mlir.sim.bishengir import needs_translation


@pytest.mark.parametrize("body", [
    "()[s0, s1] -> (s0 * s1)",
    "(d0)[s0] -> (d0 floordiv s0)",
    "(d0, d1) -> (d0 ceildiv d1)",
    "()[s0, s1, s2] -> (s0 + s1 mod s2)",
])
def test_semi_affine_maps_are_unreadable_and_need_translation(body):
    text = f"#map = affine_map<{body}>\n"
    assert has_unreadable_map(text)
    assert needs_translation(text)


@pytest.mark.parametrize("body", [
    "()[s0, s1] -> (s0 + s1 * 4)",
    "(d0) -> (d0 floordiv 16)",
    "(d0, d1) -> (d0 mod 8, d1)",
])
def test_affine_maps_xdsl_reads_are_left_alone(body):
    text = f"#map = affine_map<{body}>\nmodule {{}}\n"
    assert not has_unreadable_map(text)
    assert not needs_translation(text)


def test_lowered_text_has_no_unreadable_map_left():
    text = ("#map = affine_map<()[s0, s1] -> (s0 * s1)>\n"
            "%2 = affine.apply #map()[%0, %1]\n")
    lowered = lower_affine_ops(text)
    assert has_unreadable_map(text) and not has_unreadable_map(lowered)
    assert "arith.muli %0, %1 : index" in lowered
    assert lowered.count("\n") == text.count("\n")  # line numbers do not move
