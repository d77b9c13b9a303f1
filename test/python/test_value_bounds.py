"""Interval bounds of index expressions (ascend_mlir.analysis.value_bounds)."""

from ascend_mlir.analysis.aliasing import Affine, FloorDiv, Mod
from ascend_mlir.analysis.value_bounds import affine_range, iteration_range


def test_linear_terms_scale_and_add():
    e = Affine(3) + Affine.symbol("i").scale(4) - Affine.symbol("j")
    assert affine_range(e, {"i": (0, 7), "j": (1, 2)}) == (3 + 0 - 2, 3 + 28 - 1)


def test_unbounded_symbol_has_no_range():
    assert affine_range(Affine.symbol("n"), {}) is None


def test_mod_within_one_period_keeps_its_range():
    e = Affine.symbol(Mod(Affine.symbol("i"), 16))
    assert affine_range(e, {"i": (0, 5)}) == (0, 5)
    assert affine_range(e, {"i": (0, 31)}) == (0, 15)
    assert affine_range(e, {"i": (17, 20)}) == (1, 4)
    # the wrap: 14, 15, 0, 1
    assert affine_range(e, {"i": (14, 17)}) == (0, 15)
    # an unbounded argument is still below the modulus
    assert affine_range(e, {}) == (0, 15)


def test_floordiv():
    e = Affine.symbol(FloorDiv(Affine.symbol("i"), 4))
    assert affine_range(e, {"i": (0, 9)}) == (0, 2)
    assert affine_range(e, {}) is None


def test_iteration_range():
    assert iteration_range((0, 0), (10, 10), 3) == (0, 9)
    assert iteration_range((0, 0), (11, 11), 3) == (0, 9)
    assert iteration_range((5, 5), (5, 5), 1) is False
    assert iteration_range((0, 2), (4, 8), 1) == (0, 7)
    assert iteration_range((0, 0), None, 1) is None
