#!/usr/bin/env python3
"""Generate the dialect reference in `dialects/`: `<name>.md` and `<name>.irdl.mlir`.

    python tools/gen-dialects/gen_dialects.py            # (re)write dialects/
    python tools/gen-dialects/gen_dialects.py --check    # exit 1 if dialects/ is stale

Everything comes from the xDSL definitions in `ascend_mlir/dialects/*.py`: op and
attribute docstrings, operand/result/attribute/property constraints, assembly formats,
traits, the checks and error messages of each `verify_` (read from its source), and the
pipes of hivm ops (read from `pipes()` when it returns constants, or a DMA op's copy
paths), and one example per
op: its first use in `examples/<dialect>.mlir` (parsed and verified on every run), printed
in our syntax and in IRDL form. The IRDL text is `ascend_mlir.targets.irdl`'s. Output is
deterministic: same definitions, same bytes.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast
from pathlib import Path

from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Data, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import IRDLOperation, OptionalDef, VariadicDef
from xdsl.irdl.operations import OpDef

from ascend_mlir.hardware import CopyPath
from ascend_mlir.targets.irdl import (
    DialectExporter,
    is_unit_data,
    attr_kind,
    irdl_op_name,
    print_attribute_text,
)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DIALECTS_DIR = PROJECT_ROOT / "dialects"
GENERATOR = "tools/gen-dialects/gen_dialects.py"
# every dialect's IRDL in one file: what mlir-opt --irdl-file needs for a module of ours
ALL_IRDL = "all.irdl.mlir"


# --------------------------------------------------------------------------------------
# reading our sources
# --------------------------------------------------------------------------------------


def _ours(cls: type) -> bool:
    return cls.__module__.startswith("ascend_mlir.")


def own_doc(cls: type) -> str | None:
    """Docstring of `cls`, or of the nearest base class of the same kind (op or
    attribute) from our package that has one; mixins do not document the class."""
    kind = IRDLOperation if issubclass(cls, IRDLOperation) else Attribute
    for klass in cls.__mro__:
        if not _ours(klass):
            return None
        if not issubclass(klass, kind):
            continue
        doc = klass.__dict__.get("__doc__")
        if doc:
            return inspect.cleandoc(doc)
    return None


def defining_method(cls: type, name: str) -> Callable[..., object] | None:
    """The `name` method as defined by the first class of our package in the MRO."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name] if _ours(klass) else None
    return None


def custom_verifier(op: type[IRDLOperation]) -> Callable[..., object] | None:
    """The op's own `verify_`: `irdl_op_definition` wraps it in a closure with the
    generated constraint checks, so look through that closure."""
    func = op.__dict__.get("verify_") or getattr(op, "verify_", None)
    for _ in range(3):
        if func is None or _ours_function(func):
            return func
        cells = [c.cell_contents for c in (getattr(func, "__closure__", None) or ())]
        func = next((c for c in cells if inspect.isfunction(c) and c.__name__ == "verify_"), None)
    return None


def _ours_function(func: Callable[..., object]) -> bool:
    return getattr(func, "__module__", "").startswith("ascend_mlir.")


def _function_ast(func: Callable[..., object]) -> ast.FunctionDef | None:
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        return None
    node = ast.parse(source).body[0]
    return node if isinstance(node, ast.FunctionDef) else None


def _can_reject(func: object) -> bool:
    """A helper of ours whose body raises: calling it is a verifier check."""
    if not inspect.isfunction(func) or not _ours_function(func):
        return False
    tree = _function_ast(func)
    return tree is not None and any(isinstance(n, ast.Raise) for n in ast.walk(tree))


def _strip_self(text: str) -> str:
    return text.replace("self.", "").replace("(self, ", "(").replace("(self)", "()")


def _message_text(node: ast.expr, op_name: str) -> str | None:
    """Readable template of an error message: f-string holes become `‹expr›`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                expr = ast.unparse(value.value)
                parts.append(op_name if expr in ("self.name", "op.name") else f"‹{_strip_self(expr)}›")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _message_text(node.left, op_name), _message_text(node.right, op_name)
        if left is not None and right is not None:
            return left + right
    return None


def _statement_call(stmt: ast.stmt) -> ast.Call | None:
    """The call a statement makes at its top level (`f(...)` or `x = f(...)`)."""
    if isinstance(stmt, (ast.Expr, ast.Assign)) and isinstance(stmt.value, ast.Call):
        return stmt.value
    return None


class _VerifierReader:
    """Walks a verifier's statements, and those of the `self._helper(...)` methods it
    calls, collecting rules, checks and error messages in source order."""

    def __init__(self, op: type[IRDLOperation]) -> None:
        self.op = op
        self.rules: list[str] = []
        self.checks: list[str] = []
        self.messages: list[str] = []
        self._read: set[object] = set()

    def read(self, func: Callable[..., object]) -> None:
        if func in self._read:
            return
        self._read.add(func)
        tree = _function_ast(func)
        if tree is not None:
            self.visit(tree.body, getattr(func, "__globals__", {}))

    def visit(self, statements: list[ast.stmt], module_globals: dict[str, object]) -> None:
        for stmt in statements:
            if (
                isinstance(stmt, ast.Assign)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                self.rules.append(stmt.value.value)
            call = _statement_call(stmt)
            if call is not None:
                self._call(call, module_globals)
            if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call) and stmt.exc.args:
                text = _message_text(stmt.exc.args[0], self.op.name)
                if text is not None:
                    self.messages.append(text)
            for field in ("body", "orelse", "finalbody"):
                nested = getattr(stmt, field, None)
                if isinstance(nested, list):
                    self.visit(nested, module_globals)  # pyright: ignore[reportUnknownArgumentType]

    def _call(self, call: ast.Call, module_globals: dict[str, object]) -> None:
        """A module helper that can reject is a check; a method of the op is read inline."""
        if isinstance(call.func, ast.Name) and _can_reject(module_globals.get(call.func.id)):
            self.checks.append(_strip_self(ast.unparse(call)))
            return
        if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == "self":
            method = defining_method(self.op, call.func.attr)
            if method is not None and inspect.isfunction(method):
                self.read(method)


def verifier_facts(op: type[IRDLOperation]) -> tuple[list[str], list[str], list[str]]:
    """(rules, checks, messages) read from the op's `verify_` and the op's own methods it calls.

    rules: string constants bound in the verifier (`rule = "load moves gm -> ub"`);
    checks: statement-level calls of module helpers (`_verify_scope(src, "source", ...)`);
    messages: the text of every `raise VerifyException(...)` in the verifier.
    """
    func = custom_verifier(op)
    if func is None:
        return [], [], []
    reader = _VerifierReader(op)
    copy_rule = getattr(op, "copy_rule", None)
    if callable(copy_rule):  # a DMA op: the rule its scope checks cite, from its copy paths
        reader.rules.append(str(copy_rule()))
    reader.read(func)
    return reader.rules, reader.checks, reader.messages


def pipes_text(op: type[IRDLOperation]) -> str | None:
    """The pipes of a hivm op, from `pipes()`: constants, or the expression it returns; a
    DMA op's from its copy paths (hardware.COPY_PATHS)."""
    copy_paths = getattr(op, "copy_paths", None)
    if callable(copy_paths):
        paths = cast(Iterable[CopyPath], copy_paths())
        return ", ".join(f"`{p.pipe}` ({p.src} -> {p.dst})" for p in paths)
    func = defining_method(op, "pipes")
    if func is None or getattr(func, "__isabstractmethod__", False):
        return None
    tree = _function_ast(func)
    if tree is None:
        return "see the pipe interface `pipes()`"
    body = [s for s in tree.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        value = body[0].value
        if isinstance(value, ast.Tuple) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
        ):
            return ", ".join(f"`{e.value}`" for e in value.elts)  # type: ignore[attr-defined]
        return f"depends on the op: `pipes()` returns `{_strip_self(ast.unparse(value))}`"
    if len(body) <= 3:
        code = "; ".join(_strip_self(ast.unparse(stmt)).replace("\n", " ") for stmt in body)
        return f"depends on the op: `pipes()` is `{code}`"
    return "computed by the pipe interface `pipes()` (see its source)"


# --------------------------------------------------------------------------------------
# examples: tools/gen-dialects/examples/<dialect>.mlir, parsed and verified here
# --------------------------------------------------------------------------------------

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"


class ExampleError(Exception):
    """An example file that no longer parses or verifies."""


@dataclass(frozen=True)
class Example:
    """The first use of an op in the examples: its text in our syntax and in IRDL form,
    and the pipes that instance occupies (hivm pipe interface), if any."""

    custom: str
    irdl_form: str
    pipes: tuple[str, ...] | None


def load_examples(dialect: Dialect, dialects: Iterable[Dialect]) -> dict[str, Example]:
    """Op name -> its first use in tools/gen-dialects/examples/<dialect>.mlir."""
    from io import StringIO

    from xdsl.parser import Parser
    from xdsl.printer import Printer
    from xdsl.utils.exceptions import ParseError, VerifyException

    from ascend_mlir.targets.irdl import IRDLFormPrinter, default_context

    path = EXAMPLES_DIR / f"{dialect.name}.mlir"
    if not path.exists():
        return {}
    try:
        module = Parser(default_context(), path.read_text(), str(path)).parse_module()
        module.verify()
    except (ParseError, VerifyException) as e:
        shown = path.relative_to(PROJECT_ROOT) if path.is_relative_to(PROJECT_ROOT) else path
        raise ExampleError(f"{shown} is broken: {e}") from e
    names = {op.name for op in dialect.operations}
    examples: dict[str, Example] = {}
    for op in module.walk():
        if op.name not in names or op.name in examples:
            continue
        custom, generic = StringIO(), StringIO()
        Printer(stream=custom).print_op(op)
        IRDLFormPrinter(stream=generic, dialects=dialects).print_op(op)
        pipes_method = getattr(op, "pipes", None)
        # an op's `pipes()` (hivm ops) returns its pipe names; getattr gives it as object
        pipes = tuple(cast(Iterable[str], pipes_method())) if callable(pipes_method) else None
        examples[op.name] = Example(custom.getvalue(), generic.getvalue(), pipes)
    return examples


# --------------------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _variadicity(definition: object) -> str:
    if isinstance(definition, OptionalDef):
        return "optional"
    if isinstance(definition, VariadicDef):
        return "variadic"
    return "single"


def _attr_heading(cls: type[Attribute], dialect: Dialect) -> str:
    sigil = "!" if issubclass(cls, TypeAttribute) else "#"
    return f"{sigil}{cls.name}"


def _sample(cls: type[Attribute]) -> Attribute | None:
    """An instance to show the syntax with (enum: first case; payload-free markers)."""
    if issubclass(cls, EnumAttribute):
        return cls(next(iter(cls.enum_type)))
    if issubclass(cls, Data) and is_unit_data(cls):
        return cls.new(())
    return None


def _printed(attr: Attribute) -> str:
    from io import StringIO

    from xdsl.printer import Printer

    stream = StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


def render_attribute(cls: type[Attribute], dialect: Dialect, exporter: DialectExporter) -> list[str]:
    out = [f"### `{_attr_heading(cls, dialect)}`", ""]
    doc = own_doc(cls)
    if doc:
        out += [doc, ""]
    kind = attr_kind(cls)
    if kind == "enum":
        assert issubclass(cls, EnumAttribute)
        out.append("Cases: " + ", ".join(f"`{c.value}`" for c in cls.enum_type) + ".")
        out.append("")
    elif kind == "parametrized":
        assert issubclass(cls, ParametrizedAttribute)
        params = cls.get_irdl_definition().parameters
        if params:
            out += ["| parameter | constraint |", "|---|---|"]
            out += [f"| `{n}` | {_cell(exporter.describer.describe(p.constr))} |" for n, p in params]
            out.append("")
    sample = _sample(cls)
    if sample is not None:
        irdl_text = print_attribute_text(sample, exporter.all_dialects)
        out.append(f"Syntax: `{_printed(sample)}`; IRDL form: `{irdl_text}`.")
        out.append("")
    for note in exporter.notes.get(cls.name, []):
        out.append(f"IRDL: {note}.")
        out.append("")
    return out


def _syntax_lines(op: type[IRDLOperation], example: Example | None) -> list[str]:
    op_def = op.get_irdl_definition()
    if op_def.assembly_format is not None:
        out = ["Syntax (declarative assembly format):", "", "```", op_def.assembly_format, "```", ""]
    elif defining_method(op, "parse") is not None:
        out = ["Syntax: custom parser/printer (the class's `parse`/`print`).", ""]
    else:
        out = ["Syntax: generic form only.", ""]
    if example is not None:
        out += ["Example:", "", "```mlir", example.custom, "```", ""]
        out += ["The same op in IRDL form (what `mlir-opt --irdl-file` reads):", ""]
        out += ["```mlir", example.irdl_form, "```", ""]
    pipes = pipes_text(op)
    if pipes is not None:
        if not pipes.startswith("`") and example is not None and example.pipes is not None:
            shown = ", ".join(f"`{p}`" for p in example.pipes)
            pipes += f"; the example above occupies {shown}"
        out += [f"Pipes: {pipes}.", ""]
    return out


def _definition_tables(op_def: OpDef, describe: Callable[..., str]) -> list[str]:
    """Operands, results, then properties and attributes, as Markdown tables."""
    out: list[str] = []
    for role, defs in (("operand", op_def.operands), ("result", op_def.results)):
        if defs:
            out += [f"| {role} | kind | constraint |", "|---|---|---|"]
            out += [f"| `{name}` | {_variadicity(d)} | {_cell(describe(d.constr))} |" for name, d in defs]
            out.append("")
    rows: list[str] = []
    for kind, defs in (("property", op_def.properties), ("attribute", op_def.attributes)):
        for name in sorted(defs):
            d = defs[name]
            if isinstance(d, OptionalDef):
                presence = "optional"
            elif d.default_value is not None:
                presence = f"default `{_printed(d.default_value)}`"
            else:
                presence = "required"
            rows.append(f"| `{name}` | {kind} | {presence} | {_cell(describe(d.constr))} |")
    if rows:
        out += ["| name | kind | presence | constraint |", "|---|---|---|---|"] + rows + [""]
    return out


def _structure_lines(op_def: OpDef) -> list[str]:
    """Regions, successors and traits, each when present."""
    out: list[str] = []
    if op_def.regions:
        out.append("Regions: " + ", ".join(f"`{n}` ({_variadicity(r)})" for n, r in op_def.regions) + ".")
        out.append("")
    if op_def.successors:
        out.append("Successors: " + ", ".join(f"`{n}`" for n, _ in op_def.successors) + ".")
        out.append("")
    traits = sorted(type(t).__name__ for t in op_def.traits)
    if traits:
        out += ["Traits: " + ", ".join(f"`{t}`" for t in traits) + ".", ""]
    return out


def _verifier_lines(op: type[IRDLOperation]) -> list[str]:
    rules, checks, messages = verifier_facts(op)
    if not (rules or checks or messages):
        return []
    out = ["Verifier (read from `verify_`):", ""]
    out += [f"* rule: {r}" for r in rules]
    out += [f"* check: `{c}`" for c in checks]
    out += [f"* error: {_cell(m)}" for m in messages]
    out.append("")
    return out


def render_operation(
    op: type[IRDLOperation], exporter: DialectExporter, example: Example | None = None
) -> list[str]:
    op_def = op.get_irdl_definition()
    out = [f"### `{op_def.name}`", "", f"Python: `{public_path(op)}`.", ""]
    doc = own_doc(op)
    if doc:
        out += [doc, ""]
    out += _syntax_lines(op, example)
    out += _definition_tables(op_def, exporter.describer.describe)
    out += _structure_lines(op_def)
    out += _verifier_lines(op)
    irdl = [f"IRDL: `{irdl_op_name(op_def.name)}`"]
    unchecked = exporter.unchecked.get(op_def.name)
    if unchecked:
        irdl.append("optional attributes not checked: " + ", ".join(f"`{n}`" for n in unchecked))
    irdl += exporter.notes.get(op_def.name, [])
    out += ["; ".join(irdl) + ".", ""]
    return out


def public_path(cls: type) -> str:
    """The shortest import path of `cls`: `ascend_mlir.dialects.hivm.LoadOp`, not the
    submodule (`hivm.dma`) that defines it, when a package re-exports it."""
    parts = cls.__module__.split(".")
    for end in range(2, len(parts) + 1):
        module = sys.modules.get(".".join(parts[:end]))
        if module is not None and getattr(module, cls.__name__, None) is cls:
            return f"{module.__name__}.{cls.__name__}"
    return f"{cls.__module__}.{cls.__name__}"


def _module_doc(dialect: Dialect) -> str | None:
    """The docstring of the module (or package) that defines the dialect object."""
    classes = [*dialect.operations, *dialect.attributes]
    if not classes:
        return None
    package = public_path(classes[0]).rsplit(".", 1)[0]
    module = sys.modules.get(package)
    doc = getattr(module, "__doc__", None)
    return inspect.cleandoc(doc) if doc else None


def render_markdown(
    dialect: Dialect, exporter: DialectExporter, examples: dict[str, Example] | None = None
) -> str:
    examples = examples or {}
    out = [
        f"# The `{dialect.name}` dialect",
        "",
        f"<!-- Generated by {GENERATOR} from the xDSL definitions; do not edit. -->",
        "",
    ]
    doc = _module_doc(dialect)
    if doc:
        out += [doc, ""]
    out += [
        f"IRDL for upstream `mlir-opt --irdl-file`: [`{dialect.name}.irdl.mlir`]({dialect.name}.irdl.mlir). "
        "mlir-opt reads IR in IRDL form (`ascend-opt -t irdl FILE`): generic "
        "syntax, op names with `_` for `.` and camel case (`hivm.hir.mmadL1` -> "
        "`hivm.hir_mmad_l1`), properties as attributes, attribute parameters as attributes "
        '(`#hivm.pipe<"PIPE_V">`). `python -m ascend_mlir.targets.irdl --from-irdl-form` reads it back.',
        "",
    ]
    operations = list(dialect.operations)  # Dialect.operations is an iterator
    attributes = list(dialect.attributes)
    if operations:
        out += ["Operations: " + ", ".join(f"`{op.name}`" for op in operations) + ".", ""]
    else:
        out += ["Operations: none (attributes only).", ""]
    if attributes:
        out += ["Attributes: " + ", ".join(f"`{a.name}`" for a in attributes) + ".", ""]
        out += ["## Attributes and types", ""]
        for cls in attributes:
            out += render_attribute(cls, dialect, exporter)
    if operations:
        out += ["## Operations", ""]
        for op in operations:
            assert issubclass(op, IRDLOperation)
            out += render_operation(op, exporter, examples.get(op.name))
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------


IRDL_LIMITS = """\
What upstream IRDL (mlir-opt 22) can and cannot say about these dialects, found by
loading probes into `/usr/lib/llvm-22/bin/mlir-opt --irdl-file`:

| construct | in the IRDL files |
|---|---|
| op names with `.` or capitals (`hivm.hir.mmadL1`) | rejected by IRDL's verifier ("name of operation must contain only lowercase letters, digits and underscores"; quoting, `@"hir.load"`, does not help and `irdl.dialect @"hivm.hir"` is an invalid dialect name): exported as `hivm.hir_mmad_l1` (`.` and camel case become `_`) |
| properties | IRDL ops have none ("extensible Dialects don't support properties"): exported and printed as attributes |
| optional attributes/properties, or with a default | not expressible (`irdl.attributes` are all required): listed per op as not checked |
| enum attributes (`#hivm.pipe<PIPE_V>`) | `irdl.attribute` with one string parameter constrained by `irdl.any_of(irdl.is "...")`; written `#hivm.pipe<"PIPE_V">` because dynamic attribute parameters are attributes |
| builtin types and attributes | `irdl.base "!builtin.memref"`, `irdl.is i64`, ...; their parameters (memref element type and memory space, dense array element type) cannot be constrained (`irdl.parametric` needs an IRDL symbol) |
| equal to one of our attributes | `irdl.parametric @hivm::@pipe<irdl.is "...">` (the IRDL file is parsed before the dialect exists, so `irdl.is #hivm...` cannot be written) |
| xDSL constraint variables (`VarConstraint`) | one shared SSA value: IRDL binds a value once per op, which is exactly their meaning |
| variadic operands/results | `variadic`/`optional` with `operandSegmentSizes`; but every constraint value binds one type per op (even `irdl.any`), so a variadic group is homogeneous: a vector op with `ins(%memref, %scalar)` is valid hivm that IRDL rejects |
| regions | `irdl.region` / `with size 1`; variadic regions and successors are not expressible |
| verifiers (scope pairs, shapes, event ranges) | not expressible: they are Python code (documented per op in the `.md` files) |
| references to another dialect's attribute | an IRDL file cannot refer to a symbol of another file: exported as `irdl.any` with a note |
| memrefs in `#hivm.address_space<...>` | need the hivm IRDL loaded: upstream memref types reject memory spaces from unregistered dialects ("unsupported memory space Attribute") |
"""


def render_index(dialects: Iterable[Dialect]) -> str:
    out = [
        "# Dialect reference",
        "",
        f"<!-- Generated by {GENERATOR}; do not edit. -->",
        "",
        "Generated from the xDSL definitions in `ascend_mlir/dialects/` by",
        f"`python {GENERATOR}` (`--check` fails when this directory is stale;",
        "`test/python/test_dialect_docs.py` runs it).",
        "",
        "| dialect | ops | attributes | reference | IRDL |",
        "|---|---|---|---|---|",
    ]
    for d in dialects:
        out.append(
            f"| `{d.name}` | {len(list(d.operations))} | {len(list(d.attributes))} "
            f"| [{d.name}.md]({d.name}.md) | [{d.name}.irdl.mlir]({d.name}.irdl.mlir) |"
        )
    out += [
        "",
        "## Using the IRDL files with upstream mlir-opt",
        "",
        f"`{ALL_IRDL}` holds every dialect above in one file (a module of ours uses several:",
        "hivm ops, hacc and ascend attributes); the per-dialect files are its parts. From the",
        "repository root, with upstream mlir-opt 22 on PATH (`/usr/lib/llvm-22/bin`, see the",
        "top-level README):",
        "",
        "```sh",
        "# needs: mlir-opt",
        "ascend-opt examples/gemm_relu.mlir -p ascend-compile -o kernel.mlir",
        "# into upstream mlir-opt 22: the IRDL form (generic syntax, IRDL op names)",
        f"ascend-opt kernel.mlir -t irdl | mlir-opt --irdl-file=dialects/{ALL_IRDL} -o kernel.irdl.mlir",
        "# back to our syntax (ascend-opt names this converter when it is given the IRDL form)",
        f"mlir-opt --irdl-file=dialects/{ALL_IRDL} --mlir-print-op-generic kernel.irdl.mlir \\",
        "  | python -m ascend_mlir.targets.irdl --from-irdl-form | ascend-opt -o kernel.back.mlir",
        "```",
        "",
        "IR without memrefs in hivm address spaces also round-trips through a plain",
        "`mlir-opt --allow-unregistered-dialect` in generic form (`ascend-opt --print-op-generic`).",
        "",
        "## What IRDL can express",
        "",
        IRDL_LIMITS.rstrip("\n"),
    ]
    return "\n".join(out) + "\n"


def our_dialects() -> list[Dialect]:
    from ascend_mlir.targets.irdl import our_dialects as load

    return load()


def render_all(dialects: Iterable[Dialect] | None = None) -> dict[str, str]:
    """File name (relative to dialects/) -> content, for every dialect."""
    dialects = list(our_dialects() if dialects is None else dialects)
    files: dict[str, str] = {"README.md": render_index(dialects)}
    bundle: list[str] = []
    for dialect in dialects:
        exporter = DialectExporter(dialect, dialects)
        files[f"{dialect.name}.irdl.mlir"] = exporter.export()
        bundle.append(files[f"{dialect.name}.irdl.mlir"])
        examples = load_examples(dialect, dialects)
        files[f"{dialect.name}.md"] = render_markdown(dialect, exporter, examples)
    files[ALL_IRDL] = "".join(bundle)
    return files


def stale_files(directory: Path, files: dict[str, str]) -> list[str]:
    """Names whose content in `directory` differs from `files` (missing counts)."""
    stale: list[str] = []
    for name, text in sorted(files.items()):
        path = directory / name
        if not path.exists() or path.read_text() != text:
            stale.append(name)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="fail if dialects/ is out of date")
    parser.add_argument("--out", type=Path, default=DIALECTS_DIR, help="output directory")
    args = parser.parse_args(argv)
    try:
        files = render_all()
    except ExampleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.check:
        stale = stale_files(args.out, files)
        if stale:
            print(
                "stale dialect reference (run python tools/gen-dialects/gen_dialects.py): "
                + ", ".join(stale),
                file=sys.stderr,
            )
            return 1
        print(f"{args.out}: {len(files)} files up to date")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in sorted(files.items()):
        path = args.out / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
