"""Facts about the Ascend AI Core that hold for every chip we model, in one place.

IR-free and dependency-free: dialects, analyses, the solver, passes, targets and the
simulator import these names instead of spelling them again. What differs between chips
(capacities, alignment, latencies, which copy paths exist, events per pipe pair) is chip
data (`ascend_mlir/chips/*.toml`), not this module.

Sources: ../shared/reference/hivm-syntax.md (pipes, scopes, the same-pipe rule) and
bishengir-opt 1.2.0 (op names of the DMA paths).
"""

from __future__ import annotations

from dataclasses import dataclass

# The seven pipes of an AI Core, by their short names (`#hivm.pipe<PIPE_MTE2>` is "MTE2").
# This order is the canonical one for tables and reports.
PIPES: tuple[str, ...] = ("MTE1", "MTE2", "MTE3", "M", "V", "FIX", "S")
# The same pipes in data-flow order (GM -> L1 -> L0 -> cube -> fixpipe -> vector -> GM,
# then scalar): how schedule reports list a task's pipes, and the tie-break when a task
# keeps two pipes equally busy.
DATAFLOW_PIPES: tuple[str, ...] = ("MTE2", "MTE1", "M", "FIX", "V", "MTE3", "S")
# An op that uses several pipes is an op of the first of them in this order: the compute
# units before the movers that feed them (mmadL1 issues MTE1 moves to feed M: an M op).
COMPUTE_FIRST_PIPES: tuple[str, ...] = ("M", "V", "FIX", "MTE3", "MTE2", "MTE1", "S")

# Memory scopes (the memref memory space `#hivm.address_space<...>`): L1 = cbuf,
# L0A = ca, L0B = cb, L0C = cc, UB = ub.
SCOPES: tuple[str, ...] = ("gm", "cbuf", "ca", "cb", "cc", "ub")
ON_CHIP_SCOPES: tuple[str, ...] = ("cbuf", "ca", "cb", "cc", "ub")

# One AI Core = one cube core + two vector cores (sub-blocks 0 and 1).
CORES: tuple[str, ...] = ("CUBE", "VECTOR")
VECTOR_CORES_PER_CUBE = 2

# Which pipes and scopes each core has. MTE2 (GM -> on-chip) and S exist on both.
CORE_PIPES: dict[str, frozenset[str]] = {
    "CUBE": frozenset({"MTE1", "MTE2", "M", "FIX", "S"}),
    "VECTOR": frozenset({"MTE2", "MTE3", "V", "S"}),
}
CORE_SCOPES: dict[str, frozenset[str]] = {
    "CUBE": frozenset({"cbuf", "ca", "cb", "cc"}),
    "VECTOR": frozenset({"ub"}),
}
# Pipes only one core has: an op on one of them tells which core runs it.
CUBE_ONLY_PIPES: frozenset[str] = CORE_PIPES["CUBE"] - CORE_PIPES["VECTOR"]
VECTOR_ONLY_PIPES: frozenset[str] = CORE_PIPES["VECTOR"] - CORE_PIPES["CUBE"]

# The same-pipe rule (which dependences between two ops of one pipe need a pipe_barrier)
# differs between chips: it is chip data (`chip.ordered_pipes`), answered by ONE function,
# `ascend_mlir.chips.needs_barrier(chip, src_pipe, dst_pipe)` (docs/same-pipe-rule.md).
# What is common to every chip: mmadL1 -> mmadL1 is ordered by the op itself at the hivm
# level (bishengir assumes the same; whoever expands mmadL1 into L0 loads + mmad owns the M
# barriers). At the hivm level every M op is an mmadL1, so M counts as ordered there.
OP_ORDERED_PIPES: frozenset[str] = frozenset({"M"})
# Timing, not sync: pipes whose ops complete in issue order within their ii on every chip
# (S, whose ops take one cycle, and M at the hivm level), so a dependent op of the same pipe
# may issue once the producer's ii is over. A pipe that merely needs no barrier on some
# chip (the 950's V) is not among them: there the consumer still waits for the
# producer's completion.
ORDERED_PIPES: frozenset[str] = frozenset({"S"}) | OP_ORDERED_PIPES


@dataclass(frozen=True)
class CopyPath:
    """A legal `tile.copy` scope pair: the hivm op that performs it and its pipe."""

    src: str
    dst: str
    op: str  # hivm op name without "hivm.hir."
    pipe: str

    @property
    def is_dma(self) -> bool:
        """Whether a DMA engine moves the data: every path but ub -> ub, a vector copy (on V)
        that every chip has. Which DMA paths a chip has is chip data."""
        return self.pipe != "V"

    @property
    def key(self) -> str:
        """`<src>_<dst>`, the spelling of chip files (`[latency.copy.gm_ub]`)."""
        return f"{self.src}_{self.dst}"


# Every copy path of any chip we model (the Ascend 950 has them all; a chip file lists
# which ones its chip has, see `chips`). ub -> ub is a vector copy, not a DMA path.
COPY_PATHS: dict[tuple[str, str], CopyPath] = {
    (p.src, p.dst): p
    for p in (
        CopyPath("gm", "ub", "load", "MTE2"),
        CopyPath("ub", "gm", "store", "MTE3"),
        CopyPath("gm", "cbuf", "nd2nz", "MTE2"),
        CopyPath("cc", "gm", "fixpipe", "FIX"),
        CopyPath("cc", "cbuf", "fixpipe", "FIX"),
        CopyPath("cc", "ub", "fixpipe", "FIX"),
        CopyPath("ub", "ub", "copy", "V"),
        CopyPath("ub", "cbuf", "copy", "MTE3"),
        CopyPath("cbuf", "ca", "load_l0a", "MTE1"),
        CopyPath("cbuf", "cb", "load_l0b", "MTE1"),
    )
}
# The paths `tile.copy` may name (L1 -> L0A/L0B happen inside mmadL1 at the hivm level).
TILE_COPY_PATHS: tuple[tuple[str, str], ...] = tuple(
    pair for pair, path in COPY_PATHS.items() if path.op not in ("load_l0a", "load_l0b")
)
# Paths every chip has (a chip file must describe at least these).
REQUIRED_COPY_PATHS: tuple[tuple[str, str], ...] = (
    ("gm", "cbuf"), ("gm", "ub"), ("ub", "gm"), ("cbuf", "ca"), ("cbuf", "cb"),
    ("cc", "cbuf"), ("cc", "gm"),
)
# DMA paths that share one HBM port although they run on different pipes.
SHARED_PORT_PATHS: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = (
    (("gm", "ub"), ("ub", "gm")),  # vector side: MTE2 in, MTE3 out
    (("gm", "cbuf"), ("cc", "gm")),  # cube side: MTE2 in, FIX out
)

# Pipes whose ops move data in or out of GM, through a core's HBM port.
HBM_PORT_PIPES: frozenset[str] = frozenset(p.pipe for p in COPY_PATHS.values() if "gm" in (p.src, p.dst))

# Event ids of set_flag/wait_flag: `#hivm.event<EVENT_ID0..7>` per (producer, consumer)
# pipe pair. A chip file may allow fewer (`chip.events_per_pipe_pair`), never more.
EVENTS_PER_PIPE_PAIR = 8
# Flag ids of sync_block_set/sync_block_wait between the cube and vector cores.
CROSS_CORE_FLAGS = 16

# Element types of the vector ops that no bishengir build accepts otherwise (bishengir-opt
# 1.2.0's verifiers, the a2/a3 and the a5 builds agree): the transcendental ops compute on
# 16/32-bit floats only (not bf16, not integers), relu also on i32. Keyed by kind (`exp`:
# tile.exp and hivm.hir.vexp); kinds not listed take any type the chip's vector unit has.
VECTOR_ELEMENT_TYPES: dict[str, tuple[str, ...]] = {
    "exp": ("f16", "f32"),
    "ln": ("f16", "f32"),
    "sqrt": ("f16", "f32"),
    "rsqrt": ("f16", "f32"),
    "rec": ("f16", "f32"),
    "relu": ("f16", "f32", "i32"),
}


def vector_type_error(kind: str, element: str) -> str | None:
    """Why a vector op of `kind` cannot compute on `element` (an MLIR type name), or None."""
    legal = VECTOR_ELEMENT_TYPES.get(kind)
    if legal is None or element in legal:
        return None
    return f"{kind} computes on {', '.join(legal)} only, got {element} (bishengir's verifier refuses it)"


def cast_error(source: str, dest: str) -> str | None:
    """Why an element-type conversion `source` -> `dest` is refused, or None. A float to i1
    conversion: bishengir-opt (a2/a3) refuses it (float_to_bool), and what the a5 build's
    rounding cast to bool computes is not documented; compare through an integer cast."""
    if dest == "i1" and source in ("f16", "bf16", "f32"):
        return f"cannot cast {source} to i1 (bishengir refuses float_to_bool); cast to i32 first, then to i1"
    return None


def core_of_pipes(pipes: tuple[str, ...] | list[str]) -> str:
    """"CUBE", "VECTOR" or "SCALAR" (only pipes both cores have, e.g. S or MTE2)."""
    if any(p in CUBE_ONLY_PIPES for p in pipes):
        return "CUBE"
    if any(p in VECTOR_ONLY_PIPES for p in pipes):
        return "VECTOR"
    return "SCALAR"


# The cube's operands live as fractals: L1 (cbuf) holds NZ tiles of 16 rows x 32 bytes
# (nd2nz and UB -> L1 write whole fractals, the rows of a tail padded up to 16 and the
# columns up to 32 bytes), L0A/L0B hold 16 x 16 fractals of 2-byte elements, and L0C
# holds 16 x 16 fractals of the accumulator type. A buffer of those scopes occupies its
# padded fractals, not rows x cols elements: a 17 x 32 bf16 tile takes 2048 bytes of L1,
# not 1088, and a plan that gave it 1088 would let the next buffer overwrite its tail.
FRACTAL_ROWS = 16
FRACTAL_ROW_BYTES = 32


def stored_bytes(scope: str, shape: tuple[int, ...] | list[int], element_bytes: int) -> int:
    """Bytes a statically shaped 2-D tile occupies in `scope`, fractal padding included
    (a 1-D or higher-rank buffer, and every UB buffer, is stored densely)."""
    dense = element_bytes
    for d in shape:
        dense *= d
    if scope not in ("cbuf", "ca", "cb", "cc") or len(shape) != 2:
        return dense
    rows = -(-shape[0] // FRACTAL_ROWS) * FRACTAL_ROWS
    if scope == "cc":  # 16 x 16 accumulator fractals
        return rows * -(-shape[1] // FRACTAL_ROWS) * FRACTAL_ROWS * element_bytes
    row_bytes = -(-(shape[1] * element_bytes) // FRACTAL_ROW_BYTES) * FRACTAL_ROW_BYTES
    return rows * row_bytes
