"""The state behind the Python DSL: where ops go, which Python line they came from, and
the index values kernel code manipulates (`Index`, `Bool`; tiles are in tiles.py).

Ops are built with xDSL's `Builder` / `ImplicitBuilder`: while a kernel body runs, every
op created by DSL code is inserted at the current builder's insertion point (the kernel
body, or the body of the innermost `pipelined` loop). A listener on each builder stamps
every inserted op with the `FileLineColLoc` of the user's line that created it, so any
diagnostic of any later pass (`file:line:col: error: ...`) names the Python line.

Index arithmetic is emitted eagerly where the user writes it (so loop-invariant values
stay outside loops, as in hand-written IR); each `Index` also keeps a linear form
(`{atom: coeff} + const`) so that a slice `x[i*64:(i+1)*64]` knows its size is 64.
Arithmetic that only served such a size computation is erased when the kernel is done.
Integer and float constants are created once per kernel and placed at the top of the
kernel body, sorted, as hand-written tile IR does.
"""

from __future__ import annotations

import contextlib
import itertools
import linecache
import os
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import Union

from xdsl.builder import Builder, ImplicitBuilder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    AnyFloat,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.frontend.temporaries import plan_temporaries

# the compiler itself (DSL, dialect constructors), xDSL and the standard library are
# never "the user's line"
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_XDSL_DIR = os.path.dirname(os.path.abspath(sys.modules["xdsl"].__file__ or ""))
_STDLIB_DIR = os.path.dirname(os.path.abspath(contextlib.__file__))


# ----------------------------------------------------------------------------- locations


@dataclass(frozen=True)
class UserLocation:
    """A line of the user's Python code."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def attr(self) -> FileLineColLoc:
        return FileLineColLoc(StringAttr(self.file), IntAttr(self.line), IntAttr(self.column))


def _is_internal(filename: str) -> bool:
    path = os.path.abspath(filename)
    return path.startswith((_PACKAGE_DIR + os.sep, _XDSL_DIR, _STDLIB_DIR)) or filename.startswith("<frozen")


def _display_path(filename: str) -> str:
    """Relative to the working directory when the file is below it (shorter messages)."""
    if filename.startswith("<"):
        return filename
    relative = os.path.relpath(os.path.abspath(filename))
    return filename if relative.startswith("..") else relative


def _column(frame: FrameType) -> int:
    co_positions = getattr(frame.f_code, "co_positions", None)  # Python >= 3.11
    if co_positions is None:
        return 1
    positions = co_positions()
    entry = next(itertools.islice(positions, frame.f_lasti // 2, None), None)
    if entry is None or entry[2] is None:
        return 1
    return entry[2] + 1


def user_location() -> UserLocation | None:
    """The innermost frame of the call stack that is not DSL, xDSL or stdlib code."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and _is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return None
    return UserLocation(_display_path(frame.f_code.co_filename), frame.f_lineno, _column(frame))


class DSLError(Exception):
    """Misuse of the DSL (bad shapes, wrong scopes, ...), located at the user's line.

    `str(err)` is `file:line:col: error: message`; `err.location` and `err.message` give
    the parts."""

    def __init__(self, message: str, location: UserLocation | None = None):
        self.message = message
        self.location = location if location is not None else user_location()
        where = f"{self.location}: " if self.location else ""
        super().__init__(f"{where}error: {message}")


def report_uncaught_errors(kinds: tuple[type[BaseException], ...]) -> None:
    """Make an uncaught exception of `kinds` end the script with its message alone on
    stderr (it is `file:line:col: error: ...`) and status 1, not a traceback. Only when
    the interpreter's own hook is in place (an IDE's or IPython's is left alone);
    ASCEND_MLIR_DEBUG=1 keeps the traceback."""
    previous = sys.excepthook
    if previous is not sys.__excepthook__:
        return

    def hook(kind, error, trace) -> None:
        if isinstance(error, kinds) and not os.environ.get("ASCEND_MLIR_DEBUG"):
            print(error, file=sys.stderr)
            return
        previous(kind, error, trace)

    sys.excepthook = hook


def traceback_location(trace: TracebackType | None) -> UserLocation | None:
    """The innermost user frame of an exception's traceback (see `user_location`)."""
    found = None
    while trace is not None:
        code = trace.tb_frame.f_code
        if not _is_internal(code.co_filename):
            found = UserLocation(_display_path(code.co_filename), trace.tb_lineno, _column(trace.tb_frame))
        trace = trace.tb_next
    return found


def fail(message: str) -> DSLError:
    """The exception to raise for DSL misuse at the user's current line. Raised `from
    None` by callers so the report is the user's line, not our internals."""
    return DSLError(message)


# ----------------------------------------------------------------------------- kernel state


@dataclass
class KernelScope:
    """Everything one kernel build needs: the entry block, the constant pool, the stack
    of builders (one per open region) and the index ops made by the DSL."""

    entry: Block
    builders: list[Builder] = field(default_factory=list)
    constants: dict[tuple[object, Attribute], arith.ConstantOp] = field(default_factory=dict)
    index_ops: list[Operation] = field(default_factory=list)
    open_loops: list[Iterator[object]] = field(default_factory=list)
    values: list[tuple[SSAValue, UserLocation | None]] = field(default_factory=list)
    # the ub buffers expressions computed into (tiles.temporary), planned by `finish`
    temporaries: list[memref.AllocOp] = field(default_factory=list)

    def remember(self, value: SSAValue) -> SSAValue:
        """Note a value the user may have bound to a Python name (see `name_values`)."""
        self.values.append((value, user_location()))
        return value

    def name_values(self) -> None:
        """SSA names from the Python code: the last value made in a statement `x = ...` is
        %x, the induction variable of `for k in pipelined(...)` is %k. A statement is a
        line, or its part between semicolons where the value's column lies: `ux = T.alloc(..);
        uy = T.alloc(..)` named the second alloc %ux and left the first unnamed."""
        last: dict[tuple[str, int, int], tuple[SSAValue, str]] = {}
        for value, loc in self.values:
            if loc is not None:
                text = linecache.getline(loc.file, loc.line)
                begin = text.rfind(";", 0, max(loc.column - 1, 0)) + 1
                end = text.find(";", max(loc.column - 1, 0))
                last[(loc.file, loc.line, begin)] = (value, text[begin:end if end >= 0 else len(text)])
        for value, statement in last.values():
            name = _bound_name(statement)
            if name is not None and value.name_hint is None:
                value.name_hint = name

    def builder_for(self, block: Block) -> Builder:
        builder = Builder(InsertPoint.at_end(block))
        builder.operation_insertion_handler.append(_stamp_location)
        return builder

    @contextlib.contextmanager
    def inside(self, block: Block) -> Iterator[None]:
        """Build into `block` (implicitly, with located ops) until the context exits."""
        builder = self.builder_for(block)
        self.builders.append(builder)
        try:
            with ImplicitBuilder(builder):
                yield
        finally:
            self.builders.pop()

    def constant(self, value: int | float | bool, type_: Attribute) -> SSAValue:
        key = (value, type_)
        op = self.constants.get(key)
        if op is None:
            op = _make_constant(value, type_)
            op.result.name_hint = _constant_name(value, type_)
            if op.parent is not None:  # an implicit builder placed it; it goes on top later
                op.detach()
            loc = _location_attr()
            if loc is not None:
                op.location = loc
            self.constants[key] = op
        return op.result

    def finish(self) -> None:
        """Plan the expressions' temporaries, name values after the Python variables
        they are bound to, place the constants at the top of the entry block (index
        constants first, each group by value) and erase index arithmetic nothing uses."""
        plan_temporaries(self.temporaries)
        self.name_values()
        for op in reversed(list(self.index_ops)):
            block = op.parent_block()
            if block is not None and all(not r.uses for r in op.results):
                block.erase_op(op)
        used = [op for op in self.constants.values() if op.result.uses]
        used.sort(key=_constant_order)
        first = self.entry.first_op
        for op in used:
            if first is None:
                self.entry.add_op(op)
            else:
                self.entry.insert_op_before(op, first)
        for op in self.constants.values():
            if not op.result.uses:
                op.erase()


_ASSIGNMENT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=(?!=)")
_LOOP = re.compile(r"^\s*for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b")


def _bound_name(source_line: str) -> str | None:
    match = _ASSIGNMENT.match(source_line) or _LOOP.match(source_line)
    return match.group(1) if match else None


def _constant_order(op: arith.ConstantOp) -> tuple:
    value = op.value
    type_ = op.result.type
    group = 0 if isinstance(type_, IndexType) else 1 if isinstance(type_, IntegerType) else 2
    number = value.value.data if isinstance(value, IntegerAttr | FloatAttr) else 0
    return (group, str(type_), number)


def _constant_name(value: int | float | bool, type_: Attribute) -> str:
    """MLIR's spelling: %c512 for index, %c3_i32 for integers, %true/%false, %cst."""
    if type_ == i1:
        return "true" if value else "false"
    if isinstance(type_, IndexType):
        return f"c{value}" if value >= 0 else f"c_neg{-value}"
    if isinstance(type_, IntegerType):
        return f"c{value}_i{type_.width.data}" if value >= 0 else f"c_neg{-value}_i{type_.width.data}"
    return "cst"


def _make_constant(value: int | float | bool, type_: Attribute) -> arith.ConstantOp:
    if isinstance(type_, IndexType | IntegerType):
        return arith.ConstantOp(IntegerAttr(int(value), type_))
    assert isinstance(type_, AnyFloat)
    return arith.ConstantOp(FloatAttr(float(value), type_))


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.scope: KernelScope | None = None


_state = _ThreadState()


def current_scope() -> KernelScope:
    scope = _state.scope
    if scope is None:
        raise fail("DSL operations can only be used inside a @kernel function being built")
    return scope


@contextlib.contextmanager
def kernel_scope(entry: Block) -> Iterator[KernelScope]:
    if _state.scope is not None:
        raise fail("kernels cannot be built inside another kernel")
    scope = KernelScope(entry)
    _state.scope = scope
    try:
        with scope.inside(entry):
            try:
                yield scope
            finally:
                # a loop body left by an exception or a `break` still holds its builder:
                # close it now, innermost first, so the builders unwind in order
                left_open = bool(scope.open_loops)
                while scope.open_loops:
                    scope.open_loops.pop().close()  # type: ignore[attr-defined]
            if left_open:
                raise fail("a pipelined loop was left early (break/return inside it is not supported)")
    finally:
        _state.scope = None


def _location_attr() -> FileLineColLoc | None:
    loc = user_location()
    return loc.attr() if loc else None


def _stamp_location(op: Operation) -> None:
    if not isinstance(op.location, FileLineColLoc):
        loc = _location_attr()
        if loc is not None:
            op.location = loc


def check(op: Operation) -> None:
    """Verify a freshly built op; a verifier error becomes a DSLError at the user's line."""
    from ascend_mlir.diagnostics import _clean_message

    block = op.parent_block()
    # verified on its own: as the newest op of its block it would be taken for a
    # missing terminator
    if block is not None:
        block.detach_op(op)
    try:
        op.verify(verify_nested_ops=False)
    except VerifyException as err:
        message = _clean_message(str(err.args[0]) if err.args else str(err))
        raise fail(f"{op.name}: {message}") from None
    finally:
        if block is not None:
            block.add_op(op)


# ----------------------------------------------------------------------------- values

Linear = tuple[frozenset[tuple[SSAValue, int]], int]
"""sum(coeff * atom) + const, atoms being SSA values the DSL cannot see through."""


def _linear(terms: dict[SSAValue, int], const: int) -> Linear:
    return frozenset((a, c) for a, c in terms.items() if c != 0), const


IndexLike = Union["Index", int]


class Index:
    """An `index` value in kernel code: loop variables, block ids, offsets."""

    def __init__(self, value: SSAValue, linear: Linear | None = None):
        self.value = value
        self.linear = linear if linear is not None else _linear({value: 1}, 0)

    # -- arithmetic, emitted where it is written
    def _binary(self, other: IndexLike, op_type: type, combine, swap: bool = False) -> Index:
        rhs = as_index(other)
        lhs = self
        if swap:
            lhs, rhs = rhs, lhs
        op = op_type(lhs.value, rhs.value)
        scope = current_scope()
        scope.index_ops.append(op)
        scope.remember(op.result)
        return Index(op.result, combine(lhs.linear, rhs.linear))

    def __add__(self, other: IndexLike) -> Index:
        return self._binary(other, arith.AddiOp, _add_linear)

    def __radd__(self, other: IndexLike) -> Index:
        return self._binary(other, arith.AddiOp, _add_linear, swap=True)

    def __sub__(self, other: IndexLike) -> Index:
        return self._binary(other, arith.SubiOp, _sub_linear)

    def __rsub__(self, other: IndexLike) -> Index:
        return self._binary(other, arith.SubiOp, _sub_linear, swap=True)

    def __mul__(self, other: IndexLike) -> Index:
        return self._binary(other, arith.MuliOp, _mul_linear)

    def __rmul__(self, other: IndexLike) -> Index:
        return self._binary(other, arith.MuliOp, _mul_linear, swap=True)

    def __floordiv__(self, other: IndexLike) -> Index:
        _require_positive_divisor(other)
        return self._binary(other, arith.DivUIOp, lambda a, b: None)

    def __mod__(self, other: IndexLike) -> Index:
        _require_positive_divisor(other)
        return self._binary(other, arith.RemUIOp, lambda a, b: None)

    # -- comparisons give i1 values (for matmul's init)
    def _compare(self, other: IndexLike, predicate: str) -> Bool:
        op = arith.CmpiOp(self.value, as_index(other).value, predicate)
        scope = current_scope()
        scope.index_ops.append(op)
        scope.remember(op.result)
        return Bool(op.result)

    def __eq__(self, other: object) -> Bool:  # type: ignore[override]
        if not isinstance(other, Index | int):
            return NotImplemented
        return self._compare(other, "eq")

    def __ne__(self, other: object) -> Bool:  # type: ignore[override]
        if not isinstance(other, Index | int):
            return NotImplemented
        return self._compare(other, "ne")

    def __lt__(self, other: IndexLike) -> Bool:
        return self._compare(other, "ult")

    def __le__(self, other: IndexLike) -> Bool:
        return self._compare(other, "ule")

    def __gt__(self, other: IndexLike) -> Bool:
        return self._compare(other, "ugt")

    def __ge__(self, other: IndexLike) -> Bool:
        return self._compare(other, "uge")

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise fail("an index computed on the device has no Python truth value "
                   "(use it in a DSL operation, e.g. matmul(..., init=(k == 0)))")

    def __index__(self) -> int:
        raise fail("a device index cannot be used as a Python int (it is only known when the kernel runs)")


def _require_positive_divisor(other: IndexLike) -> None:
    if isinstance(other, int) and other <= 0:
        raise fail(f"division by {other}: index division needs a positive divisor")


def _add_linear(a: Linear | None, b: Linear | None) -> Linear | None:
    if a is None or b is None:
        return None
    terms = dict(a[0])
    for atom, coeff in b[0]:
        terms[atom] = terms.get(atom, 0) + coeff
    return _linear(terms, a[1] + b[1])


def _scale_linear(a: Linear, factor: int) -> Linear:
    return _linear({atom: coeff * factor for atom, coeff in a[0]}, a[1] * factor)


def _sub_linear(a: Linear | None, b: Linear | None) -> Linear | None:
    if a is None or b is None:
        return None
    return _add_linear(a, _scale_linear(b, -1))


def _mul_linear(a: Linear | None, b: Linear | None) -> Linear | None:
    if a is None or b is None:
        return None
    if not a[0]:
        return _scale_linear(b, a[1])
    if not b[0]:
        return _scale_linear(a, b[1])
    return None


def as_index(value: IndexLike) -> Index:
    if isinstance(value, Index):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f"expected an index (int or device index), got {type(value).__name__}")
    return Index(current_scope().constant(value, IndexType()), _linear({}, value))


def static_difference(stop: IndexLike, start: IndexLike) -> int | None:
    """stop - start when it is the same number whatever the device values are."""
    a = _linear({}, stop) if isinstance(stop, int) else stop.linear
    b = _linear({}, start) if isinstance(start, int) else start.linear
    diff = _sub_linear(a, b)
    if diff is None or diff[0]:
        return None
    return diff[1]


class Bool:
    """An i1 value in kernel code (a comparison of indices)."""

    def __init__(self, value: SSAValue):
        self.value = value

    def __bool__(self) -> bool:
        raise fail("a device comparison has no Python truth value (pass it to a DSL operation)")


def as_bool(value: Bool | bool) -> SSAValue:
    if isinstance(value, Bool):
        return value.value
    if isinstance(value, bool):
        return current_scope().constant(value, i1)
    raise fail(f"expected a bool or a device comparison, got {type(value).__name__}")
