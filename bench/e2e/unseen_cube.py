"""Cube and MIX kernels of sizes nothing was tuned to (issue 18, unseen.py's twin for the
cube): the examples' Python factories (gemm, gemm_910b, gemm_persistent as gemm_bf16 /
gemm_fp16, gemm_relu, linear_bias, flash_attention, gemm_dyn, flash_attention_dyn),
loaded with `user_modules.run_module`, at sizes and tiles the examples do not use:

* K trip counts 1, 2, 3, 5, 7, 17; M/N tiles odd multiples of 16 (48, 80, 112) or 16,
  64; tk 32, 64, 128, 256; grids of 1, 3, 5, 7 blocks; num_stages 1-3 where the factory
  takes it;
* a factory whose sizes are module constants (gemm's M, K, N; gemm_910b's tiles;
  gemm_persistent's grid and tiles; flash_attention's SQ, SK) gets them set on its own
  fresh load of the file before it is called (the kernel body reads them when built);
* runtime sizes (gemm_dyn's m, n, k; flash_attention_dyn's sq, sk) bound at run time,
  with a partial last tile.

`measure(seed, chip)` compiles the drawn kernel three ways (ours, barrier-all + program
order, program order with our sync), checks ours under `perturb` over the whole grid (no
race, no deadlock, no flag left set, outputs equal to the reference interpreter's within
sim.routes' tolerance), simulates one block of each for cycles, and per scheduled
innermost loop compares the II written on it with the one the simulator's trace shows
(ii_models `_probe_ii`; only a function's one innermost loop, of >= 5 trips: fewer have no
steady state, and the probe finds its op by name, which two loops of the same ops share). A kernel
the chip refuses (capacity, cc -> ub on the 910B) is a row "refused" with the located
message, not a failure; an exception anywhere else is.

    python bench/e2e/unseen_cube.py [--seeds 0-39] [--chips ascend950,ascend910b] [--json OUT]

A `--chips` entry ending in `.toml` is a chip file, or names one of bench/e2e/chips, as
for unseen.py (slow_cube.toml: the 950 with 5 event ids per pipe pair and a slow cube,
L1 -> L0 and GM -> L1).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.context import Context

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ii_models import _innermost, _probe_ii, cube_core_period  # noqa: E402
from unseen import _seeds, _sim_chip, bench_chip  # noqa: E402

from ascend_mlir.analysis.views import enclosing_function  # noqa: E402
from ascend_mlir.dialects import ascend  # noqa: E402
from ascend_mlir.sim.binding import bind_arguments  # noqa: E402
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference  # noqa: E402
from ascend_mlir.sim.routes import compare_simulated  # noqa: E402
from ascend_mlir.sim.simulator import simulate  # noqa: E402
from ascend_mlir.transforms.ascend_compile import AscendCompilePass  # noqa: E402
from ascend_mlir.user_modules import run_module  # noqa: E402

EXAMPLES = HERE.parents[1] / "examples"
TRIPS = (1, 2, 3, 5, 7, 17)
TILES = (16, 48, 64, 80, 112)
TKS = (32, 64, 128, 256)
GRIDS = (1, 3, 5, 7)
FACTORIES = ("gemm", "gemm_910b", "gemm_bf16", "gemm_fp16", "gemm_relu", "linear_bias", "flash_attention",
             "gemm_dyn", "flash_attention_dyn")
# kernels that move L0C to the unified buffer (cube -> vector): the 910B has no such path
MIX = {"gemm_relu", "linear_bias", "flash_attention", "flash_attention_dyn"}
MIN_PROBE_TRIPS = 5

_loads = 0


@dataclass
class Draw:
    factory: str
    knobs: dict  # what was drawn, for the row's label
    constants: dict = field(default_factory=dict)  # module constants set before the call
    call: tuple = ()  # (function name, kwargs) of the factory; () = the module's kernel
    binds: dict = field(default_factory=dict)  # runtime sizes
    k_trips: int = 0  # trips of the reduction loop (K steps, key blocks) as drawn

    def label(self) -> str:
        return f"{self.factory}(" + ", ".join(f"{k}={v}" for k, v in self.knobs.items()) + ")"


def draw(seed: int) -> Draw:
    d = _draw(seed)
    d.k_trips = random.Random(seed).choice(TRIPS)  # _draw's first draw
    return d


def _draw(seed: int) -> Draw:
    rng = random.Random(seed)
    name = FACTORIES[seed % len(FACTORIES)]  # every factory in every 9 seeds
    trips, tk, grid = rng.choice(TRIPS), rng.choice(TKS), rng.choice(GRIDS)
    stages = rng.randint(1, 3)
    tm, tn = rng.choice(TILES), rng.choice(TILES)
    if name == "gemm":
        # every block owns all M rows and N / blocks columns
        knobs = {"M": tm, "N": tn * grid, "K": tk * trips, "blocks": grid, "tk": tk, "num_stages": stages}
        return Draw(name, knobs, {"M": tm, "N": tn * grid, "K": tk * trips},
                    ("make_gemm", {"blocks": grid, "tk": tk, "num_stages": stages}))
    if name == "gemm_910b":
        # a grid of (M / TM) * (N / TN) blocks: one row or one column of tiles
        rows = rng.choice((1, grid))
        m, n = tm * rows, tn * (grid // rows)
        knobs = {"M": m, "N": n, "K": tk * trips, "TM": tm, "TN": tn, "TK": tk}
        return Draw(name, knobs, {**knobs})
    if name in ("gemm_bf16", "gemm_fp16"):
        per_block = rng.choice((1, 2, 3))
        consts = {"TM": tm, "TN": tn, "TK": tk, "GRID": grid, "M": tm * per_block, "N": tn * grid,
                  "K": tk * trips, "TILES_N": grid, "TILES_PER_BLOCK": per_block}
        dtype = "bf16" if name == "gemm_bf16" else "f16"
        return Draw(name, {k: consts[k] for k in ("M", "N", "K", "TM", "TN", "TK", "GRID")}, consts,
                    ("make_gemm", {"dtype": dtype, "name": name}))
    if name == "gemm_relu":
        rows = rng.choice((1, grid))
        m, n = tm * rows, tn * (grid // rows)
        consts = {"M": m, "N": n, "K": tk * trips}
        return Draw(name, {**consts, "tm": tm, "tn": tn, "tk": tk, "num_stages": stages}, consts,
                    ("make_gemm_relu", {"tm": tm, "tn": tn, "tk": tk, "num_stages": stages}))
    if name == "linear_bias":
        rows = rng.choice((1, grid))
        kw = {"m": tm * rows, "k": tk * trips, "n": tn * (grid // rows), "tm": tm, "tn": tn, "tk": tk}
        return Draw(name, kw, {}, ("make", kw))
    if name == "flash_attention":
        return flash_attention_draw(rng.choice((16, 48, 64)), rng.choice((16, 32, 48, 64, 80)), stages, trips, grid)
    if name == "gemm_dyn":
        # a partial last tile in every dimension where the draw gives one; K's steps are 64
        binds = {"m": rng.randint(1, 2 * 128 + 40), "n": rng.randint(1, 3 * 128), "k": 64 * (trips - 1) + rng.randint(1, 64)}
        return Draw(name, dict(binds), binds=binds)
    # flash_attention_dyn: 64-row query blocks, 64-row key blocks
    binds = {"sq": rng.randint(1, 3 * 64 + 30), "sk": 64 * (trips - 1) + rng.randint(1, 64)}
    return Draw(name, dict(binds), binds=binds)


def flash_attention_draw(bm: int, bn: int, stages: int, trips: int, grid: int) -> Draw:
    """examples/flash_attention.py's kernel of `grid` query blocks of `bm` rows and `trips`
    key blocks of `bn`, on `stages` buffers."""
    consts = {"SQ": bm * grid, "SK": bn * trips}
    return Draw("flash_attention", {**consts, "bm": bm, "bn": bn, "num_stages": stages}, consts,
                ("make_flash_attention", {"bm": bm, "bn": bn, "num_stages": stages}), k_trips=trips)


def build(d: Draw):
    """The tile-level module of the draw, from a fresh load of its example file."""
    global _loads
    _loads += 1
    file = "gemm_persistent" if d.factory in ("gemm_bf16", "gemm_fp16") else d.factory
    path = EXAMPLES / f"{file}.py"
    source = path.read_text()
    if d.call or not d.constants:
        module = run_module(str(path), f"unseen_cube_{file}_{_loads}", source)
        for key, value in d.constants.items():  # read when the factory defines the kernel
            setattr(module, key, value)
    else:
        # a kernel defined when the file loads fixes its grid and tensor shapes then: the
        # constants are set in the text, each on a line of its own before the first use
        lines = source.split("\n")
        first = next(i for i, line in enumerate(lines) if re.match(r"(M|TM)\b.*=", line))
        lines[first:first] = [f"{key} = {value}  # unseen_cube" for key, value in d.constants.items()]
        lines = [line for i, line in enumerate(lines)
                 if not (i >= first + len(d.constants) and re.match(r"(M, K, N|TM = TN = TK) = ", line))]
        module = run_module(str(path), f"unseen_cube_{file}_{_loads}", "\n".join(lines))
    if d.call:
        fn, kwargs = d.call
        kernel = getattr(module, fn)(**kwargs)
    else:
        kernel = getattr(module, d.factory)
    return kernel.build()


def _bind_texts(d: Draw, function) -> dict[str, str]:
    """--bind values: the scalars drawn and the GM tensors' shapes they imply."""
    if not d.binds:
        return {}
    b = d.binds
    if d.factory == "gemm_dyn":
        shapes = {"a": (b["m"], b["k"]), "b": (b["k"], b["n"]), "c": (b["m"], b["n"])}
    else:
        shapes = {"q": (b["sq"], 64), "kt": (64, b["sk"]), "v": (b["sk"], 64), "o": (b["sq"], 64)}
    texts = {k: str(v) for k, v in b.items()}
    texts.update({k: f"{r}x{c}" for k, (r, c) in shapes.items()})
    return texts


def _compiled(tile_module, **options):
    module = tile_module.clone()
    t0 = time.process_time()
    AscendCompilePass(**options).apply(Context(), module)
    return module, time.process_time() - t0


def check_oracle(d: Draw, tile_module, ours, seed: int, chip: str | None = None) -> tuple[list[str], dict]:
    """What the oracle finds wrong with ours over the whole grid, perturbed (empty:
    nothing), and the inputs it used."""
    f = kernel_function(tile_module)
    inputs = make_inputs(f, seed, bind_arguments(f, _bind_texts(d, f)))
    expected = run_reference(tile_module, inputs)
    result = simulate(ours.clone(), inputs, chip=_sim_chip(chip) if chip else None, perturb=seed + 1, trace=False)
    problems = [r.message() for r in result.races[:3]]
    if result.deadlock:
        problems.append("deadlock: " + "; ".join(result.deadlock_info[:2]))
    if result.unbalanced_flags or result.double_sets:
        problems.append(f"flags left set {result.unbalanced_flags[:2]} or set twice {result.double_sets[:2]}")
    match, comparison = compare_simulated(result, expected)
    if not match:
        bad = [c for c in comparison if not c["match"]]
        problems.append("differs from the reference: " + ", ".join(f"{c['name']} max |err| {c['max_abs_error']}"
                                                               for c in bad)
                        + (f" ({len(result.uninitialized_reads)} uninitialized reads)" if result.uninitialized_reads
                           else ""))
    return problems, inputs


def _trips(loop) -> int | None:
    from xdsl.dialects import arith
    bounds = []
    for v in (loop.lb, loop.ub, loop.step):
        owner = getattr(v, "op", None)
        if not isinstance(owner, arith.ConstantOp):
            return None
        bounds.append(owner.value.value.data)  # type: ignore[union-attr]
    lb, ub, step = bounds
    return max(0, -(-(ub - lb) // step))


def measure(seed: int, chip: str) -> dict:
    d = draw(seed)
    row: dict = {"seed": seed, "chip": chip, "kernel": d.label()}
    tile_module = build(d)
    try:
        ours, cpu = _compiled(tile_module, chip=chip)
    except Exception as err:  # noqa: BLE001 - a refusal is a row; the message says whose
        return {**row, "refused": f"{type(err).__name__}: {str(err).strip().splitlines()[-1][:160]}"}
    row["compile_cpu_s"] = round(cpu, 2)
    row["oracle"], inputs = check_oracle(d, tile_module, ours, seed, chip)
    timed = inputs if d.binds else None
    barrier, _ = _compiled(tile_module, chip=chip, sync="barrier-all", schedule="program-order")
    po, _ = _compiled(tile_module, chip=chip, schedule="program-order")
    timing = _sim_chip(chip)
    traced = simulate(ours.clone(), timed, chip=timing, blocks=1, trace=True)
    row["ours"] = traced.cycles
    row["barrier"] = simulate(barrier, timed, chip=timing, blocks=1, trace=False).cycles
    row["po"] = simulate(po, timed, chip=timing, blocks=1, trace=False).cycles
    row["ratio"] = round(row["ours"] / min(row["barrier"], row["po"]), 4)
    # the trace's ops are those of `ours` as simulated: probe the loops of the same module
    loops = []
    innermost = _innermost(ours)
    if _one_mix_loop(innermost):
        # a loop of both cores, split into its cube and its vector part: one row, measured
        # on the cube core
        innermost = innermost[:1]
        trips = _trips(innermost[0])
        trips = d.k_trips if trips is None else trips
        written = ascend.loop_of(innermost[0]).ii  # type: ignore[union-attr]
        measured = cube_core_period(traced) if trips >= MIN_PROBE_TRIPS else None
        row["loops"] = [{"trips": trips, "written": written, "measured": measured,
                         "off": None if measured is None else round(measured / written - 1, 4)}]
        return row
    for loop in innermost:
        trips = _trips(loop)
        if trips is None and len(innermost) == 1:
            trips = d.k_trips  # a runtime trip count: the one drawn
        written = ascend.loop_of(loop).ii  # type: ignore[union-attr]
        # the probe finds its op in the trace by name: with two loops of the same ops (an
        # unrolled loop and its remainder, a loop per partial-tile branch) it would mix them
        alone = len(innermost) == 1
        measured = _probe_ii(loop, traced) if alone and trips is not None and trips >= MIN_PROBE_TRIPS else None
        loops.append({"trips": trips, "written": written, "measured": measured,
                      "off": None if measured is None else round(measured / written - 1, 4)})
    row["loops"] = loops
    return row


def _one_mix_loop(innermost: list) -> bool:
    """Whether `innermost` is one MIX loop: its cube and its vector part, each in its own
    function after split-mix-kernel, written at one II."""
    if len(innermost) != 2:
        return False
    functions = {id(enclosing_function(loop)) for loop in innermost}
    return len(functions) == 2 and len({ascend.loop_of(loop).ii for loop in innermost}) == 1  # type: ignore[union-attr]


def _loops_text(loops: list[dict]) -> str:
    parts = []
    for lp in loops:
        m = "-" if lp["measured"] is None else f"{lp['measured']:.0f} ({100 * lp['off']:+.0f}%)"
        parts.append(f"T={lp['trips'] if lp['trips'] is not None else '?'}: {lp['written']} / {m}")
    return "; ".join(parts) or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seeds", default="0-39")
    parser.add_argument("--chips", default="ascend950,ascend910b")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    print("| seed | chip | kernel | ours | barrier | po | ratio | II written / measured | compile s | oracle |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for chip in map(bench_chip, args.chips.split(",")):
        for seed in _seeds(args.seeds):
            try:
                r = measure(seed, chip)
            except Exception as err:  # noqa: BLE001 - a crash is a finding: the row says where
                r = {"seed": seed, "chip": chip, "kernel": draw(seed).label(),
                     "crash": f"{type(err).__name__}: {str(err)[:200]}"}
            rows.append(r)
            c = chip.removeprefix("ascend")
            if "refused" in r or "crash" in r:
                what = "refused" if "refused" in r else "CRASH"
                print(f"| {seed} | {c} | {r['kernel']} | {what}: {r.get('refused') or r.get('crash')} |", flush=True)
                continue
            print(f"| {seed} | {c} | {r['kernel']} | {r['ours']} | {r['barrier']} | {r['po']} | {r['ratio']:.3f} "
                  f"| {_loops_text(r['loops'])} | {r['compile_cpu_s']} | {'; '.join(r['oracle']) or 'ok'} |",
                  flush=True)
            if args.json:
                Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    ran = [r for r in rows if "ours" in r]
    slower = [r for r in ran if r["ratio"] > 1.0]
    far = [r for r in ran if any(lp["off"] is not None and abs(lp["off"]) > 0.05 for lp in r["loops"])]
    bad = [r for r in ran if r["oracle"]]
    crashed = [r for r in rows if "crash" in r]
    refused = [r for r in rows if "refused" in r]
    geo = float(np.exp(np.mean(np.log([r["ratio"] for r in ran])))) if ran else float("nan")
    print(f"\n{len(rows)} kernels: {len(ran)} ran, {len(refused)} refused by the chip, {len(crashed)} crashed; "
          f"{len(bad)} with oracle findings, {len(slower)} slower than a baseline, {len(far)} with a loop's measured "
          f"II off its written by > 5%; geomean ratio {geo:.4f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
