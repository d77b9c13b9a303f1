"""insert-sync's straight-line choice (module doc item 7): a function of straight-line code
of one core gets pipe_barrier[<PIPE_ALL>]s instead of flags only where its code, replayed
both ways (scheduling/realize.py), runs faster; the simulator must agree.

Kernels nothing was tuned to: a few chains (load, 0-3 vector ops, store) on buffers of
256 to 8192 f32, interleaved at random, on the 950 or the 910B. Each is synced both ways
(`straight-line-barriers` true and false) and simulated: the choice is never slower than
the flags, races nowhere.
"""

from __future__ import annotations

import random

import pytest
from xdsl.context import Context

from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import UPSTREAM_DIALECTS, register_dialects
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.transforms.insert_sync import InsertSyncPass

VECTOR_OPS = ("vexp", "vabs", "vrelu", "vmul")


def straight_line_kernel(seed: int) -> str:
    rng = random.Random(seed)
    sizes = [rng.choice([256, 1024, 4096, 8192]) for _ in range(rng.randint(2, 4))]
    chains = [[("load", b)] + [(rng.choice(VECTOR_OPS), b) for _ in range(rng.randint(0, 3))] + [("store", b)]
              for b in range(len(sizes))]
    order, pos = [], [0] * len(chains)  # the chains interleaved, each in its own order
    while any(pos[b] < len(c) for b, c in enumerate(chains)):
        b = rng.choice([b for b, c in enumerate(chains) if pos[b] < len(c)])
        order.append(chains[b][pos[b]])
        pos[b] += 1
    args, body = [], []
    for b, n in enumerate(sizes):
        args += [f"%x{b}: memref<{n}xf32, #hivm.address_space<gm>>", f"%y{b}: memref<{n}xf32, #hivm.address_space<gm>>"]
        body.append(f"    %u{b} = memref.alloc() : memref<{n}xf32, #hivm.address_space<ub>>")
    for kind, b in order:
        ub, gm = f"memref<{sizes[b]}xf32, #hivm.address_space<ub>>", f"memref<{sizes[b]}xf32, #hivm.address_space<gm>>"
        if kind == "load":
            body.append(f"    hivm.hir.load ins(%x{b} : {gm}) outs(%u{b} : {ub})")
        elif kind == "store":
            body.append(f"    hivm.hir.store ins(%u{b} : {ub}) outs(%y{b} : {gm})")
        elif kind == "vmul":
            body.append(f"    hivm.hir.vmul ins(%u{b}, %u{b} : {ub}, {ub}) outs(%u{b} : {ub})")
        else:
            body.append(f"    hivm.hir.{kind} ins(%u{b} : {ub}) outs(%u{b} : {ub})")
    target = rng.choice(["Ascend950PR_9599", "Ascend910B1"])
    return (f'module attributes {{hacc.target = #hacc.target<"{target}">}} {{\n'
            f'  func.func @k({", ".join(args)}) attributes {{hacc.entry, hacc.function_kind = '
            f'#hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>}} {{\n'
            + "\n".join(body) + "\n    func.return\n  }\n}\n")


def _synced(text: str, straight_line_barriers: bool) -> tuple[int, bool]:
    module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), text, "straight")
    InsertSyncPass(straight_line_barriers=straight_line_barriers).apply(Context(), module)
    serial = "ascend.barrier_sync" in str(module)
    result = simulate(module, None, blocks=1)
    assert not result.races and not result.deadlock and not result.unbalanced_flags
    return result.cycles, serial


# 64 and 67: barriers chosen, 26 and 76 cycles faster; 167 and 190: a load three items after
# a barrier issues three cycles after it (the scalar unit issues one item a cycle), which the
# replay once missed and chose barriers that ran a cycle slower; the rest drawn once
@pytest.mark.parametrize("seed", [64, 67, 167, 190, 3, 11, 29, 42, 85, 131])
def test_straight_line_barriers_are_never_slower_than_flags(seed):
    text = straight_line_kernel(seed)
    chosen, serial = _synced(text, True)
    flags, _ = _synced(text, False)
    assert chosen <= flags, (chosen, flags, serial)
    if seed in (64, 67):
        assert serial and chosen < flags, (chosen, flags)
