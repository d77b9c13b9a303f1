"""xDSL's `Interpreter` with a flat environment, for the simulator's scalar walk.

xDSL keeps the values of a run in a chain of `ScopedDict`s, one per region entered (a
loop body is entered once per iteration), keyed by the SSA values themselves: each
operand read walks the chain and hashes the value with a Python `__hash__`. The walk of a
kernel's scalar code is dominated by that bookkeeping, not by the arithmetic.

`FlatInterpreter` runs the same op implementations, the same listeners and the same
region semantics, with one dictionary per function activation keyed by `id(value)`: in
SSA form a value is defined once per activation before any use it dominates, so a value
read is always the one the scoped lookup would have found; values of a region that was
left stay in the dictionary, where no valid program can read them (dominance). The op
list of each block is read from the IR once. Errors are raised as xDSL raises them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func
from xdsl.interpreter import Interpreter, PythonValues, ReturnedValues
from xdsl.ir import Block, Region, SSAValue
from xdsl.utils.exceptions import InterpretationError


@dataclass
class FlatInterpreter(Interpreter):
    _env: dict[int, Any] = field(default_factory=dict)
    _ops: dict[int, tuple] = field(default_factory=dict)

    def get_values(self, values: Iterable[SSAValue]) -> tuple[Any, ...]:
        env = self._env
        try:
            return tuple([env[id(v)] for v in values])
        except KeyError:
            raise InterpretationError("a value is read before it is defined") from None

    def set_values(self, pairs: Iterable[tuple[SSAValue, Any]]):
        env = self._env
        for ssa_value, result_value in pairs:
            env[id(ssa_value)] = result_value

    def _block_ops(self, block: Block) -> tuple:
        """(op, operand ids, result ids) of each op of `block`, read from the IR once."""
        hit = self._ops.get(id(block))
        if hit is None:
            hit = self._ops[id(block)] = (block, tuple(
                (op, tuple(id(v) for v in op.operands), tuple(id(r) for r in op.results)) for op in block.ops
            ))
        return hit[1]

    def run_ssacfg_region(self, region: Region, args: PythonValues, name: str = "unknown") -> PythonValues:
        """xDSL's region semantics: run from the first block, follow successors, return
        the values of the terminator that leaves the region. A function body gets its
        own environment (a call, recursive or not, never overwrites its caller's)."""
        if not region.blocks:
            return ()
        outer = self._env
        if isinstance(region.parent_op(), func.FuncOp):
            self._env = {}
        try:
            return self._run_blocks(region.blocks.first, args)
        finally:
            self._env = outer

    def _run_blocks(self, block: Block | None, args: PythonValues) -> PythonValues:
        env = self._env
        listeners = self.listeners
        impls = self._impls
        while block is not None:
            for arg, value in zip(block.args, args):
                env[id(arg)] = value
            ops = self._block_ops(block)
            block = None
            for op, operand_ids, result_ids in ops:
                inputs = tuple([env[i] for i in operand_ids])
                for listener in listeners:
                    listener.will_interpret_op(op, inputs)
                result = impls.run(self, op, inputs)
                values = result.values
                if len(values) != len(result_ids):
                    raise InterpretationError(
                        f"Number of operation results ({len(result_ids)}) doesn't match the "
                        f"number of implementation results ({len(values)})."
                    )
                for listener in listeners:
                    listener.did_interpret_op(op, values)
                for i, value in zip(result_ids, values):
                    env[i] = value
                terminator = result.terminator_value
                if terminator is not None:
                    if isinstance(terminator, ReturnedValues):
                        return terminator.values
                    block, args = terminator
                    break
        return ()
