"""`-t npuir`: AscendNPU IR text that the real `bishengir-compile` accepts.

The input is hivm-level IR (after `convert-tile-to-hivm`, scheduled or not). The module
is rewritten on a copy, never in place:

* ops outside the dialects bishengir knows (and unregistered ops) are errors, and tile
  ops ask for `convert-tile-to-hivm` first;
* our own attributes (`ascend.*`, and any `tile.*` left over) are stripped;
* an `hivm.hir.mmadL1` whose `init` is `arith.cmpi eq, %iv, %lb` of its K loop gets the
  first iteration peeled (init = true, then the loop from lb + step with init = false):
  bishengir-compile 1.2.0 crashes on a computed init inside the loop;
* a MIX kernel becomes the `<name>_mix_aic` / `<name>_mix_aiv` function pair bishengir
  expects (`hivm.part_of_mix`, `mix_mode = "mix"`, module `hivm.module_core_type<MIX>`);
  each function keeps the ops of its core plus the scalar code, and when the kernel has
  no cross-core flags yet, `sync_block_set` / `sync_block_wait` pairs are inserted for
  every cube <-> vector dependence through a buffer (loop-carried ones primed before
  the loop and drained after it); both take the FFTS base address as first argument
  (`hacc.arg_type<ffts_base_address>`, `hivm.hir.set_ffts_base_addr`);
* constants are hoisted to the function entry, one per value (bishengir-compile 1.2.0
  segfaults when its own canonicalizer has to do it on a K loop);
* without `hacc.target` the default chip's target is added, and the text follows the
  bishengir build of the target (`syntax=auto|a5|default`).

Accepted by bishengir-compile 1.2.0 (it stops at the missing closed-source `hivmc`,
leaving DIR/module.hivm.opt.mlir):
  Ascend 910B:  bishengir-compile K.mlir -o K.o --target=Ascend910B1 --save-temps=DIR
                (cube and MIX kernels also need --disable-hivm-tensor-compile=true)
  Ascend 950:   bishengir-compile-a5 K.mlir -o K.o --save-temps=DIR   (vector kernels;
                the a5 build asserts on cube kernels: bishengir-opt-a5 K.mlir parses them)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.target import Target

from ascend_mlir.analysis.views import VIEW_OPS, view_root
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hacc, hivm

# Dialects whose ops bishengir-opt 1.2.0 parses (the subset we emit).
BISHENGIR_DIALECTS = frozenset(
    {"builtin", "func", "arith", "memref", "scf", "affine", "math", "hivm", "hacc", "annotation"}
)
# Attribute prefixes of our own, meaningless to bishengir.
OWN_ATTRIBUTE_PREFIXES = ("ascend.", "tile.")

FUNC_CORE_TYPE = "hivm.func_core_type"
MODULE_CORE_TYPE = "hivm.module_core_type"
PART_OF_MIX = "hivm.part_of_mix"

# Ops that only compute values: removable once their results are unused.
_REMOVABLE_WHEN_UNUSED = (*VIEW_OPS, memref.AllocOp, hivm.GetBlockIdxOp, hivm.GetBlockNumOp,
                          hivm.GetSubBlockIdxOp)


# --------------------------------------------------------------------------------------
# validation and attribute stripping
# --------------------------------------------------------------------------------------


def _check_ops(module: ModuleOp) -> None:
    for op in module.walk():
        dialect = op.dialect_name()
        if dialect == "tile":
            raise op_error(op, "is tile-level: run -p convert-tile-to-hivm before -t npuir")
        if op.__class__.__name__ == "UnregisteredOp" or dialect not in BISHENGIR_DIALECTS:
            raise op_error(op, "is not part of AscendNPU IR; bishengir-compile cannot take it")


def _strip_own_attributes(module: ModuleOp) -> None:
    for op in module.walk():
        for key in [k for k in op.attributes if k.startswith(OWN_ATTRIBUTE_PREFIXES)]:
            del op.attributes[key]


# --------------------------------------------------------------------------------------
# peeling the first K iteration of a computed mmadL1 init
# --------------------------------------------------------------------------------------


def _int_constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _same_value(a: SSAValue, b: SSAValue) -> bool:
    if a == b:
        return True
    ca, cb = _int_constant(a), _int_constant(b)
    return ca is not None and ca == cb


def _first_iteration_loop(init: SSAValue) -> scf.ForOp | None:
    """The loop L when `init` is `arith.cmpi eq, %iv_L, %lb_L` (either operand order)."""
    cmp = init.owner
    if not isinstance(cmp, arith.CmpiOp) or cmp.predicate.value.data != 0:  # 0 = eq
        return None
    for iv, other in ((cmp.lhs, cmp.rhs), (cmp.rhs, cmp.lhs)):
        if not isinstance(iv, BlockArgument):
            continue
        loop = iv.block.parent_op()
        if isinstance(loop, scf.ForOp) and loop.body.block.args[0] == iv and _same_value(other, loop.lb):
            return loop
    return None


def _peel_first_iteration(loop: scf.ForOp, first: SSAValue) -> None:
    """Run iteration `lb` before the loop with `first` = true; start the loop at lb + step
    with `first` = false (correct because step > 0, so no later iv equals lb)."""
    body = loop.body.block
    lb, ub, step = loop.lb, loop.ub, loop.step
    true = arith.ConstantOp(IntegerAttr(1, i1))
    false = arith.ConstantOp(IntegerAttr(0, i1))
    true.result.name_hint = "true"
    false.result.name_hint = "false"
    Rewriter.insert_op([true, false], InsertPoint.before(loop))

    mapping: dict[SSAValue, SSAValue] = {body.args[0]: lb, first: true.result}
    for arg, init in zip(body.args[1:], loop.iter_args):
        mapping[arg] = init
    peeled: list[Operation] = []
    yielded: list[SSAValue] = []
    for op in body.ops:
        if isinstance(op, scf.YieldOp):
            yielded = [mapping.get(v, v) for v in op.operands]
            continue
        if op is first.owner:
            continue
        peeled.append(op.clone(value_mapper=mapping))

    lb_value, ub_value = _int_constant(lb), _int_constant(ub)
    runs_at_least_once = lb_value is not None and ub_value is not None and ub_value > lb_value
    if runs_at_least_once:
        Rewriter.insert_op(peeled, InsertPoint.before(loop))
    else:
        if loop.iter_args:
            raise op_error(
                loop,
                "cannot peel the first iteration of a loop with iter_args and a trip count "
                "that may be zero (needed for the mmadL1 init)",
            )
        nonempty = arith.CmpiOp(lb, ub, "slt")
        guard = scf.IfOp(nonempty, [], Region(Block([*peeled, scf.YieldOp()])))
        Rewriter.insert_op([nonempty, guard], InsertPoint.before(loop))

    step_value = _int_constant(step)
    next_lb: Operation = (
        arith.ConstantOp(IntegerAttr(lb_value + step_value, lb.type))
        if lb_value is not None and step_value is not None
        else arith.AddiOp(lb, step)
    )
    Rewriter.insert_op(next_lb, InsertPoint.before(loop))
    new_inits = yielded if (runs_at_least_once and loop.iter_args) else list(loop.iter_args)
    loop.operands = [next_lb.results[0], ub, step, *new_inits]
    first.replace_uses_with_if(false.result, lambda use: _inside(use.operation, loop))
    if not first.uses:
        Rewriter.erase_op(first.owner)


def _inside(op: Operation, ancestor: Operation) -> bool:
    while op is not None:
        if op is ancestor:
            return True
        op = op.parent_op()  # type: ignore[assignment]
    return False


def _peel_computed_inits(module: ModuleOp) -> None:
    while True:
        target = None
        for op in module.walk():
            if not isinstance(op, hivm.MmadL1Op) or op.init_is_constant() is not None:
                continue
            init = op.init_condition
            if not isinstance(init.owner, Operation) or not any(
                isinstance(a, scf.ForOp) for a in _ancestors(op)
            ):
                continue  # computed outside any loop: bishengir takes it
            loop = _first_iteration_loop(init)
            if loop is None or not _inside(init.owner, loop):
                raise op_error(
                    op,
                    "init is computed inside a loop; bishengir-compile 1.2.0 crashes on that. "
                    "Write it as `arith.cmpi eq, %iv, %lb` of the K loop (peeled here) or a constant",
                )
            target = (loop, init)
            break
        if target is None:
            return
        _peel_first_iteration(*target)


def _ancestors(op: Operation) -> Iterable[Operation]:
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def _hoist_constants(module: ModuleOp) -> None:
    """Move every arith.constant of a function to its entry block, one per value.

    bishengir-compile 1.2.0 canonicalizes first; when that pass itself hoists and merges
    constants out of a K loop (the mmadL1 sizes), a later pass segfaults (seen on the
    910B gemm). Handing it the canonical form avoids the crash; the IR means the same.
    """
    for func_op in module.walk():
        if not isinstance(func_op, func.FuncOp) or func_op.is_declaration:
            continue
        entry = func_op.body.blocks[0]
        seen: dict[tuple[object, object], arith.ConstantOp] = {}
        hoisted: list[arith.ConstantOp] = []
        for op in list(func_op.walk()):
            if not isinstance(op, arith.ConstantOp):
                continue
            key = (op.value, op.result.type)
            kept = seen.get(key)
            if kept is None:
                seen[key] = op
                op.detach()
                hoisted.append(op)
            else:
                op.result.replace_all_uses_with(kept.result)
                Rewriter.erase_op(op)
        if hoisted:
            Rewriter.insert_op(hoisted, InsertPoint.at_start(entry))


# --------------------------------------------------------------------------------------
# MIX kernels: cross-core flags and the _mix_aic / _mix_aiv split
# --------------------------------------------------------------------------------------


def _core(op: Operation) -> str | None:
    if isinstance(op, hivm.HivmPipeOp):
        core = op.core_type()
        return core if core in ("CUBE", "VECTOR") else None
    return None


@dataclass
class _Access:
    op: hivm.HivmPipeOp
    core: str
    reads: frozenset[SSAValue]
    writes: frozenset[SSAValue]


def _ancestor_in(op: Operation, block: Block) -> Operation:
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _common_block(a: Operation, b: Operation) -> Block:
    blocks_of_a = []
    op: Operation | None = a
    while op is not None:
        blk = op.parent_block()
        if blk is None:
            break
        blocks_of_a.append(blk)
        op = blk.parent_op()
    op = b
    while op is not None:
        blk = op.parent_block()
        if blk is None:
            break
        if blk in blocks_of_a:
            return blk
        op = blk.parent_op()
    raise AssertionError("ops of one function share its body block")


def _enclosing_loop(block: Block, func_op: func.FuncOp) -> scf.ForOp | None:
    op = block.parent_op()
    while op is not None and op is not func_op:
        if isinstance(op, scf.ForOp):
            return op
        op = op.parent_op()
    return None


def _insert_cross_core_sync(func_op: func.FuncOp) -> None:
    """A flag for every dependence between a cube op and a vector op through one buffer.

    Set right after the producer (or the ancestor of it that shares a block with the
    consumer), wait right before the consumer. When that block is inside a loop, the
    opposite dependence of the next iteration gets a flag too, primed before the loop
    and drained after it, so every set has its wait.
    """
    accesses: list[_Access] = []
    for op in func_op.walk():
        core = _core(op)
        if core is None or isinstance(op, hivm.SYNC_OPS):
            continue
        assert isinstance(op, hivm.HivmPipeOp)
        accesses.append(
            _Access(
                op,
                core,
                frozenset(view_root(v) for v in op.memref_reads()),
                frozenset(view_root(v) for v in op.memref_writes()),
            )
        )
    # (producer anchor, consumer anchor, producer core, producer pipe, consumer pipe, loop)
    edges: dict[tuple[Operation, Operation, str], tuple[str, str, str, scf.ForOp | None]] = {}
    for i, x in enumerate(accesses):
        for y in accesses[i + 1 :]:
            if x.core == y.core:
                continue
            if not (x.writes & (y.reads | y.writes) or x.reads & y.writes):
                continue
            block = _common_block(x.op, y.op)
            xa, ya = _ancestor_in(x.op, block), _ancestor_in(y.op, block)
            if xa is ya:
                continue  # both inside one nested region: ordered by that region's own flags
            loop = _enclosing_loop(block, func_op)
            x_out, y_in = x.op.pipes()[-1], y.op.pipes()[0]
            y_out, x_in = y.op.pipes()[-1], x.op.pipes()[0]
            edges.setdefault((xa, ya, x.core), (x.core, x_out, y_in, None))
            if loop is not None:
                # y of iteration i before x of iteration i + 1
                edges.setdefault((ya, xa, y.core), (y.core, y_out, x_in, loop))
    if len(edges) > hivm.CROSS_CORE_FLAGS:
        raise op_error(
            func_op,
            f"needs {len(edges)} cross-core flags, more than the {hivm.CROSS_CORE_FLAGS} available",
        )
    other = {"CUBE": "VECTOR", "VECTOR": "CUBE"}
    for flag, ((src, dst, _), (core, set_pipe, wait_pipe, loop)) in enumerate(edges.items()):
        Rewriter.insert_op(
            hivm.SyncBlockSetOp(core, set_pipe, wait_pipe, flag), InsertPoint.after(src)
        )
        Rewriter.insert_op(
            hivm.SyncBlockWaitOp(other[core], set_pipe, wait_pipe, flag), InsertPoint.before(dst)
        )
        if loop is not None:
            Rewriter.insert_op(
                hivm.SyncBlockSetOp(core, set_pipe, wait_pipe, flag), InsertPoint.before(loop)
            )
            Rewriter.insert_op(
                hivm.SyncBlockWaitOp(other[core], set_pipe, wait_pipe, flag),
                InsertPoint.after(loop),
            )


def _remove_dead_code(func_op: func.FuncOp) -> None:
    changed = True
    while changed:
        changed = False
        for op in reversed(list(func_op.walk())):
            if op is func_op:
                continue
            removable = (
                isinstance(op, _REMOVABLE_WHEN_UNUSED) or op.dialect_name() == "arith"
            ) and all(not r.uses for r in op.results)
            empty_loop = (
                isinstance(op, scf.ForOp)
                and not op.results
                and all(isinstance(o, scf.YieldOp) for o in op.body.block.ops)
            )
            empty_if = (
                isinstance(op, scf.IfOp)
                and not op.results
                and all(
                    all(isinstance(o, scf.YieldOp) for o in r.block.ops) if r.blocks else True
                    for r in op.regions
                )
            )
            if removable or empty_loop or empty_if:
                Rewriter.erase_op(op)
                changed = True


FFTS_ARG_TYPE = "hacc.arg_type"


def _add_ffts_base_address(part: func.FuncOp) -> None:
    """First argument `%ffts_base_addr: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}`
    and `hivm.hir.set_ffts_base_addr` on entry, as bishengir's own MIX kernels have."""
    arg_type = hacc.ArgTypeAttr("ffts_base_address")
    entry = part.body.blocks[0]
    old_attrs = list(part.arg_attrs.data) if part.arg_attrs is not None else [
        DictionaryAttr({}) for _ in entry.args
    ]
    ffts = entry.insert_arg(i64, 0)
    ffts.name_hint = "ffts_base_addr"
    part.arg_attrs = ArrayAttr([DictionaryAttr({FFTS_ARG_TYPE: arg_type}), *old_attrs])
    part.update_function_type()
    Rewriter.insert_op(hivm.SetFftsBaseAddrOp(ffts), InsertPoint.at_start(entry))


def _is_barrier_all(op: Operation) -> bool:
    return isinstance(op, hivm.PipeBarrierOp) and op.pipe.pipe_name == "ALL"


def _issues_nothing(op: Operation) -> bool:
    """Pure index/view arithmetic: nothing a barrier would have to wait for."""
    return isinstance(op, (*VIEW_OPS, memref.AllocOp, scf.YieldOp)) or op.dialect_name() == "arith"


def _only_barriers(op: Operation) -> bool:
    """A region op whose body issues no pipe work, only barriers and index arithmetic."""
    return not op.results and all(
        _is_barrier_all(inner) or _issues_nothing(inner)
        for region in op.regions
        for inner in region.walk()
    )


def _drop_idle_barriers(block: Block, idle: bool) -> None:
    """Erase pipe_barrier[PIPE_ALL]s with nothing issued since the previous one.

    After one core's ops are removed from a MIX kernel, the other core's barriers are
    left behind around nothing (a K loop of bare barriers in the vector part). A barrier
    with no op issued since the last barrier waits for nothing, and so does a loop made
    only of such barriers; `idle` says whether that holds at the start of `block`.
    """
    for op in list(block.ops):
        if _is_barrier_all(op):
            if idle:
                Rewriter.erase_op(op)
            idle = True
        elif _issues_nothing(op):
            continue
        elif idle and isinstance(op, (scf.ForOp, scf.IfOp)) and _only_barriers(op):
            Rewriter.erase_op(op)
        else:
            for region in op.regions:
                for inner in region.blocks:
                    _drop_idle_barriers(inner, False)
            idle = False


def _core_part(func_op: func.FuncOp, keep: str, suffix: str, core_type: hivm.FuncCoreType) -> func.FuncOp:
    part = func_op.clone()
    drop = "VECTOR" if keep == "CUBE" else "CUBE"
    for op in reversed(list(part.walk())):
        if _core(op) == drop:
            Rewriter.erase_op(op)
    _drop_idle_barriers(part.body.blocks[0], True)
    _remove_dead_code(part)
    part.sym_name = StringAttr(func_op.sym_name.data + suffix)
    part.attributes[FUNC_CORE_TYPE] = hivm.FuncCoreTypeAttr(core_type)
    part.attributes[PART_OF_MIX] = UnitAttr()
    part.attributes["mix_mode"] = StringAttr("mix")
    _add_ffts_base_address(part)
    return part


def _split_mix_kernels(module: ModuleOp) -> None:
    mix = [
        op
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp)
        and hacc.ENTRY in op.attributes
        and op.attributes.get(FUNC_CORE_TYPE) == hivm.FuncCoreTypeAttr(hivm.FuncCoreType.MIX)
    ]
    for func_op in mix:
        if not any(isinstance(o, (hivm.SyncBlockSetOp, hivm.SyncBlockWaitOp)) for o in func_op.walk()):
            _insert_cross_core_sync(func_op)
        aic = _core_part(func_op, "CUBE", "_mix_aic", hivm.FuncCoreType.AIC)
        aiv = _core_part(func_op, "VECTOR", "_mix_aiv", hivm.FuncCoreType.AIV)
        Rewriter.insert_op([aic, aiv], InsertPoint.before(func_op))
        Rewriter.erase_op(func_op)
    if mix:
        module.attributes[MODULE_CORE_TYPE] = hivm.ModuleCoreTypeAttr(hivm.ModuleCoreType.MIX)


def _ensure_core_types(module: ModuleOp) -> None:
    """Entries without `hivm.func_core_type` get it from the cores their ops use."""
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp) and hacc.ENTRY in op.attributes and FUNC_CORE_TYPE not in op.attributes:
            cores = {_core(o) for o in op.walk()} - {None}
            kind = (
                hivm.FuncCoreType.MIX
                if cores == {"CUBE", "VECTOR"}
                else hivm.FuncCoreType.AIC
                if cores == {"CUBE"}
                else hivm.FuncCoreType.AIV
            )
            op.attributes[FUNC_CORE_TYPE] = hivm.FuncCoreTypeAttr(kind)
            if hacc.FUNCTION_KIND not in op.attributes:
                op.attributes[hacc.FUNCTION_KIND] = hacc.FunctionKindAttr(hacc.FunctionKind.DEVICE)


def to_npuir(module: ModuleOp) -> ModuleOp:
    """A copy of `module` in the form bishengir-compile accepts (see the module doc)."""
    _check_ops(module)
    out = module.clone()
    if hacc.TARGET not in out.attributes:
        # the chip every pass assumes without one, so bishengir compiles for it too
        from ascend_mlir.chips import load_chip

        out.attributes[hacc.TARGET] = hacc.TargetAttr(load_chip(None).hacc_target)
    _strip_own_attributes(out)
    _peel_computed_inits(out)
    _hoist_constants(out)
    _ensure_core_types(out)
    _split_mix_kernels(out)
    return out


A5_TARGET_PREFIX = "Ascend950"
SYNTAXES = ("auto", "a5", "default")


def _set_vreduce_spelling(module: ModuleOp, a5: bool) -> None:
    """The a5 build of bishengir (Ascend 950) requires vreduce's `unsigned_src` flag,
    which the default build rejects. Every other op we print is spelled alike by both
    builds (checked against both)."""
    for op in module.walk():
        if isinstance(op, hivm.VReduceOp):
            if a5 and op.unsigned_src is None:
                op.unsigned_src = IntegerAttr.from_bool(False)
            elif not a5 and op.unsigned_src is not None:
                del op.properties["unsigned_src"]


@dataclass(frozen=True)
class NpuirTarget(Target):
    """Print AscendNPU IR for bishengir-compile.

    `syntax`: which bishengir build the text is for. "auto" (default) follows the
    module's hacc.target: Ascend950* -> "a5" (bishengir-compile-a5, or bishengir-compile
    --target=Ascend950..., which hands over to it), anything else -> "default"."""

    name = "npuir"

    syntax: str = "auto"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax not in SYNTAXES:
            raise DiagnosticException(
                f"npuir: unknown syntax '{self.syntax}' (one of {', '.join(SYNTAXES)})"
            )
        npuir = to_npuir(module)
        target = npuir.attributes.get(hacc.TARGET)
        target_name = target.data if isinstance(target, hacc.TargetAttr) else ""
        a5 = self.syntax == "a5" or (
            self.syntax == "auto" and target_name.startswith(A5_TARGET_PREFIX)
        )
        _set_vreduce_spelling(npuir, a5)
        Printer(stream=output).print_op(npuir)
        output.write("\n")
