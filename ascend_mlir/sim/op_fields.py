"""Named operands, properties and attributes of an op, each read from xDSL once per
simulation.

The scalar walk visits the same static op once per loop iteration and block, and xDSL's
accessors recompute every named operand from the op's segment sizes on each read
(`op.real_m` of an mmadL1 unpacks `operandSegmentSizes`): a cached view of the op makes
the repeated reads dictionary hits. Valid while the IR does not change, i.e. within one
`simulate()` call, which owns the cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation


class OpFields:
    """`fields.name` is `op.name`, read from the op the first time only. Methods are
    cached as bound methods (their results are not): ask `FieldCache.pipes` for those."""

    def __init__(self, op: Operation) -> None:
        self.__dict__["_op"] = op

    def __getattr__(self, name: str) -> Any:  # only for names not read yet
        value = getattr(self.__dict__["_op"], name)
        self.__dict__[name] = value
        return value

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """Something derived from the op alone (no run-time value), computed once."""
        held = self.__dict__
        if key not in held:
            held[key] = compute()
        return held[key]


class FieldCache:
    """The `OpFields` of every op asked for (kept with the op, so an id stays unique)."""

    def __init__(self) -> None:
        self._fields: dict[int, tuple[Operation, OpFields]] = {}
        self._pipes: dict[int, tuple[Operation, tuple[str, ...]]] = {}
        # the scalar walk's own caches, keyed by id of an op or block that the IR keeps
        # alive: each block's op list (FlatInterpreter) and each op's scalar-unit cost
        self.blocks: dict[int, tuple] = {}
        self.scalar_costs: dict[int, int] = {}

    def __call__(self, op: Operation) -> OpFields:
        hit = self._fields.get(id(op))
        if hit is None:
            hit = self._fields[id(op)] = (op, OpFields(op))
        return hit[1]

    def pipes(self, op: Any) -> tuple[str, ...]:
        """`op.pipes()` of a hivm pipe op (its pipes depend on its types only)."""
        hit = self._pipes.get(id(op))
        if hit is None:
            hit = self._pipes[id(op)] = (op, tuple(op.pipes()))
        return hit[1]
