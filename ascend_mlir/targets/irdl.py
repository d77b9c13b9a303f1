"""Export our xDSL dialect definitions as IRDL that upstream `mlir-opt --irdl-file` loads.

xDSL's `pyrdl_to_irdl` turns every constraint into `irdl.any`; this exporter keeps what
IRDL can say. What mlir-opt 22's IRDL accepts (probed against /usr/lib/llvm-22/bin/mlir-opt)
shapes everything here:

* Op, attribute, type, operand, result, region and parameter names must be
  `[a-z0-9_]` without a leading or double underscore, so `hivm.hir.mmadL1` is exported
  as `hivm.hir_mmad_l1` (`irdl_op_name`); the IR form below renames the ops alike.
* Ops defined by IRDL have no properties ("extensible Dialects don't support
  properties"): our properties are exported, and printed, as attributes.
* Every `irdl.attributes` entry is required: optional attributes/properties and those
  with a default value cannot be listed (they are reported as notes instead).
* Parameters of a dynamic attribute are attributes, so `#hivm.address_space<gm>` is
  written `#hivm.address_space<"gm">` (enum cases are string parameters).
* Builtin types/attributes can only be matched by base (`irdl.base "!builtin.memref"`);
  `irdl.parametric` needs an IRDL symbol, so memref element types, memory spaces and
  dense-array element types are not checked by mlir-opt.
* The IRDL file is parsed before its dialect exists, so equality with one of our
  attributes is `irdl.parametric @d::@a<irdl.is "...">`, never `irdl.is #d.a<...>`.
* An SSA constraint value is one variable that binds a single attribute for the whole
  op: every use gets its own constraint ops, except xDSL `VarConstraint`s (same name ->
  same value), which is exactly their meaning. The same binding makes every variadic
  operand/result group homogeneous: `ins(%memref, %scalar)` of a vector op cannot pass
  (even `irdl.any` binds), a limitation the notes record per op.

A variadic operand group whose elements may differ in type (`ins(%ub, %cst : memref<..>,
f32)` of a vector op) would be rejected by that binding, so an op may declare the bounds
of such groups (`operand_group_bounds()`, the element counts its verifier allows): the
group is then exported as one operand per element (`src_0`, `src_1`; those beyond the
minimum optional), each with its own constraint. The IRDL form differs from ours only in
`operandSegmentSizes`, which counts those slots; the reader folds them back.

`IRDLFormPrinter` prints a module in the form those definitions accept: generic syntax,
properties as attributes, IRDL op names, enum/attribute parameters as attributes,
operand groups split into slots. `ascend-opt -t irdl FILE` prints a module that way and
`python -m ascend_mlir.targets.irdl --from-irdl-form` reads it back.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import IO, ClassVar, cast, get_args, get_origin

from xdsl.dialects import builtin
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Data, Dialect, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    AllOf,
    AnyAttr,
    AnyOf,
    AttrConstraint,
    BaseAttr,
    EqAttrConstraint,
    IRDLOperation,
    OperandDef,
    OptionalDef,
    OptOperandDef,
    ParamAttrConstraint,
    SameVariadicOperandSize,
    VarConstraint,
    VariadicDef,
    irdl_to_attr_constraint,
)
from xdsl.irdl.constraints import (
    AnyRange,
    AttrSetConstraint,
    MessageConstraint,
    RangeConstraint,
    RangeLengthConstraint,
    RangeOf,
    RangeVarConstraint,
    SingleOf,
    TypeVarConstraint,
)
from xdsl.irdl.operations import OpDef, OptRegionDef, SingleBlockRegionDef, VarRegionDef
from xdsl.context import Context
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.target import Target

# xDSL builtin classes and the name MLIR registers them under (all checked to be
# accepted by `irdl.base` in mlir-opt 22). IntAttr is xDSL-only; it prints as an integer.
MLIR_BUILTIN_NAMES: dict[type[Attribute], str] = {
    builtin.IntegerType: "!builtin.integer",
    builtin.IndexType: "!builtin.index",
    builtin.BFloat16Type: "!builtin.bf16",
    builtin.Float16Type: "!builtin.f16",
    builtin.Float32Type: "!builtin.f32",
    builtin.Float64Type: "!builtin.f64",
    builtin.Float80Type: "!builtin.f80",
    builtin.Float128Type: "!builtin.f128",
    builtin.FloatTF32Type: "!builtin.tf32",
    builtin.Float8E5M2Type: "!builtin.f8E5M2",
    builtin.Float8E4M3Type: "!builtin.f8E4M3",
    builtin.Float8E4M3FNType: "!builtin.f8E4M3FN",
    builtin.Float8E5M2FNUZType: "!builtin.f8E5M2FNUZ",
    builtin.Float8E4M3FNUZType: "!builtin.f8E4M3FNUZ",
    builtin.Float8E4M3B11FNUZType: "!builtin.f8E4M3B11FNUZ",
    builtin.Float8E3M4Type: "!builtin.f8E3M4",
    builtin.Float8E8M0FNUType: "!builtin.f8E8M0FNU",
    builtin.Float6E2M3FNType: "!builtin.f6E2M3FN",
    builtin.Float6E3M2FNType: "!builtin.f6E3M2FN",
    builtin.Float4E2M1FNType: "!builtin.f4E2M1FN",
    builtin.MemRefType: "!builtin.memref",
    builtin.UnrankedMemRefType: "!builtin.unranked_memref",
    builtin.TensorType: "!builtin.tensor",
    builtin.UnrankedTensorType: "!builtin.unranked_tensor",
    builtin.VectorType: "!builtin.vector",
    builtin.FunctionType: "!builtin.function",
    builtin.NoneType: "!builtin.none",
    builtin.TupleType: "!builtin.tuple",
    builtin.ComplexType: "!builtin.complex",
    builtin.IntegerAttr: "#builtin.integer",
    builtin.IntAttr: "#builtin.integer",
    builtin.FloatAttr: "#builtin.float",
    builtin.StringAttr: "#builtin.string",
    builtin.ArrayAttr: "#builtin.array",
    builtin.DictionaryAttr: "#builtin.dictionary",
    builtin.UnitAttr: "#builtin.unit",
    builtin.DenseArrayBase: "#builtin.dense_array",
    builtin.SymbolRefAttr: "#builtin.symbol_ref",
    builtin.DenseIntOrFPElementsAttr: "#builtin.dense_int_or_fp_elements",
    builtin.DenseResourceAttr: "#builtin.dense_resource_elements",
    builtin.StridedLayoutAttr: "#builtin.strided_layout",
    builtin.AffineMapAttr: "#builtin.affine_map",
}

FLOAT_TYPES: frozenset[type[Attribute]] = frozenset(
    cls for cls, name in MLIR_BUILTIN_NAMES.items() if issubclass(cls, builtin._FloatType)  # pyright: ignore[reportPrivateUsage]
)


def irdl_name(name: str) -> str:
    """An IRDL-legal symbol for `name`: `hir.mmadL1` -> `hir_mmad_l1`.

    IRDL in MLIR 22 only accepts lowercase letters, digits and single inner underscores.
    """
    text = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
    text = re.sub(r"[^a-z0-9]+", "_", text)
    text = re.sub(r"_+", "_", text).strip("_")
    if not text:
        raise ValueError(f"no IRDL name for {name!r}")
    return text


def irdl_op_name(full_name: str) -> str:
    """Full name under which mlir-opt knows an op loaded from our IRDL: `hivm.hir_load`."""
    dialect, _, rest = full_name.partition(".")
    return f"{dialect}.{irdl_name(rest)}"


def _local_name(full_name: str) -> str:
    return full_name.partition(".")[2]


def _data_payload_type(cls: type[Attribute]) -> type | None:
    """The Python type `T` of a `Data[T]` attribute class (None if not recoverable)."""
    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            origin = get_origin(base)
            if isinstance(origin, type) and issubclass(origin, Data) and get_args(base):
                arg = get_args(base)[0]
                return arg if isinstance(arg, type) else None
    return None


def is_unit_data(cls: type[Attribute]) -> bool:
    """A `Data[tuple[()]]` attribute: a marker without payload (`#hivm.part_of_mix`)."""
    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            origin = get_origin(base)
            if isinstance(origin, type) and issubclass(origin, Data) and get_args(base):
                return get_args(base)[0] == tuple[()]
    return False


def attr_kind(cls: type[Attribute]) -> str:
    """'enum', 'parametrized' or 'data' (how an attribute is exported and printed)."""
    if issubclass(cls, EnumAttribute):
        return "enum"
    if issubclass(cls, ParametrizedAttribute):
        return "parametrized"
    return "data"


# --------------------------------------------------------------------------------------
# constraints: IRDL text and human-readable description
# --------------------------------------------------------------------------------------


def single_constraint(constr: RangeConstraint | AttrConstraint) -> AttrConstraint:
    """The per-element constraint of an operand/result range constraint."""
    while True:
        if isinstance(constr, AttrConstraint):
            return constr
        if isinstance(constr, RangeLengthConstraint):
            constr = constr.constraint
        elif isinstance(constr, (RangeOf, SingleOf)):
            return constr.constr
        elif isinstance(constr, RangeVarConstraint):
            constr = constr.constraint
        elif isinstance(constr, AnyRange):
            return AnyAttr()
        else:
            return AnyAttr()


class ConstraintDescriber:
    """Readable text of a constraint, for the Markdown reference."""

    def __init__(self, own_attrs: dict[type[Attribute], str]):
        self.own_attrs = own_attrs

    def attr_text(self, attr: Attribute) -> str:
        return print_attribute_text(attr)

    def class_text(self, cls: type[Attribute]) -> str:
        if cls in self.own_attrs:
            return ("!" if issubclass(cls, TypeAttribute) else "#") + self.own_attrs[cls]
        if cls in MLIR_BUILTIN_NAMES:
            mlir_name = MLIR_BUILTIN_NAMES[cls]
            short = mlir_name.split(".", 1)[1]
            return short if mlir_name.startswith("!") else f"{short} attribute"
        name = getattr(cls, "name", None)
        return name if isinstance(name, str) else cls.__name__

    def describe(self, constr: AttrConstraint | RangeConstraint) -> str:
        if isinstance(constr, RangeConstraint):
            constr = single_constraint(constr)
        if not isinstance(constr, AttrConstraint):
            constr = irdl_to_attr_constraint(constr)
        for kind, describe in self._BY_KIND:
            if isinstance(constr, kind):
                return describe(self, constr)
        return repr(constr)

    def _any_of(self, constr: AnyOf) -> str:
        """`any float` for the whole float family, then the other alternatives."""
        bases = {c.attr for c in constr.attr_constrs if isinstance(c, BaseAttr)}
        parts: list[str] = []
        rest = list(constr.attr_constrs)
        if FLOAT_TYPES <= bases:
            parts.append("any float")
            rest = [c for c in rest if not (isinstance(c, BaseAttr) and c.attr in FLOAT_TYPES)]
        parts += [self.describe(c) for c in rest]
        return " or ".join(parts)

    def _param_attr(self, constr: ParamAttrConstraint) -> str:
        base, params = constr.base_attr, constr.param_constrs
        if base is builtin.IntegerAttr and isinstance(params[1], EqAttrConstraint):
            if params[1].attr == builtin.i1:
                return "bool attribute (`true`/`false`)"
            return f"integer attribute of type `{self.attr_text(params[1].attr)}`"
        if base is builtin.DenseArrayBase and isinstance(params[0], EqAttrConstraint):
            return f"dense array of `{self.attr_text(params[0].attr)}` (`array<...>`)"
        text = ", ".join(self.describe(c) for c in params)
        return f"{self.class_text(base)}<{text}>"

    # constraint kind -> its text, tried in order (the first isinstance match wins)
    _BY_KIND: ClassVar[tuple[tuple[type, Callable[..., str]], ...]] = (
        (AnyAttr, lambda self, c: "any"),
        (VarConstraint, lambda self, c: f"{self.describe(c.constraint)} (same as every `{c.name}`)"),
        (TypeVarConstraint, lambda self, c: self.describe(c.base_constraint)),
        (MessageConstraint, lambda self, c: self.describe(c.constr)),
        (EqAttrConstraint, lambda self, c: f"`{self.attr_text(c.attr)}`"),
        (AttrSetConstraint, lambda self, c: "one of " + ", ".join(sorted(f"`{self.attr_text(a)}`" for a in c.values))),
        (BaseAttr, lambda self, c: self.class_text(c.attr)),
        (AnyOf, _any_of),
        (AllOf, lambda self, c: " and ".join(self.describe(x) for x in c.attr_constrs)),
        (builtin.ArrayOfConstraint, lambda self, c: f"array attribute of {self.describe(c.elem_range_constraint)}"),
        (builtin.SymbolNameConstraint, lambda self, c: "symbol name (string attribute)"),
        (ParamAttrConstraint, _param_attr),
    )


@dataclass
class _Block:
    """Lines of one IRDL definition body, with its constraint SSA names."""

    indent: str
    lines: list[str] = field(default_factory=list[str])
    counter: int = 0
    variables: dict[str, str] = field(default_factory=dict[str, str])

    def new_value(self, text: str) -> str:
        name = f"%{self.counter}"
        self.counter += 1
        self.lines.append(f"{self.indent}{name} = {text}")
        return name


class DialectExporter:
    """Writes one `irdl.dialect`; `notes` collects what IRDL could not express."""

    def __init__(self, dialect: Dialect, own_dialects: Iterable[Dialect] = ()):
        self.dialect = dialect
        # attributes of this dialect: class -> local IRDL symbol
        self.local_attrs: dict[type[Attribute], str] = {
            cls: irdl_name(_local_name(cls.name)) for cls in dialect.attributes
        }
        # attributes of all our dialects: class -> printed full name (for descriptions)
        self.own_attrs: dict[type[Attribute], str] = {}
        self.all_dialects: tuple[Dialect, ...] = tuple(own_dialects) or (dialect,)
        for d in (*own_dialects, dialect):
            for cls in d.attributes:
                self.own_attrs[cls] = f"{d.name}.{irdl_name(_local_name(cls.name))}"
        self.notes: dict[str, list[str]] = {}
        # optional attributes/properties (and those with a default), per op: not checked
        self.unchecked: dict[str, list[str]] = {}
        self.describer = ConstraintDescriber(self.own_attrs)
        self._check_unique_names()

    def _check_unique_names(self) -> None:
        seen: dict[str, str] = {}
        for full in [op.name for op in self.dialect.operations] + [
            a.name for a in self.dialect.attributes
        ]:
            symbol = irdl_name(_local_name(full))
            if symbol in seen and seen[symbol] != full:
                raise ValueError(f"IRDL names collide: {seen[symbol]} and {full} -> {symbol}")
            seen[symbol] = full

    # ----- constraints ----------------------------------------------------------------

    def _note(self, owner: str, text: str) -> None:
        notes = self.notes.setdefault(owner, [])
        if text not in notes:
            notes.append(text)

    def emit(self, block: _Block, constr: AttrConstraint, owner: str, what: str) -> str:
        """Emit constraint ops for `constr` into `block`, return the SSA value."""
        if not isinstance(constr, AttrConstraint):
            # raw attributes/classes, as PyRDL accepts them in ParamAttrConstraint
            constr = irdl_to_attr_constraint(constr)
        for kind, emit in self._EMIT_BY_KIND:
            if isinstance(constr, kind):
                return emit(self, block, constr, owner, what)
        self._note(owner, f"{what}: constraint {constr!r} is not expressible, exported as irdl.any")
        return block.new_value("irdl.any")

    def _emit_var(self, block: _Block, constr: VarConstraint, owner: str, what: str) -> str:
        """A constraint variable is one SSA value, shared by every use in the block."""
        if constr.name not in block.variables:
            block.variables[constr.name] = self.emit(block, constr.constraint, owner, what)
        return block.variables[constr.name]

    def _emit_set(self, block: _Block, constr: AttrSetConstraint, owner: str, what: str) -> str:
        values = sorted(constr.values, key=print_attribute_text)
        refs = [self.emit_equal(block, v, owner, what) for v in values]
        return block.new_value(f"irdl.any_of({', '.join(refs)})")

    def _emit_combined(self, block: _Block, constr: AnyOf | AllOf, owner: str, what: str) -> str:
        refs = [self.emit(block, c, owner, what) for c in constr.attr_constrs]
        op = "irdl.any_of" if isinstance(constr, AnyOf) else "irdl.all_of"
        return block.new_value(f"{op}({', '.join(refs)})")

    def _emit_param(self, block: _Block, constr: ParamAttrConstraint, owner: str, what: str) -> str:
        """Our own attributes are `irdl.parametric`; of a builtin or foreign one only
        the base can be checked (noted when that loses a parameter constraint)."""
        base = constr.base_attr
        if base in self.local_attrs:
            refs = [self.emit(block, c, owner, what) for c in constr.param_constrs]
            return block.new_value(
                f"irdl.parametric @{self.dialect.name}::@{self.local_attrs[base]}"
                f"<{', '.join(refs)}>"
            )
        if any(not isinstance(c, AnyAttr) for c in constr.param_constrs):
            self._note(
                owner,
                f"{what}: only the base of {self.describer.describe(constr)} is checked "
                "(IRDL cannot constrain parameters of builtin or foreign attributes)",
            )
        return self.emit_base(block, base, owner, what)

    def _emit_array_of(self, block: _Block, constr: builtin.ArrayOfConstraint, owner: str, what: str) -> str:
        self._note(owner, f"{what}: array elements ({self.describer.describe(constr.elem_range_constraint)}) are not checked")
        return block.new_value(f'irdl.base "{MLIR_BUILTIN_NAMES[builtin.ArrayAttr]}"')

    # constraint kind -> emitter (self, block, constr, owner, what), tried in order
    _EMIT_BY_KIND: ClassVar[tuple[tuple[type, Callable[..., str]], ...]] = (
        (VarConstraint, _emit_var),
        (TypeVarConstraint, lambda self, block, c, owner, what: self.emit(block, c.base_constraint, owner, what)),
        (MessageConstraint, lambda self, block, c, owner, what: self.emit(block, c.constr, owner, what)),
        (AnyAttr, lambda self, block, c, owner, what: block.new_value("irdl.any")),
        (EqAttrConstraint, lambda self, block, c, owner, what: self.emit_equal(block, c.attr, owner, what)),
        (AttrSetConstraint, _emit_set),
        (BaseAttr, lambda self, block, c, owner, what: self.emit_base(block, c.attr, owner, what)),
        (AnyOf, _emit_combined),
        (AllOf, _emit_combined),
        (ParamAttrConstraint, _emit_param),
        (builtin.ArrayOfConstraint, _emit_array_of),
        (builtin.SymbolNameConstraint,
         lambda self, block, c, owner, what: block.new_value(f'irdl.base "{MLIR_BUILTIN_NAMES[builtin.StringAttr]}"')),
    )

    def emit_base(self, block: _Block, cls: type[Attribute], owner: str, what: str) -> str:
        if cls in self.local_attrs:
            return block.new_value(f"irdl.base @{self.dialect.name}::@{self.local_attrs[cls]}")
        if cls in MLIR_BUILTIN_NAMES:
            return block.new_value(f'irdl.base "{MLIR_BUILTIN_NAMES[cls]}"')
        if cls in self.own_attrs:
            self._note(
                owner,
                f"{what}: {self.describer.class_text(cls)} is defined in another IRDL file; "
                "an IRDL file cannot refer to it, exported as irdl.any",
            )
        else:
            self._note(owner, f"{what}: {self.describer.class_text(cls)} has no MLIR counterpart, exported as irdl.any")
        return block.new_value("irdl.any")

    def emit_equal(self, block: _Block, attr: Attribute, owner: str, what: str) -> str:
        cls = type(attr)
        if cls in self.local_attrs:
            params = irdl_parameters(attr)
            refs = [self.emit_equal(block, p, owner, what) for p in params]
            args = f"<{', '.join(refs)}>" if refs else "<>"
            return block.new_value(
                f"irdl.parametric @{self.dialect.name}::@{self.local_attrs[cls]}{args}"
            )
        if cls in self.own_attrs:
            return self.emit_base(block, cls, owner, what)
        return block.new_value(f"irdl.is {print_attribute_text(attr)}")

    # ----- definitions ----------------------------------------------------------------

    def export_attribute(self, cls: type[Attribute]) -> list[str]:
        keyword = "irdl.type" if issubclass(cls, TypeAttribute) else "irdl.attribute"
        symbol = self.local_attrs[cls]
        block = _Block("    ")
        names: list[str] = []
        refs: list[str] = []
        kind = attr_kind(cls)
        if kind == "enum":
            assert issubclass(cls, EnumAttribute)
            cases = [block.new_value(f'irdl.is "{case.value}"') for case in cls.enum_type]
            refs.append(block.new_value(f"irdl.any_of({', '.join(cases)})") if len(cases) > 1 else cases[0])
            names.append("value")
        elif kind == "parametrized":
            assert issubclass(cls, ParametrizedAttribute)
            for pname, pdef in cls.get_irdl_definition().parameters:
                refs.append(self.emit(block, pdef.constr, cls.name, f"parameter `{pname}`"))
                names.append(irdl_name(pname))
        elif is_unit_data(cls):
            pass
        else:
            payload = _data_payload_type(cls)
            base = {str: "#builtin.string", int: "#builtin.integer", bool: "#builtin.integer", float: "#builtin.float"}.get(payload)  # type: ignore[arg-type]
            if base is None:
                self._note(cls.name, "value: Python payload with no MLIR attribute, exported as irdl.any")
                refs.append(block.new_value("irdl.any"))
            else:
                refs.append(block.new_value(f'irdl.base "{base}"'))
            names.append("value")
        if refs:
            block.lines.append(
                f"{block.indent}irdl.parameters({', '.join(f'{n}: {r}' for n, r in zip(names, refs))})"
            )
        lines = [f"  // {cls.name}"]
        lines += [f"  //   note: {n}" for n in self.notes.get(cls.name, [])]
        lines.append(f"  {keyword} @{symbol} {{")
        lines += block.lines
        lines.append("  }")
        return lines

    def _value_list(self, block: _Block, defs: Sequence[tuple[str, object]], owner: str, role: str) -> str:
        """`name: [optional |variadic ]%ref, ...` of operand or result definitions."""
        items: list[str] = []
        for name, d in defs:
            element = single_constraint(d.constr)  # type: ignore[attr-defined]
            ref = self.emit(block, element, owner, f"{role} `{name}`")
            if isinstance(d, VariadicDef) and not isinstance(d, OptionalDef) and not isinstance(
                element, (EqAttrConstraint, VarConstraint)
            ):
                self._note(
                    owner,
                    f"{role} group `{name}` is homogeneous in IRDL (a constraint variable binds "
                    "one type per op), so mlir-opt rejects elements of different types",
                )
            if isinstance(d, OptionalDef):
                variadicity = "optional "
            elif isinstance(d, VariadicDef):
                variadicity = "variadic "
            else:
                variadicity = ""
            items.append(f"{irdl_name(name)}: {variadicity}{ref}")
        return ", ".join(items)

    def _attribute_entries(self, block: _Block, op_def: OpDef) -> list[str]:
        """`"name" = %ref` of the required properties and attributes."""
        owner = op_def.name
        entries: list[str] = []
        for kind, defs in (("property", op_def.properties), ("attribute", op_def.attributes)):
            for name in sorted(defs):
                d = defs[name]
                if isinstance(d, OptionalDef) or d.default_value is not None:
                    # IRDL attributes are always required: an optional one (or one
                    # whose absence means its default) cannot be listed.
                    self.unchecked.setdefault(owner, []).append(name)
                    continue
                ref = self.emit(block, d.constr, owner, f"{kind} `{name}`")
                entries.append(f'"{name}" = {ref}')
        return entries

    def _region_entries(self, block: _Block, op_def: OpDef) -> list[str]:
        regions: list[str] = []
        for name, region in op_def.regions:
            if isinstance(region, (VarRegionDef, OptRegionDef)):
                self._note(op_def.name, f"region `{name}` is variadic/optional; IRDL regions are single")
            size = " with size 1" if isinstance(region, SingleBlockRegionDef) else ""
            ref = block.new_value(f"irdl.region{size}")
            regions.append(f"{irdl_name(name)}: {ref}")
        return regions

    def export_operation(self, op: type[IRDLOperation]) -> list[str]:
        op_def = op.get_irdl_definition()
        owner = op_def.name
        block = _Block("    ")
        if op_def.operands:
            text = self._value_list(block, _split_groups(op, op_def.operands), owner, "operand")
            block.lines.append(f"    irdl.operands({text})")
        if op_def.results:
            text = self._value_list(block, op_def.results, owner, "result")
            block.lines.append(f"    irdl.results({text})")
        entries = self._attribute_entries(block, op_def)
        if entries:
            block.lines.append(f"    irdl.attributes {{{', '.join(entries)}}}")
        regions = self._region_entries(block, op_def)
        if regions:
            block.lines.append(f"    irdl.regions({', '.join(regions)})")
        if op_def.successors:
            self._note(owner, "successors are not expressible in IRDL")

        lines = [f"  // {op_def.name}"]
        lines += [f"  //   note: {n}" for n in self.notes.get(owner, [])]
        if owner in self.unchecked:
            lines.append(f"  //   optional, not checked: {', '.join(self.unchecked[owner])}")
        lines.append(f"  irdl.operation @{irdl_name(_local_name(op_def.name))} {{")
        lines += block.lines
        lines.append("  }")
        return lines

    def export(self) -> str:
        body: list[str] = []
        for cls in self.dialect.attributes:
            body += self.export_attribute(cls)
        for op in self.dialect.operations:
            if not issubclass(op, IRDLOperation):
                raise ValueError(f"{op.name} is not an IRDLOperation")
            body += self.export_operation(op)
        header = [
            f"// IRDL definition of the `{self.dialect.name}` dialect of ascend-mlir, for upstream",
            f"// `mlir-opt --irdl-file=dialects/{self.dialect.name}.irdl.mlir`.",
            "// Generated by tools/gen-dialects/gen_dialects.py; do not edit.",
            "// IR must be in IRDL form (`ascend-opt -t irdl`): generic syntax,",
            "// op names with `_` for `.` and camel case, properties as attributes, attribute",
            '// parameters as attributes (#hivm.pipe<"PIPE_MTE2">).',
            f"irdl.dialect @{self.dialect.name} {{",
        ]
        return "\n".join(header + body + ["}", ""])


def export_dialect(dialect: Dialect, own_dialects: Iterable[Dialect] = ()) -> tuple[str, dict[str, list[str]]]:
    """IRDL text of `dialect` and the notes on what it could not express (by def name)."""
    exporter = DialectExporter(dialect, own_dialects)
    text = exporter.export()
    return text, exporter.notes


# --------------------------------------------------------------------------------------
# variadic operand groups exported as one slot per element
# --------------------------------------------------------------------------------------


def group_bounds(op: type[Operation]) -> dict[str, tuple[int, int]]:
    """Min and max element count of the variadic operand groups `op` splits into slots."""
    bounds = getattr(op, "operand_group_bounds", None)
    return cast(dict[str, tuple[int, int]], bounds()) if callable(bounds) else {}


def _split_groups(op: type[IRDLOperation], defs: Sequence[tuple[str, object]]) -> list[tuple[str, object]]:
    """`defs` with each bounded group replaced by its slots: `min` single, the rest optional."""
    bounds = group_bounds(op)
    out: list[tuple[str, object]] = []
    for name, d in defs:
        if name not in bounds or not isinstance(d, VariadicDef) or isinstance(d, OptionalDef):
            out.append((name, d))
            continue
        low, high = bounds[name]
        for index in range(high):
            slot_type = OperandDef if index < low else OptOperandDef
            out.append((f"{name}_{index}", slot_type(single_constraint(d.constr))))  # pyright: ignore[reportAttributeAccessIssue]
    return out


def _same_size_segments(op: IRDLOperation) -> builtin.DenseArrayBase | None:
    """The `operandSegmentSizes` IRDL needs for an op whose variadic groups share one
    size (xDSL's and MLIR's SameVariadicOperandSize, which prints no sizes): MLIR's IRDL
    knows no such option and asks every op with two variadic groups or more for them."""
    op_def = op.get_irdl_definition()
    if not any(isinstance(option, SameVariadicOperandSize) for option in op_def.options):
        return None
    variadic = [isinstance(d, VariadicDef) for _, d in op_def.operands]
    if sum(variadic) < 2:
        return None
    size = (len(op.operands) - variadic.count(False)) // sum(variadic)
    return builtin.DenseArrayBase.from_list(builtin.i32, [size if v else 1 for v in variadic])


def split_segment_sizes(op: IRDLOperation) -> builtin.DenseArrayBase | None:
    """`operandSegmentSizes` of `op` in IRDL form (one entry per slot), None if unchanged."""
    same = _same_size_segments(op)
    if same is not None:
        return same
    bounds = group_bounds(type(op))
    sizes = op.properties.get("operandSegmentSizes")
    if not bounds or not isinstance(sizes, builtin.DenseArrayBase):
        return None
    counts = [int(v) for v in sizes.get_values()]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    out: list[int] = []
    for (name, _), count in zip(op.get_irdl_definition().operands, counts, strict=True):
        if name in bounds:
            high = bounds[name][1]
            out += [1] * min(count, high) + [0] * (high - min(count, high))
        else:
            out.append(count)
    return builtin.DenseArrayBase.from_list(builtin.i32, out)


def fold_segment_sizes(op: IRDLOperation) -> None:
    """Inverse of `split_segment_sizes` on an op read back from IRDL form."""
    if _same_size_segments(op) is not None:
        op.attributes.pop("operandSegmentSizes", None)  # the sizes follow from the operand count
        return
    bounds = group_bounds(type(op))
    sizes = op.properties.get("operandSegmentSizes")
    if not bounds or not isinstance(sizes, builtin.DenseArrayBase):
        return
    counts = [int(v) for v in sizes.get_values()]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    out: list[int] = []
    for name, _ in op.get_irdl_definition().operands:
        width = bounds[name][1] if name in bounds else 1
        out.append(sum(counts[:width]))
        counts = counts[width:]
    op.properties["operandSegmentSizes"] = builtin.DenseArrayBase.from_list(builtin.i32, out)


# --------------------------------------------------------------------------------------
# printing IR in the form the exported IRDL accepts
# --------------------------------------------------------------------------------------


def irdl_parameters(attr: Attribute) -> tuple[Attribute, ...]:
    """Parameters of one of our attributes as MLIR attributes (enum case -> string)."""
    if isinstance(attr, EnumAttribute):
        return (builtin.StringAttr(str(attr.data.value)),)
    if isinstance(attr, ParametrizedAttribute):
        # IntAttr is xDSL-only: MLIR spells it (and the IRDL export declares it) as an integer
        return tuple(builtin.IntegerAttr(p.data, 64) if isinstance(p, builtin.IntAttr) else p
                     for p in attr.parameters)
    if isinstance(attr, Data):
        data = attr.data  # pyright: ignore[reportUnknownMemberType]
        if data == ():
            return ()
        if isinstance(data, bool):
            return (builtin.IntegerAttr(int(data), 1),)
        if isinstance(data, int):
            return (builtin.IntegerAttr(data, 64),)
        if isinstance(data, float):
            return (builtin.FloatAttr(data, 64),)
        if isinstance(data, str):
            return (builtin.StringAttr(data),)
    raise ValueError(f"cannot print {attr} as IRDL parameters")


class IRDLFormPrinter(Printer):
    """Generic-format printer whose output mlir-opt parses with our IRDL dialects loaded."""

    def __init__(self, stream: IO[str] | None = None, dialects: Iterable[Dialect] | None = None):
        # Properties become attributes only on our ops: upstream ops keep `<{...}>`.
        super().__init__(stream=stream, print_generic_format=True)
        if dialects is None:
            dialects = our_dialects()
        self._op_names: dict[str, str] = {}
        self._attr_names: dict[type[Attribute], str] = {}
        for d in dialects:
            for op in d.operations:
                self._op_names[op.name] = irdl_op_name(op.name)
            for cls in d.attributes:
                self._attr_names[cls] = f"{d.name}.{irdl_name(_local_name(cls.name))}"

    def print_attribute(self, attribute: Attribute) -> None:
        name = self._attr_names.get(type(attribute))
        if name is None:
            super().print_attribute(attribute)
            return
        self.print_string(("!" if isinstance(attribute, TypeAttribute) else "#") + name)
        params = irdl_parameters(attribute)
        if params:
            with self.in_angle_brackets():
                self.print_list(params, self.print_attribute)

    def print_op(self, op: Operation) -> None:
        name = self._op_names.get(op.name)
        if name is None:
            super().print_op(op)
            return
        scope = bool(op.get_traits_of_type(IsolatedFromAbove))
        self._print_results(op)  # pyright: ignore[reportPrivateUsage]
        if scope:
            self.enter_scope()
        self.print_string(f'"{name}"')
        self._print_irdl_form_body(op)
        if scope:
            self.exit_scope()

    def _print_irdl_form_body(self, op: Operation) -> None:
        """xDSL's generic op body with the properties printed as attributes, the
        operand segments split into slots. What is printed is computed here as values:
        a printer never writes to the op it prints, not even for the time of the call."""
        clashing = op.properties.keys() & op.attributes.keys()
        if clashing:
            raise ValueError(f"Properties {', '.join(sorted(clashing))} would overwrite the attributes of the same names.")
        properties = dict(op.properties)
        split = split_segment_sizes(op) if isinstance(op, IRDLOperation) else None
        if split is not None:
            properties["operandSegmentSizes"] = split
        self.print_operands(op.operands)
        self.print_successors(op.successors)
        self.print_regions(op.regions)
        self.print_op_attributes(op.attributes | properties)
        self.print_string(" : ")
        self.print_operation_type(op)


def print_attribute_text(attr: Attribute, dialects: Iterable[Dialect] = ()) -> str:
    """`attr` as MLIR text, our `dialects`' attributes in IRDL form."""
    stream = StringIO()
    IRDLFormPrinter(stream=stream, dialects=dialects).print_attribute(attr)
    return stream.getvalue()


def our_dialects() -> list[Dialect]:
    """The dialects of ascend-mlir, in registry order (those that import)."""
    from ascend_mlir.dialects import get_all_dialects

    return [factory() for factory in get_all_dialects().values()]


def irdl_form(module: Operation, dialects: Iterable[Dialect] | None = None) -> str:
    stream = StringIO()
    printer = IRDLFormPrinter(stream=stream, dialects=dialects)
    printer.print_op(module)
    stream.write("\n")
    return stream.getvalue()


def _attribute_from_irdl_parameters(cls: type[Attribute], params: Sequence[Attribute]) -> Attribute:
    """Inverse of `irdl_parameters`: one of our attributes from its IRDL-form parameters."""
    if issubclass(cls, EnumAttribute):
        (value,) = params
        if not isinstance(value, builtin.StringAttr):
            raise ValueError(f"#{cls.name} expects a string parameter, got {value}")
        return cls(cls.enum_type(value.data))
    if issubclass(cls, ParametrizedAttribute):
        defs = cls.get_irdl_definition().parameters
        return cls.new(tuple(_int_parameter(value, pdef.constr) for value, (_, pdef) in zip(params, defs)))
    if issubclass(cls, Data):
        if not params:
            return cls.new(())
        (value,) = params
        if isinstance(value, builtin.IntegerAttr):
            payload = value.value.data
            return cls.new(bool(payload) if _data_payload_type(cls) is bool else payload)
        if isinstance(value, builtin.FloatAttr):
            return cls.new(value.value.data)
        if isinstance(value, builtin.StringAttr):
            return cls.new(value.data)
    raise ValueError(f"cannot rebuild #{cls.name} from {list(params)}")


def _int_parameter(value: Attribute, constr: AttrConstraint) -> Attribute:
    """An IntAttr parameter back from the integer `irdl_parameters` printed for it."""
    if isinstance(value, builtin.IntegerAttr) and isinstance(constr, BaseAttr) and constr.attr is builtin.IntAttr:
        return builtin.IntAttr(value.value.data)
    return value


def _matching_angle(text: str, start: int) -> int:
    """Index of the `>` closing the `<` at `start` (string literals and `->` skipped)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "-" and text.startswith("->", i):
            i += 1
        elif c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced '<' at offset {start}")


class IRDLFormReader:
    """Reads IR printed in IRDL form (by mlir-opt or `IRDLFormPrinter`) back into xDSL."""

    def __init__(self, ctx, dialects: Iterable[Dialect] | None = None):  # noqa: ANN001
        self.ctx = ctx
        if dialects is None:
            dialects = our_dialects()
        self.op_names: dict[str, str] = {}
        self.attrs: dict[str, type[Attribute]] = {}
        for d in dialects:
            for op in d.operations:
                self.op_names[irdl_op_name(op.name)] = op.name
            for cls in d.attributes:
                self.attrs[f"{d.name}.{irdl_name(_local_name(cls.name))}"] = cls
        names = "|".join(re.escape(n) for n in sorted(self.attrs, key=len, reverse=True))
        self._attr_re = re.compile(rf"[#!]({names})(?![\w.])") if names else None
        self._op_re = re.compile(r'"([A-Za-z_][\w$]*\.[\w$.]+)"(?=\()')

    def _print(self, attr: Attribute) -> str:
        stream = StringIO()
        Printer(stream=stream).print_attribute(attr)
        return stream.getvalue()

    def _parse_attributes(self, text: str) -> list[Attribute]:
        from xdsl.parser import Parser

        parser = Parser(self.ctx, text)
        return parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_attribute)

    def rewrite_attributes(self, text: str) -> str:
        """Our attributes from IRDL spelling to their own: `#hivm.pipe<"PIPE_V">` -> `#hivm.pipe<PIPE_V>`."""
        if self._attr_re is None:
            return text
        out: list[str] = []
        pos = 0
        while (match := self._attr_re.search(text, pos)) is not None:
            out.append(text[pos : match.start()])
            cls = self.attrs[match.group(1)]
            end = match.end()
            params: list[Attribute] = []
            if end < len(text) and text[end] == "<":
                close = _matching_angle(text, end)
                inner = self.rewrite_attributes(text[end + 1 : close])
                params = self._parse_attributes(inner) if inner.strip() else []
                end = close + 1
            out.append(self._print(_attribute_from_irdl_parameters(cls, params)))
            pos = end
        out.append(text[pos:])
        return "".join(out)

    def rewrite_op_names(self, text: str) -> str:
        return self._op_re.sub(
            lambda m: f'"{self.op_names.get(m.group(1), m.group(1))}"', text
        )

    def parse(self, text: str, name: str = "<irdl-form>"):
        """The module of `text`, with properties restored from the attribute dictionaries."""
        from xdsl.dialects.builtin import ModuleOp
        from xdsl.parser import Parser

        text = self.rewrite_attributes(self.rewrite_op_names(text))
        module = Parser(self.ctx, text, name).parse_module()
        ours = set(self.op_names.values())
        for op in module.walk():
            if op.name in ours and isinstance(op, IRDLOperation):
                restore_properties(op)
        assert isinstance(module, ModuleOp)
        return module


def restore_properties(op: IRDLOperation) -> None:
    """Move attributes that name properties of `op` (printed as attributes) back."""
    op_def = op.get_irdl_definition()
    prop_names = set(op_def.properties)
    for option in op_def.options:
        if getattr(option, "as_property", False):
            prop_names.add(option.attribute_name)  # pyright: ignore[reportAttributeAccessIssue]
    for name in [n for n in op.attributes if n in prop_names]:
        op.properties[name] = op.attributes.pop(name)
    fold_segment_sizes(op)


def default_context():
    """A parsing context with all of xDSL's dialects and ours (unregistered ops allowed)."""
    from xdsl.context import Context
    from xdsl.dialects import get_all_dialects as upstream_dialects

    from ascend_mlir.dialects import register_dialects

    return register_dialects(Context(allow_unregistered=True), upstream=upstream_dialects())


@dataclass(frozen=True)
class IrdlTarget(Target):
    """Print a module in IRDL form, for `mlir-opt --irdl-file=dialects/<d>.irdl.mlir`."""

    name = "irdl"

    def emit(self, ctx: Context, module: builtin.ModuleOp, output: IO[str]) -> None:
        output.write(irdl_form(module))


def main(argv: Sequence[str] | None = None) -> int:
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    arg_parser = argparse.ArgumentParser(
        prog="python -m ascend_mlir.targets.irdl",
        description="Print MLIR in the form upstream mlir-opt accepts with dialects/*.irdl.mlir "
        "loaded (generic syntax, IRDL op names, properties as attributes).",
    )
    arg_parser.add_argument("input", nargs="?", default="-", help="MLIR file (default: stdin)")
    arg_parser.add_argument(
        "--from-irdl-form",
        action="store_true",
        help="read IRDL-form IR (e.g. printed by mlir-opt) and print it in our own syntax",
    )
    arg_parser.add_argument(
        "--print-op-generic", action="store_true", help="with --from-irdl-form: generic syntax"
    )
    args = arg_parser.parse_args(argv)
    if args.input == "-":
        text, name = sys.stdin.read(), "<stdin>"
    else:
        with open(args.input) as f:
            text, name = f.read(), args.input
    try:
        if args.from_irdl_form:
            module = IRDLFormReader(default_context()).parse(text, name)
        else:
            module = Parser(default_context(), text, name).parse_module()
    except (ParseError, ValueError) as e:
        print(e, file=sys.stderr)
        return 1
    if args.from_irdl_form:
        Printer(stream=sys.stdout, print_generic_format=args.print_op_generic).print_op(module)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(irdl_form(module))
    return 0


if __name__ == "__main__":
    sys.exit(main())
