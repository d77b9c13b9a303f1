"""Judge bishengir-compile's own synchronisation with our oracle.

`bishengir-compile --mlir-print-ir-after-all` prints the module after every pass. The last
dump that still holds hivm ops (after its sync solver and memory planner, before the ops
become library calls) is a hivm-level kernel the simulator can run: `last_hivm_dump`
finds it, `to_simulator_text` turns it into text our parser reads, and
`simulate_via_bishengir` does the whole route for a tile-level kernel:

    tile-level file --convert-tile-to-hivm, -t npuir (no sync of ours)--> bishengir-compile
    --(last hivm dump)--> simulate (races, deadlock, flags left set) + reference check

What `to_simulator_text` changes, and why (everything else is parsed as printed):
* the module attributes that only describe hivmc's target (`dlti.target_system_spec`,
  `hacc.hivmc_version`, `hacc.hivmc_compatible_print`) are dropped, and the module's
  `hacc.target` (which bishengir replaces by the dlti spec) is put back from the first
  dump, so the chip is known;
* `memref.cast` in its custom form (which xDSL cannot parse) is rewritten to the generic
  form, same operands and types;
* `affine.apply/min/max` become the arith ops that compute the same index
  (`sim.affine_text`: xDSL reads no semi-affine map and has no affine.max).
Launch parameters are not in the IR: the grid (number of blocks) is the tile-level
kernel's, passed in by the caller (a raw dump simulates one block unless told otherwise).
"""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ascend_mlir.sim.affine_text import has_unreadable_map, lower_affine_ops

DUMP_HEADER = re.compile(r"^// -----// IR Dump After (?P<after>.+?) //----- //[ \t]*$", re.M)
# an op that moves or computes data (not only sync): what makes a dump simulable
_HIVM_DATA_OP = re.compile(r"\bhivm\.hir\.(?:load|store|nd2nz|fixpipe|copy|mmadL1|v[a-z]+)\b")
_TARGET = re.compile(r'hacc\.target\s*=\s*#hacc\.target<"[^"]*">')
# module attributes that only describe the hivmc target
DROPPED_MODULE_ATTRIBUTES = ("dlti.target_system_spec", "hacc.hivmc_version", "hacc.hivmc_compatible_print")
_CUSTOM_CAST = re.compile(r"^(?P<indent>\s*)(?P<res>%[\w.$-]+) = memref\.cast (?P<src>%[\w.$-]+) : (?P<from>.+?) to (?P<to>.+?)\s*$", re.M)
# bishengir-compile options per kernel kind (910B): the cube route needs the tensor
# compilation off, since our input is already bufferised hivm
CUBE_OPTIONS = ("--disable-hivm-tensor-compile=true",)


class BishengirError(Exception):
    """bishengir could not be run, or its output holds no hivm-level dump."""


@dataclass(frozen=True)
class Dump:
    after: str  # the pass the dump follows, e.g. "InsertFreeLockVarBeforeReturn (...)"
    text: str


def split_dumps(log: str) -> list[Dump]:
    """The dumps of a `--mlir-print-ir-after-all` log, in order (each cut after its
    module's closing brace, the last line starting with `}`, so trailing diagnostics are
    not part of it)."""
    heads = list(DUMP_HEADER.finditer(log))
    dumps = []
    for head, nxt in zip(heads, [*heads[1:], None], strict=True):
        body = log[head.end(): nxt.start() if nxt is not None else len(log)]
        close = body.rfind("\n}")
        if close >= 0:
            body = body[: close + 2]
        dumps.append(Dump(head["after"], body.strip("\n") + "\n"))
    return dumps


def _closing_brace(text: str) -> int:
    """Index just past the brace that closes the `{` text starts with (strings skipped)."""
    depth = 0
    for m in re.finditer(r'"(?:\\.|[^"\\])*"|[{}]', text):
        depth += 1 if m.group() == "{" else -1 if m.group() == "}" else 0
        if depth == 0:
            return m.end()
    return len(text)


def is_dump_log(text: str) -> bool:
    return DUMP_HEADER.search(text) is not None


def needs_translation(text: str) -> bool:
    """A bishengir log, or a module as bishengir prints it (what `to_simulator_text` changes):
    its target spec, its memref.cast spelling, or a semi-affine map (also in a dump cut
    short before its module line, as bishengir-compile-a5 leaves the triton matmul)."""
    return (is_dump_log(text) or "dlti.target_system_spec" in text or _CUSTOM_CAST.search(text) is not None
            or has_unreadable_map(text))


_HIVMC_MISSING = re.compile(r"hivmc|returning module before running external compiler|Failed to run BiShengIR pipeline")


def bishengir_errors(log: str) -> list[str]:
    """bishengir's own error lines (not the final complaint that hivmc, the closed-source
    back end, is not installed: every run here ends with it)."""
    return [
        line.strip() for line in log.splitlines()
        if ("error:" in line or "[ERROR]" in line) and not _HIVMC_MISSING.search(line)
    ]


def last_hivm_dump(log: str) -> Dump:
    """The last dump with hivm data ops; an error when a pass failed (bishengir then
    prints the module as it was, e.g. before memory planning: not what it would run)."""
    dumps = split_dumps(log)
    failed = [d.after for d in dumps if re.search(r"\bFailed \(", d.after)]
    if failed:
        detail = "; ".join(bishengir_errors(log)[:3])
        raise BishengirError(f"bishengir-compile failed in {failed[0]}" + (f": {detail}" if detail else ""))
    planned = [i for i, d in enumerate(dumps) if "(hivm-plan-memory)" in d.after]
    chosen = [i for i, d in enumerate(dumps) if _HIVM_DATA_OP.search(d.text)]
    if not chosen:
        raise BishengirError(
            f"no dump with hivm data ops among {len(dumps)} dump(s) (run bishengir-compile with --mlir-print-ir-after-all)"
        )
    if not planned or chosen[-1] < planned[-1]:
        detail = "; ".join(bishengir_errors(log)[-3:])
        raise BishengirError(
            f"bishengir-compile stopped before planning memory (last dump after {dumps[-1].after})"
            + (f": {detail}" if detail else "")
        )
    return dumps[chosen[-1]]


def to_simulator_text(log_or_module: str) -> str:
    """The last hivm dump of a bishengir log (or a module printed by bishengir) as text
    our parser reads (see the module docstring for what changes)."""
    if is_dump_log(log_or_module):
        dumps = split_dumps(log_or_module)
        text = last_hivm_dump(log_or_module).text
        target = next((m.group() for d in dumps if (m := _TARGET.search(d.text))), None)
    else:
        text = log_or_module
        target = None
    text = lower_affine_ops(_drop_module_attributes(text, target))
    return _CUSTOM_CAST.sub(
        lambda m: f'{m["indent"]}{m["res"]} = "memref.cast"({m["src"]}) : ({m["from"]}) -> {m["to"]}', text
    )


def _split_top_level(text: str) -> list[str]:
    """Split an attribute-dictionary body at the commas outside brackets and strings."""
    parts, depth, start = [], 0, 0
    for m in re.finditer(r'"(?:\\.|[^"\\])*"|[<{\[(]|[>}\])]|,', text):
        tok = m.group()
        if tok in "<{[(":
            depth += 1
        elif tok in ">}])":
            depth -= 1
        elif tok == "," and depth == 0:
            parts.append(text[start:m.start()].strip())
            start = m.end()
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _drop_module_attributes(text: str, target: str | None) -> str:
    m = re.search(r"^module attributes \{", text, re.M)
    if m is None:
        return text if target is None else re.sub(r"^module \{", f"module attributes {{{target}}} {{", text, count=1, flags=re.M)
    open_brace = m.end() - 1
    close = open_brace + _closing_brace(text[open_brace:])
    entries = [
        e for e in _split_top_level(text[open_brace + 1: close - 1])
        if e.split("=")[0].strip() not in DROPPED_MODULE_ATTRIBUTES
    ]
    if target is not None and not any(e.startswith("hacc.target") for e in entries):
        entries.insert(0, target)
    head = f"module attributes {{{', '.join(entries)}}}" if entries else "module"
    return text[: m.start()] + head + text[close:]


# ------------------------------------------------------------------------------ running bishengir


def _targets_a5(npuir: str) -> bool:
    """Whether the module text's `hacc.target` is a chip of the a5 generation."""
    from ascend_mlir.chips import target_is_a5

    target = re.search(r'hacc\.target<"([^"]*)"', npuir)
    return target is not None and target_is_a5(target.group(1))


def bishengir_compile(npuir: str = "") -> str:
    """The bishengir-compile build for the module's target (the `-a5` build for Ascend 950)."""
    from ascend_mlir.testing import find_tool

    name = "bishengir-compile-a5" if _targets_a5(npuir) else "bishengir-compile"
    tool = find_tool(name)
    if tool is None:
        raise BishengirError(f"{name} is not installed (pip package ascendnpu-ir)")
    return tool


def run_bishengir(npuir: str, *, options: tuple[str, ...] = (), workdir: str | None = None) -> str:
    """bishengir-compile on AscendNPU IR text with --mlir-print-ir-after-all; its log.
    The run ends in an error (the closed-source hivmc is not installed) after the dumps
    we need; that error is not ours to report, only a log without a hivm dump is."""
    tool = bishengir_compile(npuir)
    # bishengir-compile compiles for its `--target` (default Ascend910B1, in the -a5 build
    # too), replacing the module's hacc.target: name the module's own target
    target = re.search(r'hacc\.target<"([^"]*)"', npuir)
    target_option = (f"--target={target.group(1)}",) if target else ()
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        src = Path(tmp) / "kernel.npuir.mlir"
        src.write_text(npuir)
        # single-threaded: bishengir 1.2.0 reads heap bytes in front of each mmadL1 (README,
        # "the mmadL1 bug"); with its pass threads those bytes change from run to run and
        # about 1 run in 30-100 of a MIX kernel crashed, none in 340 without threads
        cmd = [tool, str(src), "-o", str(Path(tmp) / "kernel"), "--mlir-print-ir-after-all",
               "--mlir-disable-threading", *target_option, *options]
        returncode, log = _run_gathering_output(cmd, cwd=tmp, timeout=600)
    if not is_dump_log(log):
        raise BishengirError(f"bishengir-compile printed no IR dump (exit {returncode}):\n{log[-2000:]}")
    try:
        last_hivm_dump(log)
    except BishengirError as err:
        if returncode < 0:  # killed by a signal: an assertion or a crash of bishengir
            raise BishengirError(f"{err} (bishengir-compile crashed: signal {-returncode})") from None
        raise
    return log


def _run_gathering_output(cmd: list[str], *, cwd: str, timeout: float) -> tuple[int, str]:
    """`cmd`'s exit code and its stdout then its stderr (as `subprocess.run(capture_output=True,
    text=True)` gives them), read from the pipes in batches: bishengir writes its
    `--mlir-print-ir-after-all` dumps to an unbuffered stderr, a few bytes a write (about
    2 million writes for softmax on the 950), and reading each as it comes cost us a poll
    and a read per write (up to 1.8 CPU s of ours per kernel under load). Pausing a few
    milliseconds between reads lets the pipe gather them (its 64 KiB fill in about 20 ms
    at that rate); files instead of pipes cost bishengir more (a write system call to a
    file per few bytes)."""
    out: dict[int, list[bytes]] = {}
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        streams = (proc.stdout.fileno(), proc.stderr.fileno())
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            for fd in streams:
                out[fd] = []
                selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                if time.monotonic() > deadline:
                    proc.kill()
                    raise subprocess.TimeoutExpired(cmd, timeout)
                for key, _ in selector.select(timeout=1.0):
                    data = os.read(key.fd, 1 << 20)
                    if data:
                        out[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
                time.sleep(0.005)
        returncode = proc.wait()
    text = b"".join(out[streams[0]]).decode() + b"".join(out[streams[1]]).decode()
    return returncode, text.replace("\r\n", "\n").replace("\r", "\n")


def lower_for_bishengir(tile_module: Any, chip: str) -> str:
    """A tile-level module -> AscendNPU IR text without our synchronisation within a core
    (bishengir synchronises it itself); a MIX kernel keeps our cross-core hand-offs."""
    from ascend_mlir.context import make_context, run_pipeline

    ctx = make_context()
    module = tile_module.clone()
    # ascend-compile's lowering and target shaping; of our sync only a MIX kernel's
    # cross-core hand-offs (split-mix-kernel needs them; bishengir syncs within each core)
    spec = (f"convert-tile-to-hivm{{chip={chip}}},peel-mmad-init,ascend-insert-barrier-sync{{intra-core=false}},"
            "hoist-constants,split-mix-kernel")
    run_pipeline(ctx, module, spec)
    import io

    from ascend_mlir.targets.npuir import NpuirTarget

    out = io.StringIO()
    NpuirTarget().emit(ctx, module, out)
    return out.getvalue()


def is_cube(npuir: str) -> bool:
    return re.search(r"\bhivm\.hir\.(?:mmadL1|nd2nz|fixpipe)\b", npuir) is not None


@dataclass
class BishengirRun:
    """What `simulate_via_bishengir` saw: the simulation of bishengir's own output and
    the reference check of its outputs."""

    result: Any  # SimResult
    reference_match: bool
    comparison: list[dict]
    dump_after: str
    hivm: str  # the simulated hivm text (after to_simulator_text)

    @property
    def ok(self) -> bool:
        return self.result.ok and self.reference_match


def parse_hivm(text: str, name: str = "<bishengir>") -> Any:
    """Parse simulator text (from `to_simulator_text`) with our dialects plus affine."""
    from ascend_mlir.context import make_context
    from ascend_mlir.diagnostics import parse_module

    ctx = make_context()
    register_bishengir_dialects(ctx)
    return parse_module(ctx, text, name)


def register_bishengir_dialects(ctx: Any) -> None:
    """bishengir folds index arithmetic into affine.apply: the simulator reads it too."""
    if "affine" not in ctx.registered_dialect_names:
        from xdsl.dialects import get_all_dialects

        ctx.register_dialect("affine", get_all_dialects()["affine"])


def dump_argument_names(hivm_module: Any, tile_names: list[str] | None = None) -> dict[str, str]:
    """The tile kernel's GM argument names -> the dump's: the GM memrefs in order (a MIX
    kernel's dump has the FFTS base address in front of them)."""
    from xdsl.dialects.builtin import MemRefType

    from ascend_mlir.sim.hivm_frontend import find_kernel

    dump_names = [name for name, arg, _ in find_kernel(hivm_module).args if isinstance(arg.type, MemRefType)]
    if tile_names is None:
        tile_names = [f"arg{i}" for i in range(len(dump_names))]
    return dict(zip(tile_names, dump_names, strict=False))


def simulate_bishengir_output(hivm_module: Any, inputs: dict | None, *, grid: int, chip: str | None = None,
                              seed: int = 0, blocks: int | None = None, perturb: int | None = None,
                              trace: bool = False, tile_names: list[str] | None = None):
    """Simulate a parsed bishengir dump as a kernel of `grid` blocks. `inputs` and the
    result's outputs are keyed by the tile kernel's GM arguments (`tile_names`, default
    arg0, arg1...; see `dump_argument_names`)."""
    from ascend_mlir.dialects import ascend
    from ascend_mlir.sim.hivm_frontend import find_kernel
    from ascend_mlir.sim.simulator import simulate

    kernel = find_kernel(hivm_module)
    for f in (kernel.aic, kernel.aiv):
        if f is not None:
            ascend.set_grid(f, grid)
    to_dump = dump_argument_names(hivm_module, tile_names)
    if inputs is not None:
        inputs = {to_dump.get(k, k): v for k, v in inputs.items()}
    result = simulate(hivm_module, inputs, chip=chip, seed=seed, blocks=blocks, perturb=perturb, trace=trace)
    to_tile = {dump: tile for tile, dump in to_dump.items()}
    result.outputs = {to_tile.get(k, k): v for k, v in result.outputs.items()}
    result.output_types = {to_tile.get(k, k): v for k, v in result.output_types.items()}
    return result


def simulate_via_bishengir(tile: Any, *, chip: str = "ascend910b", seed: int = 0, blocks: int | None = None,
                           options: tuple[str, ...] | None = None) -> BishengirRun:
    """The whole route for a tile-level kernel (a parsed module or a path): lower it
    without our sync, let bishengir-compile synchronise and plan it, simulate the last
    hivm dump over the kernel's grid, compare its outputs with the reference."""
    from ascend_mlir.dialects import ascend
    from ascend_mlir.sim.reference import gm_arguments, kernel_function, make_inputs, run_reference

    if isinstance(tile, (str, os.PathLike)):
        tile = parse_hivm(Path(tile).read_text(), str(tile))
    tile_func = kernel_function(tile)
    inputs = make_inputs(tile_func, seed)
    expected = run_reference(tile, inputs)
    npuir = lower_for_bishengir(tile, chip)
    if options is None:
        options = CUBE_OPTIONS if is_cube(npuir) else ()
    log = run_bishengir(npuir, options=options)
    dump = last_hivm_dump(log)
    text = to_simulator_text(log)
    module = parse_hivm(text, f"<bishengir dump after {dump.after}>")
    grid = ascend.launch_grid(tile_func)
    tile_names = [name for name, _ in gm_arguments(tile_func)]
    result = simulate_bishengir_output(module, inputs, grid=grid, chip=chip, seed=seed, blocks=blocks,
                                       tile_names=tile_names)
    from ascend_mlir.sim.routes import compare_simulated

    partial = blocks is not None and blocks < grid
    match, comparison = (True, []) if partial else compare_simulated(result, expected)
    return BishengirRun(result, match, comparison, dump.after, text)


# ------------------------------------------------------------------------------ bishengir's sync on our plan

# bishengir-opt's two intra-core sync passes (bishengir-compile runs the graph solver by
# default, `--enable-hivm-graph-sync-solver`); bench/e2e's column (d) reports the better
SYNC_PASSES = ("hivm-inject-sync", "hivm-graph-sync-solver")


def lower_planned_for_bishengir(tile_module: Any) -> str:
    """A tile-level module -> AscendNPU IR in program order with our memory plan (one
    version per buffer) and no sync within a core: what bishengir-opt's sync passes take
    (a MIX kernel keeps our cross-core hand-offs, which split-mix-kernel needs)."""
    from ascend_mlir.context import make_context, run_pipeline

    ctx = make_context()
    module = tile_module.clone()
    # peel-mmad-init: bishengir crashes on a mmadL1 init computed inside the K loop
    spec = ("convert-tile-to-hivm,peel-mmad-init,ascend-plan-memory,"
            "ascend-insert-barrier-sync{intra-core=false},hoist-constants,split-mix-kernel")
    run_pipeline(ctx, module, spec)
    import io

    from ascend_mlir.targets.npuir import NpuirTarget

    out = io.StringIO()
    NpuirTarget().emit(ctx, module, out)
    return out.getvalue()


def bishengir_opt(npuir: str = "") -> str:
    """The bishengir-opt build for the module's target (the `-a5` build for Ascend 950:
    the other one does not parse the 950's op syntax)."""
    from ascend_mlir.testing import find_tool

    name = "bishengir-opt-a5" if _targets_a5(npuir) else "bishengir-opt"
    tool = find_tool(name)
    if tool is None:
        raise BishengirError(f"{name} is not installed (pip package ascendnpu-ir)")
    return tool


def run_bishengir_sync(npuir: str, sync_pass: str) -> str:
    """`bishengir-opt -<sync_pass>` on AscendNPU IR text; the synced module as it prints it."""
    if sync_pass not in SYNC_PASSES:
        raise BishengirError(f"unknown bishengir sync pass {sync_pass} (expected one of: {', '.join(SYNC_PASSES)})")
    done = subprocess.run([bishengir_opt(npuir), f"-{sync_pass}", "-"], input=npuir, capture_output=True,
                          text=True, timeout=600, check=False)
    if done.returncode != 0:
        detail = "; ".join(bishengir_errors(done.stderr)[:3]) or done.stderr.strip()[-500:]
        raise BishengirError(f"bishengir-opt -{sync_pass} failed (exit {done.returncode}): {detail}")
    return done.stdout


def simulate_bishengir_sync(tile_module: Any, sync_pass: str, *, blocks: int | None = 1,
                            name: str = "<bishengir>") -> Any:
    """bishengir's own sync (`sync_pass`) on our planned, unsynced lowering of a tile-level
    kernel, simulated (a SimResult: cycles, races, deadlock...; over `blocks` blocks)."""
    from ascend_mlir.sim.simulator import simulate

    synced = run_bishengir_sync(lower_planned_for_bishengir(tile_module), sync_pass)
    module = parse_hivm(to_simulator_text(synced), f"{name} after bishengir-opt -{sync_pass}")
    return simulate(module, None, blocks=blocks, trace=False)
