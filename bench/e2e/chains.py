"""Generated wide kernels for the end-to-end benchmark and the sync tests.

`chain_kernel(chains, length)` is one loop whose body holds `chains` independent
load -> compute -> store chains of `length` tile ops each (one GM load into a UB tile,
`length - 2` vector ops ping-ponging between two UB tiles of the chain, one GM store):
the shape of issue 18 ("a loop of 4 independent load -> compute -> store chains, 32 ops").
`random_kernel(seed)` draws the chain count, lengths, tile size, op kinds, trip count and
stage bound from `seed`; the same seed gives the same text. `wide_random_kernel(seed)`
does the same with 9 to 40 chains: more loads per pass than a pipe pair has event ids.
"""

from __future__ import annotations

import random

UB = "#hivm.address_space<ub>"
GM = "#hivm.address_space<gm>"
UNARY = ("exp", "relu", "abs", "sqrt")
BINARY = ("add", "mul", "max", "sub")


def chain_kernel(
    chains: int, length: int = 8, *, rows: int = 8, cols: int = 32, trips: int = 4,
    num_stages: int = 2, kinds: list[str] | None = None,
) -> str:
    """One loop of `chains` independent chains of `length` >= 2 tile ops (see the module doc)."""
    assert length >= 2 and chains >= 1
    tile = f"{rows}x{cols}xf32"
    ub = f"memref<{tile}, {UB}>"
    width = cols * chains
    gm = f"memref<{rows * trips}x{width}xf32, {GM}>"
    gm_tile = f"memref<{tile}, strided<[{width}, 1], offset: ?>, {GM}>"
    lines = [
        "module {",
        f"  func.func @chains(%x: {gm}, %y: {gm}) attributes {{tile.kernel, tile.grid = 1 : i64}} {{",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        f"    %ctrips = arith.constant {trips} : index",
        f"    %crows = arith.constant {rows} : index",
    ]
    for c in range(chains):
        lines += [f"    %a{c} = memref.alloc() : {ub}", f"    %b{c} = memref.alloc() : {ub}"]
    lines += ["    scf.for %i = %c0 to %ctrips step %c1 {", "      %row = arith.muli %i, %crows : index"]
    for c in range(chains):
        lines.append(f"      %x{c} = memref.subview %x[%row, {cols * c}] [{rows}, {cols}] [1, 1] : {gm} to {gm_tile}")
        lines.append(f"      tile.copy ins(%x{c} : {gm_tile}) outs(%a{c} : {ub})")
        cur, other = f"%a{c}", f"%b{c}"
        for k in range(length - 2):
            kind = (kinds or list(UNARY + BINARY))[(c + k) % len(kinds or UNARY + BINARY)]
            if kind in BINARY:
                lines.append(f"      tile.{kind} ins({cur}, {cur} : {ub}, {ub}) outs({other} : {ub})")
            else:
                lines.append(f"      tile.{kind} ins({cur} : {ub}) outs({other} : {ub})")
            cur, other = other, cur
        lines.append(f"      %y{c} = memref.subview %y[%row, {cols * c}] [{rows}, {cols}] [1, 1] : {gm} to {gm_tile}")
        lines.append(f"      tile.copy ins({cur} : {ub}) outs(%y{c} : {gm_tile})")
    lines += [
        f"    }} {{tile.num_stages = {num_stages} : i64}}",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def random_kernel(seed: int) -> str:
    """A chain kernel with every knob drawn from `seed` (1 to 6 chains of 2 to 10 ops)."""
    rng = random.Random(seed)
    kinds = [rng.choice(UNARY + BINARY) for _ in range(rng.randint(1, 5))]
    return chain_kernel(
        rng.randint(1, 6), rng.randint(2, 10), rows=rng.choice((1, 4, 8, 16)), cols=rng.choice((16, 32, 64, 128)),
        trips=rng.randint(1, 6), num_stages=rng.randint(1, 3), kinds=kinds,
    )


def wide_random_kernel(seed: int) -> str:
    """A chain kernel of 9 to 40 chains (more loads per pass than a pipe pair has ids),
    every other knob drawn from `seed` too; tiles of at most 256 f32 (every version fits
    in UB)."""
    rng = random.Random(seed)
    rows, cols = rng.choice(((1, 16), (4, 16), (4, 32), (8, 32), (1, 64), (2, 128)))
    kinds = [rng.choice(UNARY + BINARY) for _ in range(rng.randint(1, 5))]
    return chain_kernel(rng.randint(9, 40), rng.randint(2, 6), rows=rows, cols=cols, trips=rng.randint(1, 4),
                        num_stages=rng.randint(1, 3), kinds=kinds)
