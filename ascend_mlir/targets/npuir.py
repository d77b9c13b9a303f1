"""`-t npuir`: AscendNPU IR text that the real `bishengir-compile` accepts.

A printer only: the IR must already have the shape bishengir expects, which passes
give it (`ascend-compile` runs them all at its end):

* `peel-mmad-init`: an mmadL1 `init` computed inside its K loop is peeled to constants
  (bishengir-compile 1.2.0 crashes on a computed init inside the loop);
* `hoist-constants`: constants at the function entry, one per value (bishengir-compile
  1.2.0 segfaults when its own canonicalizer hoists them out of a K loop);
* `split-mix-kernel`: a MIX kernel is the `_mix_aic` / `_mix_aiv` pair with the FFTS
  base-address argument (its cross-core flags placed by sync insertion before).

What is not in that shape is a located error naming the pass to run, never silently
different output. The target itself only spells:

* ops outside the dialects bishengir knows are errors (tile ops ask for
  `convert-tile-to-hivm`);
* our own attributes (`ascend.*`, any `tile.*` left over) are not printed;
* without `hacc.target`, the default chip's target is printed, so bishengir compiles for
  the chip every pass assumed;
* the text follows the bishengir build of the target (`syntax=auto|a5|default`): the a5
  build (Ascend 950) requires vreduce's `unsigned_src`, which the default build rejects,
  and with `generic=true` (MLIR's generic op form) its vreduce has three operand
  segments (src, dst, temp_buffer) where the default build has four (+ indices).

Planned memory (`pointer_cast`s, ascend-compile's default) is re-spelled for bishengir
by the `alloc-planned-buffers` pass, not here: its PlanMemory aborts on pointer_casts.
Accepted by bishengir-compile 1.2.0 (it stops at the missing closed-source `hivmc`,
leaving DIR/module.hivm.opt.mlir):
  Ascend 910B:  bishengir-compile K.mlir -o K.o --target=Ascend910B1 --save-temps=DIR
                (cube and MIX kernels also need --disable-hivm-tensor-compile=true)
  Ascend 950:   bishengir-compile-a5 K.mlir -o K.o --save-temps=DIR   (vector kernels;
                the a5 build asserts on cube kernels: bishengir-opt-a5 K.mlir parses them)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.target import Target

from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hacc, hivm
from ascend_mlir.transforms.peel_mmad_init import int_constant, matmul_init
from ascend_mlir.analysis.kernel_layout import function_kind

# Dialects whose ops bishengir-opt 1.2.0 parses (the subset we emit).
BISHENGIR_DIALECTS = frozenset(
    {"builtin", "func", "arith", "memref", "scf", "affine", "math", "hivm", "hacc", "annotation"}
)
# Attribute prefixes of our own, meaningless to bishengir.
OWN_ATTRIBUTE_PREFIXES = ("ascend.", "tile.")

SYNTAXES = ("auto", "a5", "default")


# --------------------------------------------------------------------------------------
# what the passes must have done
# --------------------------------------------------------------------------------------


def _check_op(op: Operation) -> None:
    dialect = op.dialect_name()
    if dialect == "tile":
        raise op_error(op, "is tile-level: run -p convert-tile-to-hivm before -t npuir")
    if op.__class__.__name__ == "UnregisteredOp" or dialect not in BISHENGIR_DIALECTS:
        raise op_error(op, "is not part of AscendNPU IR; bishengir-compile cannot take it")
    init = matmul_init(op)
    if init is not None and int_constant(init) is None and isinstance(init.owner, Operation):
        loop = op.parent_op()
        while loop is not None and not isinstance(loop, scf.ForOp):
            loop = loop.parent_op()
        if loop is not None:
            raise op_error(op, "init is computed inside a loop; bishengir-compile 1.2.0 crashes on that. "
                               + _init_advice(init.owner, loop))


def _init_advice(init: Operation, loop: scf.ForOp) -> str:
    """What to do about an mmadL1 init computed in `loop`: peel-mmad-init peels the K
    loop's first step where init is `arith.cmpi eq, %iv, %lb` (ascend-compile runs it), and
    only there; an init true at another step (`%k == 1`) leaves the accumulator unset when
    the first step reads it, which peeling cannot mend."""
    iv = loop.body.block.args[0]
    if isinstance(init, arith.CmpiOp) and init.predicate.value.data == 0 and iv in init.operands:
        other = init.rhs if init.lhs is iv else init.lhs
        if other is not loop.lb and int_constant(other) != int_constant(loop.lb):
            return ("It is true at another step than the loop's first (its lower bound): the steps "
                    "before it accumulate into an accumulator nothing has set, and it drops their "
                    "sums: compare the induction variable with the loop's lower bound")
    return "Run -p peel-mmad-init (it peels `arith.cmpi eq, %iv, %lb` of the K loop) or make it a constant"


def _check_split(module: ModuleOp) -> None:
    for op in module.body.block.ops:
        if not isinstance(op, func.FuncOp) or hacc.ENTRY not in op.attributes:
            continue
        if function_kind(op) == "mix":  # analysis.kernel_layout: declared MIX, or undeclared with both cores
            raise op_error(
                op,
                "is a MIX kernel (cube and vector ops); bishengir-compile takes it as the "
                "_mix_aic/_mix_aiv pair: run -p split-mix-kernel after sync insertion "
                "(-p ascend-compile does both)",
            )


def check_npuir(module: ModuleOp) -> None:
    """Raise a located diagnostic when `module` is not in the form bishengir accepts."""
    for op in module.walk():
        _check_op(op)
    _check_split(module)


# --------------------------------------------------------------------------------------
# spelling
# --------------------------------------------------------------------------------------


def _strip_own_attributes(module: ModuleOp) -> None:
    for op in module.walk():
        for key in [k for k in op.attributes if k.startswith(OWN_ATTRIBUTE_PREFIXES)]:
            del op.attributes[key]


def _spell_vreduce(op: hivm.VReduceOp, a5: bool, generic: bool) -> None:
    """The a5 build of bishengir (Ascend 950) requires vreduce's `unsigned_src` flag,
    which the default build rejects, and has no `indices` operand: its generic form has
    three operand segments where the default build has four. Every other op we print is
    spelled alike by both builds (checked against both)."""
    if a5 and op.unsigned_src is None:
        op.unsigned_src = IntegerAttr.from_bool(False)
    elif not a5 and op.unsigned_src is not None:
        del op.properties["unsigned_src"]
    if a5 and generic:
        if op.indices is not None:
            raise op_error(op, "has an indices operand, which the a5 build of bishengir does not have")
        sizes = (1, len(op.dst), 0 if op.temp_buffer is None else 1)
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)


def _is_a5(module: ModuleOp, syntax: str) -> bool:
    from ascend_mlir.chips import target_is_a5

    target = module.attributes.get(hacc.TARGET)
    target_name = target.data if isinstance(target, hacc.TargetAttr) else ""
    return syntax == "a5" or (syntax == "auto" and target_is_a5(target_name))


def spelled_for_bishengir(module: ModuleOp, syntax: str = "auto", generic: bool = False) -> ModuleOp:
    """A copy of `module` spelled for the bishengir build `syntax` (see the module doc)."""
    check_npuir(module)
    out = module.clone()
    if hacc.TARGET not in out.attributes:
        # the chip every pass assumes without one, so bishengir compiles for it too
        from ascend_mlir.chips import resolve_chip, set_module_target

        set_module_target(out, resolve_chip(out))
    _strip_own_attributes(out)
    a5 = _is_a5(out, syntax)
    for op in out.walk():
        if isinstance(op, hivm.VReduceOp):
            _spell_vreduce(op, a5, generic)
    return out


@dataclass(frozen=True)
class NpuirTarget(Target):
    """Print AscendNPU IR for bishengir-compile.

    `syntax`: which bishengir build the text is for. "auto" (default) follows the
    module's hacc.target: a chip of the a5 generation (the Ascend 950, `chips.A5_ARCH`) ->
    "a5" (bishengir-compile-a5, or bishengir-compile --target=Ascend950..., which hands
    over to it), anything else -> "default".
    `generic`: print MLIR's generic op form."""

    name = "npuir"

    syntax: str = "auto"
    generic: bool = False

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax not in SYNTAXES:
            raise DiagnosticException(
                f"npuir: unknown syntax '{self.syntax}' (one of {', '.join(SYNTAXES)})"
            )
        npuir = spelled_for_bishengir(module, self.syntax, self.generic)
        Printer(stream=output, print_generic_format=self.generic).print_op(npuir)
        output.write("\n")
