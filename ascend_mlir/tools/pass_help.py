"""The pass list of `ascend-opt --help`: each pass with a one-line description and its
options with their defaults, as mlir-opt prints them. Built only when help is asked
(it imports every pass module)."""

from __future__ import annotations

import dataclasses
import re
import sys
import textwrap
from collections.abc import Callable

from xdsl.passes import ModulePass


def _summary(pass_class: type[ModulePass]) -> str:
    """The first sentence of the pass module's doc (`name`: what it does), else of the
    class doc."""
    for doc in (sys.modules[pass_class.__module__].__doc__, pass_class.__doc__):
        if not doc:
            continue
        paragraph = " ".join(doc.strip().split("\n\n")[0].split())
        paragraph = re.sub(r"^`[^`]*`:\s*", "", paragraph)
        if paragraph.startswith(pass_class.__name__ + "("):  # the dataclass's generated doc
            continue
        sentence = re.split(r"(?<=[.;])\s", paragraph)[0]
        return sentence[0].upper() + sentence[1:] if sentence else sentence
    return ""


def _type_name(annotation: object) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return text.replace(" | None", "").replace("None | ", "")


# passes of xDSL whose modules have no doc of their own
_UPSTREAM = {"cse": "Common subexpression elimination (xDSL's).", "dce": "Dead code elimination (xDSL's)."}


def _unset(pass_class: type[ModulePass], option: str) -> str:
    """What an option left unset means: the pass module's `default_<option>()` when it
    has one; a chip comes from the module."""
    chooser = getattr(sys.modules[pass_class.__module__], f"default_{option}", None)
    if callable(chooser):
        return str(chooser())
    if option == "chip":
        return "the module's hacc.target, else ascend950"
    return "unset"


def _options(pass_class: type[ModulePass]) -> list[str]:
    if not dataclasses.is_dataclass(pass_class):
        return []
    lines = []
    for f in dataclasses.fields(pass_class):
        if f.default is not dataclasses.MISSING:
            default = (_unset(pass_class, f.name) if f.default is None
                       else str(f.default).lower() if isinstance(f.default, bool) else f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = "required"
        lines.append(f"{f.name.replace('_', '-')}=<{_type_name(f.type)}>  (default: {default})")
    return lines


def pass_help(passes: dict[str, Callable[[], type[ModulePass]]], width: int = 88) -> str:
    out = ["passes (-p 'name{option=value ...}', comma-separated, run in order):"]
    for name in passes:
        pass_class = passes[name]()
        out.append(f"  {name}")
        summary = _UPSTREAM.get(name) or _summary(pass_class)
        if summary:
            out.extend(textwrap.wrap(summary, width, initial_indent=" " * 6, subsequent_indent=" " * 6))
        out.extend(" " * 8 + option for option in _options(pass_class))
    return "\n".join(out) + "\n"
