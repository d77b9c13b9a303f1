"""Run kernels through the CCE printer and the CPU emulation of the Ascend C API
(`tools/cce-emu`): print with `-t cce`, compile with g++, load with ctypes, run on numpy.

* `build(units)` compiles one or more printed translation units into one shared library
  (`g++ -std=c++17 -O1 -Wall -Werror`), cached by content hash under the temp dir, so
  a kernel is compiled once however often tests run it; tools/cce-emu's header is
  precompiled once per cache (`precompiled_header`): the same code, the header not parsed per unit;
* `run_kernel(lib, kernel, func_op, inputs)` runs every block (cores as threads) on copies
  of the inputs and returns the GM arguments after the run ("arg<i>", storage form as the
  reference interpreter: bf16 as ml_dtypes.bfloat16);
* `run_via_cce(...)` is `ascend-sim --via cce`: tile-level file -> ascend-compile -> cce
  -> g++ -> run on the simulator's seeded inputs, compared with the reference.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import AnyFloat, BFloat16Type, IndexType, IntegerType, MemRefType, ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from ascend_mlir.chips import chip_for_arch, load_chip, resolve_chip
from ascend_mlir.dialects import hacc
from ascend_mlir.sim.reference_numerics import BF16
from ascend_mlir.targets.cce import Kernel, c_element_type, find_kernels, print_cce
from ascend_mlir.targets.cce.values import stride_parameters

CXX_FLAGS = ("-std=c++17", "-O1", "-Wall", "-Werror", "-shared", "-fPIC", "-pthread")
MESSAGE_BYTES = 4096


# the scopes of tools/cce-emu's Scope enum, in its order
EMU_SCOPES = ("gm", "cbuf", "ca", "cb", "cc", "ub")


class EmulationBuildError(RuntimeError):
    """g++ rejected a printed kernel (message: the compiler's output)."""


def emu_dir() -> Path:
    """tools/cce-emu of the source tree this package comes from."""
    return Path(__file__).resolve().parents[2] / "tools" / "cce-emu"


def compiler() -> str | None:
    return os.environ.get("CXX") or shutil.which("g++")


@dataclass(frozen=True)
class Unit:
    """A printed translation unit, its kernels, and the tag that keeps its symbols apart
    from other units of the same library."""

    source: str
    kernels: tuple[Kernel, ...]
    tag: str
    # bytes per on-chip scope of the chip the unit is built for (None: the default chip's);
    # the emulation's memories have these sizes, so a kernel that overflows them fails
    capacity: tuple[tuple[str, int], ...] | None = None

    def symbol(self, kernel: Kernel) -> str:
        return f"{kernel.name}__{self.tag}"


def _launcher(unit: Unit, kernel: Kernel) -> str:
    f = kernel.signature_func
    casts = []
    for i, arg in enumerate(f.args):
        t = arg.type
        if isinstance(t, MemRefType):
            casts.append(f"({c_element_type(t.get_element_type())} *)args[{i}]")
        elif hacc.is_ffts_base_address(f, i):
            casts.append("0")  # the FFTS base address of a split MIX kernel: unused by the emulation
        elif isinstance(t, IntegerType | IndexType):
            casts.append(f"({c_element_type(t)})*(const int64_t *)args[{i}]")  # a scalar argument
        elif isinstance(t, AnyFloat):
            casts.append(f"({c_element_type(t)})(float)*(const double *)args[{i}]")
        else:
            raise ValueError(f"kernel argument {i} of type {t} cannot be passed by the emulation harness")
    # the runtime row pitches follow the arguments (targets/cce/values.stride_parameters)
    for j, _ in enumerate(_pitches(f)):
        casts.append(f"*(const int64_t *)args[{len(f.args) + j}]")
    name = unit.symbol(kernel)
    capacity = dict(unit.capacity) if unit.capacity is not None else load_chip(None).capacity
    # indexed by the emulation's Scope enum (gm, cbuf, ca, cb, cc, ub); GM is the caller's
    caps = ", ".join(str(capacity[s]) if s != "gm" else "0" for s in EMU_SCOPES)
    return (
        f'extern "C" int asc_emu_launch_{name}(void **args, char *msg, int msg_len) {{\n'
        f"  static const size_t caps[] = {{{caps}}};\n"
        f"  return asc_emu::launch({kernel.grid}, {kernel.n_cube}, {kernel.n_vector_cores}, caps, "
        f"[&]() {{ unit_{unit.tag}::{name}({', '.join(casts)}); }}, msg, (size_t)msg_len);\n}}\n"
    )


def _pitches(f: func.FuncOp) -> list[tuple[int, int]]:
    """(argument index, dimension) of each runtime row pitch the printed kernel takes."""
    return [(i, d) for i, d, _ in stride_parameters(f.args, [f"arg{i}" for i in range(len(f.args))])]


def _combined_source(units: Sequence[Unit]) -> str:
    parts = ['#include "asc_emu.h"\n']
    for unit in units:
        renames = [k.name for k in unit.kernels]
        parts += [f"#define {n} {unit.symbol(k)}\n" for n, k in zip(renames, unit.kernels, strict=True)]
        # each unit in its own namespace: units printed alike share helper names (the
        # __simd_vf__ functions); the kernels are extern "C" under their unique symbols
        parts += [f"namespace unit_{unit.tag} {{\n", unit.source, f"}}  // namespace unit_{unit.tag}\n"]
        parts += [f"#undef {n}\n" for n in renames]
        parts += [_launcher(unit, k) for k in unit.kernels]
    return "".join(parts)


def _header_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(emu_dir().glob("*.h")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def precompiled_header(cxx: str, cache: Path) -> Path | None:
    """A directory holding `asc_emu.h.gch`, tools/cce-emu's header precompiled with the
    build's own flags (-Wall -Werror included), or None where g++ cannot make one. Put
    before tools/cce-emu on the include path, g++ reads it instead of parsing the header
    (about 1.8 of a translation unit's CPU s) and emits the same code; where it does not
    fit, g++ parses the header as before. Built once per header bytes, compiler and flags
    (the directory's name), into a file of this process that is renamed into place, so
    concurrent builds (pytest-xdist workers) never read a half-written one."""
    key = hashlib.sha256("\0".join((_header_digest(), cxx, *CXX_FLAGS)).encode()).hexdigest()[:24]
    directory = cache / f"pch-{key}"
    gch = directory / "asc_emu.h.gch"
    if gch.exists():
        return directory
    directory.mkdir(exist_ok=True)
    # precompiled from a wrapper: the header's own `#pragma once` warns in a main file
    wrapper = directory / f"wrapper.{os.getpid()}.h"
    wrapper.write_text(f'#include "{emu_dir() / "asc_emu.h"}"\n', encoding="utf-8")
    partial = directory / f"asc_emu.h.gch.{os.getpid()}"
    compile_flags = [f for f in CXX_FLAGS if f != "-shared"]
    made = subprocess.run([cxx, *compile_flags, f"-I{emu_dir()}", "-x", "c++-header", str(wrapper), "-o", str(partial)],
                          capture_output=True, text=True)
    wrapper.unlink(missing_ok=True)
    if made.returncode != 0:
        partial.unlink(missing_ok=True)
        return None  # the units' own compile reports what is wrong with the header
    os.replace(partial, gch)
    return directory


def build(units: Sequence[Unit]) -> ctypes.CDLL:
    """Compile `units` into one shared library (cached by content) and load it."""
    cxx = compiler()
    if cxx is None:
        raise EmulationBuildError("no C++ compiler (g++) found")
    source = _combined_source(units)
    key = hashlib.sha256("\0".join((source, _header_digest(), cxx, *CXX_FLAGS)).encode()).hexdigest()[:24]
    # (the key covers every unit; they compile as several translation units, see below)
    cache = Path(tempfile.gettempdir()) / "ascend-mlir-cce-emu"
    cache.mkdir(exist_ok=True)
    library = cache / f"{key}.so"
    if not library.exists():
        _compile_parallel(cxx, units, cache, key, library)
    return ctypes.CDLL(str(library))


def _compile_parallel(cxx: str, units: Sequence[Unit], cache: Path, key: str, library: Path) -> None:
    """Compile the units as up to one translation unit per CPU (g++ is the slow part),
    then link them into `library`."""
    jobs = max(1, min(os.cpu_count() or 1, len(units) // 8))
    groups = [list(units[i::jobs]) for i in range(jobs)]
    compile_flags = [f for f in CXX_FLAGS if f != "-shared"]
    pch = precompiled_header(cxx, cache)
    includes = ([f"-I{pch}"] if pch is not None else []) + [f"-I{emu_dir()}"]
    objects, procs = [], []
    for index, group in enumerate(groups):
        # per process, like the objects: two processes building the same library at once
        # (pytest-xdist workers, two test runs) must not truncate a source g++ is reading
        src = cache / f"{key}.{index}.{os.getpid()}.cc"
        src.write_text(_combined_source(group), encoding="utf-8")
        obj = cache / f"{key}.{index}.{os.getpid()}.o"
        objects.append(obj)
        procs.append((src, subprocess.Popen([cxx, *compile_flags, *includes, "-c", str(src), "-o", str(obj)],
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    errors = []
    for src, proc in procs:
        _, err = proc.communicate()
        if proc.returncode != 0:
            errors.append(f"g++ failed on {src}:\n{err[-6000:]}")
    if errors:
        raise EmulationBuildError("\n".join(errors))
    partial = cache / f"{key}.{os.getpid()}.so"
    link = subprocess.run([cxx, "-shared", "-pthread", *map(str, objects), "-o", str(partial)],
                          capture_output=True, text=True)
    for obj in objects:
        obj.unlink(missing_ok=True)
    for src, _ in procs:
        src.unlink(missing_ok=True)
    if link.returncode != 0:
        raise EmulationBuildError(f"linking {library.name} failed:\n{link.stderr[-6000:]}")
    os.replace(partial, library)


# ----- data in and out --------------------------------------------------------------------


def _to_device(array: np.ndarray, t: MemRefType) -> np.ndarray:
    element = t.get_element_type()
    if isinstance(element, BFloat16Type):
        return np.ascontiguousarray(array, dtype=BF16).view(np.uint16)  # exact on bf16 inputs
    return np.array(array, copy=True, order="C")


def _from_device(array: np.ndarray, t: MemRefType) -> np.ndarray:
    if isinstance(t.get_element_type(), BFloat16Type):
        return np.ascontiguousarray(array, dtype=np.uint16).view(BF16)  # the same 16 bits
    return array


@dataclass
class EmulationResult:
    outputs: dict[str, np.ndarray]
    error: str | None  # the emulation's failure message (deadlock, flags, bounds), if any

    @property
    def deadlock(self) -> bool:
        return self.error is not None and "deadlock" in self.error

    @property
    def unbalanced_flags(self) -> list[str]:
        return [self.error] if self.error is not None and "still set at the end" in self.error else []


def run_kernel(lib: ctypes.CDLL, unit: Unit, kernel: Kernel, inputs: Mapping[str, np.ndarray]) -> EmulationResult:
    """Run `kernel` on copies of `inputs` ("arg<i>" -> array, the GM arguments of the
    tile-level kernel) and return every GM argument after the run, under the same names."""
    f = kernel.signature_func
    # the i-th memref parameter is the i-th GM argument of the tile-level kernel (a split
    # MIX kernel has the FFTS base address in front); scalar arguments ("arg<i>" numbers
    # among the inputs, sim.binding) are passed by value
    arrays = {k: v for k, v in inputs.items() if isinstance(v, np.ndarray)}
    names = sorted(arrays, key=lambda n: int(n[3:]) if n[3:].isdigit() else 0)
    params = [(arg, t) for arg in f.args if isinstance(t := arg.type, MemRefType)]
    if len(params) != len(names):
        raise ValueError(f"the kernel has {len(params)} memref arguments, the inputs {len(names)}")
    buffers = [_to_device(np.asarray(arrays[name]), t) for name, (_, t) in zip(names, params, strict=True)]
    slots: list[int | None] = []
    scalars: list[ctypes.c_int64 | ctypes.c_double] = []  # kept alive for the call
    it = iter(buffers)
    data_index = 0
    for i, arg in enumerate(f.args):
        if hacc.is_ffts_base_address(f, i):
            slots.append(None)
            continue
        if isinstance(arg.type, MemRefType):
            slots.append(next(it).ctypes.data)
        else:
            value = inputs.get(f"arg{data_index}", 0)
            box = ctypes.c_double(float(value)) if isinstance(arg.type, AnyFloat) else ctypes.c_int64(int(value))
            scalars.append(box)
            slots.append(ctypes.addressof(box))
        data_index += 1
    arrays_of_args = dict(zip([arg for arg, _ in params], buffers, strict=True))
    for index, dim in _pitches(f):  # the real row pitch, in elements, of the contiguous array
        box = ctypes.c_int64(int(np.prod(arrays_of_args[f.args[index]].shape[dim + 1:], dtype=np.int64)))
        scalars.append(box)
        slots.append(ctypes.addressof(box))
    pointers = (ctypes.c_void_p * max(1, len(slots)))(*slots)
    message = ctypes.create_string_buffer(MESSAGE_BYTES)
    launch = getattr(lib, f"asc_emu_launch_{unit.symbol(kernel)}")
    launch.restype = ctypes.c_int
    status = launch(pointers, message, MESSAGE_BYTES)
    outputs = {name: _from_device(buffer, t) for name, (_, t), buffer in zip(names, params, buffers, strict=True)}
    error = message.value.decode("utf-8", "replace") if status else None
    return EmulationResult(outputs, error)


def lowered_for_cce(module: ModuleOp, arch: str | None = None) -> ModuleOp:
    """What the CCE route prints: `module` when it holds no mmadL1 and no unplanned
    on-chip alloc, else a clone prepared by the passes `-t cce` asks for, for the chip
    printed for: ascend-plan-memory (reuse=false: the file's flags cannot know of a
    reuse), ascend-lower-mmad-l0 and ascend-lower-wide-reduce, so the printed L0A/L0B
    flags and the dav-c220 reductions' steps, scratch and V barriers are the IR's.
    (ascend-compile{target=cce} does both before its sync check; a hivm-level file is
    prepared here, its sync judged by the printer's check and the emulation.)"""
    from xdsl.context import Context
    from xdsl.dialects import memref

    from ascend_mlir.dialects import hivm
    from ascend_mlir.transforms.lower_mmad_l0 import LowerMmadL0Pass
    from ascend_mlir.transforms.lower_wide_reduce import ARCH as WIDE_REDUCE_ARCH
    from ascend_mlir.transforms.lower_wide_reduce import LowerWideReducePass, needs_lowering
    from ascend_mlir.transforms.plan_memory import PlanMemoryPass

    chip = resolve_chip(module)
    printed_for = chip_for_arch(arch).name if arch not in (None, chip.arch) else None
    unplanned = any(isinstance(op, memref.AllocOp) and hivm.scope_of(op.memref) not in (None, "gm")
                    for op in module.walk())
    wide = (arch or chip.arch) == WIDE_REDUCE_ARCH and any(needs_lowering(op) for op in module.walk())
    unlowered = wide or any(isinstance(op, hivm.MmadL1Op) for op in module.walk())
    if not (unplanned or unlowered):
        return module
    prepared = module.clone()
    if unplanned:
        PlanMemoryPass(chip=printed_for, reuse=False).apply(Context(), prepared)
    LowerMmadL0Pass(chip=printed_for).apply(Context(), prepared)
    LowerWideReducePass(chip=printed_for).apply(Context(), prepared)
    return prepared


def unit_of(module: ModuleOp, arch: str | None, tag: str) -> Unit:
    """Print `module` (hivm level; mmadL1 lowered first, `lowered_for_cce`) and wrap it as a unit."""
    module = lowered_for_cce(module, arch)
    source = print_cce(module, arch)
    chip = resolve_chip(module)
    if arch is not None and arch != chip.arch:
        chip = chip_for_arch(arch)
    capacity = tuple((scope, chip.capacity[scope]) for scope in EMU_SCOPES)
    return Unit(source, tuple(find_kernels(module)), re.sub(r"[^A-Za-z0-9_]", "_", tag), capacity)


# ----- ascend-sim --via cce ---------------------------------------------------------------


def _kernel_func(module: ModuleOp) -> func.FuncOp:
    from ascend_mlir.sim.reference import kernel_function

    return kernel_function(module)


def _reference_and_emulation(args, tool, module: ModuleOp, inputs, tile_level: bool, progress):
    """(expected outputs or None, emulation result, unit), or the exit status of a problem
    already reported: the reference and ascend-compile of a tile-level module, the
    g++ build and the run, each a step of the progress line."""
    from ascend_mlir.sim.reference import ReferenceError, run_reference
    from ascend_mlir.sim.routes import compile_tile_level, located_problem

    expected = None
    if tile_level:
        with progress.phase("running the reference interpreter"):
            try:
                expected = run_reference(module.clone(), inputs)
            except ReferenceError as err:
                print(located_problem(err), file=sys.stderr)
                return 1
        # compiled for the chip printed for: --chip, else --arch's chip (the 910B's sync
        # and plan differ from the 950's), else the module's
        chip = args.chip or (chip_for_arch(args.arch).name if args.arch else None)
        with progress.phase("compiling (ascend-compile)"):
            compile_tile_level(tool.ctx, module, chip, target="cce")
    unit = unit_of(module, args.arch, "via_cce")
    kernels = list(unit.kernels)
    if len(kernels) != 1:
        print(f"{args.file}: error: --via cce runs one kernel, the module has {len(kernels)}", file=sys.stderr)
        return 1
    try:
        with progress.phase("building the CCE kernel with g++"):
            lib = build([unit])
    except EmulationBuildError as err:
        print(f"{args.file}: error: {err}", file=sys.stderr)
        return 1
    with progress.phase("running the CCE emulation"):
        return expected, run_kernel(lib, unit, kernels[0], inputs), unit


def _simulator_problems(simulated) -> list[str]:
    """What makes the simulator's run of the same kernel no cross-check (each message
    locates its ops)."""
    if simulated is None:
        return []
    problems = [r.message() for r in simulated.races]
    problems += [u.message() for u in simulated.uninitialized_reads]
    problems += [f"deadlock: {line}" for line in simulated.deadlock_info] if simulated.deadlock else []
    problems += [f"double set: {line}" for line in simulated.double_sets]
    problems += [f"unbalanced flag: {line}" for line in simulated.unbalanced_flags]
    return problems


def run_via_cce(args, tool, module: ModuleOp) -> int:
    """`ascend-sim --via cce [--arch A] FILE`: same JSON keys and exit codes as the simulator."""
    from ascend_mlir.progress import Progress
    from ascend_mlir.sim.reference import make_inputs
    from ascend_mlir.sim.routes import argument_roles_of, compare_outputs, is_tile_level, name_arguments

    roles = argument_roles_of(module)
    tile_level = is_tile_level(module)
    kernel_func = _kernel_func(module) if tile_level else find_kernels(module)[0].signature_func
    from ascend_mlir.diagnostics import location_of
    from ascend_mlir.sim.binding import BindError, bind_arguments, parse_bind_options

    try:
        binding = bind_arguments(kernel_func, parse_bind_options(args.bind or []))
    except BindError as err:
        where = location_of(err.func_op) if err.func_op is not None else None
        print(f"{where or 'ascend-sim'}: error: {err}", file=sys.stderr)
        return 1
    inputs = make_inputs(kernel_func, args.seed, binding)
    types = {f"arg{i}": str(a.type.get_element_type()) for i, a in enumerate(kernel_func.args)
             if isinstance(a.type, MemRefType)}
    progress = getattr(args, "progress_line", None) or Progress("ascend-sim", "off")
    try:
        ran = _reference_and_emulation(args, tool, module, inputs, tile_level, progress)
    finally:
        progress.close()
    if isinstance(ran, int):
        return ran
    expected, result, unit = ran
    reference_match, comparison = None, []
    if expected is not None and result.error is None:
        reference_match, comparison = compare_outputs(result.outputs, expected, types)
        name_arguments(comparison, roles)
    simulator_match = None
    simulated = None
    if expected is None and result.error is None:
        # a hivm-level file has no tile-level reference: the simulator's outputs on the
        # same inputs are the cross-check
        from ascend_mlir.sim.simulator import simulate

        try:
            # what was printed is what is simulated (mmadL1 lowered as for the print)
            simulated = simulate(lowered_for_cce(module, args.arch), inputs, chip=args.chip, seed=args.seed)
        # a kernel the simulator cannot run (the errors ascend-sim reports as bad input)
        # is not a cce failure
        except (DiagnosticException, ValueError, NotImplementedError) as err:
            print(f"note: no simulator cross-check: {err}", file=sys.stderr)
        else:
            simulator_match, comparison = compare_outputs(result.outputs, simulated.outputs, types)
    # unsynchronised (or otherwise broken) hivm code: the simulator's outputs are no
    # cross-check, and its located reports say why the run is not trusted
    problems = _simulator_problems(simulated)
    ok = result.error is None and reference_match is not False and simulator_match is not False and not problems
    _print_via_cce(args, unit, result, simulated, problems, reference_match, simulator_match, comparison, ok)
    return 0 if ok else 1


def _print_via_cce(args, unit, result, simulated, problems, reference_match, simulator_match, comparison,
                   ok) -> None:
    from ascend_mlir.sim.routes import comparison_line

    if args.json:
        print(json.dumps({
            "via": "cce", "arch": args.arch or unit.source.split("for ", 1)[1].split(",", 1)[0],
            "cycles": None, "races": [r.to_json() for r in simulated.races] if simulated is not None else [],
            "uninitialized_reads": [u.to_json() for u in simulated.uninitialized_reads] if simulated is not None else [],
            "simulator_errors": problems, "deadlock": result.deadlock, "unbalanced_flags": result.unbalanced_flags,
            "reference_match": reference_match, "simulator_match": simulator_match, "pipe_busy": {},
            "error": result.error, "reference": comparison,
            "ok": ok,
        }))
    else:
        if result.error is not None:
            print(f"error: {result.error}")
        for line in problems:
            print(f"error: {line}")
        for c in comparison:
            print(comparison_line(c))
        print("OK" if ok else "FAILED")
