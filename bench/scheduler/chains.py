"""Wide loops for the scheduler benchmark (issue 18): kernels of k independent
load -> compute -> store chains, and long chains with tight UB capacity.

* `chains_kernel(k, ops)`: one loop whose body holds k independent chains of
  `ops` tile ops each (two GM loads, `ops - 3` vector ops on the chain's own UB
  tiles, one GM store); the chains are identical up to their GM offsets, which is
  what makes the loop hard for a solver (k! symmetric schedules).
* `tight_chain_loop(n, seed)`: a generated loop of n tasks whose every scope holds
  barely more than one version of its buffers (`problems.generated_loop` with the
  capacity factor forced to 1.3): the versions decide the II.
"""

from __future__ import annotations

import os
import random
import tempfile

from problems import CAPACITY, _LoopGenerator

from ascend_mlir.scheduling import LoopProblem

UB = "#hivm.address_space<ub>"
GM = "#hivm.address_space<gm>"
_VECTOR = [("add", 2), ("mul", 2), ("max", 2), ("relu", 1), ("sub", 2), ("exp", 1), ("abs", 1), ("min", 2)]


def chains_kernel(k: int, ops: int = 8, rows: int = 1, cols: int = 256, stages: int = 2) -> str:
    """Tile-level text of a loop of k independent chains of `ops` tile ops each."""
    if ops < 4:
        raise ValueError("a chain needs two loads, one vector op and a store")
    tile = f"{rows}x{cols}xf32"
    ub = f"memref<{tile}, {UB}>"
    width = cols * k
    gm = f"memref<{rows * 64}x{width}xf32, {GM}>"
    view_t = f"memref<{tile}, strided<[{width}, 1], offset: ?>, {GM}>"
    lines = ["module {",
             f"  func.func @chains(%x: {gm}, %y: {gm}, %z: {gm}) attributes {{tile.kernel, tile.grid = 1 : i64}} {{",
             "    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index",
             "    %c8 = arith.constant 8 : index", f"    %cr = arith.constant {rows} : index"]
    for c in range(k):
        lines += [f"    %a{c} = memref.alloc() : {ub}", f"    %b{c} = memref.alloc() : {ub}"]
        lines += [f"    %v{j}c{c} = memref.alloc() : {ub}" for j in range(ops - 3)]
    lines += ["    scf.for %i = %c0 to %c8 step %c1 {", "      %row = arith.muli %i, %cr : index"]
    for c in range(k):
        for src, dst in (("x", "a"), ("y", "b")):
            lines.append(f"      %{src}v{c} = memref.subview %{src}[%row, {cols * c}] [{rows}, {cols}] [1, 1] : {gm} to {view_t}")
            lines.append(f"      tile.copy ins(%{src}v{c} : {view_t}) outs(%{dst}{c} : {ub})")
        prev, other = f"%a{c}", f"%b{c}"
        for j in range(ops - 3):
            name, arity = _VECTOR[j % len(_VECTOR)]
            dst = f"%v{j}c{c}"
            if arity == 2:
                lines.append(f"      tile.{name} ins({prev}, {other} : {ub}, {ub}) outs({dst} : {ub})")
            else:
                lines.append(f"      tile.{name} ins({prev} : {ub}) outs({dst} : {ub})")
            prev, other = dst, prev
        lines.append(f"      %zv{c} = memref.subview %z[%row, {cols * c}] [{rows}, {cols}] [1, 1] : {gm} to {view_t}")
        lines.append(f"      tile.copy ins({prev} : {ub}) outs(%zv{c} : {view_t})")
    lines += [f"    }} {{tile.num_stages = {stages} : i64}}", "    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def chains_loop(k: int, ops: int = 8, **kw: int) -> LoopProblem:
    """The loop problem the modulo-schedule pass builds for `chains_kernel`."""
    from mlir_problems import loop_problems_of_file

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, f"chains{k}x{ops}.mlir")
        with open(path, "w", encoding="utf-8") as f:
            f.write(chains_kernel(k, ops, **kw))
        (_, p), = loop_problems_of_file(path)
    return p


def tight_chain_loop(n: int, seed: int, factor: float = 1.3, num_stages: int = 3) -> LoopProblem:
    """A generated loop of n tasks whose capacity is `factor` times one version of
    its buffers in every scope they use."""
    gen = _LoopGenerator(random.Random(seed * 7919 + n))
    while len(gen.tasks) < n:
        gen.link(gen.chain(n))
    gen.hbm_conflicts()
    cap = dict(CAPACITY)
    for scope in sorted({b.scope for b in gen.buffers}):
        cap[scope] = int(sum(b.size for b in gen.buffers if b.scope == scope) * factor)
    return LoopProblem(gen.tasks, gen.deps, gen.buffers, cap, num_stages, gen.conflicts)


def wide_family() -> list[tuple[str, LoopProblem]]:
    """The shapes of issue 18: tight 64-task loops, and 4/8/16 chains of 8 ops (32 to
    128 ops) on 1 KB and on 2 KB tiles."""
    named = [(f"tight64-s{s}", tight_chain_loop(64, s)) for s in range(4)]
    named += [(f"chains{k}x8", chains_loop(k)) for k in (4, 8, 16)]
    # 2 KB tiles: the vector pipe binds at exactly the sum of its ii (saturated)
    named += [(f"chains{k}x8-2k", chains_loop(k, cols=512)) for k in (4, 8, 16)]
    return named


def untuned_family() -> list[tuple[str, LoopProblem]]:
    """Shapes nothing was tuned to (issue 18: measure on shapes you did not tune to):
    96-task loops of mixed pipes (cube, fixpipe, vector, DMA) with tight capacity,
    48-task ones tighter still (1.1 versions of every buffer), 12 chains of 8 ops,
    6 chains on 2 KB tiles and 24 chains of 6 ops (146 tasks)."""
    named = [(f"tight96-s{s}", tight_chain_loop(96, s)) for s in range(4)]
    named += [(f"tight48-f1.1-s{s}", tight_chain_loop(48, s, factor=1.1)) for s in range(2)]
    named += [("chains12x8", chains_loop(12)), ("chains6x8-2k", chains_loop(6, cols=512)),
              ("chains24x6", chains_loop(24, 6))]
    return named
