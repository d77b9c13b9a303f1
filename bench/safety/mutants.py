"""Mutation campaign on the sync of compiled kernels: does the oracle catch every harmful mutant?

Each input (an example, a random chain kernel of bench/e2e/chains.py, on each chip) is
compiled with ascend-compile; every mutant of its synchronisation below (all sites, or a
seeded sample of `--per-kind` sites per kind) is judged by the two oracles that share no
code: ascend-verify-sync (`VerifySyncPass`, the static happens-before check) and the
simulator (`simulate`, one block, plain and `--perturb` runs: its race detector is a
happens-before analysis, independent of timing; with its deadlock, double-set and
flag-left-set checks). A sample also runs the CCE route (`ascend-sim --via cce`: the
printer's check and the g++ emulation's run-time flag checks).

Mutation kinds (one change to a clone of the compiled module):
  wait-deleted           one wait_flag erased
  set-deleted            one set_flag erased
  set-before-producer    a set_flag moved before the closest earlier op of its set pipe
  set-after-consumer     a set_flag moved after the first op of its wait pipe that
                         follows its wait (same block)
  id-swap                the event ids of two set_flags of one pipe pair exchanged
  barrier-deleted        one pipe_barrier erased
  pipe-changed           one set/wait_flag's set pipe (or wait pipe) changed to another
  prime-dropped          a set_flag just before a loop whose body waits for it, erased
  drain-dropped          a wait_flag just after a loop whose body sets it, erased
  ring-cut               in one loop, a pipe pair's highest event id renamed to its lowest
  pair-deleted           a set_flag and the next wait_flag of its flag in the block erased
                         (harmless when another flag or the pipe order already orders it)
  block-wait-deleted     one cross-core sync_block_wait erased

Outcome per mutant: `both` / `static` / `sim` / `none` report it; `crash` (a traceback
from either oracle); `static-unverified` (verify-sync's budget remark). The simulator's
happens-before verdict decides harmful; a mutant only one oracle reports is a
disagreement to triage (listed with both oracles' first message).

    python bench/safety/mutants.py [--inputs gemm.mlir,...] [--chips ascend950,ascend910b]
        [--per-kind 6] [--seed 0] [--perturb 2] [--cce 0] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from ascend_mlir.user_modules import run_module

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

DEFAULT_INPUTS = ("vecadd.mlir,softmax.mlir,rmsnorm.mlir,layernorm.mlir,gemm.mlir,gemm_910b.mlir,gemm_relu.mlir,"
                  "flash_attention.mlir,linear_bias.py,vecadd_dyn.mlir,softmax_dyn.mlir,random:3,random:7,random:11")
PIPES = ("MTE1", "MTE2", "MTE3", "M", "V", "FIX")
# runtime-shape inputs are simulated at sizes where block 0 runs its loop several times,
# with a partial last tile, at the default binding, and over the whole grid at a size
# that leaves blocks without a tile (their branch of the code; the static check covers
# every trip count and branch by itself)
SIZES: dict[str, list[dict[str, str]]] = {
    "vecadd_dyn.mlir": [{"n": "12388"}, {"n": "20480"}, {}, {"n": "600", "all blocks": ""}],
    "softmax_dyn.mlir": [{"m": "197", "c": "200"}, {"m": "320", "c": "256"}, {}, {"m": "16", "c": "200", "all blocks": ""}],
    "rmsnorm_dyn.mlir": [{"m": "197", "c": "200"}, {"m": "320", "c": "256"}, {}, {"m": "16", "c": "200", "all blocks": ""}],
    "layernorm_dyn.mlir": [{"m": "197", "c": "200"}, {"m": "320", "c": "256"}, {}, {"m": "16", "c": "200", "all blocks": ""}],
    # the cube kernels: one K step or key block (the peeled step alone: a pair deleted
    # there raced only at sk=64, not at the default binding), several with a partial last
    # one, and a grid that leaves blocks without a tile
    "gemm_dyn.mlir": [{"m": "64", "n": "64", "k": "64"}, {"m": "300", "n": "200", "k": "1000"}, {},
                      {"m": "16", "n": "16", "k": "130", "all blocks": ""}],
    "flash_attention_dyn.mlir": [{"sq": "64", "sk": "64"}, {"sq": "130", "sk": "1041"}, {},
                                 {"sq": "16", "sk": "200", "all blocks": ""}],
}


def source_text(name: str) -> str:
    """An input's tile-level text: examples/NAME (.mlir, or .py's kernel), or random:SEED."""
    if name.startswith("random:"):
        chains = run_module(str(ROOT / "bench" / "e2e" / "chains.py"), "chains")
        return chains.random_kernel(int(name.split(":")[1]))
    if name.endswith(".mlir"):
        return (EXAMPLES / name).read_text()
    module = run_module(str(EXAMPLES / name), f"example_{name[:-3]}")
    return getattr(module, name[:-3]).to_mlir()


# ----- mutants ----------------------------------------------------------------------------

# (kind, description, mutate(ops of the clone's walk)): the walk of a clone lists its ops in
# the original's order, so indices found on the original address the clone's ops
Mutant = tuple[str, str, Callable[[list], None]]


def _erase(*indices: int) -> Callable[[list], None]:
    def apply(ops: list) -> None:
        for i in indices:
            ops[i].detach()
            ops[i].erase()

    return apply


def _move_before(i: int, j: int) -> Callable[[list], None]:
    def apply(ops: list) -> None:
        op = ops[i]
        op.detach()
        ops[j].parent_block().insert_op_before(op, ops[j])

    return apply


def _move_after(i: int, j: int) -> Callable[[list], None]:
    def apply(ops: list) -> None:
        op = ops[i]
        op.detach()
        ops[j].parent_block().insert_op_after(op, ops[j])

    return apply


def _set_event(pairs: list[tuple[int, int]]) -> Callable[[list], None]:
    from ascend_mlir.dialects.hivm.attrs import EventAttr

    def apply(ops: list) -> None:
        for i, event in pairs:
            ops[i].properties["static_event_id"] = EventAttr(event)

    return apply


def _set_pipe(i: int, role: str, pipe: str) -> Callable[[list], None]:
    from ascend_mlir.dialects.hivm.attrs import pipe_attr

    def apply(ops: list) -> None:
        ops[i].properties[role] = pipe_attr(pipe)

    return apply


class _Sites:
    """The mutation sites of one compiled module, found on its walk (indices address a
    clone's walk too)."""

    def __init__(self, module, rng: random.Random) -> None:
        from ascend_mlir.dialects import hivm

        self.hivm = hivm
        self.rng = rng
        self.ops = list(module.walk())
        self.index = {id(op): i for i, op in enumerate(self.ops)}
        self.out: list[Mutant] = []
        self.sets_by_pair: dict[tuple[str, str], list[int]] = {}

    @staticmethod
    def key(op) -> tuple[str, str, int | None]:
        return (op.set_pipe.pipe_name, op.wait_pipe.pipe_name, op.event_id)

    def is_sync(self, op) -> bool:
        return isinstance(op, self.hivm.SYNC_OPS) or isinstance(op, self.hivm.PipeBarrierOp)

    @staticmethod
    def after(op):
        nxt = op.next_op
        while nxt is not None:
            yield nxt
            nxt = nxt.next_op

    @staticmethod
    def before(op):
        prv = op.prev_op
        while prv is not None:
            yield prv
            prv = prv.prev_op

    def loop_uses(self, loop, kind, key) -> bool:
        from xdsl.dialects import scf

        return isinstance(loop, scf.ForOp) and any(isinstance(f, kind) and self.key(f) == key for f in loop.walk())

    def wait(self, i: int, op) -> None:
        where = f"#{i} wait_flag"
        self.out.append(("wait-deleted", where, _erase(i)))
        previous = next((p for p in self.before(op) if not self.is_sync(p)), None)
        if self.loop_uses(previous, self.hivm.SetFlagOp, self.key(op)):
            self.out.append(("drain-dropped", where, _erase(i)))

    def set(self, i: int, op) -> None:
        from ascend_mlir.dialects.hivm.interface import op_pipes

        where = f"#{i} set_flag"
        self.out.append(("set-deleted", where, _erase(i)))
        if op.event_id is not None:
            self.sets_by_pair.setdefault(self.key(op)[:2], []).append(i)
        producer = next((p for p in self.before(op) if not self.is_sync(p) and op.set_pipe.pipe_name in op_pipes(p)),
                        None)
        if producer is not None:
            j = self.index[id(producer)]
            self.out.append(("set-before-producer", f"{where} before #{j} {producer.name}", _move_before(i, j)))
        wait = next((w for w in self.after(op) if isinstance(w, self.hivm.WaitFlagOp) and self.key(w) == self.key(op)),
                    None)
        if wait is not None:
            consumer = next((c for c in self.after(wait) if not self.is_sync(c) and op.wait_pipe.pipe_name in op_pipes(c)),
                            None)
            if consumer is not None:
                j = self.index[id(consumer)]
                self.out.append(("set-after-consumer", f"{where} after #{j} {consumer.name}", _move_after(i, j)))
            self.out.append(("pair-deleted", f"{where} and #{self.index[id(wait)]}", _erase(i, self.index[id(wait)])))
        following = next((p for p in self.after(op) if not self.is_sync(p)), None)
        if self.loop_uses(following, self.hivm.WaitFlagOp, self.key(op)):
            self.out.append(("prime-dropped", where, _erase(i)))

    def pipes(self, i: int, op) -> None:
        role = self.rng.choice(("set_pipe", "wait_pipe"))
        new = self.rng.choice([p for p in PIPES if p not in (op.set_pipe.pipe_name, op.wait_pipe.pipe_name)])
        self.out.append(("pipe-changed", f"#{i} {op.name.removeprefix('hivm.hir.')} {role} -> {new}",
                         _set_pipe(i, role, new)))

    def ring(self, i: int, loop) -> None:
        flag = (self.hivm.SetFlagOp, self.hivm.WaitFlagOp)
        ids: dict[tuple[str, str], set[int]] = {}
        for f in loop.walk():
            if isinstance(f, flag) and f.event_id is not None:
                ids.setdefault(self.key(f)[:2], set()).add(f.event_id)
        for pair, used in sorted(ids.items()):
            if len(used) < 2:
                continue
            hi, lo = max(used), min(used)
            renamed = [(self.index[id(f)], lo) for f in loop.walk() if isinstance(f, flag) and self.key(f) == (*pair, hi)]
            self.out.append(("ring-cut", f"loop #{i} {pair[0]}->{pair[1]} EVENT_ID{hi} -> {lo}", _set_event(renamed)))

    def swaps(self) -> None:
        for pair, sets in sorted(self.sets_by_pair.items()):
            for a, first in enumerate(sets):
                for second in sets[a + 1:]:
                    ea, eb = self.ops[first].event_id, self.ops[second].event_id
                    if ea != eb:
                        self.out.append(("id-swap", f"#{first} <-> #{second} {pair[0]}->{pair[1]} ({ea}, {eb})",
                                         _set_event([(first, eb), (second, ea)])))


def mutants(module, rng: random.Random) -> list[Mutant]:
    """Every mutant of every kind of the module doc, at every site."""
    from xdsl.dialects import scf

    from ascend_mlir.dialects import hivm

    sites = _Sites(module, rng)
    for i, op in enumerate(sites.ops):
        if isinstance(op, hivm.WaitFlagOp):
            sites.wait(i, op)
        elif isinstance(op, hivm.SetFlagOp):
            sites.set(i, op)
        elif isinstance(op, hivm.PipeBarrierOp):
            sites.out.append(("barrier-deleted", f"#{i} pipe_barrier {op.pipe.pipe_name}", _erase(i)))
        elif isinstance(op, hivm.SyncBlockWaitOp):
            sites.out.append(("block-wait-deleted", f"#{i} sync_block_wait", _erase(i)))
        elif isinstance(op, scf.ForOp):
            sites.ring(i, op)
        if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp):
            sites.pipes(i, op)
    sites.swaps()
    return sites.out


def sample(all_mutants: list[Mutant], per_kind: int, rng: random.Random) -> list[Mutant]:
    by_kind: dict[str, list[Mutant]] = {}
    for m in all_mutants:
        by_kind.setdefault(m[0], []).append(m)
    out: list[Mutant] = []
    for kind in sorted(by_kind):
        group = by_kind[kind]
        out.extend(group if per_kind <= 0 or len(group) <= per_kind else rng.sample(group, per_kind))
    return out


# ----- oracles ----------------------------------------------------------------------------


def static_verdict(module, chip: str) -> tuple[str, str]:
    """("reported" | "passed" | "unverified" | "crash", first line of the message)."""
    from xdsl.context import Context
    from xdsl.utils.exceptions import DiagnosticException

    from ascend_mlir.transforms.verify_sync import VerifySyncPass

    try:
        import io
        from contextlib import redirect_stderr

        err = io.StringIO()
        with redirect_stderr(err):
            VerifySyncPass(chip=chip).apply(Context(), module)
    except DiagnosticException as e:
        return "reported", " ".join(str(e).split())[:200]
    except Exception:  # noqa: BLE001 - a traceback is what the campaign looks for
        return "crash", traceback.format_exc().strip().splitlines()[-1][:200]
    if "not verified" in err.getvalue():
        return "unverified", err.getvalue().strip().splitlines()[-1][:200]
    return "passed", ""


def sim_verdict(module, chip: str, perturb: int, sizes: list[dict[str, str]]) -> tuple[str, str]:
    from ascend_mlir.sim.binding import bind_arguments
    from ascend_mlir.sim.hivm_frontend import find_kernel
    from ascend_mlir.sim.reference import make_inputs
    from ascend_mlir.sim.routes import run_problem_types
    from ascend_mlir.sim.simulator import simulate

    messages: list[str] = []
    runs = [(binds, seed) for binds in sizes or [{}] for seed in [None, *range(1, perturb + 1)]]
    for binds, seed in runs:
        try:
            kernel = find_kernel(module, None)
            func_op = kernel.aic or kernel.aiv
            values = {k: v for k, v in binds.items() if k != "all blocks"}
            inputs = make_inputs(func_op, 0, bind_arguments(func_op, values)) if values and func_op else None
            blocks = None if "all blocks" in binds else 1
            result = simulate(module, inputs, chip=chip, perturb=seed, trace=False, blocks=blocks)
        except run_problem_types() as e:
            return "reported", "refused: " + " ".join(str(e).split())[:200]
        except Exception:  # noqa: BLE001
            return "crash", traceback.format_exc().strip().splitlines()[-1][:200]
        if not result.ok:
            what = ([r.message() for r in result.races] + (["deadlock"] if result.deadlock else [])
                    + result.double_sets + result.unbalanced_flags + [str(u) for u in result.uninitialized_reads])
            size = ",".join(f"{k}={v}" for k, v in binds.items())
            messages.append(f"{size} {'plain' if seed is None else f'perturb {seed}'}: {what[0][:200]}")
            break
    if messages:
        return "reported", messages[0]
    return "passed", ""


def cce_verdict(text: str, chip: str) -> tuple[str, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    run = subprocess.run(["ascend-sim", "--via", "cce", "--chip", chip, "--blocks", "1", "-q", f.name],
                         capture_output=True, text=True, timeout=600)
    Path(f.name).unlink()
    last = (run.stdout + run.stderr).strip().splitlines()
    line = last[-1][:200] if last else ""
    return {0: "passed", 1: "reported"}.get(run.returncode, "crash"), line


# ----- campaign ---------------------------------------------------------------------------


def campaign(inputs: list[str], chips: list[str], per_kind: int, seed: int, perturb: int, cce: int) -> list[dict]:
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module, verify_module
    from ascend_mlir.sim.routes import compile_tile_level

    rows: list[dict] = []
    for name in inputs:
        for chip in chips:
            ctx = make_context()
            module = parse_module(ctx, source_text(name), name)
            try:
                compile_tile_level(ctx, module, chip)
            except Exception as err:  # noqa: BLE001 - a kernel that does not fit a chip is skipped, said so
                print(f"skip {name} on {chip}: {str(err).splitlines()[0]}", file=sys.stderr)
                continue
            rng = random.Random(f"{seed}:{name}:{chip}")
            chosen = sample(mutants(module, rng), per_kind, rng)
            cce_left, cce_kinds = cce, set()
            started = time.process_time()
            invalid = 0
            for kind, where, mutate in chosen:
                clone = module.clone()
                mutate(list(clone.walk()))
                text = str(clone)
                if verify_module(parse_module(make_context(), text, name)):  # a set moved above its event id
                    invalid += 1
                    continue
                static = static_verdict(clone.clone(), chip)
                sim = sim_verdict(clone, chip, perturb, SIZES.get(name, []))
                row = {"input": name, "chip": chip, "kind": kind, "where": where, "static": static, "sim": sim}
                # the CCE printer refuses what verify-sync refuses (its own check): the
                # emulation's run-time flag checks judge what passed it; one refused
                # mutant per kind confirms the printer's refusal
                if cce_left > 0 and (static[0] == "passed" or kind not in cce_kinds):
                    row["cce"] = cce_verdict(text, chip)
                    cce_left -= 1
                    cce_kinds.add(kind)
                row["outcome"] = outcome(static[0], sim[0])
                rows.append(row)
            print(f"{name} {chip}: {len(chosen) - invalid} mutants ({invalid} invalid IR, skipped), "
                  f"{time.process_time() - started:.1f} CPU s", file=sys.stderr, flush=True)
    return rows


def outcome(static: str, sim: str) -> str:
    if "crash" in (static, sim):
        return "crash"
    if static == "unverified":
        return "static-unverified" + ("+sim" if sim == "reported" else "")
    return {(True, True): "both", (True, False): "static", (False, True): "sim", (False, False): "none"}[
        (static == "reported", sim == "reported")]


def report(rows: list[dict]) -> None:
    kinds = sorted({r["kind"] for r in rows})
    outcomes = ["both", "static", "sim", "none", "crash", "static-unverified", "static-unverified+sim"]
    print(f"{'kind':22}" + "".join(f"{o:>10}" for o in outcomes[:5]) + f"{'unverif':>10}")
    for kind in kinds:
        c = Counter(r["outcome"] for r in rows if r["kind"] == kind)
        print(f"{kind:22}" + "".join(f"{c[o]:>10}" for o in outcomes[:5])
              + f"{c['static-unverified'] + c['static-unverified+sim']:>10}")
    c = Counter(r["outcome"] for r in rows)
    print(f"{'total':22}" + "".join(f"{c[o]:>10}" for o in outcomes[:5])
          + f"{c['static-unverified'] + c['static-unverified+sim']:>10}")
    print()
    per_input = Counter((r["input"], r["chip"], r["outcome"]) for r in rows)
    for name, chip in sorted({(r["input"], r["chip"]) for r in rows}):
        print(f"{name:28} {chip:11} " + " ".join(f"{o}={per_input[(name, chip, o)]}" for o in outcomes
                                                 if per_input[(name, chip, o)]))
    cce_rows = [r for r in rows if "cce" in r]
    if cce_rows:
        print(f"\nCCE route: {len(cce_rows)} mutants: "
              + ", ".join(f"{k}={v}" for k, v in sorted(Counter(r['cce'][0] for r in cce_rows).items())))
        for r in cce_rows:
            if (r["cce"][0] == "reported") != (r["sim"][0] == "reported"):
                print(f"  cce disagrees: {r['input']} {r['chip']} {r['kind']} {r['where']}: cce {r['cce']} sim {r['sim']}")
    odd = [r for r in rows if r["outcome"] not in ("both", "none")]
    if odd:
        print("\ndisagreements and crashes:")
        for r in odd:
            print(f"  {r['outcome']:8} {r['input']} {r['chip']} {r['kind']} {r['where']}\n"
                  f"           static: {r['static']}\n           sim:    {r['sim']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--inputs", default=DEFAULT_INPUTS)
    ap.add_argument("--chips", default="ascend950,ascend910b")
    ap.add_argument("--per-kind", type=int, default=6, help="sites per kind per input (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--perturb", type=int, default=2, help="perturbed simulator runs per mutant")
    ap.add_argument("--cce", type=int, default=0,
                    help="mutants per input and chip also run --via cce (those verify-sync passes, and one per kind)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = campaign(args.inputs.split(","), args.chips.split(","), args.per_kind, args.seed, args.perturb, args.cce)
    report(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if any(r["outcome"] in ("crash", "static", "sim") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
