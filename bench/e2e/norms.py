"""The norm examples (softmax, rmsnorm, layernorm) at other trip counts and widths, for
test_scheduled_ii and bench/e2e/ii_models.py: a 4-trip loop gives the examples' probe
no steady state, so their II is measured as what one more tile costs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def norm_kernel(name: str, trips: int, width: int = 256) -> str:
    """The example `name` (softmax / rmsnorm / layernorm: 4 blocks of 64 rows, a loop
    over 4 tiles of 16 rows of 256) with `trips` tiles per block (rows 64 * trips) of
    `width` columns."""
    text = (ROOT / "examples" / f"{name}.mlir").read_text()
    for old, new in (("256x256", f"{64 * trips}x{width}"),
                     ("%c64 = arith.constant 64 : index", f"%c64 = arith.constant {16 * trips} : index"),
                     ("%c4 = arith.constant 4 : index", f"%c4 = arith.constant {trips} : index"),
                     ("16x256", f"16x{width}"), ("1x256", f"1x{width}"), ("[16, 256]", f"[16, {width}]"),
                     ("strided<[256, 1]", f"strided<[{width}, 1]")):
        # softmax keeps its row statistics in 16x1 buffers and has no 1x256 row (the
        # gamma of rmsnorm / layernorm); every other pattern must be there to replace
        assert old in text or old == "1x256", (name, old)
        text = text.replace(old, new)
    return text
