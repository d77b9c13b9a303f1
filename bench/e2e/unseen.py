"""Kernels of shapes nothing was tuned to (issue 18: "build for the general case").

The examples and chains.py's generators use equal chains, power-of-two tiles and a few
trip counts; a schedule that is right only there fails on the first kernel a user
writes. `unseen_kernel(seed)` draws one loop of independent load -> compute -> store
chains with everything else left to chance:

* width: 3, 5, 6, 7, 10 or 12 chains, each of its own length (2 to 9 tile ops);
* tiles of odd sizes (1, 3, 5, 12 rows; 8, 24, 40, 96 f32 or 16, 48, 80 f16 columns),
  a different tile per chain, f32 or f16;
* some chains load two inputs and combine them;
* trip counts 1, 2, 3, 5, 7, 17, 33 or 64, written as a constant or taken at run time
  (an `index` argument `%n`);
* num_stages 1 to 3.

`measure(seed, chip)` compiles it three ways (ours, barrier-all + program order, program
order with our sync), simulates one block of each, checks ours under `--perturb` (no
race, no deadlock, no flag left set, outputs equal to the reference interpreter's) and
measures the loop's II as what one more iteration costs: (cycles at 2T - cycles at T) / T
with T = 8 passes of the main loop (8 U iterations where it is unrolled U times; above
small_trips.MAX_TRIPS for a runtime count), against the II written on the loop (a
runtime-trip kernel is compiled once and run at both trip counts: `measured_ii`).

    python bench/e2e/unseen.py [--seeds 0-39] [--chips ascend950,ascend910b] [--json OUT] [--narrow]

A `--chips` entry ending in `.toml` is a chip file (bench/e2e/chips/four_ids.toml: the
950 with 4 event ids per pipe pair and slower GM paths, which nothing was tuned to;
skewed.toml, three_ids.toml and slow_cube.toml: three more, their files say how); the
files of bench/e2e/chips may be named alone (`--chips four_ids,skewed`).

Columns: ours / min(barrier, po) (> 1: slower than a baseline), written II, measured II
and their distance, the compile's CPU seconds.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from ascend_mlir.chips import load_chip_file
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.scheduling import small_trips
from ascend_mlir.dialects import UPSTREAM_DIALECTS, ascend, register_dialects
from ascend_mlir.sim.binding import bind_arguments
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

UB = "#hivm.address_space<ub>"
GM = "#hivm.address_space<gm>"
WIDTHS = (3, 5, 6, 7, 10, 12)
TRIPS = (1, 2, 3, 5, 7, 17, 33, 64)
ROWS = (1, 3, 5, 12)
COLS = {"f32": (8, 24, 40, 96), "f16": (16, 48, 80)}
UNARY = {"f32": ("exp", "relu", "abs", "sqrt"), "f16": ("relu", "abs")}
BINARY = ("add", "mul", "max", "sub")
MEASURE_TRIPS = 8


@dataclass(frozen=True)
class Chain:
    length: int  # tile ops, loads and store included
    rows: int
    cols: int
    two_inputs: bool
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Shape:
    chains: tuple[Chain, ...]
    dtype: str
    trips: int
    dynamic: bool
    stages: int
    notes: dict = field(default_factory=dict, compare=False)

    def label(self) -> str:
        lengths = "/".join(str(c.length) for c in self.chains)
        return (f"{len(self.chains)} chains ({lengths}) {self.dtype} T={'n=' if self.dynamic else ''}{self.trips}"
                f" S={self.stages}")


def _drawn_chain(rng: random.Random, dtype: str, longest: int, rows: tuple[int, ...], cols: tuple[int, ...]) -> Chain:
    """One chain of 2 to `longest` tile ops (3 from two inputs), of a tile drawn from
    `rows` x `cols`."""
    two = rng.random() < 0.3
    length = rng.randint(3 if two else 2, longest)
    kinds = tuple(rng.choice(UNARY[dtype] + BINARY) for _ in range(length))
    return Chain(length, rng.choice(rows), rng.choice(cols), two, kinds)


def draw(seed: int) -> Shape:
    rng = random.Random(seed)
    dtype = rng.choice(("f32", "f32", "f16"))
    chains = [_drawn_chain(rng, dtype, 9, ROWS, COLS[dtype]) for _ in range(rng.choice(WIDTHS))]
    return Shape(tuple(chains), dtype, rng.choice(TRIPS), rng.random() < 0.3, rng.randint(1, 3))


NARROW_ROWS = (4, 8, 16, 32)
NARROW_COLS = {"f32": (64, 128, 256), "f16": (128, 256, 512)}
NARROW_TRIPS = (5, 9, 17, 33)
NARROW_STAGES = (2, 3, 4, 6, 8)


def draw_narrow(seed: int) -> Shape:
    """`--narrow`: one or two chains of 2-6 ops on tiles of 1-32 KiB, num_stages 2-8 (a
    chip refuses more than it has event ids for): loops the unroll factor is weighed on,
    which the wide draws above seldom unroll (session 35 found unrolled code there that
    ran up to 2.4x slower an iteration than written, and than not unrolling)."""
    rng = random.Random(seed)
    dtype = rng.choice(("f32", "f16"))
    chains = [_drawn_chain(rng, dtype, 6, NARROW_ROWS, NARROW_COLS[dtype]) for _ in range(rng.choice((1, 1, 2)))]
    return Shape(tuple(chains), dtype, rng.choice(NARROW_TRIPS), rng.random() < 0.3, rng.choice(NARROW_STAGES))


def kernel(shape: Shape, trips: int | None = None) -> str:
    """The tile-level text of `shape` (at `trips` iterations when given and static)."""
    trips = shape.trips if trips is None else trips
    dt = shape.dtype
    params, allocs, body = [], [], []
    for c, ch in enumerate(shape.chains):
        rows = "?" if shape.dynamic else str(ch.rows * trips)
        gm = f"memref<{rows}x{ch.cols}x{dt}, {GM}>"
        view = f"memref<{ch.rows}x{ch.cols}x{dt}, strided<[{ch.cols}, 1], offset: ?>, {GM}>"
        ub = f"memref<{ch.rows}x{ch.cols}x{dt}, {UB}>"
        names = [f"x{c}"] + ([f"w{c}"] if ch.two_inputs else []) + [f"y{c}"]
        params += [f"%{n}: {gm}" for n in names]
        allocs += [f"    %a{c} = memref.alloc() : {ub}", f"    %b{c} = memref.alloc() : {ub}"]
        body += [f"      %r{c} = arith.muli %i, %crows{c} : index",
                 f"      %vx{c} = memref.subview %x{c}[%r{c}, 0] [{ch.rows}, {ch.cols}] [1, 1] : {gm} to {view}",
                 f"      tile.copy ins(%vx{c} : {view}) outs(%a{c} : {ub})"]
        cur, other = f"%a{c}", f"%b{c}"
        ops = ch.length - 2
        if ch.two_inputs:
            allocs.append(f"    %e{c} = memref.alloc() : {ub}")
            body += [f"      %vw{c} = memref.subview %w{c}[%r{c}, 0] [{ch.rows}, {ch.cols}] [1, 1] : {gm} to {view}",
                     f"      tile.copy ins(%vw{c} : {view}) outs(%e{c} : {ub})",
                     f"      tile.{ch.kinds[0] if ch.kinds[0] in BINARY else 'add'} ins(%a{c}, %e{c} : {ub}, {ub}) "
                     f"outs(%b{c} : {ub})"]
            cur, other, ops = other, cur, ops - 2
        for k in range(max(ops, 0)):
            kind = ch.kinds[k + 1]
            srcs = f"{cur}, {cur} : {ub}, {ub}" if kind in BINARY else f"{cur} : {ub}"
            body.append(f"      tile.{kind} ins({srcs}) outs({other} : {ub})")
            cur, other = other, cur
        body += [f"      %vy{c} = memref.subview %y{c}[%r{c}, 0] [{ch.rows}, {ch.cols}] [1, 1] : {gm} to {view}",
                 f"      tile.copy ins({cur} : {ub}) outs(%vy{c} : {view})"]
    if shape.dynamic:
        params.append("%n: index")
    consts = ["    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index"]
    consts += [f"    %crows{c} = arith.constant {ch.rows} : index" for c, ch in enumerate(shape.chains)]
    if not shape.dynamic:
        consts.append(f"    %n = arith.constant {trips} : index")
    return "\n".join([
        "module {",
        f"  func.func @unseen({', '.join(params)}) attributes {{tile.kernel, tile.grid = 1 : i64}} {{",
        *consts, *allocs,
        "    scf.for %i = %c0 to %n step %c1 {", *body,
        f"    }} {{tile.num_stages = {shape.stages} : i64}}",
        "    return", "  }", "}",
    ]) + "\n"


def binds(shape: Shape, trips: int) -> dict[str, str]:
    """--bind values of a runtime-trip kernel run for `trips` iterations."""
    if not shape.dynamic:
        return {}
    out = {"n": str(trips)}
    for c, ch in enumerate(shape.chains):
        for name in (f"x{c}", f"w{c}", f"y{c}"):
            out[name] = f"{ch.rows * trips}x{ch.cols}"
        if not ch.two_inputs:
            del out[f"w{c}"]
    return out


def _parse(text: str):
    """A fresh module of `text`: a copy of its one parse in this process (measured_ii and
    check_oracle read the same kernel text several times; a copy costs a twentieth of
    a parse)."""
    return _parsed_once(text).clone()


@functools.lru_cache(maxsize=16)
def _parsed_once(text: str) -> ModuleOp:
    return parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), text, "unseen")


CHIPS_DIR = Path(__file__).resolve().parent / "chips"


def bench_chip(entry: str) -> str:
    """A `--chips` entry as `measure` takes it: a built-in chip's name, a chip file, or a
    chip file of bench/e2e/chips named without its folder (`skewed`, `four_ids.toml`),
    from any working directory: a sweep run from elsewhere found no `skewed` chip."""
    if entry.endswith(".toml") and Path(entry).is_file():
        return entry
    bundled = CHIPS_DIR / f"{entry.removesuffix('.toml')}.toml"
    return str(bundled) if bundled.is_file() else entry


def _sim_chip(chip: str):
    """The chip the simulator times with: the chip file's own (its hacc.target names a
    built-in chip, whose latencies the module would otherwise be simulated with)."""
    return load_chip_file(chip) if chip.endswith(".toml") else chip


def _chip_options(chip: str) -> dict[str, str]:
    """A built-in chip's name, or a chip file (`*.toml`: a chip nothing was tuned to)."""
    return {"chip_file": chip} if chip.endswith(".toml") else {"chip": chip}


def _compiled(text: str, chip: str, **options):
    """The compiled module (a copy: nothing one caller does to it reaches another) and the
    compile's CPU seconds."""
    module, cpu = _compiled_once(text, chip, tuple(sorted(options.items())))
    return module.clone(), cpu


# The last compiles of this process: a runtime-trip kernel's text is the same at every
# trip count, so measured_ii's two compiles and check_oracle's are one (about 2 CPU s
# each once the solve is shared), and a test that compiles a seed at its own trips and
# then asks the oracle compiles it once.
@functools.lru_cache(maxsize=8)
def _compiled_once(text: str, chip: str, options: tuple[tuple[str, Any], ...]) -> tuple[ModuleOp, float]:
    module = _parse(text)
    t0 = time.process_time()
    kwargs: dict[str, Any] = {**dict(options), **_chip_options(chip)}
    AscendCompilePass(**kwargs).apply(Context(), module)
    return module, time.process_time() - t0


def _inputs(module, shape: Shape, trips: int, seed: int):
    f = kernel_function(module)
    return make_inputs(f, seed, bind_arguments(f, binds(shape, trips)))


def _written_ii(module) -> float | None:
    """The II written on the loop, per iteration of the source loop (an unrolled main
    loop's II over its factor)."""
    loops = [o for o in module.walk() if isinstance(o, scf.ForOp) and ascend.loop_of(o) is not None]
    if not loops:
        return None
    main = max(loops, key=ascend.unroll_of)
    return ascend.loop_of(main).ii / ascend.unroll_of(main)  # type: ignore[union-attr]


def check_oracle(shape: Shape, chip: str, seed: int) -> list[str]:
    """What the oracle finds wrong with ours at the shape's own trip count (empty: nothing)."""
    text = kernel(shape)
    tile_module = _parse(text)
    inputs = _inputs(tile_module, shape, shape.trips, seed)
    expected = run_reference(tile_module, inputs)
    module, _ = _compiled(text, chip=chip)
    result = simulate(module, inputs, chip=_sim_chip(chip), perturb=seed + 1, trace=False)
    problems = [r.message() for r in result.races[:3]]
    if result.deadlock:
        problems.append("deadlock: " + "; ".join(result.deadlock_info[:2]))
    if result.unbalanced_flags or result.double_sets:
        problems.append("flags left set or set twice")
    for name, want in expected.items():
        if not np.allclose(result.outputs[name], want, rtol=1e-3, atol=1e-3, equal_nan=True):
            problems.append(f"{name} differs from the reference")
    return problems


def _cycles(module, shape: Shape, trips: int, chip: str) -> int:
    inputs = _inputs(module, shape, trips, 0) if shape.dynamic else None
    return simulate(module, inputs, chip=_sim_chip(chip), blocks=1, trace=False).cycles


def measured_ii(shape: Shape, chip: str, compiled=None) -> tuple[float, float | None, object]:
    """The loop's II as the code runs it, the II written on it, and the module at 2T trips
    (T = MEASURE_TRIPS passes of the main loop: T U iterations where it is unrolled U
    times; `compiled`: a runtime-trip kernel's one compile). One more iteration's cost,
    (cycles at 2T - cycles at T) / T, of the same code: a constant-trip kernel is compiled
    at each count. T counts passes, not iterations: narrow seed 35 on the 950 (U = 4,
    written 81 an iteration) ran 8 -> 16 iterations, two passes more, at 91.9 and 32 -> 64
    at 82.5, its first passes still filling the pipes. Where the two compiles wrote
    different IIs, their difference is no loop's II (a stage-skewed loop's form is weighed
    over its trips: unseen seed 22 on four_ids took the one-stage code at 8 trips, 652,
    and the skewed code at 16, 555, whose passes ran 552 cycles apart; the difference
    said 616): then the 2T code's own period (`_steady_period`)."""
    t = MEASURE_TRIPS
    if compiled is not None:
        short = long = compiled
        # above small_trips.MAX_TRIPS: at that count and below, a runtime count's code may
        # be program order (narrow seed 169 on four_ids ran 8 trips in program order and 16
        # pipelined, 2143.5 apart an iteration; from 16 on, 1897 as written)
        t = max(t * _unroll(compiled), small_trips.MAX_TRIPS + 1)
    else:
        long, _ = _compiled(kernel(shape, 2 * t), chip=chip)
        if (unroll := _unroll(long)) > 1:
            t *= unroll
            long, _ = _compiled(kernel(shape, 2 * t), chip=chip)
        short, _ = _compiled(kernel(shape, t), chip=chip)
    written = _written_ii(long)
    if _written_ii(short) != written:
        return _steady_period(long, shape, 2 * t, chip), written, long
    return (_cycles(long, shape, 2 * t, chip) - _cycles(short, shape, t, chip)) / t, written, long


def _unroll(module) -> int:
    """The unroll factor of the module's main loop (1: none unrolled)."""
    return max((ascend.unroll_of(o) for o in module.walk() if isinstance(o, scf.ForOp)), default=1)


def _steady_period(module, shape: Shape, trips: int, chip: str) -> float:
    """Cycles per iteration of the loop's ops in the middle half of their runs (the
    simulator's trace: each op of the loop issues once per iteration, in the prologue,
    the passes and the epilogue alike, under its own location), the slowest op's, over
    whole passes of an unrolled loop (its copies do not issue evenly spaced)."""
    unroll = _unroll(module)
    inputs = _inputs(module, shape, trips, 0) if shape.dynamic else None
    trace = simulate(module, inputs, chip=_sim_chip(chip), blocks=1, trace=True).trace
    starts: dict[tuple[str, str], list[int]] = {}
    for event in trace:
        if not event.name.startswith(("set_flag", "wait_flag", "pipe_barrier")):  # sync has no op's location
            starts.setdefault((event.name, event.loc), []).append(event.start)
    periods = []
    for runs in starts.values():
        if len(runs) == trips:
            q = trips // 4
            span = max(unroll, (trips - 1 - 2 * q) // unroll * unroll)
            periods.append((runs[q + span] - runs[q]) / span)
    return max(periods)


def measure(seed: int, chip: str, narrow: bool = False) -> dict:
    shape = draw_narrow(seed) if narrow else draw(seed)
    text = kernel(shape)
    ours, cpu = _compiled(text, chip=chip)
    barrier, _ = _compiled(text, chip=chip, sync="barrier-all", schedule="program-order")
    po, _ = _compiled(text, chip=chip, schedule="program-order")
    cyc = {k: _cycles(m, shape, shape.trips, chip) for k, m in (("ours", ours), ("barrier", barrier), ("po", po))}
    measured, written, _ = measured_ii(shape, chip, ours if shape.dynamic else None)
    return {
        "seed": seed, "chip": chip, "shape": shape.label(), **cyc,
        "ratio": round(cyc["ours"] / min(cyc["barrier"], cyc["po"]), 4),
        "written_ii": written, "measured_ii": measured,
        "ii_off": None if not written else round(measured / written - 1, 4),
        "compile_cpu_s": round(cpu, 2), "oracle": check_oracle(shape, chip, seed),
    }


def _seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seeds", default="0-39")
    parser.add_argument("--chips", default="ascend950,ascend910b")
    parser.add_argument("--json")
    parser.add_argument("--narrow", action="store_true", help="one or two chains of large tiles, 2-8 stages")
    args = parser.parse_args()
    rows = []
    print("| seed | chip | shape | ours | barrier | po | ratio | II written | measured | off | compile s | oracle |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for chip in map(bench_chip, args.chips.split(",")):
        for seed in _seeds(args.seeds):
            try:
                r = measure(seed, chip, args.narrow)
            except PassFailedException as e:  # e.g. more stages than the chip has event ids for
                print(f"| {seed} | {Path(chip).stem.removeprefix('ascend')} | refused: {e} |", flush=True)
                continue
            rows.append(r)
            off = "-" if r["ii_off"] is None else f"{100 * r['ii_off']:+.1f}%"
            print(f"| {seed} | {Path(chip).stem.removeprefix('ascend')} | {r['shape']} | {r['ours']} | {r['barrier']} | {r['po']} "
                  f"| {r['ratio']:.3f} | {r['written_ii']:.1f} | {r['measured_ii']:.1f} | {off} | {r['compile_cpu_s']} "
                  f"| {'; '.join(r['oracle']) or 'ok'} |", flush=True)
    slower = [r for r in rows if r["ratio"] > 1.0]
    far = [r for r in rows if r["ii_off"] is not None and abs(r["ii_off"]) > 0.05]
    bad = [r for r in rows if r["oracle"]]
    print(f"\n{len(rows)} kernels: {len(slower)} slower than a baseline, {len(far)} measured II off written by > 5%, "
          f"{len(bad)} with oracle findings; geomean ratio "
          f"{float(np.exp(np.mean(np.log([r['ratio'] for r in rows])))):.4f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
