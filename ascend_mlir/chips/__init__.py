"""Chip descriptions: capacities, alignments, flag limits and the latency table.

A chip is data (`<name>.toml` beside this file, or any user file of the same shape), so
recalibrating a chip never touches code. `load_chip` reads and validates one; every
missing or malformed entry is reported with the file and the dotted key. A chip file
may start from another one: `extends = "ascend950"` (a built-in name, or a path relative
to the file) takes every setting of that chip, the file's own tables override it key by
key, and `remove = ["latency.copy.cc_ub"]` drops settings (e.g. a copy path the chip
lacks). Facts common to every chip (pipes, scopes, legal copy paths and their pipes) are
in `ascend_mlir.hardware`, not here.

`resolve_chip(module, chip, chip_file)` is how passes, targets and tools pick the chip.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.utils.exceptions import DiagnosticException

from ascend_mlir import hardware

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - python 3.10
    import tomli as tomllib  # pyright: ignore[reportMissingImports]

DEFAULT_CHIP = "ascend950"
# The arch of the Ascend 950 generation ("a5"): its bishengir builds are the `-a5` ones
# (bishengir-compile-a5, bishengir-opt-a5, whose syntax differs) and its CCE API the asc_* one.
A5_ARCH = "dav-3510"
CHIP_DIR = Path(__file__).parent

# Copy paths every chip must describe (the 950 adds ub_cbuf and cc_ub).
REQUIRED_COPY_PATHS = tuple(f"{src}_{dst}" for src, dst in hardware.REQUIRED_COPY_PATHS)
CUBE_TYPES = ("fp16", "bf16", "fp32", "hf32")


# What the `[types]` table of a chip file lists element types for (MLIR spelling: f16, i8).
ELEMENT_TYPE_USES = ("storage", "vector", "cube")


class ChipError(DiagnosticException):
    """A chip file that cannot be used, or a chip name nobody knows; `op`, when the
    module's own `hacc.target` named it, locates the diagnostic."""

    def __init__(self, message: str, op: Any = None) -> None:
        super().__init__(message)
        self.op = op

    def pass_failure(self, prefix: str = "") -> DiagnosticException:
        """What a pass raises for it: located at the module when its target was the
        problem (an OpError), else a plain pass failure."""
        from xdsl.utils.exceptions import PassFailedException

        from ascend_mlir.op_errors import OpError

        if self.op is not None:
            return OpError(self.op, f"{prefix}{self}")
        return PassFailedException(f"{prefix}{self}")


@dataclass(frozen=True)
class CopyPath:
    """One DMA path `src -> dst` (e.g. GM -> L1 on MTE2)."""

    pipe: str
    base: int
    bandwidth: int
    issue: int
    min_ii: int
    per_burst: bool


@dataclass(frozen=True)
class LatencyTable:
    scalar: int
    cube_base: int
    cube_base_fp32: int
    cube_base_mx: int
    cube_throughput: dict[str, int]
    copy: dict[tuple[str, str], CopyPath]
    vector_bandwidth: int
    vector_throughput: dict[str, int]
    vector_op_class: dict[str, str]


@dataclass(frozen=True)
class Chip:
    name: str
    arch: str
    hacc_target: str
    hacc_targets: tuple[str, ...]
    capacity: dict[str, int]
    alignment: dict[str, int]
    events_per_pipe_pair: int
    latency: LatencyTable
    # Pipes that keep two dependent ops of their own in order without a pipe_barrier
    # (`chip.ordered_pipes`; the same-pipe rule, docs/same-pipe-rule.md). Ask
    # `needs_barrier`, never this set.
    ordered_pipes: frozenset[str] = frozenset({"S"})
    path: str = field(default="", compare=False)
    # element types the chip has, by use: "storage" (any buffer), "vector" (arithmetic on
    # the vector unit), "cube" (mmad inputs); empty when the chip file does not say
    element_types: dict[str, tuple[str, ...]] = field(default_factory=dict[str, tuple[str, ...]], compare=False)

    @property
    def a5(self) -> bool:
        """Whether the chip is of the a5 generation (see A5_ARCH)."""
        return self.arch == A5_ARCH

    @property
    def described(self) -> str:
        """The chip as a message names it: a chip file's is its file, whose `extends` gave it
        the built-in's name (three_ids.toml's 3 event ids are not the 910B's)."""
        if not self.path or Path(self.path).parent == CHIP_DIR:
            return self.name
        return f"{self.name} of {Path(self.path).name}"

    def aligned_size(self, scope: str, nbytes: int) -> int:
        """`nbytes` rounded up to the allocation granule of `scope`."""
        align = self.alignment.get(scope, 1)
        return -(-nbytes // align) * align


class _Reader:
    """Typed access to a parsed chip file; every error names the file and the key."""

    def __init__(self, data: dict[str, Any], path: str):
        self.data = data
        self.path = path

    def error(self, key: str, what: str) -> ChipError:
        return ChipError(f"chip file {self.path}: key '{key}' {what}")

    def get(self, key: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            if not isinstance(node, dict):
                raise self.error(key, "is not inside a table")
            if part not in node:
                raise self.error(key, "is missing")
            node = node[part]
        return node

    def table(self, key: str) -> dict[str, Any]:
        value = self.get(key)
        if not isinstance(value, dict):
            raise self.error(key, f"must be a table, got {value!r}")
        return value

    def int(self, key: str, minimum: int = 1) -> int:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"must be an integer, got {value!r}")
        if value < minimum:
            raise self.error(key, f"must be >= {minimum}, got {value}")
        if value > _INT64_MAX:  # sizes, offsets and cycles go into the IR as i64
            raise self.error(key, f"must be <= {_INT64_MAX} (a 64-bit integer), got {value}")
        return value

    def power_of_two(self, key: str) -> int:
        value = self.int(key)
        if value & (value - 1):  # addresses are aligned by masking: 3 or 48 is no alignment
            raise self.error(key, f"must be a power of two, got {value}")
        return value

    def str(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str) or not value:
            raise self.error(key, f"must be a non-empty string, got {value!r}")
        return value

    def bool(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, got {value!r}")
        return value


_INT64_MAX = (1 << 63) - 1

# Keys a chip file may have (a misspelt key would otherwise be silently ignored and the
# chip would not be the one the user meant). "*" stands for any name of that table.
SCHEMA: dict[str, Any] = {
    "chip": {"name": None, "arch": None, "hacc_targets": None, "events_per_pipe_pair": None,
             "ordered_pipes": None},
    "capacity": {scope: None for scope in hardware.SCOPES},
    "alignment": {scope: None for scope in hardware.SCOPES},
    "latency": {
        "scalar": None,
        "cube": {"base": None, "base_fp32": None, "base_mx": None, "throughput": {"*": None}},
        "copy": {"*": {"pipe": None, "base": None, "bandwidth": None, "issue": None,
                       "min_ii": None, "per_burst": None}},
        "vector": {"bandwidth": None, "throughput": {"*": None}, "op_class": {"*": None}},
    },
    "types": {use: None for use in ELEMENT_TYPE_USES},
    "extends": None,
    "remove": None,
}


def _check_keys(r: _Reader, node: Any, schema: dict[str, Any], prefix: str) -> None:
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        dotted = f"{prefix}{key}"
        sub = schema.get(key, schema.get("*", KeyError))
        if sub is KeyError:
            allowed = ", ".join(k for k in schema if k != "*")
            raise r.error(dotted, f"is not a chip setting (expected one of: {allowed})")
        if isinstance(sub, dict):
            if not isinstance(value, dict):
                raise r.error(dotted, f"must be a table, got {value!r}")
            _check_keys(r, value, sub, dotted + ".")


def _parse(data: dict[str, Any], path: str) -> Chip:
    r = _Reader(data, path)
    _check_keys(r, data, SCHEMA, "")
    targets = r.get("chip.hacc_targets")
    if (
        not isinstance(targets, list)
        or not targets
        or not all(isinstance(t, str) and t for t in targets)
    ):
        raise r.error("chip.hacc_targets", "must be a non-empty list of strings")
    capacity = {scope: r.int(f"capacity.{scope}") for scope in hardware.SCOPES}
    alignment = {scope: r.power_of_two(f"alignment.{scope}") for scope in hardware.SCOPES}

    copies: dict[tuple[str, str], CopyPath] = {}
    copy_table = r.table("latency.copy")
    for name in REQUIRED_COPY_PATHS:
        if name not in copy_table:
            raise r.error(f"latency.copy.{name}", "is missing")
    for name in sorted(copy_table):
        src, _, dst = name.partition("_")
        key = f"latency.copy.{name}"
        hw_path = hardware.COPY_PATHS.get((src, dst))
        if hw_path is None:
            known = ", ".join(p.key for p in hardware.COPY_PATHS.values())
            raise r.error(key, f"is not a hardware copy path (one of: {known})")
        if "pipe" in copy_table[name]:
            # the pipe is a hardware fact (ascend_mlir.hardware); a file may only repeat it
            pipe = r.str(f"{key}.pipe")
            if pipe not in hardware.PIPES:
                raise r.error(f"{key}.pipe", f"must be one of {', '.join(hardware.PIPES)}, got {pipe!r}")
            if pipe != hw_path.pipe:
                raise r.error(f"{key}.pipe", f"must be {hw_path.pipe!r} (the path's pipe), got {pipe!r}")
        copies[(src, dst)] = CopyPath(
            pipe=hw_path.pipe,
            base=r.int(f"{key}.base", 0),
            bandwidth=r.int(f"{key}.bandwidth"),
            issue=r.int(f"{key}.issue", 0),
            min_ii=r.int(f"{key}.min_ii", 0),
            per_burst=r.bool(f"{key}.per_burst"),
        )

    cube_tp_table = r.table("latency.cube.throughput")
    for dtype in CUBE_TYPES:
        r.int(f"latency.cube.throughput.{dtype}")
    cube_throughput = {
        dtype: r.int(f"latency.cube.throughput.{dtype}") for dtype in sorted(cube_tp_table)
    }
    vec_tp_table = r.table("latency.vector.throughput")
    vector_throughput = {
        cls: r.int(f"latency.vector.throughput.{cls}") for cls in sorted(vec_tp_table)
    }
    op_class_table = r.table("latency.vector.op_class")
    vector_op_class: dict[str, str] = {}
    for op_name in sorted(op_class_table):
        cls = r.str(f"latency.vector.op_class.{op_name}")
        if cls not in vector_throughput:
            raise r.error(
                f"latency.vector.op_class.{op_name}",
                f"names class {cls!r} that latency.vector.throughput does not define",
            )
        vector_op_class[op_name] = cls

    latency = LatencyTable(
        scalar=r.int("latency.scalar"),
        cube_base=r.int("latency.cube.base", 0),
        cube_base_fp32=r.int("latency.cube.base_fp32", 0),
        cube_base_mx=r.int("latency.cube.base_mx", 0),
        cube_throughput=cube_throughput,
        copy=copies,
        vector_bandwidth=r.int("latency.vector.bandwidth"),
        vector_throughput=vector_throughput,
        vector_op_class=vector_op_class,
    )
    return Chip(
        name=r.str("chip.name"),
        arch=r.str("chip.arch"),
        hacc_target=targets[0],
        hacc_targets=tuple(targets),
        capacity=capacity,
        alignment=alignment,
        events_per_pipe_pair=_events_per_pipe_pair(r),
        latency=latency,
        ordered_pipes=_ordered_pipes(r),
        path=path,
        element_types=_element_types(r),
    )


def _element_types(r: _Reader) -> dict[str, tuple[str, ...]]:
    """The optional `[types]` table: use -> non-empty list of MLIR element type names."""
    if "types" not in r.data:
        return {}
    types: dict[str, tuple[str, ...]] = {}
    for use in ELEMENT_TYPE_USES:
        value = r.get(f"types.{use}")
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise r.error(f"types.{use}", "must be a non-empty list of element type names")
        types[use] = tuple(value)
    return types


def _ordered_pipes(r: _Reader) -> frozenset[str]:
    """`chip.ordered_pipes`: pipe names; S is always among them (the scalar unit is in
    order on every chip: `PipeBarrier<PIPE_S>` is a hardware error). A file that does not
    say gets the conservative rule, S only (a barrier for every other same-pipe dependence)."""
    if "ordered_pipes" not in r.data.get("chip", {}):
        return frozenset({"S"})
    value = r.get("chip.ordered_pipes")
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise r.error("chip.ordered_pipes", "must be a list of pipe names")
    for pipe in value:
        if pipe not in hardware.PIPES:
            raise r.error("chip.ordered_pipes", f"names {pipe!r}, not a pipe (one of: {', '.join(hardware.PIPES)})")
    if "S" not in value:
        raise r.error("chip.ordered_pipes", "must hold \"S\" (the scalar pipe is in order on every chip)")
    return frozenset(value)


def needs_barrier(chip: Chip | None, src_pipe: str, dst_pipe: str) -> bool:
    """THE same-pipe rule: whether a data dependence from an op on `src_pipe` to a later op
    on `dst_pipe` needs `pipe_barrier[src_pipe]` between them on `chip` (None: the default
    chip) at the hivm level. Dependences between different pipes need a flag, not a barrier
    (False). On one pipe: none on the chip's `ordered_pipes` (S everywhere; V on the
    register-based Ascend 950), none on M (mmadL1 -> mmadL1 is the op's own business,
    `hardware.OP_ORDERED_PIPES`), a barrier on every other pipe. The sync passes, the
    static check, the scheduler, the simulator's race detector and the CCE printer all
    ask this function."""
    if src_pipe != dst_pipe or src_pipe in hardware.OP_ORDERED_PIPES:
        return False
    if chip is None:
        chip = load_chip(None)
    return src_pipe not in chip.ordered_pipes


def in_order(chip: Chip | None, pipe: str) -> bool:
    """Whether two dependent hivm ops on `pipe` are kept in order without a barrier on
    `chip`: the negation of `needs_barrier` for a same-pipe pair."""
    return not needs_barrier(chip, pipe, pipe)


def _events_per_pipe_pair(r: _Reader) -> int:
    events = r.int("chip.events_per_pipe_pair")
    if events > hardware.EVENTS_PER_PIPE_PAIR:
        raise r.error(
            "chip.events_per_pipe_pair",
            f"must be <= {hardware.EVENTS_PER_PIPE_PAIR} (EVENT_ID0..{hardware.EVENTS_PER_PIPE_PAIR - 1}), got {events}",
        )
    return events


def _read_data(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ChipError(f"cannot read chip file {path}: {e.strerror}") from None
    try:
        if path.endswith(".json"):
            data = json.loads(raw)
        else:
            data = tomllib.loads(raw.decode())
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ChipError(f"chip file {path} is not valid: {e}") from None
    if not isinstance(data, dict):
        raise ChipError(f"chip file {path}: top level must be a table")
    return data


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """`base` with the tables of `override` merged in key by key (values replace)."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _remove(r: _Reader, data: dict[str, Any], keys: Any) -> None:
    if not isinstance(keys, list) or not all(isinstance(k, str) and k for k in keys):
        raise r.error("remove", "must be a list of dotted keys")
    for key in keys:
        *parents, last = key.split(".")
        node: Any = data
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict) or last not in node:
            raise r.error(f"remove.{key}", "names no setting of the chip it extends")
        del node[last]


def _base_path(r: _Reader, name: Any) -> str:
    if not isinstance(name, str) or not name:
        raise r.error("extends", f"must be a chip name or a file path, got {name!r}")
    if name in builtin_chip_names():
        return str(CHIP_DIR / f"{name}.toml")
    if name.endswith((".toml", ".json")):
        return str(Path(r.path).parent / name)
    raise r.error(
        "extends",
        f"names no chip: {name!r} (built-in chips: {', '.join(builtin_chip_names())}, or a .toml/.json path)",
    )


def _resolved_data(path: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The file's settings with its `extends` chain applied (and `remove` done)."""
    if os.path.realpath(path) in seen:
        chain = " -> ".join((*seen, os.path.realpath(path)))
        raise ChipError(f"chip file {path}: key 'extends' makes a cycle ({chain})")
    data = _read_data(path)
    if "extends" not in data:
        if "remove" in data:
            raise _Reader(data, path).error("remove", "needs 'extends' (there is nothing to remove from)")
        return data
    r = _Reader(data, path)
    base_path = _base_path(r, data["extends"])
    base = _resolved_data(base_path, (*seen, os.path.realpath(path)))
    own = {k: v for k, v in data.items() if k not in ("extends", "remove")}
    _check_keys(r, own, SCHEMA, "")
    merged = _merge(base, own)
    if "remove" in data:
        _remove(r, merged, data["remove"])
    return merged


# hacc target names that only chip files loaded in this process give (a file may name
# its own chip: `hacc_targets = ["MyChip_1"]`); a built-in chip's names stay its own
_file_targets: dict[str, Chip] = {}


def load_chip_file(path: str | os.PathLike[str]) -> Chip:
    """Read a chip description (.toml or .json) from a file. Target names no built-in chip
    has become known to `chip_for_target`: ascend-compile records the chip's first name
    as the module's `hacc.target`, and every later pass resolves the chip by it."""
    path = str(path)
    chip = _parse(_resolved_data(path), path)
    builtin = {t for name in builtin_chip_names() for t in _builtin(name).hacc_targets}
    for target in chip.hacc_targets:
        if target not in builtin:
            _file_targets[target] = chip
    return chip


def builtin_chip_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in CHIP_DIR.glob("*.toml")))


_cache: dict[str, Chip] = {}


def _builtin(name: str) -> Chip:
    if name not in _cache:
        path = str(CHIP_DIR / f"{name}.toml")
        _cache[name] = _parse(_resolved_data(path), path)
    return _cache[name]


def chip_for_target(hacc_target: str) -> Chip:
    """The built-in chip whose `hacc_targets` list the bishengir target name."""
    for name in builtin_chip_names():
        chip = _builtin(name)
        if hacc_target in chip.hacc_targets:
            return chip
    if hacc_target in _file_targets:
        return _file_targets[hacc_target]
    known = ", ".join(t for n in builtin_chip_names() for t in _builtin(n).hacc_targets)
    raise ChipError(f"unknown hacc target '{hacc_target}' (known: {known}; a chip file given as an "
                    "option adds its own)")


def chip_for_arch(arch: str) -> Chip:
    """The built-in chip of an arch ("dav-3510" -> ascend950, "dav-c220" -> ascend910b)."""
    for name in builtin_chip_names():
        chip = _builtin(name)
        if chip.arch == arch:
            return chip
    known = ", ".join(sorted({_builtin(n).arch for n in builtin_chip_names()}))
    raise ChipError(f"no built-in chip of arch '{arch}' (known: {known})")


def target_is_a5(hacc_target: str) -> bool:
    """Whether the bishengir target name is a built-in chip of the a5 generation (an
    unknown name is not)."""
    try:
        return chip_for_target(hacc_target).a5
    except ChipError:
        return False


def load_chip(name_or_path: str | None = None) -> Chip:
    """A chip by built-in name ("ascend950", "ascend910b"), hacc target name
    ("Ascend910B2"), or path to a chip file. None gives the default, ascend950."""
    if name_or_path is None or name_or_path == "":
        return _builtin(DEFAULT_CHIP)
    if name_or_path in builtin_chip_names():
        return _builtin(name_or_path)
    if os.sep in name_or_path or name_or_path.endswith((".toml", ".json")):
        return load_chip_file(name_or_path)
    try:
        return chip_for_target(name_or_path)
    except ChipError:
        raise ChipError(
            f"unknown chip '{name_or_path}' (built-in chips: {', '.join(builtin_chip_names())};"
            " a hacc target name such as Ascend910B1 or a path to a .toml file also works)"
        ) from None


def module_hacc_target(module: Any) -> str | None:
    """The target name in the module's `hacc.target` attribute, if any."""
    from ascend_mlir.dialects.hacc import TARGET, TargetAttr

    attr = module.attributes.get(TARGET)
    if attr is None:
        return None
    if not isinstance(attr, TargetAttr):
        raise ChipError(f"{TARGET} must be #hacc.target<\"...\">, got {attr}")
    return attr.data


def resolve_chip(
    module: Any, chip: str | None = None, chip_file: str | None = None, *, record: bool = False
) -> Chip:
    """The chip a pass, target or tool works for: a `chip-file=` option beats `chip=`,
    which beats the module's `hacc.target`; with none of them, ascend950.

    `record=True` writes the chosen chip into the module as `hacc.target` (bishengir's
    spelling: the chip's first target name) when an option chose it, so later passes and
    bishengir-compile see the chip the schedule was made for. Raises ChipError (a
    diagnostic) for an unknown chip or a bad file."""
    if chip_file:
        result = load_chip_file(chip_file)
    elif chip:
        result = load_chip(chip)
    else:
        target = module_hacc_target(module)
        if target is None:
            return load_chip(None)
        try:
            return chip_for_target(target)
        except ChipError as err:
            raise ChipError(str(err), op=module) from None
    if record:
        set_module_target(module, result)
    return result


def set_module_target(module: Any, chip: Chip, target: str | None = None) -> None:
    """Record the chip in the module as `hacc.target` (bishengir's spelling; `target`
    picks one of the chip's names, default its first)."""
    from ascend_mlir.dialects.hacc import TARGET, TargetAttr

    module.attributes[TARGET] = TargetAttr(target or chip.hacc_target)
