"""The search space of a sweep: a dict of lists, expanded in a fixed order.

A space maps names to the values to try, e.g.
`{"tile": [256, 512, 1024], "num_stages": [1, 2, 3], "chip": ["ascend950"]}`.
A name the kernel factory takes as a parameter is passed to it; `chip` is always the
chip the variant is compiled and simulated for (and passed to the factory as well when
it takes a `chip` parameter); any other name must be an option of `ascend-compile`
(`sync`, `schedule`, `num_stages`, `chip_file`). The grid is the cartesian product in
the space's key order, except that `num_stages` varies slowest, so every variant with
fewer stages is measured before one with more (the dominance rule needs them first).
"""

from __future__ import annotations

import inspect
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

# ascend-compile's options (transforms/ascend_compile.py) a space may sweep; `chip` is
# handled on its own (compile and simulation both need it)
COMPILE_OPTIONS = ("sync", "schedule", "num_stages", "chip_file")
STAGES_KEY = "num_stages"


class SpaceError(ValueError):
    """A space the factory cannot take (unknown names, empty or non-list values)."""


@dataclass(frozen=True)
class Variant:
    """One point of the space: `index` is its place in the grid (the table's order)."""

    index: int
    config: dict

    @property
    def label(self) -> str:
        return config_label(self.config)


def config_label(config: Mapping) -> str:
    """`tile=512 num_stages=2`: how a config is named in tables and messages."""
    return " ".join(f"{k}={v}" for k, v in config.items())


def config_json(config: Mapping) -> str:
    """A config's canonical text (sorted keys): the same config always gives the same text."""
    return json.dumps(config, sort_keys=True, separators=(",", ":"))


def factory_parameters(factory: Callable) -> tuple[set[str], bool]:
    """The parameter names of `factory` and whether it takes **kwargs."""
    params = inspect.signature(factory).parameters.values()
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names, any(p.kind == p.VAR_KEYWORD for p in params)


def check_space(space: Mapping[str, Sequence], factory_names: set[str], takes_kwargs: bool) -> None:
    if not space:
        raise SpaceError("the space is empty: give at least one name with a list of values")
    for name, values in space.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise SpaceError(f"space name {name!r} is not a Python identifier")
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise SpaceError(f"space '{name}' must be a non-empty list of values, got {values!r}")
        for v in values:
            if not isinstance(v, (int, float, str, bool)):
                raise SpaceError(f"space '{name}': value {v!r} is not an int, float, str or bool")
        if len({config_json({"v": v}) for v in values}) != len(values):
            raise SpaceError(f"space '{name}' lists a value twice: {list(values)}")
        if name in factory_names or takes_kwargs or name == "chip" or name in COMPILE_OPTIONS:
            continue
        known = sorted(factory_names | {"chip", *COMPILE_OPTIONS})
        raise SpaceError(f"space '{name}' is neither a parameter of the kernel factory nor an "
                         f"ascend-compile option (known: {', '.join(known)})")


def grid(space: Mapping[str, Sequence]) -> list[Variant]:
    """Every config of the space once, in the documented deterministic order."""
    keys = list(space)
    if STAGES_KEY in keys:
        keys.remove(STAGES_KEY)
        keys.insert(0, STAGES_KEY)
    out = []
    for index, values in enumerate(itertools.product(*(space[k] for k in keys))):
        chosen = dict(zip(keys, values))
        out.append(Variant(index, {k: chosen[k] for k in space}))
    return out


def split_config(config: Mapping, factory_names: set[str], takes_kwargs: bool) -> tuple[dict, str | None, dict]:
    """(factory keyword arguments, chip, ascend-compile options) of one config."""
    kwargs: dict = {}
    options: dict = {}
    chip = config.get("chip")
    for name, value in config.items():
        if name in factory_names or (takes_kwargs and name not in COMPILE_OPTIONS and name != "chip"):
            kwargs[name] = value
        elif name in COMPILE_OPTIONS:
            options[name] = str(value)
    return kwargs, (str(chip) if chip is not None else None), options


def differs_only_in_stages(a: Mapping, b: Mapping) -> bool:
    keys = set(a) | set(b)
    return all(a.get(k) == b.get(k) for k in keys if k != STAGES_KEY)
