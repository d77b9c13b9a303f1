"""The scalar semantics both interpreters use: the tile-level reference and the
simulator's scalar unit run on xDSL's `Interpreter` with xDSL's arith/scf/func functions
plus `ScalarFunctions`, registered over them (`register_scalar_functions`).

`ScalarFunctions` adds what xDSL 0.75 lacks or does differently:
* integer ops with explicit signedness (divui, remui, ceildiv, min/max, shrui): operands
  are read as signed or unsigned numbers of the op's width, results wrap to the width;
* casts (ext/trunc, int <-> float, index_castui);
* float ops rounded to their type (the scalar unit computes in f32/f16/bf16), divf, negf;
* scf.if on an i1 value (-1/1 true, 0 false) and scf.for with a positive step (a
  non-positive step is a located error, not an endless loop or a Python exception).
Scalars are IntegerAttr / FloatAttr (xDSL's convention); `scalar` unwraps them.
"""

from __future__ import annotations

import math
from functools import lru_cache
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute, Block, Operation
from xdsl.utils.comparisons import to_signed, to_unsigned
from xdsl.utils.exceptions import InterpretationError

from ascend_mlir.analysis.value_bounds import trunc_div
from ascend_mlir.sim.interpreters import interpreter_module

_xdsl_scalar_attr = interpreter_module("builtin").scalar_attr


@lru_cache(maxsize=1 << 16)
def _integer_attr(value: int, value_type: Attribute, index_bitwidth: int) -> Attribute:
    return _xdsl_scalar_attr(value, value_type, index_bitwidth)


def scalar_attr(value: Any, value_type: Attribute, index_bitwidth: int) -> Attribute:
    """xDSL's scalar_attr; integer attributes are immutable and cached (building and
    verifying one dominates a loop's interpretation otherwise)."""
    if type(value) is int:
        return _integer_attr(value, value_type, index_bitwidth)
    return _xdsl_scalar_attr(value, value_type, index_bitwidth)


# per Python type of an interpreter value: whether it is one of xDSL's scalar attributes
# (an isinstance test against them goes through ABCMeta on every call)
_SCALAR_ATTR_TYPES: dict[type, bool] = {}


def scalar(value: Any) -> Any:
    """A Python number from an interpreter value (attributes are xDSL's scalars)."""
    cls = type(value)
    is_attr = _SCALAR_ATTR_TYPES.get(cls)
    if is_attr is None:
        is_attr = _SCALAR_ATTR_TYPES[cls] = issubclass(cls, IntegerAttr | FloatAttr)
    return value.value.data if is_attr else value


def _float_attr(value: float, value_type: Attribute) -> FloatAttr:
    return FloatAttr(value, cast(Any, value_type))


def bitwidth(interpreter: Interpreter, value_type: Attribute) -> int:
    if isinstance(value_type, IntegerType):
        return value_type.width.data
    return interpreter.index_bitwidth


def _wrap(value: int, width: int) -> int:
    """`value` as a signed number of `width` bits (i1: 0 or -1, as xDSL spells true)."""
    return to_signed(value & ((1 << width) - 1), width)


def _round_float(value: float, value_type: Attribute) -> float:
    """A float rounded to its type (f64 and unknown types unchanged)."""
    from ascend_mlir.sim.reference_numerics import UnsupportedElementType, is_bf16, storage_dtype, to_storage

    try:
        if is_bf16(value_type) or storage_dtype(value_type) != np.float64:
            return float(to_storage(np.float64(value), value_type))
    except UnsupportedElementType:
        pass
    return value


def _integer_binary(signed: bool, fn, divides: bool = False):
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = bitwidth(interpreter, op.results[0].type)
        convert = to_signed if signed else to_unsigned
        lhs, rhs = (convert(scalar(a) & ((1 << width) - 1), width) for a in args)
        if divides and rhs == 0:
            raise InterpretationError("integer division by zero")
        return (scalar_attr(_wrap(fn(lhs, rhs), width), op.results[0].type, interpreter.index_bitwidth),)

    return run


def _float_binary(fn):
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        lhs, rhs = (float(scalar(a)) for a in args)
        return (_float_attr(_round_float(fn(lhs, rhs), op.results[0].type), op.results[0].type),)

    return run


def _divf(a: float, b: float) -> float:
    if b != 0:
        return a / b
    if a != a or a == 0:
        return float("nan")
    return math.copysign(float("inf"), a) * math.copysign(1.0, b)


# arith.cmpi's results: xDSL's run_cmpi builds and verifies a new i1 attribute per
# comparison (about a fifth of linear_bias's reference, one `k == 0` per K step);
# attributes are immutable, so the two it can build are built once
_CMPI_RESULTS = (IntegerAttr.from_bool(False), IntegerAttr.from_bool(True))
_CMPI_PREDICATES: tuple[Callable[[int, int], bool], ...] = (
    lambda a, b: a == b, lambda a, b: a != b,  # eq, ne
    lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b,  # slt, sle, sgt, sge
    lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b,  # ult, ule, ugt, uge
)


@register_impls
class ScalarFunctions(InterpreterFunctions):
    run_divsi = impl(arith.DivSIOp)(_integer_binary(True, trunc_div, divides=True))
    run_remsi = impl(arith.RemSIOp)(_integer_binary(True, lambda a, b: a - trunc_div(a, b) * b, divides=True))
    run_floordivsi = impl(arith.FloorDivSIOp)(_integer_binary(True, lambda a, b: a // b, divides=True))
    run_divui = impl(arith.DivUIOp)(_integer_binary(False, lambda a, b: a // b, divides=True))
    run_remui = impl(arith.RemUIOp)(_integer_binary(False, lambda a, b: a % b, divides=True))
    run_ceildivsi = impl(arith.CeilDivSIOp)(_integer_binary(True, lambda a, b: -((-a) // b), divides=True))
    run_ceildivui = impl(arith.CeilDivUIOp)(_integer_binary(False, lambda a, b: -((-a) // b), divides=True))
    run_minsi = impl(arith.MinSIOp)(_integer_binary(True, min))
    run_maxsi = impl(arith.MaxSIOp)(_integer_binary(True, max))
    run_minui = impl(arith.MinUIOp)(_integer_binary(False, min))
    run_maxui = impl(arith.MaxUIOp)(_integer_binary(False, max))
    run_addi = impl(arith.AddiOp)(_integer_binary(True, lambda a, b: a + b))
    run_subi = impl(arith.SubiOp)(_integer_binary(True, lambda a, b: a - b))
    run_muli = impl(arith.MuliOp)(_integer_binary(True, lambda a, b: a * b))
    run_andi = impl(arith.AndIOp)(_integer_binary(True, lambda a, b: a & b))
    run_ori = impl(arith.OrIOp)(_integer_binary(True, lambda a, b: a | b))
    run_xori = impl(arith.XOrIOp)(_integer_binary(True, lambda a, b: a ^ b))
    run_shli = impl(arith.ShLIOp)(_integer_binary(True, lambda a, b: a << b))
    run_shrsi = impl(arith.ShRSIOp)(_integer_binary(True, lambda a, b: a >> b))
    run_shrui = impl(arith.ShRUIOp)(_integer_binary(False, lambda a, b: a >> b))
    run_addf = impl(arith.AddfOp)(_float_binary(lambda a, b: a + b))
    run_subf = impl(arith.SubfOp)(_float_binary(lambda a, b: a - b))
    run_mulf = impl(arith.MulfOp)(_float_binary(lambda a, b: a * b))
    run_divf = impl(arith.DivfOp)(_float_binary(_divf))
    run_maximumf = impl(arith.MaximumfOp)(_float_binary(max))
    run_minimumf = impl(arith.MinimumfOp)(_float_binary(min))

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues):
        value = op.value
        if isinstance(value, FloatAttr):
            return (_float_attr(_round_float(float(value.value.data), op.result.type), op.result.type),)
        if isinstance(value, IntegerAttr):
            return (scalar_attr(value.value.data, op.result.type, interpreter.index_bitwidth),)
        raise InterpretationError(f"unsupported constant {value}")

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: arith.CmpiOp, args: PythonValues):
        """xDSL's run_cmpi (operands read as signed, or unsigned for predicates 6-9, at
        the operand type's width), answering with the shared i1 attributes."""
        predicate = op.predicate.value.data
        if not 0 <= predicate < len(_CMPI_PREDICATES):
            raise InterpretationError(f"arith.cmpi predicate {op.predicate} is not implemented")
        width = bitwidth(interpreter, op.lhs.type)
        interpret = to_unsigned if predicate >= 6 else to_signed
        lhs, rhs = (interpret(scalar(a), width) for a in args)
        return (_CMPI_RESULTS[_CMPI_PREDICATES[predicate](lhs, rhs)],)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter: Interpreter, op: arith.NegfOp, args: PythonValues):
        return (_float_attr(-float(scalar(args[0])), op.result.type),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: arith.SelectOp, args: PythonValues):
        cond, lhs, rhs = args
        return (lhs if scalar(cond) else rhs,)

    def _cast(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        x = scalar(args[0])
        result_type = op.results[0].type
        source_type = op.operands[0].type
        if isinstance(op, arith.FPToSIOp | arith.FPToUIOp):
            return (scalar_attr(int(x), result_type, interpreter.index_bitwidth),)  # toward zero
        if isinstance(op, arith.SIToFPOp | arith.UIToFPOp):
            if isinstance(op, arith.UIToFPOp):
                x = to_unsigned(x & ((1 << bitwidth(interpreter, source_type)) - 1), bitwidth(interpreter, source_type))
            return (_float_attr(_round_float(float(x), result_type), result_type),)
        if isinstance(op, arith.ExtFOp | arith.TruncFOp):
            return (_float_attr(_round_float(float(x), result_type), result_type),)
        width = bitwidth(interpreter, source_type)
        if isinstance(op, arith.ExtUIOp):
            x = to_unsigned(x & ((1 << width) - 1), width)
        return (scalar_attr(_wrap(x, bitwidth(interpreter, result_type)), result_type, interpreter.index_bitwidth),)

    run_extsi = impl(arith.ExtSIOp)(_cast)
    run_extui = impl(arith.ExtUIOp)(_cast)
    run_trunci = impl(arith.TruncIOp)(_cast)
    run_index_cast = impl(arith.IndexCastOp)(_cast)
    run_sitofp = impl(arith.SIToFPOp)(_cast)
    run_uitofp = impl(arith.UIToFPOp)(_cast)
    run_fptosi = impl(arith.FPToSIOp)(_cast)
    run_fptoui = impl(arith.FPToUIOp)(_cast)
    run_extf = impl(arith.ExtFOp)(_cast)
    run_truncf = impl(arith.TruncFOp)(_cast)

    @impl(affine.ApplyOp)
    def run_apply(self, interpreter: Interpreter, op: affine.ApplyOp, args: PythonValues):
        """dims, then symbols (bishengir folds index arithmetic into symbols)."""
        amap = op.map.data
        values = [scalar(a) for a in args]
        results = amap.eval(values[: amap.num_dims], values[amap.num_dims:])
        return tuple(scalar_attr(v, r.type, interpreter.index_bitwidth) for v, r in zip(results, op.results))

    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues):
        region = op.true_region if scalar(args[0]) else op.false_region
        return interpreter.run_ssacfg_region(region, ())

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues):
        lb, ub, step, *loop_args = args
        lb, ub, step = scalar(lb), scalar(ub), scalar(step)
        if step <= 0:
            raise InterpretationError(f"scf.for step must be positive, got {step}")
        values = tuple(loop_args)
        for i in range(lb, ub, step):
            values = interpreter.run_ssacfg_region(
                op.body, (scalar_attr(i, op.lb.type, interpreter.index_bitwidth), *values), "for_loop"
            )
        return values


class StepLimitExceeded(Exception):
    """`loop` alone runs more counted ops than the limit: `trips` times `body`."""

    def __init__(self, loop: Operation, trips: int | None, body: int):
        super().__init__(f"{loop.name}: {trips} trips of {body} ops")
        self.loop, self.trips, self.body = loop, trips, body


def static_steps(block: Block, limit: int, counted: Callable[[Operation], bool] = lambda op: True) -> int:
    """How many `counted` ops one execution of `block` runs, from static trip counts (a
    loop with bounds that are not constants counts one trip: the run-time limits bound
    it), so a loop far past a tool's step limit is refused before it starts rather than
    after minutes. Raises StepLimitExceeded at the innermost loop that exceeds `limit`."""
    from ascend_mlir.analysis.views import loop_bounds

    total = 0
    for op in block.ops:
        total += 1 if counted(op) else 0
        inner = [static_steps(b, limit, counted) for r in op.regions for b in r.blocks]
        if isinstance(op, scf.ForOp):
            _, trips, _ = loop_bounds(op)
            body = sum(inner)
            count = body * (1 if trips is None else trips)
            if count > limit:
                raise StepLimitExceeded(op, trips, body)
            total += count
        elif inner:
            total += max(inner)
    return total


def register_scalar_functions(interpreter: Interpreter) -> None:
    """xDSL's func/scf/arith/builtin functions, then `ScalarFunctions` over them."""
    for name, cls in (("func", "FuncFunctions"), ("scf", "ScfFunctions"), ("arith", "ArithFunctions"),
                      ("builtin", "BuiltinFunctions")):
        interpreter.register_implementations(getattr(interpreter_module(name), cls)())
    interpreter.register_implementations(ScalarFunctions(), override=True)


def is_index_or_int(value_type: Attribute) -> bool:
    return isinstance(value_type, IndexType | IntegerType)
