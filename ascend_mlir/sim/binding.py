"""Runtime values of a kernel's arguments: `--bind NAME=VALUE` of `ascend-sim`.

A kernel compiled once runs at sizes it learns only when it is called: GM memref
arguments with dynamic dimensions (`memref<?x4096xf32, gm>`) and scalar arguments
(`index`, `i1`..`i64`, `f16`/`bf16`/`f32`). Before the reference interpreter, the
simulator or the CCE emulation can run such a kernel, every dynamic dimension and every
scalar needs a value. This module gives them, for any kernel function (tile level, our
hivm level, or a foreign hivm-level dump), so every route of the oracle binds alike:

* `NAME` is the argument's name as written in the file (`%n` -> `n`), or its position
  `arg<i>` (the naming of `reference.gm_arguments`, FFTS base address not counted);
* a scalar takes a number of its type (`n=1000`, `alpha=0.5`, `flag=1`): an integer type
  takes an integer in the type's range, a float type any number, `i1` 0/1/true/false;
* a GM memref takes its shape, `x=1000x4096`: the rank of its type, and the static
  dimensions as the type states them.

Defaults for what is not bound (stated in `ascend-sim --help` by `DEFAULTS_HELP`):

* an integer or index scalar is `DEFAULT_INT` (1000: not a multiple of any power-of-two
  tile, so the default run has a tail);
* a float scalar is `DEFAULT_FLOAT` (0.5: a scale of 1 would hide a scale not applied);
* an `i1` scalar is 1 (true);
* a dynamic GM dimension is the largest integer scalar value of the call (bound or
  default; 0 when all are negative), or `DEFAULT_INT` when the kernel has no integer scalar: a kernel
  that takes its sizes as scalars and its data as `?` memrefs then gets arrays large
  enough for every size without binding both.

Bad values raise `BindError`, which names the kernel function so the caller can report
it at the function's location.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IndexType, IntegerType, MemRefType
from xdsl.ir import Attribute, BlockArgument

from ascend_mlir.dialects import hacc

__all__ = [
    "DEFAULTS_HELP",
    "DEFAULT_FLOAT",
    "DEFAULT_INT",
    "BindError",
    "Binding",
    "bind_arguments",
    "parse_bind_options",
]

DEFAULT_INT = 1000
DEFAULT_FLOAT = 0.5
DEFAULTS_HELP = (
    f"unbound integer/index scalars are {DEFAULT_INT}, float scalars {DEFAULT_FLOAT}, i1 scalars 1; "
    f"an unbound dynamic GM dimension is the largest integer scalar of the call (or {DEFAULT_INT} "
    "when the kernel has none)"
)

_NAME = re.compile(r"[A-Za-z_$.][\w$.\-]*")
_SHAPE = re.compile(r"\d+(x\d+)*")


class BindError(Exception):
    """A `--bind` that does not fit the kernel; `func_op` is where to report it (None
    for a malformed option that no kernel is needed to judge)."""

    def __init__(self, message: str, func_op: func.FuncOp | None = None) -> None:
        super().__init__(message)
        self.func_op = func_op


@dataclass
class Binding:
    """Values of one call: GM memref shapes and scalar values, keyed "arg<i>"."""

    shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    scalars: dict[str, int | float] = field(default_factory=dict)


def parse_bind_options(options: Sequence[str]) -> dict[str, str]:
    """NAME -> VALUE text of repeated `--bind NAME=VALUE` options (a leading `%` of the
    name is dropped); a malformed or repeated option raises BindError."""
    binds: dict[str, str] = {}
    for option in options:
        name, eq, value = option.partition("=")
        name = name.strip().removeprefix("%")
        if not eq or not _NAME.fullmatch(name) or not value.strip():
            raise BindError(f"--bind {option}: expected NAME=VALUE (a scalar: n=1000; a GM memref: x=1000x4096)")
        if name in binds:
            raise BindError(f"--bind {option}: {name} is bound twice")
        binds[name] = value.strip()
    return binds


def _data_arguments(func_op: func.FuncOp) -> list[tuple[str, BlockArgument]]:
    """("arg<i>", argument) of every argument but the FFTS base address (the naming of
    reference.gm_arguments and of the simulator's kernel arguments)."""
    data = [a for i, a in enumerate(func_op.args) if not hacc.is_ffts_base_address(func_op, i)]
    return [(f"arg{i}", a) for i, a in enumerate(data)]


def _integer_range(t: Attribute) -> tuple[int, int] | None:
    if isinstance(t, IndexType):
        return -(1 << 63), (1 << 63) - 1
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return 0, 1
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return None


def _scalar_value(label: str, t: Attribute, text: str, func_op: func.FuncOp) -> int | float:
    bounds = _integer_range(t)
    if isinstance(t, IntegerType) and t.width.data == 1 and text.lower() in ("true", "false"):
        return int(text.lower() == "true")
    if bounds is not None:
        try:
            value = int(text, 0)
        except ValueError:
            raise BindError(f"--bind {label}={text}: argument %{label} is {t}: expected an integer", func_op) from None
        if not bounds[0] <= value <= bounds[1]:
            raise BindError(f"--bind {label}={text}: {value} is out of the range of {t}", func_op)
        return value
    if isinstance(t, AnyFloat):
        try:
            return float(text)
        except ValueError:
            raise BindError(f"--bind {label}={text}: argument %{label} is {t}: expected a number", func_op) from None
    raise BindError(f"--bind {label}={text}: argument %{label} has type {t}, which takes no value", func_op)


def _shape_value(label: str, t: MemRefType, text: str, func_op: func.FuncOp) -> tuple[int, ...]:
    if text.startswith("-") or "x-" in text:
        raise BindError(f"--bind {label}={text}: a size is never negative", func_op)
    if not _SHAPE.fullmatch(text):
        raise BindError(f"--bind {label}={text}: argument %{label} is a memref: expected its shape, "
                        f"e.g. {'x'.join(['1000'] * max(1, t.get_num_dims()))}", func_op)
    shape = tuple(int(d) for d in text.split("x"))
    declared = t.get_shape()
    if len(shape) != len(declared):
        raise BindError(f"--bind {label}={text}: argument %{label} is {t}, of rank {len(declared)}", func_op)
    for dim, (given, static) in enumerate(zip(shape, declared)):
        if static != DYNAMIC_INDEX and given != static:
            raise BindError(f"--bind {label}={text}: dimension {dim} of %{label} is {static} in its type {t}", func_op)
    return shape


def _default_scalar(t: Attribute) -> int | float:
    if isinstance(t, IntegerType) and t.width.data == 1:
        return 1
    if _integer_range(t) is not None:
        return DEFAULT_INT
    return DEFAULT_FLOAT


def _known_names(args: list[tuple[str, BlockArgument]]) -> str:
    return ", ".join(a.name_hint or key for key, a in args) or "none"


def bind_arguments(func_op: func.FuncOp, binds: Mapping[str, str] | None = None) -> Binding:
    """The values of every dynamic GM dimension and every scalar argument of `func_op`
    for one call: `binds` (NAME -> VALUE text, see parse_bind_options) where given,
    the documented defaults otherwise. Static GM memrefs get their static shape."""
    binds = dict(binds or {})
    args = _data_arguments(func_op)
    # a name as written wins over a position: in bishengir's dumps `%arg8` is written
    # where the FFTS base address makes it the data argument at position arg7
    by_name: dict[str, tuple[str, BlockArgument]] = {key: (key, arg) for key, arg in args}
    by_name.update({arg.name_hint: (key, arg) for key, arg in args if arg.name_hint})
    chosen: dict[str, str] = {}
    for name, text in binds.items():
        if name not in by_name:
            raise BindError(f"--bind {name}={text}: @{func_op.sym_name.data} has no argument named '{name}' "
                            f"(its arguments: {_known_names(args)})", func_op)
        key, _ = by_name[name]
        if key in chosen:
            raise BindError(f"--bind {name}={text}: argument {key} is bound twice", func_op)
        chosen[key] = text
    binding = Binding()
    for key, arg in args:
        if isinstance(arg.type, MemRefType):
            continue
        label = arg.name_hint or key
        text = chosen.get(key)
        binding.scalars[key] = _default_scalar(arg.type) if text is None else _scalar_value(label, arg.type, text, func_op)
    integers = [int(v) for (key, arg) in args if key in binding.scalars and _integer_range(arg.type) is not None
                and not (isinstance(arg.type, IntegerType) and arg.type.width.data == 1)
                for v in (binding.scalars[key],)]
    default_dim = max(integers) if integers else DEFAULT_INT
    defaulted = [arg.name_hint or key for key, arg in args if isinstance(arg.type, MemRefType)
                 and key not in chosen and DYNAMIC_INDEX in arg.type.get_shape()]
    if defaulted and default_dim < 0:
        # the dynamic dimensions would default to a negative extent: refuse it rather than
        # run an empty kernel and call it a match
        scalars = ", ".join(f"{arg.name_hint or key}={binding.scalars[key]}" for key, arg in args
                            if key in binding.scalars and _integer_range(arg.type) is not None)
        raise BindError(f"--bind: {', '.join(defaulted)} default to the largest integer argument's "
                        f"extent ({scalars}), and a size is never negative: bind a non-negative value "
                        f"or give their shapes (e.g. {defaulted[0]}=1000)", func_op)
    for key, arg in args:
        t = arg.type
        if not isinstance(t, MemRefType):
            continue
        text = chosen.get(key)
        if text is not None:
            binding.shapes[key] = _shape_value(arg.name_hint or key, t, text, func_op)
        else:
            binding.shapes[key] = tuple(default_dim if d == DYNAMIC_INDEX else d for d in t.get_shape())
    _check_host_memory(func_op, args, binding)
    return binding


def _host_memory() -> int | None:
    """This machine's physical memory in bytes (None where the OS does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _check_host_memory(func_op: func.FuncOp, args: list[tuple[str, BlockArgument]], binding: Binding) -> None:
    """Refuse sizes whose GM arguments alone take more than a quarter of this machine's
    memory: the simulation holds them several times over (the inputs, global memory, the
    reference's copies), and numpy asked for 64 GiB at `--bind n=17179869184` on vecadd_dyn
    (an internal MemoryError, or the OOM killer where the allocation is lazy)."""
    from ascend_mlir.analysis.latency_model import element_bytes  # as the simulator imports it: when used
    from ascend_mlir.chips import ChipError

    memory = _host_memory()
    if memory is None:
        return
    sizes: list[tuple[int, str]] = []
    for key, arg in args:
        if isinstance(arg.type, MemRefType) and key in binding.shapes:
            elements = 1
            for d in binding.shapes[key]:
                elements *= d
            try:
                width = element_bytes(arg.type.get_element_type())
            except ChipError:  # a type no chip stores: at most 8 bytes, as index
                width = 8
            sizes.append((elements * width, arg.name_hint or key))
    total = sum(b for b, _ in sizes)
    if total * 4 <= memory:
        return
    largest = ", ".join(f"{name} {b / 2**30:.1f} GiB" for b, name in sorted(sizes, reverse=True)[:3])
    raise BindError(f"--bind: at these sizes the kernel's GM arguments take {total / 2**30:.1f} GiB ({largest}), "
                    f"more than a quarter of this machine's {memory / 2**30:.1f} GiB of memory, and the "
                    f"simulation holds them several times over: bind smaller sizes", func_op)
