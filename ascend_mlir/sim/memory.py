"""The simulator's memories: a logical buffer per GM argument or on-chip allocation (one
byte array, per executing core on chip), and `Ref`, a memref value at run time (a strided
view of a buffer). See hivm_frontend's docstring for the memory model."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from ascend_mlir.diagnostics import OpError
from ascend_mlir.sim.numerics import ElemType



class SimulationError(OpError):
    """The program cannot be simulated (bad bounds, unsupported op...), located at `op`."""


class Buffer:
    """A logical buffer: one byte array for GM, one per executing core on chip."""

    _next_id = 0

    def __init__(self, name: str, scope: str, nbytes: int, shared: bool, init: np.ndarray | None = None):
        Buffer._next_id += 1
        self.id = Buffer._next_id
        self.name = name
        self.scope = scope
        self.nbytes = nbytes
        self.shared = shared
        self._memories: dict[int, np.ndarray] = {}
        # on chip: per byte, 1 once an op wrote it (reading a 0 byte is an error: the
        # hardware's memory holds whatever an earlier kernel left there)
        self._written: dict[int, np.ndarray] = {}
        self._labels: dict[int, str] = {}
        self._placed: dict[tuple[bool, int], tuple[np.ndarray, int]] = {}
        if init is not None:
            self._memories[-1] = init

    def memory(self, core: int) -> np.ndarray:
        key = -1 if self.shared else core
        mem = self._memories.get(key)
        if mem is None:
            mem = self._memories[key] = np.zeros(self.nbytes, dtype=np.uint8)
        return mem

    def written(self, core: int) -> np.ndarray | None:
        """The written mask of the core's memory (None for GM, which the caller
        initialises: every byte of an argument is defined)."""
        if self.shared:
            return None
        mask = self._written.get(core)
        if mask is None:
            mask = self._written[core] = np.zeros(self.nbytes, dtype=np.uint8)
        return mask

    def placement(self, core: int, mask: bool = False) -> tuple[np.ndarray, int]:
        """(root array, address of the first byte) of the core's memory, or of its written
        mask: what numpy would say of every view of it (`array_root`, `array_address`),
        asked once per buffer instead of once per access (the arrays never change)."""
        key = (mask, -1 if self.shared else core)
        hit = self._placed.get(key)
        if hit is None:
            array = self.written(core) if mask else self.memory(core)
            assert array is not None
            hit = self._placed[key] = (array_root(array), array_address(array))
        return hit

    def clear(self) -> None:
        """Every byte 0 and unwritten again, in place (views taken of it stay valid): the
        buffer as a fresh one would be, for the next block that reuses it."""
        for array in (*self._memories.values(), *self._written.values()):
            array.fill(0)

    def label(self, core: int, core_name: str) -> str:
        key = -1 if self.shared else core
        text = self._labels.get(key)
        if text is None:
            text = self._labels[key] = (
                f"{self.scope} {self.name}" if self.shared else f"{self.scope} {self.name} of {core_name}"
            )
        return text


def array_root(view: np.ndarray) -> np.ndarray:
    """The array that owns `view`'s memory (the end of its chain of bases)."""
    root = view
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root


def array_address(view: np.ndarray) -> int:
    return view.__array_interface__["data"][0]


@dataclass(frozen=True)
class Ref:
    """A memref value at run time: a strided view of a buffer (offsets in bytes)."""

    buf: Buffer
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]  # in elements
    et: ElemType
    base: int = 0  # byte offset of the underlying allocation (what reinterpret_cast is relative to)
    origin: str = ""  # where the memory was allocated (alloc / pointer_cast location)
    # the views made so far, per core: a buffer's arrays never move (Buffer.clear fills
    # them in place), so one numpy view per core serves every reader and access
    _views: dict[int, np.ndarray] = field(default_factory=dict, init=False, compare=False, repr=False)

    def view(self, core: int) -> np.ndarray:
        hit = self._views.get(core)
        if hit is not None:
            return hit
        item = self.et.itemsize
        if 0 in self.shape:  # an empty view (a partial tile of size 0) touches no byte
            return np.empty(self.shape, dtype=self.et.storage)
        view = self._views[core] = np.ndarray(
            self.shape, dtype=self.et.storage, buffer=self.buf.memory(core), offset=self.offset,
            strides=tuple([s * item for s in self.strides]),
        )
        return view

    def byte_view(self, per_byte: np.ndarray) -> np.ndarray:
        """The bytes of `per_byte` (a uint8 array with one entry per byte of the buffer,
        such as a written mask) that this view covers, shaped view shape + (itemsize,)."""
        item = self.et.itemsize
        if 0 in self.shape:
            return np.empty(self.shape + (item,), dtype=per_byte.dtype)
        return np.ndarray(self.shape + (item,), dtype=per_byte.dtype, buffer=per_byte, offset=self.offset,
                          strides=tuple(st * item for st in self.strides) + (1,))

    def extent(self) -> tuple[int, int]:
        """[first byte, last byte + 1) touched."""
        if 0 in self.shape:
            return self.offset, self.offset
        hi = self.offset + sum([(d - 1) * s for d, s in zip(self.shape, self.strides)]) * self.et.itemsize
        return self.offset, hi + self.et.itemsize


def memref_type(value: SSAValue) -> MemRefType:
    t = value.type
    assert isinstance(t, MemRefType)
    return t


def row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(strides))
