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
CAPACITY = {"ub": 253952, "cbuf": 524288, "ca": 65536, "cb": 65536, "cc": 262144}


def generated_loop(n: int, seed: int, num_stages: int = 3) -> LoopProblem:  # noqa: C901 (over the limit before the limit was set; split pending)
    rng = random.Random(seed * 7919 + n)
    tasks: list[Task] = []
    deps: list[Dep] = []
    buffers: list[Buffer] = []
    conflicts: list[tuple[int, int]] = []

    def new_task(pipe: str) -> int:
        (l0, l1), (i0, i1) = _PIPE_TIMING[pipe]
        lat = rng.randint(l0, l1)
        ii = min(lat, rng.randint(i0, i1))
        tasks.append(Task(f"{pipe.lower()}{len(tasks)}", pipe, lat, ii))
        return len(tasks) - 1

    # several chains, each starting with a load, so loads/stores dominate as in kernels
    while len(tasks) < n:
        pipe = "MTE2"
        prev = new_task(pipe)
        chain = [prev]
        length = rng.randint(2, 6)
        for _ in range(length - 1):
            if len(tasks) >= n:
                break
            pipe = rng.choice(_NEXT[tasks[prev].pipe])  # type: ignore[arg-type]
            cur = new_task(pipe)
            deps.append(Dep(prev, cur, tasks[prev].latency))
            # the producer's output lives in a buffer the consumer reads: the next
            # write (distance = versions) must wait until this read is done
            if rng.random() < 0.7:
                scope = _SCOPE[tasks[prev].pipe]  # type: ignore[index]
                size = rng.choice([4096, 8192, 16384, 32768, 65536])
                if scope in ("ca", "cb"):
                    size = min(size, 16384)
                name = f"buf{len(buffers)}"
                buffers.append(Buffer(name, scope, size))
                deps.append(Dep(cur, prev, tasks[cur].ii, buffer=name))
            prev = cur
            chain.append(cur)
        # accumulator recurrence (e.g. mmad into L0C, running reduction)
        if len(chain) >= 2 and rng.random() < 0.5:
            a, b = sorted(rng.sample(chain, 2))
            deps.append(Dep(b, a, rng.randint(1, tasks[b].latency), distance=rng.choice([1, 1, 2])))
        # cross-chain data flow
        if len(tasks) > len(chain) and rng.random() < 0.5:
            src = rng.randrange(0, len(tasks) - len(chain))
            deps.append(Dep(src, chain[-1], tasks[src].latency))
    # HBM shared by GM->UB loads and UB->GM stores
    mte2 = [i for i, t in enumerate(tasks) if t.pipe == "MTE2"]
    mte3 = [i for i, t in enumerate(tasks) if t.pipe == "MTE3"]
    for i in mte2:
        for j in mte3:
            if rng.random() < 0.3:
                conflicts.append((i, j))
    # keep capacity binding sometimes: scale it to ~ 1.5 versions of everything
    cap = dict(CAPACITY)
    for scope in sorted({b.scope for b in buffers}):
        one = sum(b.size for b in buffers if b.scope == scope)
        cap[scope] = max(one, min(cap[scope], int(one * rng.choice([1.3, 1.7, 2.2, 4.0]))))
    return LoopProblem(tasks, deps, buffers, cap, num_stages, conflicts)


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
