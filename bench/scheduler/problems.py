"""Loop problems for the scheduler benchmark.

* `generated_loop(n, seed)`: a seeded random loop of n tasks over the seven
  pipes, shaped like real kernels: chains of DMA -> compute -> DMA with
  producer/consumer buffers (write-after-read edges whose distance is the
  buffer's version count), accumulator recurrences and HBM conflicts between
  MTE2 and MTE3.  Latencies follow reference/latency-model.md magnitudes.
* `gemm_loop()`, `vecadd_loop()`: hand-built problems mirroring the example
  kernels (one k-step of a tiled matmul, one tile of a vector add).
"""

from __future__ import annotations

import random

from ascend_mlir import hardware
from ascend_mlir.chips import load_chip
from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task

# (latency range, ii range) per pipe, cycles; ii <= latency enforced below
_PIPE_TIMING = {
    "MTE2": ((90, 260), (13, 80)),
    "MTE1": ((8, 40), (4, 35)),
    "M": ((30, 180), (16, 140)),
    "FIX": ((60, 260), (10, 130)),
    "V": ((8, 120), (8, 120)),
    "MTE3": ((43, 250), (10, 60)),
    "S": ((1, 4), (1, 1)),
}
# which pipe typically consumes the output of which (data-flow shape of a kernel)
_NEXT = {
    "MTE2": ["MTE1", "V", "V", "M"],
    "MTE1": ["M"],
    "M": ["FIX", "M"],
    "FIX": ["V", "MTE3"],
    "V": ["V", "MTE3", "V"],
    "MTE3": ["MTE2", "V"],
    "S": ["MTE2", "V"],
}
_SCOPE = {"MTE2": "cbuf", "MTE1": "ca", "M": "cc", "FIX": "ub", "V": "ub", "MTE3": "cbuf", "S": "ub"}
# on-chip capacities of the default chip (its chip file), bytes
CAPACITY = {scope: load_chip().capacity[scope] for scope in hardware.ON_CHIP_SCOPES}


class _LoopGenerator:
    """The growing task list of `generated_loop`; every draw goes through one rng, in
    a fixed order, so a (n, seed) pair always builds the same problem."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.tasks: list[Task] = []
        self.deps: list[Dep] = []
        self.buffers: list[Buffer] = []
        self.conflicts: list[tuple[int, int]] = []

    def new_task(self, pipe: str) -> int:
        (l0, l1), (i0, i1) = _PIPE_TIMING[pipe]
        lat = self.rng.randint(l0, l1)
        ii = min(lat, self.rng.randint(i0, i1))
        self.tasks.append(Task(f"{pipe.lower()}{len(self.tasks)}", pipe, lat, ii))
        return len(self.tasks) - 1

    def maybe_buffer(self, prev: int, cur: int) -> None:
        """The producer's output lives in a buffer the consumer reads: the next
        write (distance = versions) must wait until this read is done."""
        if self.rng.random() >= 0.7:
            return
        scope = _SCOPE[self.tasks[prev].pipe]  # type: ignore[index]
        size = self.rng.choice([4096, 8192, 16384, 32768, 65536])
        if scope in ("ca", "cb"):
            size = min(size, 16384)
        name = f"buf{len(self.buffers)}"
        self.buffers.append(Buffer(name, scope, size))
        self.deps.append(Dep(cur, prev, self.tasks[cur].ii, buffer=name))

    def chain(self, n: int) -> list[int]:
        """A chain starting with a load, so loads/stores dominate as in kernels."""
        prev = self.new_task("MTE2")
        chain = [prev]
        length = self.rng.randint(2, 6)
        for _ in range(length - 1):
            if len(self.tasks) >= n:
                break
            cur = self.new_task(self.rng.choice(_NEXT[self.tasks[prev].pipe]))  # type: ignore[arg-type]
            self.deps.append(Dep(prev, cur, self.tasks[prev].latency))
            self.maybe_buffer(prev, cur)
            prev = cur
            chain.append(cur)
        return chain

    def link(self, chain: list[int]) -> None:
        """An accumulator recurrence (mmad into L0C, a running reduction) and data
        flow from an earlier chain, each with some probability."""
        rng = self.rng
        if len(chain) >= 2 and rng.random() < 0.5:
            a, b = sorted(rng.sample(chain, 2))
            self.deps.append(Dep(b, a, rng.randint(1, self.tasks[b].latency), distance=rng.choice([1, 1, 2])))
        if len(self.tasks) > len(chain) and rng.random() < 0.5:
            src = rng.randrange(0, len(self.tasks) - len(chain))
            self.deps.append(Dep(src, chain[-1], self.tasks[src].latency))

    def hbm_conflicts(self) -> None:
        """HBM is shared by GM->UB loads and UB->GM stores."""
        mte2 = [i for i, t in enumerate(self.tasks) if t.pipe == "MTE2"]
        mte3 = [i for i, t in enumerate(self.tasks) if t.pipe == "MTE3"]
        for i in mte2:
            for j in mte3:
                if self.rng.random() < 0.3:
                    self.conflicts.append((i, j))

    def capacity(self) -> dict[str, int]:
        """Keep capacity binding sometimes: ~1.3 to 4 versions of everything."""
        cap = dict(CAPACITY)
        for scope in sorted({b.scope for b in self.buffers}):
            one = sum(b.size for b in self.buffers if b.scope == scope)
            cap[scope] = max(one, min(cap[scope], int(one * self.rng.choice([1.3, 1.7, 2.2, 4.0]))))
        return cap


def generated_loop(n: int, seed: int, num_stages: int = 3) -> LoopProblem:
    gen = _LoopGenerator(random.Random(seed * 7919 + n))
    while len(gen.tasks) < n:
        gen.link(gen.chain(n))
    gen.hbm_conflicts()
    cap = gen.capacity()
    return LoopProblem(gen.tasks, gen.deps, gen.buffers, cap, num_stages, gen.conflicts)


def gemm_loop(num_stages: int = 2) -> LoopProblem:
    """One k-step of a 128x128x64 fp16 tiled matmul (nd2nz A, B -> L1 -> L0 -> mmad)."""
    tasks = [
        Task("nd2nz_a", "MTE2", 354, 164),   # 16 KiB GM -> L1
        Task("nd2nz_b", "MTE2", 354, 164),
        Task("load_l0a", "MTE1", 72, 67),    # L1 -> L0A
        Task("load_l0b", "MTE1", 72, 67),
        Task("mmad", ("MTE1", "M"), 93, 68),  # 2*128*128*64 ops at 8192/cycle + base
    ]
    deps = [
        Dep(0, 2, 354), Dep(1, 3, 354), Dep(2, 4, 72), Dep(3, 4, 72),
        Dep(2, 0, 67, buffer="a_l1"), Dep(3, 1, 67, buffer="b_l1"),
        Dep(4, 2, 68, buffer="a_l0"), Dep(4, 3, 68, buffer="b_l0"),
        Dep(4, 4, 68, distance=1),           # accumulate into L0C
    ]
    buffers = [Buffer("a_l1", "cbuf", 16384), Buffer("b_l1", "cbuf", 16384),
               Buffer("a_l0", "ca", 16384), Buffer("b_l0", "cb", 16384)]
    return LoopProblem(tasks, deps, buffers, dict(CAPACITY), num_stages)


def vecadd_loop(num_stages: int = 2) -> LoopProblem:
    """One 512-element fp32 tile of z = x + y (load, load, vadd, store)."""
    tasks = [
        Task("load_x", "MTE2", 111, 21), Task("load_y", "MTE2", 111, 21),
        Task("vadd", "V", 11, 11), Task("store_z", "MTE3", 198, 18),
    ]
    deps = [
        Dep(0, 2, 111), Dep(1, 2, 111), Dep(2, 3, 11),
        Dep(2, 0, 11, buffer="x_ub"), Dep(2, 1, 11, buffer="y_ub"), Dep(3, 2, 18, buffer="z_ub"),
    ]
    buffers = [Buffer("x_ub", "ub", 2048), Buffer("y_ub", "ub", 2048), Buffer("z_ub", "ub", 2048)]
    return LoopProblem(tasks, deps, buffers, dict(CAPACITY), num_stages, conflicts=[(0, 3), (1, 3)])


def anchor_gemm_loop() -> LoopProblem:
    """The GEMM K-loop that the anchor's own AutoSchedule poses (TileLang 0.1.15):
    copy A and copy B to L1 (MTE2), one gemm (cube) accumulating across iterations.
    The anchor answers II 1800 with 2 versions of each L1 buffer."""
    tasks = [Task("copy_a", "MTE2", 846, 656), Task("copy_b", "MTE2", 764, 574),
             Task("gemm", "M", 1800, 1792)]
    deps = [
        Dep(0, 2, 846), Dep(1, 2, 764),
        Dep(2, 0, 1800, buffer="a_l1"), Dep(2, 1, 1800, buffer="b_l1"),  # WAR on the L1 tiles
        Dep(2, 2, 1800, distance=1),  # accumulator
    ]
    buffers = [Buffer("a_l1", "cbuf", 65536), Buffer("b_l1", "cbuf", 57344)]
    return LoopProblem(tasks, deps, buffers, {"cbuf": 524288}, num_stages=2)


def generated_family(sizes=(8, 16, 32, 64), seeds=(0, 1, 2)) -> list[tuple[str, LoopProblem]]:
    return [(f"gen{n}-s{s}", generated_loop(n, s)) for n in sizes for s in seeds]


def hand_built() -> list[tuple[str, LoopProblem]]:
    return [("anchor_gemm", anchor_gemm_loop()), ("gemm", gemm_loop()), ("vecadd", vecadd_loop())]
