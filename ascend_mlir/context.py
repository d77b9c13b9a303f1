"""The xDSL context and pass registry every entry point shares: the CLIs, the
simulator's routes (sim/), the DSL driver. Library code builds its context here, never
through a command-line tool (`ascend_mlir.tools` is imported by nothing outside it)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.arg_spec import PipelineLexer, SpecTokenKind
from xdsl.utils.exceptions import ArgSpecParseError

# what PassPipeline calls between passes: (previous pass, module, next pass)
PipelineCallback = Callable[[ModulePass | None, ModuleOp, ModulePass | None], None]

# xDSL's own passes that ascend-opt offers beside ours
UPSTREAM_PASSES = ("canonicalize", "cse", "dce")


def make_context() -> Context:
    """A context with our dialects and the upstream ones our IR uses."""
    from ascend_mlir.dialects import register_dialects

    return register_dialects(Context())


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory of its class (imported when called), ours and UPSTREAM_PASSES."""
    from xdsl.transforms import get_all_passes as upstream_passes

    from ascend_mlir.transforms import get_all_passes

    upstream = upstream_passes()
    passes = {name: upstream[name] for name in UPSTREAM_PASSES if name in upstream}
    passes.update(get_all_passes())
    return passes


_QUOTED = re.compile(r'("(?:\\.|[^"\\])*")')
_OPTION = re.compile(r'(?<=[{\s,])([A-Za-z0-9_-]+)=([^\s{}",=\[\]]+)')
_BARE = re.compile(r"[A-Za-z0-9_-]+|[-+]?[0-9]+(\.[0-9]*([eE][-+]?[0-9]+)?)?")


def quote_option_values(spec: str) -> str:
    """`a{chip-file=chips/my.toml}` as MLIR reads it: an option value runs to the next
    space or brace. xDSL's pipeline lexer takes only identifiers, numbers and quoted
    strings as values, so a bare value with other characters (a path) is quoted here."""

    def quote(match: re.Match[str]) -> str:
        key, value = match.group(1), match.group(2)
        return match.group(0) if _BARE.fullmatch(value) else f'{key}="{value}"'

    parts = _QUOTED.split(spec)  # odd parts are quoted strings, left as written
    return "".join(part if i % 2 else _OPTION.sub(quote, part) for i, part in enumerate(parts))


def parse_pipeline(
    passes: dict[str, Callable[[], type[ModulePass]]], spec: str,
    callback: PipelineCallback | None = None,
) -> PassPipeline:
    """The pipeline `spec` in MLIR's spelling (`a,b{opt=v}`). Raises ArgSpecParseError
    on a malformed spec, ValueError on an unknown pass or option. A comma must be
    followed by a pass (xDSL's parser takes `a,` as `a`; mlir-opt wants a pass name)."""
    quoted = quote_option_values(spec)
    _refuse_trailing_comma(quoted)
    _refuse_bare_and_repeated_options(passes, quoted)
    pipeline = PassPipeline.parse_spec(passes, quoted, callback)
    for p in pipeline.passes:
        _refuse_empty_chip(p)
    return pipeline


def _refuse_empty_chip(p: ModulePass) -> None:
    """`chip=` or `chip-file=` with nothing after it (an unset shell variable) meant "no
    option" to every pass, which then compiled for the module's or the default chip."""
    for option in ("chip", "chip_file"):
        value = getattr(p, option, None)
        if isinstance(value, str) and not value.strip():
            raise ValueError(f"{p.name}: option {option.replace('_', '-')}= is empty "
                             "(a built-in chip: ascend950, ascend910b; or a chip file)")


def _refuse_bare_and_repeated_options(passes: dict[str, Callable[[], type[ModulePass]]], spec: str) -> None:
    """An option written twice in one pass's braces, or without `=VALUE`: xDSL's parser
    kept the last of two (`{chip=ascend910b chip=ascend950}` compiled for the 950) and
    read a bare `{sync}` or `{num-stages}` as the default, silently; a bare `{target}` or
    bool was "Incompatible types: given ()". (An option the pass does not have is left
    to xDSL's message, which lists the ones it has.)"""
    lexer = PipelineLexer(spec)
    pass_name, keys, key = None, set(), None  # key: an option name not yet followed by '='
    after_equals = False

    def bare(option: str) -> None:
        factory = passes.get(pass_name or "")
        fields = {f.name: f for f in dataclasses.fields(factory())} if factory is not None else {}
        if option.replace("-", "_") in fields:
            raise ValueError(f"{pass_name}: option {option} has no value (write {option}=VALUE)")

    in_braces = False
    while (token := lexer.lex()).kind is not SpecTokenKind.EOF:
        kind, text = token.kind, token.span.text
        if not in_braces:
            if kind is SpecTokenKind.IDENT:
                pass_name = text
            elif kind is SpecTokenKind.L_BRACE:
                in_braces, keys, key, after_equals = True, set(), None, False
            continue
        if kind is SpecTokenKind.EQUALS:
            after_equals, key = True, None
        elif kind in (SpecTokenKind.SPACE, SpecTokenKind.R_BRACE):
            if key is not None:
                bare(key)
            key, after_equals = None, False
            in_braces = kind is not SpecTokenKind.R_BRACE
        elif kind is SpecTokenKind.IDENT and not after_equals and key is None:
            field = text.replace("-", "_")  # chip-file and chip_file name one option
            if field in keys:
                raise ValueError(f"{pass_name}: option {text} is given twice")
            keys.add(field)
            key = text


def _refuse_trailing_comma(spec: str) -> None:
    lexer = PipelineLexer(spec)
    last = None
    while (token := lexer.lex()).kind is not SpecTokenKind.EOF:
        last = token
    if last is not None and last.kind is SpecTokenKind.COMMA:
        raise ArgSpecParseError(token, "Expected pass name here")


def run_pipeline(ctx: Context, module: ModuleOp, spec: str) -> None:
    """Apply a pass pipeline in MLIR's spelling (`a,b{opt=v}`) to `module` in place."""
    parse_pipeline(available_passes(), spec).apply(ctx, module)
