"""Source locations and MLIR-style diagnostics (`file:line:col: error: ...`).

xDSL's parser attaches a location to an op only when the text spells `loc(...)`, and its
verifier reports the failing op by printing the whole module. Users of an mlir-opt style
tool expect one line naming the file, line and column, so:

* `LocatedParser` gives every parsed op a `FileLineColLoc` of where its text starts;
* `verify_module` verifies op by op and returns one `Diagnostic` per failing op;
* passes raise `OpError` (a `PassFailedException` that remembers its op) via `op_error`,
  and report non-fatal facts with `emit_remark`;
* `run_tool` is the outermost frame of the command-line tools: a bug of ours becomes one
  error line and exit status 2, not a traceback wall.
"""

from __future__ import annotations

import dataclasses
import os
from bisect import bisect_right
import re
import struct
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO, cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    FileLineColLoc,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnregisteredOp,
)
from xdsl.ir import AttributeInvT, Operation, Region, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import (
    DiagnosticException,
    ParseError,
    VerifyException,
)
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

# re-exported: passes raise them from here
from ascend_mlir.op_errors import OpError as OpError
from ascend_mlir.op_errors import op_error as op_error


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One message about the input, printed as `file:line:col: severity: message`."""

    severity: str  # "error" | "warning" | "remark" | "note"
    message: str
    location: SourceLocation | None = None
    source_line: str | None = None  # the offending line, for a caret display

    def render(self, show_source: bool = True) -> str:
        where = f"{self.location}: " if self.location else ""
        text = f"{where}{self.severity}: {self.message}"
        if show_source and self.source_line and self.location is not None:
            line = self.source_line.rstrip("\r")  # a CRLF file's line, without its CR
            # columns count characters; the caret keeps the line's tabs so that it sits
            # under the character wherever the terminal puts the tab stops
            before = line[: max(self.location.column, 1) - 1]
            caret = "".join("\t" if ch == "\t" else " " for ch in before) + "^"
            text += f"\n{line}\n{caret}"
        return text


def location_of(op: Operation | None) -> SourceLocation | None:
    """The source location of `op`, or of its nearest located ancestor."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
        op = op.parent_op()
    return None


def emit_remark(op: Operation, message: str, stream: TextIO | None = None) -> None:
    """Print a remark about `op` on stderr (or `stream`), MLIR style."""
    print(Diagnostic("remark", message, location_of(op)).render(), file=stream or sys.stderr)


def emit_warning(op: Operation, message: str, stream: TextIO | None = None) -> None:
    print(Diagnostic("warning", message, location_of(op)).render(), file=stream or sys.stderr)


class LocatedParser(Parser):
    """An xDSL parser that records where each operation starts.

    Lines are counted incrementally from the previous op's position: xDSL's
    `Span.get_location` counts the newlines from the start of the input for every call,
    which made parsing quadratic in the file size. An op is located when its parse ends,
    so an op with a region (a function) comes after the ops inside it, behind the
    counted position: its line is counted from the nearest position counted before it
    (a checkpoint kept per op located in text order), not from the start of the input,
    which was quadratic again (a 20 MB file of small functions took 1.8x xdsl-opt's
    time: every function rescanned the file up to its start)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._counted_to = 0  # position up to which newlines are counted
        self._lines_before = 0  # newlines before _counted_to
        # the positions counted in text order and the newlines before each (ascending)
        self._checkpoints: list[int] = [0]
        self._checkpoint_lines: list[int] = [0]
        self._file_attr: StringAttr | None = None
        self._empty_regions: dict[int, Span] = {}  # id of a `{ }` region -> its `{`
        self._first_forward_use: dict[str, Span] = {}  # a value used before any definition
        self._forward_names: dict[SSAValue, str] = {}  # each forward-use placeholder's name

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """As xDSL's, except that a file of nothing but comments and aliases is an empty
        module (mlir-opt prints `module {}`), and a value used but never defined is
        reported at its first use, as MLIR does (xDSL: at the end of the input)."""
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as err:
            if err.msg == "Could not parse entire input!" and allow_implicit_module \
                    and self._current_token.kind == MLIRTokenKind.EOF:
                return ModuleOp([])
            if err.msg.startswith("values used but not defined") and self.forward_ssa_references:
                name = min(self.forward_ssa_references, key=lambda n: self._first_forward_use[n].start)
                raise ParseError(self._first_forward_use[name], f"use of undeclared SSA value name %{name}") from None
            raise

    def resolve_operand(self, operand: UnresolvedOperand, type: AttributeInvT) -> SSAValue[AttributeInvT]:
        name = operand.operand_name
        if name not in self.ssa_values and name not in self.forward_ssa_references:
            self._first_forward_use[name] = operand.span
        value = super().resolve_operand(operand, type)
        if isinstance(value, ForwardDeclaredValue):
            self._forward_names[value] = name
        return value

    def parse_optional_region(self, arguments: Sequence[Parser.Argument] | None = None) -> Region | None:
        start = self._current_token.span
        region = super().parse_optional_region(arguments)
        if region is not None and not region.blocks:
            self._empty_regions[id(region)] = start
        return region

    def _location(self, span: Span) -> FileLineColLoc:
        content = span.input.content
        newline = span.input.newline
        pos = span.start
        if pos >= self._counted_to:
            self._lines_before += content.count(newline, self._counted_to, pos)
            self._counted_to = pos
            self._checkpoints.append(pos)
            self._checkpoint_lines.append(self._lines_before)
            lines_before = self._lines_before
        else:  # behind the counted position: from the nearest checkpoint before it
            i = bisect_right(self._checkpoints, pos) - 1
            lines_before = self._checkpoint_lines[i] + content.count(newline, self._checkpoints[i], pos)
        line_start = content.rfind(newline, 0, pos) + 1
        if self._file_attr is None:
            self._file_attr = StringAttr(span.input.name)
        return FileLineColLoc(self._file_attr, IntAttr(lines_before + 1 + span.line_offset),
                              IntAttr(pos - line_start + 1))

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except (VerifyException, ValueError, TypeError) as err:
            # Attribute/op construction failures surface as plain exceptions from the
            # constructors; turn them into a located parse error.
            if isinstance(err, ParseError):
                raise
            raise ParseError(start, _clean_message(str(err))) from err
        except (struct.error, OverflowError) as err:
            # a number too wide for the attribute's storage (`dims = [18446744073709551616]`
            # packs into an i64 array with struct.pack)
            raise ParseError(start, f"a number here does not fit its attribute's integer type ({err})") from err
        except NotImplementedError as err:
            # what xDSL's parser knows it cannot read (a semi-affine map: a product of two
            # symbols) is the input's limit here, not our bug
            raise ParseError(start, f"xDSL cannot read this: {_clean_message(str(err))}") from err
        if op.name == "func.func" and start.text != '"func.func"' and op.regions and not op.regions[0].blocks:
            brace = self._empty_regions.pop(id(op.regions[0]), None)
            if brace is not None:  # `func.func @k() { }`: a body that says nothing (a declaration has none)
                raise ParseError(brace, "expected non-empty function body")
        if self._forward_names:  # only an input with forward uses can have this problem
            self._refuse_operand_defined_inside(op)
        if not isinstance(op.location, FileLineColLoc):
            op.location = self._location(start)
        return op

    def _refuse_operand_defined_inside(self, op: Operation) -> None:
        """An operand defined only inside the op's own region (`scf.for ... step %c1 {
        %c1 = ... }`): xDSL resolves the forward use with the region's definition before
        the op exists, so the op keeps the unresolved placeholder and the verifier fails
        on it ("Forward declared values do not have an owner", an internal error). MLIR
        does not see a region's values outside it: the use is of an undeclared value."""
        for operand in op.operands:
            name = self._forward_names.get(operand) if isinstance(operand, ForwardDeclaredValue) else None
            # a placeholder whose name is still awaited is an ordinary forward use
            if name is not None and name not in self.forward_ssa_references:
                span = self._first_forward_use.get(name, self._current_token.span)
                raise ParseError(span, f"use of undeclared SSA value name %{name} (it is defined only inside "
                                       "the region of the op that uses it, which the op's operands do not see)")


def _clean_message(message: str) -> str:
    message = message.strip()
    for prefix in ("Operation does not verify: ",):
        if message.startswith(prefix):
            message = message[len(prefix):]
    return message


def parse_diagnostic(err: ParseError) -> Diagnostic:
    span = cast(Span[str], err.span)  # we only ever parse text
    loc = span.get_location()
    content = span.input.content
    if isinstance(content, bytes):
        content = content.decode("utf-8", "replace")
    lines = content.split("\n")
    source_line = lines[loc.line - 1 - span.line_offset] if 0 < loc.line - span.line_offset <= len(lines) else None
    message = err.msg
    if message == " in block definition":  # xDSL's words for an unexpected token where a block may start
        message = "expected an operation or a block label (^name) here"
    return Diagnostic("error", message, SourceLocation(loc.file, loc.line, loc.col), source_line)


def parse_module(ctx: Context, text: str | bytes, name: str, line_offset: int = 0,
                 implicit_module: bool = True) -> ModuleOp:
    """Parse `text` with located ops. Raises ParseError (see `parse_diagnostic`).

    `line_offset` is the line of the whole file where `text` starts (for the chunks of
    --split-input-file), so every location names a line of the file the user wrote.
    Without `implicit_module` the top-level op must be a builtin.module (--no-implicit-module).
    """
    parser = LocatedParser(ctx, text, name)
    try:
        try:
            module = parser.parse_module(implicit_module)
        except RecursionError:
            raise ParseError(parser._current_token.span,  # pyright: ignore[reportPrivateUsage]
                             "operations nest too deeply here for the parser (Python's recursion limit)") from None
    except ParseError as err:
        if line_offset:
            err.span = dataclasses.replace(err.span, line_offset=line_offset)
        raise
    if line_offset:
        for op in module.walk():
            loc = op.location
            if isinstance(loc, FileLineColLoc):
                op.location = FileLineColLoc(loc.filename, IntAttr(loc.line.data + line_offset), loc.column)
    return module


def with_source_lines(diagnostics: list[Diagnostic], text: str, line_offset: int = 0,
                      name: str | None = None) -> list[Diagnostic]:
    """Attach the offending source line (for the caret display) where it is known. With
    the input's `name`, a location in another file (a DSL kernel's Python line, written
    `loc("k.py":12:5)`) quotes that file's line, or nothing when it cannot be read,
    never the input's line of the same number."""
    lines = text.split("\n")
    result = []
    for diag in diagnostics:
        if diag.location is not None and diag.source_line is None:
            if name is not None and diag.location.file != name:
                quoted = _line_of_file(diag.location.file, diag.location.line)
                index = -1
            else:
                index = diag.location.line - 1 - line_offset
                quoted = lines[index] if 0 <= index < len(lines) else None
            if quoted is not None:
                diag = dataclasses.replace(diag, source_line=quoted)
        result.append(diag)
    return result


def _line_of_file(path: str, line: int) -> str | None:
    """Line `line` (1-based) of the text file `path`, or None."""
    try:
        with open(path, encoding="utf-8") as f:
            for number, text in enumerate(f, start=1):
                if number == line:
                    return text.rstrip("\n")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return None


def op_label(op: Operation) -> str:
    return f"'{op.name}' op"


def _index_constant_problem(op: Operation) -> str | None:
    """An index constant beyond 64 bits (xDSL checks the range of iN constants, not of
    index ones; mlir-opt refuses both): it would wrap silently on the device."""
    if op.name != "arith.constant":
        return None
    value = op.properties.get("value")
    if not isinstance(value, IntegerAttr) or not isinstance(value.type, IndexType):
        return None
    if -(1 << 63) <= value.value.data < (1 << 64):
        return None
    return f"index value {value.value.data} does not fit in 64 bits"


def _public_declaration_problem(op: Operation) -> str | None:
    """A function without a body must be private (MLIR's symbol rule; xDSL does not check
    it): a public one is a kernel nobody wrote, and the generic form `({ })` reads as one."""
    if op.name != "func.func" or not op.regions or op.regions[0].blocks:
        return None
    visibility = op.properties.get("sym_visibility")
    if isinstance(visibility, StringAttr) and visibility.data != "public":
        return None
    return "symbol declaration cannot have public visibility"


def _kernel_mark_problem(op: Operation) -> str | None:
    if "tile.kernel" not in op.attributes and "tile.grid" not in op.attributes:  # tile imported only when needed
        return None
    from ascend_mlir.dialects.tile import kernel_attr_problem

    return kernel_attr_problem(op)


def _empty_block_problem(op: Operation) -> str | None:
    """A block of a region that needs terminators must have one (xDSL checks the last op
    of a block, not that there is one): `func.func @k(%a: i32) { }` is no function."""
    if not op.regions or isinstance(op, UnregisteredOp) or op.has_trait(NoTerminator):
        return None
    if any(not block.ops for region in op.regions for block in region.blocks):
        return "empty block: expect at least a terminator"
    return None


def _dominance_diagnostics(module: Operation) -> list[Diagnostic]:
    """An error at each use its definition does not dominate, with a note at the
    definition (MLIR's words)."""
    from ascend_mlir.dominance import dominance_violations

    diagnostics: list[Diagnostic] = []
    for violation in dominance_violations(module):
        owner = violation.value.owner
        defined_at = location_of(owner if isinstance(owner, Operation) else owner.parent_op())
        diagnostics.append(Diagnostic(
            "error", f"{op_label(violation.user)} operand #{violation.operand} does not dominate this use",
            location_of(violation.user)))
        diagnostics.append(Diagnostic("note", f"operand defined here ({violation.where_defined()})", defined_at))
    return diagnostics


def verify_module(module: Operation) -> list[Diagnostic]:
    """Verify every op on its own, so each failure is reported at its own location."""
    diagnostics: list[Diagnostic] = []
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            diagnostics.append(
                Diagnostic("error", f"{op_label(op)} {_clean_message(str(err.args[0]) if err.args else str(err))}", location_of(op))
            )
        except DiagnosticException as err:
            diagnostics.append(Diagnostic("error", f"{op_label(op)} {_clean_message(str(err))}", location_of(op)))
        problem = (_index_constant_problem(op) or _public_declaration_problem(op) or _empty_block_problem(op)
                   or _kernel_mark_problem(op))
        if problem is not None:
            diagnostics.append(Diagnostic("error", f"{op_label(op)} {problem}", location_of(op)))
    if not diagnostics:
        diagnostics = _dominance_diagnostics(module)
    if not diagnostics and isinstance(module, ModuleOp) and _may_break_hardware_rules(module):
        diagnostics = [exception_diagnostic(e) for e in _hardware_errors(module)]
    return diagnostics


# Op names the hardware rules look at besides buffers (hardware_checks: subviews, loops,
# allocations, recursion, tile and hivm ops).
_HARDWARE_DIALECTS = ("memref.", "scf.", "tile.", "hivm.")


def _may_break_hardware_rules(module: ModuleOp) -> bool:
    """False when no rule of analysis/hardware_checks can apply: no op of the dialects it
    checks, no call, no buffer (memref) anywhere. Such a module (plain scalar code, a
    tiny test file) skips importing the checks and the chip data, a fifth of the tool's
    start-up."""
    for op in module.walk():
        if op.name.startswith(_HARDWARE_DIALECTS) or op.name == "func.call":
            return True
        if any(isinstance(r.type, MemRefType) for r in op.results):
            return True
        signature = op.properties.get("function_type")  # a declaration has no block
        if isinstance(signature, FunctionType) and any(isinstance(t, MemRefType) for t in signature.inputs):
            return True
        for region in op.regions:
            for block in region.blocks:
                if any(isinstance(a.type, MemRefType) for a in block.args):
                    return True
    return False


def _hardware_errors(module: ModuleOp) -> list[OpError]:
    """What the hardware cannot run (analysis/hardware_checks): the chip-independent rules,
    and the chip's limits when the module names its chip (`hacc.target`)."""
    from ascend_mlir.analysis.hardware_checks import chip_limit_errors, largest_builtin_chip, structure_errors
    from ascend_mlir.chips import ChipError, chip_for_target, module_hacc_target

    from ascend_mlir.analysis.size_bounds import partial_tile_errors

    errors = structure_errors(module) + partial_tile_errors(module)
    if errors:
        return errors
    try:
        target = module_hacc_target(module)
        # without a target, a pass option names the chip: only what no chip holds is wrong yet
        chip = chip_for_target(target) if target is not None else largest_builtin_chip()
    except ChipError:
        return []  # an unknown target is the business of the pass that needs the chip
    return chip_limit_errors(module, chip)


# what only the IRDL form (`ascend-opt -t irdl`, mlir-opt --irdl-file) writes: IRDL op
# names (`"hivm.hir_mmad_l1"(`) and quoted enum parameters (`#hivm.pipe<"PIPE_V">`)
# an op or enum attribute as the IRDL form spells it; hacc.target and hacc.hivmc_version
# hold strings in their own form too (every bishengir dump has a target)
_IRDL_FORM = re.compile(r'"hivm\.hir_\w+"\(|#(?:hivm|hacc|ascend|tile|annotation)\.(?!target<|hivmc_version<)\w+<"')


def irdl_form_note(text: str) -> Diagnostic | None:
    """A note naming the converter, for a parse error on text in the IRDL form."""
    if _IRDL_FORM.search(text) is None:
        return None
    return Diagnostic("note", "the input is in the IRDL form of mlir-opt --irdl-file (ascend-opt -t irdl); "
                              "convert it back first: python -m ascend_mlir.targets.irdl --from-irdl-form FILE")


def exception_diagnostic(err: BaseException) -> Diagnostic:
    """A diagnostic for any exception a pass or printer may raise on bad input."""
    if isinstance(err, ParseError):
        return parse_diagnostic(err)
    if isinstance(err, OpError):
        return Diagnostic("error", f"{op_label(err.op)} {err.message}", location_of(err.op))
    message = str(err.args[0]) if err.args else str(err)
    op = getattr(err, "op", None)  # ChipError of a module's own hacc.target, ReferenceError
    return Diagnostic("error", _clean_message(message), location_of(op) if isinstance(op, Operation) else None)


def run_tool(where: str, what: str, body: Callable[[], int]) -> int:
    """Run a tool's work and return its exit status. Bad input is the tool's business
    (diagnostics, status 1); any exception escaping `body` is a bug of ours, reported as
    `<where>: error: <what>: <exception>` with status 2. ASCEND_MLIR_DEBUG=1 lets it
    propagate, with its traceback."""
    try:
        return body()
    except Exception as err:  # noqa: BLE001 - the tools' last line: a bug is reported, not a traceback
        if os.environ.get("ASCEND_MLIR_DEBUG"):
            raise
        print(
            f"{where}: error: {what}: {type(err).__name__}: {err}\n"
            "note: rerun with ASCEND_MLIR_DEBUG=1 for a traceback, and please report it",
            file=sys.stderr,
        )
        return 2


# ----- --verify-diagnostics: MLIR's expected-* annotations -----------------------------

_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*?)\}\}"
)


@dataclass
class ExpectedDiagnostic:
    severity: str
    line: int
    message: str
    annotation_line: int
    seen: bool = False


def expected_diagnostics(text: str, line_offset: int = 0) -> list[ExpectedDiagnostic]:
    """`// expected-error @+1 {{msg}}` annotations of a chunk, with absolute lines."""
    found: list[ExpectedDiagnostic] = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        for match in _EXPECTED.finditer(line):
            severity, where, message = match.groups()
            target = index + 1
            if where in ("@above",):
                target -= 1
            elif where in ("@below",):
                target += 1
            elif where:
                target += int(where[1:])
            found.append(ExpectedDiagnostic(severity, target + line_offset, message, index + 1 + line_offset))
    return found


def check_expected(
    file: str, produced: list[Diagnostic], expected: list[ExpectedDiagnostic]
) -> list[str]:
    """Match produced diagnostics against expectations; returns the failures."""
    failures: list[str] = []
    for diag in produced:
        line = diag.location.line if diag.location else None
        match = next(
            (
                e
                for e in expected
                if not e.seen and e.severity == diag.severity and e.line == line and e.message in diag.message
            ),
            None,
        )
        if match is None:
            failures.append(f"{diag.location or file}: error: unexpected {diag.severity}: {diag.message}")
        else:
            match.seen = True
    for e in expected:
        if not e.seen:
            failures.append(f'{file}:{e.annotation_line}:1: error: expected {e.severity} "{e.message}" was not produced')
    return failures
