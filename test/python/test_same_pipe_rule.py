"""The same-pipe rule per chip, judged on bishengir's own output (docs/same-pipe-rule.md).

`data/bishengir/*.mlir` are bishengir-opt 1.2.0's sync passes (`-hivm-graph-sync-solver`,
`-hivm-inject-sync`; the `-a5` build for the 950) run on our planned, unsynced lowering of
the examples (`ascend_mlir.sim.bishengir.lower_planned_for_bishengir`, the module's
hacc.target set to the chip). They are the evidence of the rule: the 910B's output fences
every dependent vector pair with pipe_barrier[<PIPE_V>], the 950's has none, and our
oracle finds both race-free under each chip's rule.

Mutants of those files (one wait deleted, one set deleted, one V barrier deleted, one
event id changed, one flag's event ids renamed consistently) are judged by two oracles
that share no code: the simulator's happens-before race detector (with its deadlock and
unbalanced-flag checks) and ascend-verify-sync. Every harmful mutant must be reported
by the simulator, no harmless one may be, and the static check must agree mutant by
mutant.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import DiagnosticException

from ascend_mlir.chips import load_chip, module_hacc_target, needs_barrier
from ascend_mlir.dialects import hivm
from ascend_mlir.sim import bishengir
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.transforms.verify_sync import VerifySyncPass

DATA = Path(__file__).parent / "data" / "bishengir"
DUMPS = sorted(p.name for p in DATA.glob("*.mlir"))
# every mutant of these (the others' mutants are the same kinds on longer kernels: --slow)
MUTANT_DUMPS = ("softmax.ascend910b.gss.mlir", "softmax.ascend950.gss.mlir", "gemm_910b.ascend910b.gss.mlir")


def _module(text: str, name: str):
    return bishengir.parse_hivm(bishengir.to_simulator_text(text), name)


def _simulator_reports(module) -> bool:
    return not simulate(module, None, blocks=1, trace=False).ok


def _static_check_reports(module) -> bool:
    try:
        VerifySyncPass().apply(Context(), module)
    except DiagnosticException:
        return True
    return False


def _static_check_applies(module) -> bool:
    """ascend-verify-sync does not read the flags bishengir's mmadL1 waits for itself
    (its `sync_related_args`); the simulator does. Cube dumps are judged by the simulator."""
    return not any(isinstance(op, hivm.MmadL1Op) for op in module.walk())


def _flag_key(op) -> tuple[str, str, int | None]:
    return (op.set_pipe.pipe_name, op.wait_pipe.pipe_name, op.event_id)


def _with_event(op, event: int) -> Operation:
    kind = hivm.SetFlagOp if isinstance(op, hivm.SetFlagOp) else hivm.WaitFlagOp
    new = kind(op.set_pipe, op.wait_pipe, event)
    new.attributes.update(op.attributes)
    return new


# A mutation changes a clone of the module; `at` is the walk position of the op it
# changes (None: the mutation walks the module itself).
Mutation = tuple[str, int | None, Callable[[Operation], None], bool]


def _erase(op: Operation) -> None:
    op.detach()
    op.erase()


def _retarget(event: int) -> Callable[[Operation], None]:
    return lambda op: Rewriter.replace_op(op, _with_event(op, event))


def _renaming(key: tuple[str, str, int], free: int) -> Callable[[Operation], None]:
    def rename(module: Operation) -> None:
        for op in list(module.walk()):
            if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and _flag_key(op) == key:
                Rewriter.replace_op(op, _with_event(op, free))

    return rename


def _mutants(module: Operation) -> list[Mutation]:
    """Every single mutation the module doc lists, with whether it is harmful. Harmful by
    construction: a deleted wait leaves its flag set at exit, a deleted set starves its
    wait, a lone event id change does both. A deleted V barrier is harmful: bishengir puts
    one only between two conflicting vector ops (the static check confirms it mutant by
    mutant). Harmless: one flag's event id renamed, at its every set and wait, to an id
    its pipe pair does not use; unless bishengir's mmadL1 names that id in its
    `sync_related_args` (it waits MTE2 -> MTE1 and sets MTE1 -> MTE2 itself), which the
    renaming leaves behind: harmful."""
    used: dict[tuple[str, str], set[int]] = {}
    out: list[Mutation] = []
    for i, op in enumerate(module.walk()):
        if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and op.event_id is not None:
            used.setdefault(_flag_key(op)[:2], set()).add(op.event_id)
            out.append((f"{op.name} #{i} deleted", i, _erase, True))
            other = (op.event_id + 1) % 8
            out.append((f"{op.name} #{i}: event id {op.event_id} -> {other}", i, _retarget(other), True))
        elif isinstance(op, hivm.PipeBarrierOp) and op.pipe.pipe_name == "V":
            out.append((f"pipe_barrier[V] #{i} deleted", i, _erase, True))
    op_sets_its_own = any(isinstance(op, hivm.MmadL1Op) and op.sync_related_args for op in module.walk())
    for (src, dst), ids in sorted(used.items()):
        free = min(set(range(8)) - ids)
        harmful = op_sets_its_own and "MTE1" in (src, dst) and "M" not in (src, dst)
        for event in sorted(ids):
            out.append((f"{src} -> {dst} EVENT_ID{event} renamed to {free}", None, _renaming((src, dst, event), free), harmful))
    return out


def _apply(module: Operation, at: int | None, mutation: Callable[[Operation], None]) -> Operation:
    clone = module.clone()
    mutation(clone if at is None else list(clone.walk())[at])
    return clone


@pytest.mark.parametrize("dump", DUMPS)
def test_bishengir_output_is_the_rule(dump):
    """The 910B's output fences dependent vector ops, the 950's does not, and each is
    race-free under its own chip's rule (to our simulator and to the static check)."""
    text = (DATA / dump).read_text()
    module = _module(text, dump)
    chip = load_chip(module_hacc_target(module))
    barriers = len(re.findall(r"pipe_barrier\[<PIPE_V>\]", text))
    if any(isinstance(op, hivm.VBrcOp | hivm.VReduceOp | hivm.VMulOp) for op in module.walk()):
        assert (barriers > 0) == needs_barrier(chip, "V", "V"), (chip.name, barriers)
    assert not _simulator_reports(module)
    if _static_check_applies(module):
        assert not _static_check_reports(module)


def test_950_output_races_under_the_910b_rule():
    """What column (d) reported before the rule became chip data: the same 950 code
    judged by the 910B's rule races (V -> V only), so the rule is what decides."""
    text = (DATA / "softmax.ascend950.gss.mlir").read_text()
    as_910b = _module(text.replace('#hacc.target<"Ascend950PR_9599">', '#hacc.target<"Ascend910B1">'), "as 910B")
    result = simulate(as_910b, None, blocks=1, trace=False)
    vector = re.compile(r"v[a-z]+$")  # the simulator names ops without "hivm.hir."
    assert result.races and all(vector.match(r.first) and vector.match(r.second) for r in result.races)
    assert _static_check_reports(as_910b)


@pytest.mark.parametrize("dump", DUMPS)
def test_mutants_of_bishengir_output(dump, request):
    if dump not in MUTANT_DUMPS and not request.config.getoption("--slow"):
        pytest.skip("the mutants of this dump run with --slow")
    module = _module((DATA / dump).read_text(), dump)
    mutants = _mutants(module)
    descriptions = " ".join(d for d, _, _, _ in mutants)
    assert "set_flag" in descriptions and "wait_flag" in descriptions and "renamed" in descriptions
    if "910b" in dump and "softmax" in dump:
        assert "pipe_barrier[V]" in descriptions
    static = _static_check_applies(module)
    wrong = []
    for description, at, mutation, harmful in mutants:
        mutant = _apply(module, at, mutation)
        simulated = _simulator_reports(mutant)
        checked = _static_check_reports(mutant) if static else harmful
        if simulated != harmful or checked != harmful:
            wrong.append(f"{description}: harmful={harmful} simulator={simulated} static={checked}")
    assert not wrong, "\n".join(wrong)
