"""Make test/sim/Inputs/triton/*.hivm.mlir: triton-ascend kernels as bishengir's last hivm dump.

The fixture lets CI judge kernels of another frontend without triton. To remake it
(needs network access to PyPI once, no NPU):

    python3 -m venv /tmp/tvenv && /tmp/tvenv/bin/pip install triton-ascend==3.2.0 pybind11
    BIN=$(python3 -c 'import ascendnpuir, os; print(os.path.dirname(ascendnpuir.__file__))')/bin
    PATH=$BIN:$PATH PYTHONPATH=. /tmp/tvenv/bin/python tools/triton-dumps/make_dumps.py [OUT_DIR]

(the venv has triton but not our dependencies: bishengir is found on PATH). The output is
byte-identical run to run.

Route, per kernel of kernels.py and per chip (Ascend910B3 = A3, Ascend950PR_9599 = a5):
1. triton-ascend lowers the kernel to its "TTAdapter" MLIR (linalg + memref, what it
   hands to bishengir-compile). Its own call of bishengir-compile then needs torch and
   an Ascend toolkit, so we stop there and take the file from triton's cache.
2. We run bishengir-compile(-a5) on it ourselves with the options triton-ascend passes
   (`--enable-hfusion-compile --enable-hivm-compile --enable-triton-kernel-compile`,
   after deleting the `mix_mode` attribute as triton does) and
   `--mlir-print-ir-after-all`; the run stops at the missing closed-source hivmc.
3. `ascend_mlir.sim.bishengir.last_hivm_dump` keeps the last dump that still holds hivm
   data ops (after bishengir's sync and memory planning): the file checked in.
matmul on a5: bishengir-compile-a5 1.2.0 aborts (an assertion in hivm-infer-mem-scope); its
last hivm dump (before memory planning) is kept anyway, to show how the simulator refuses an
unplanned kernel. matmul_kconst, the same kernel with K a compile-time constant, is a
cube-only kernel that bishengir-compile-a5 compiles: made for a5 only (ONLY_CHIPS).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHIPS = {"Ascend910B3": "bishengir-compile", "Ascend950PR_9599": "bishengir-compile-a5"}
TRITON_OPTIONS = ("--enable-hfusion-compile=true", "--enable-hivm-compile=true",
                  "--enable-triton-kernel-compile=true")


def ttadapter(kernel: str, chip: str, cache: str) -> str:
    import triton  # type: ignore[import-not-found]
    from triton.backends.compiler import GPUTarget  # type: ignore[import-not-found]
    from triton.compiler import ASTSource  # type: ignore[import-not-found]

    sys.path.insert(0, str(HERE))
    from kernels import KERNELS  # type: ignore[import-not-found]

    fn, signature, constants = KERNELS[kernel]
    os.environ["TRITON_CACHE_DIR"] = cache
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    os.environ.setdefault("ASCEND_HOME_PATH", cache)  # checked before the step we skip
    try:
        triton.compile(ASTSource(fn, signature=signature, constants=constants), target=GPUTarget("npu", chip, 0))
    except Exception:  # noqa: BLE001 -- the binary step fails here by design (no torch, no toolkit)
        pass
    found = glob.glob(f"{cache}/*/*.ttadapter")
    if not found:
        raise SystemExit(f"triton produced no TTAdapter MLIR for {kernel} on {chip}")
    return re.sub(r', mix_mode\s*=\s*"[^"]*"', "", Path(found[0]).read_text())


def last_dump(source: str, chip: str, workdir: str) -> str:
    from ascend_mlir.sim.bishengir import last_hivm_dump
    from ascend_mlir.testing import find_tool

    tool = find_tool(CHIPS[chip])
    if tool is None:
        raise SystemExit(f"{CHIPS[chip]} is not installed (pip package ascendnpu-ir)")
    src = Path(workdir) / "kernel.in.mlir"
    src.write_text(source)
    target = [] if chip.startswith("Ascend950") else [f"--target={chip}"]
    done = subprocess.run([tool, str(src), *target, *TRITON_OPTIONS, "-o", str(Path(workdir) / "k"),
                           "--mlir-print-ir-after-all"], capture_output=True, text=True, cwd=workdir)
    return last_hivm_dump(done.stdout + done.stderr).text


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parents[1] / "test" / "sim" / "Inputs" / "triton")
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(HERE))
    from kernels import KERNELS, ONLY_CHIPS  # type: ignore[import-not-found]

    for kernel in KERNELS:
        for chip in ONLY_CHIPS.get(kernel, CHIPS):
            work = tempfile.mkdtemp(prefix="triton-dump-")
            try:
                text = last_dump(ttadapter(kernel, chip, os.path.join(work, "cache")), chip, work)
                (out / f"{kernel}.{chip}.hivm.mlir").write_text(text)
                print(f"{kernel}.{chip}: {len(text)} bytes")
            finally:
                shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
