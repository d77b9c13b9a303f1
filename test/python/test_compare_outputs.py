"""Comparing outputs with the reference (sim/routes.compare_outputs): NaN and infinity
are neither hidden nor invented. A NaN output where the reference has a number is a
mismatch whose error says so (nanmax used to skip it and print a small error); NaN or
infinity on both sides agree with error 0; the JSON of a comparison has no NaN."""

from __future__ import annotations

import json

import numpy as np

from ascend_mlir.sim.routes import compare_outputs, comparison_line

NAN, INF = np.nan, np.inf


def _compare(got: list[float], expected: list[float]) -> tuple[bool, dict]:
    ok, report = compare_outputs({"z": np.array(got, np.float32)}, {"z": np.array(expected, np.float32)}, {})
    return ok, report[0]


def test_nan_and_infinity_on_both_sides_agree():
    ok, entry = _compare([NAN, 1.0, INF, -INF], [NAN, 1.0, INF, -INF])
    assert ok and entry["max_abs_error"] == 0.0
    assert comparison_line(entry) == "output z matches the reference (max abs error 0)"


def test_a_nan_where_the_reference_has_a_number_is_reported():
    ok, entry = _compare([NAN, 1.0], [2.0, 1.0])
    assert not ok and entry["max_abs_error"] is None
    assert comparison_line(entry) == "error: output z MISMATCHES the reference (NaN where the reference has a number)"
    assert json.loads(json.dumps(entry, allow_nan=False))["max_abs_error"] is None


def test_infinity_against_a_number_is_an_infinite_error():
    ok, entry = _compare([INF, 1.0], [2.0, 1.0])
    assert not ok and entry["max_abs_error"] == INF


def test_a_plain_mismatch_keeps_its_size():
    ok, entry = _compare([3.0, 1.0], [2.0, 1.0])
    assert not ok and entry["max_abs_error"] == 1.0
