"""Exactness of simulator changes: the same results, outputs and traces before and after.

`prepare` compiles the cube and vector examples, shapes not tuned to (bench/sim_speed/run.py's
sources) and, for some of them, every N-th sync mutant (one set_flag, wait_flag or
pipe_barrier dropped; many race or deadlock) on both chips, and writes each compiled module
as text into a directory. `digest` simulates every module there with the simulator on
PYTHONPATH (plain, perturbed at seeds 3 and 11, and replay off for the small ones) and
writes one sha256 per run of: `SimResult.to_json()`, every output's bytes and block 0's
trace. Run `digest` under the old tree and the new one and compare the two files (`compare`).

    python bench/sim_speed/exactness.py prepare DIR [--every 3]
    PYTHONPATH=<tree> python bench/sim_speed/exactness.py digest DIR OUT.json
    python bench/sim_speed/exactness.py compare OLD.json NEW.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# example sources (run.py's forms) simulated in full, and those whose mutants are made too
SOURCES = ["gemm.mlir", "gemm_910b.mlir", "gemm_bf16.mlir", "gemm_relu.mlir", "gemm_anchor.mlir", "gemm_fp16.mlir",
           "flash_attention.mlir", "linear_bias.py", "vecadd.mlir", "softmax.mlir", "rmsnorm.mlir", "layernorm.mlir",
           "gemm.mlir@5", "linear_bias.py:384,768,640", "linear_bias.py:128,256,320"]
MUTATED = ["gemm.mlir", "gemm_910b.mlir", "gemm_relu.mlir", "flash_attention.mlir", "linear_bias.py:384,768,640",
           "softmax.mlir", "gemm.mlir@5"]
CHIPS = ["ascend950", "ascend910b"]
SYNC_OPS = ("hivm.hir.set_flag", "hivm.hir.wait_flag", "hivm.hir.pipe_barrier")


def _name(source: str, chip: str) -> str:
    return source.replace(".mlir", "").replace(".py", "").replace(":", "_").replace(",", "x").replace("@", "_grid") + "." + chip


def prepare(out: Path, every: int) -> None:
    import run
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.sim.routes import compile_tile_level

    out.mkdir(parents=True, exist_ok=True)
    for source in SOURCES:
        for chip in CHIPS:
            ctx = make_context()
            module = parse_module(ctx, run._source(source), source.split("@")[0].split(":")[0])
            try:
                compile_tile_level(ctx, module, chip)
            except Exception as err:  # noqa: BLE001 - a kernel that does not fit a chip is skipped, said so
                print(f"skip {source} on {chip}: {str(err).splitlines()[0]}", file=sys.stderr)
                continue
            base = _name(source, chip)
            (out / f"{base}.mlir").write_text(str(module))
            if source not in MUTATED:
                continue
            syncs = [op for op in module.walk() if op.name in SYNC_OPS]
            for i in range(0, len(syncs), every):
                clone = module.clone()
                victim = [op for op in clone.walk() if op.name in SYNC_OPS][i]
                victim.detach()
                victim.erase()
                (out / f"{base}.drop{i}.mlir").write_text(str(clone))


def _digest(result) -> str:
    h = hashlib.sha256(json.dumps(result.to_json(), sort_keys=True).encode())
    for name in sorted(result.outputs):
        h.update(name.encode())
        h.update(result.outputs[name].tobytes())
    for e in result.trace:
        h.update(repr((e.name, e.core, e.pipe, e.start, e.end, e.loc)).encode())
    return h.hexdigest()


def digest(directory: Path, out: Path) -> None:
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module
    from ascend_mlir.sim.simulator import simulate

    rows: dict[str, str] = {}
    for path in sorted(directory.glob("*.mlir")):
        module = parse_module(make_context(), path.read_text(), path.name)
        small = ".drop" in path.name or "anchor" not in path.name
        runs = [("plain", None, True), ("perturb3", 3, True), ("perturb11", 11, True)]
        if small:
            runs.append(("noreplay", None, False))
        for label, perturb, replay in runs:
            try:
                result = simulate(module, perturb=perturb, trace=label == "plain", replay=replay)
                rows[f"{path.stem}:{label}"] = _digest(result)
            except Exception as err:  # noqa: BLE001 - an error is a result too: it must stay the same
                rows[f"{path.stem}:{label}"] = f"error {type(err).__name__}: {err}"
        print(path.stem, flush=True)
    out.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")


def compare(old: Path, new: Path) -> int:
    a, b = json.loads(old.read_text()), json.loads(new.read_text())
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    errors = sum(1 for v in a.values() if v.startswith("error"))
    print(f"{len(a)} runs compared ({errors} of them errors), {len(differ)} differ")
    for k in differ:
        print("  ", k, a.get(k, "-")[:60], "|", b.get(k, "-")[:60])
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dir", type=Path)
    p.add_argument("--every", type=int, default=3)
    d = sub.add_parser("digest")
    d.add_argument("dir", type=Path)
    d.add_argument("out", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    args = ap.parse_args()
    if args.cmd == "prepare":
        prepare(args.dir, args.every)
        return 0
    if args.cmd == "digest":
        digest(args.dir, args.out)
        return 0
    return compare(args.old, args.new)


if __name__ == "__main__":
    sys.exit(main())
