"""bishengir's affine index arithmetic, spelled as arith ops before parsing.

bishengir folds index computations into `affine.apply`, `affine.min` and `affine.max`
with maps such as `()[s0, s1, s2] -> (s0 + s1 * s2)`. xDSL 0.75 parses no semi-affine
map (a product of two symbols is a NotImplementedError inside its parser) and has no
`affine.max`, so such a dump could not even be read. The simulator only needs the
values, so `lower_affine_ops` rewrites each of these ops, in the text, into the arith
ops that compute the same index:

    %9 = affine.max #map()[%6, %8]        with #map = affine_map<()[s0, s1] -> (s1, s0)>
 -> %9 = arith.maxsi %8, %6 : index

Semantics are MLIR's: `floordiv` rounds toward negative infinity (arith.floordivsi),
`ceildiv` toward positive infinity (arith.ceildivsi), `mod` is non-negative for a
positive divisor (remsi, add the divisor, remsi again); min/max compare signed. Map
aliases (`#map = affine_map<...>`) that no other text uses are dropped with their ops.
Line numbers do not move (the arith ops of one op share its line, a dropped alias
leaves an empty line), so diagnostics point into the file as written.
An op or map this module does not understand is left as written, for the parser to
report with its location.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ALIAS = re.compile(r"^(?P<name>#[\w.$-]+)\s*=\s*affine_map<(?P<body>[^\n]*)>\s*$", re.M)
_OP = re.compile(
    r"^(?P<indent>[ \t]*)(?P<res>%[\w.$-]+) = affine\.(?P<kind>apply|min|max) "
    r"(?P<map>#[\w.$-]+|affine_map<[^\n]*?\)>)\s*\((?P<dims>[^)]*)\)\s*(?:\[(?P<syms>[^\]]*)\])?[ \t]*$",
    re.M,
)
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<id>[A-Za-z_]\w*)|(?P<sym>[-+*()]))")


# a map xDSL's parser refuses: a product, division or modulo of two dims/symbols
_SEMI_AFFINE = re.compile(r"affine_map<[^\n]*?\b[ds]\d+\s*(?:\*|floordiv|ceildiv|mod)\s*[ds]\d+")


def has_unreadable_map(text: str) -> bool:
    """Whether `text` holds an affine map xDSL 0.75 cannot parse (semi-affine: a product,
    division or modulo of two dims or symbols), which `lower_affine_ops` must rewrite
    first. This module owns which maps xDSL cannot read."""
    return _SEMI_AFFINE.search(text) is not None


class AffineTextError(ValueError):
    """A map this module cannot read (the op is then left for the parser to report)."""


@dataclass
class _Emitter:
    indent: str
    counter: list[int]
    lines: list[str] = field(default_factory=list)
    constants: dict[int, str] = field(default_factory=dict)

    def fresh(self) -> str:
        self.counter[0] += 1
        return f"%__affine{self.counter[0]}"

    def op(self, text: str, result: str | None = None) -> str:
        name = result or self.fresh()
        self.lines.append(f"{self.indent}{name} = {text}")
        return name

    def const(self, value: int) -> str:
        if value not in self.constants:
            self.constants[value] = self.op(f"arith.constant {value} : index")
        return self.constants[value]


def _tokens(text: str) -> list[str]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise AffineTextError(f"cannot read affine expression '{text}'")
        out.append(m.group(m.lastgroup or "sym"))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


class _Parser:
    """Recursive descent over MLIR's affine expression grammar, emitting arith ops."""

    def __init__(self, tokens: list[str], env: dict[str, str], emit: _Emitter) -> None:
        self.tokens, self.pos, self.env, self.emit = tokens, 0, env, emit

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise AffineTextError("affine expression ends early")
        self.pos += 1
        return token

    def expr(self) -> str:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = "arith.addi" if self.take() == "+" else "arith.subi"
            value = self.emit.op(f"{op} {value}, {self.term()} : index")
        return value

    def term(self) -> str:
        value = self.factor()
        while self.peek() in ("*", "floordiv", "ceildiv", "mod"):
            op, rhs = self.take(), self.factor()
            if op == "*":
                value = self.emit.op(f"arith.muli {value}, {rhs} : index")
            elif op == "floordiv":
                value = self.emit.op(f"arith.floordivsi {value}, {rhs} : index")
            elif op == "ceildiv":
                value = self.emit.op(f"arith.ceildivsi {value}, {rhs} : index")
            else:
                rem = self.emit.op(f"arith.remsi {value}, {rhs} : index")
                shifted = self.emit.op(f"arith.addi {rem}, {rhs} : index")
                value = self.emit.op(f"arith.remsi {shifted}, {rhs} : index")
        return value

    def factor(self) -> str:
        token = self.take()
        if token == "-":
            return self.emit.op(f"arith.subi {self.emit.const(0)}, {self.factor()} : index")
        if token == "(":
            value = self.expr()
            if self.take() != ")":
                raise AffineTextError("unbalanced parenthesis in affine expression")
            return value
        if token.isdigit():
            return self.emit.const(int(token))
        if token in self.env:
            return self.env[token]
        raise AffineTextError(f"unknown identifier '{token}' in affine expression")


def _split_top(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    tail = text[start:]
    return [p.strip() for p in [*parts, tail] if p.strip()]


def _parse_map(body: str) -> tuple[list[str], list[str], list[str]]:
    """(dims, symbols, result expressions) of `(d0)[s0, s1] -> (e0, e1)`."""
    m = re.fullmatch(r"\s*\((?P<dims>[^)]*)\)\s*(?:\[(?P<syms>[^\]]*)\])?\s*->\s*\((?P<res>.*)\)\s*", body)
    if m is None:
        raise AffineTextError(f"cannot read affine map '{body}'")
    names = [[n.strip() for n in (m[g] or "").split(",") if n.strip()] for g in ("dims", "syms")]
    return names[0], names[1], _split_top(m["res"])


def _lower_op(m: re.Match[str], maps: dict[str, str], counter: list[int]) -> str:
    body = maps.get(m["map"]) if m["map"].startswith("#") else m["map"][len("affine_map<"):-1]
    if body is None:
        raise AffineTextError(f"unknown map {m['map']}")
    dims, syms, results = _parse_map(body)
    dim_values = [v.strip() for v in m["dims"].split(",") if v.strip()]
    sym_values = [v.strip() for v in (m["syms"] or "").split(",") if v.strip()]
    if len(dims) != len(dim_values) or len(syms) != len(sym_values):
        raise AffineTextError("operand count does not match the map")
    emit = _Emitter(m["indent"], counter)
    env = dict(zip(dims + syms, dim_values + sym_values, strict=True))
    values = [_Parser(_tokens(r), env, emit).expr() for r in results]
    kind = m["kind"]
    if kind == "apply" and len(values) != 1 or not values:
        raise AffineTextError("affine.apply takes a map of one result")
    result = values[0]
    for other in values[1:]:
        result = emit.op(f"arith.{'minsi' if kind == 'min' else 'maxsi'} {result}, {other} : index")
    # the op's own result name must be defined: a last op, or a copy of a plain operand
    if emit.lines and emit.lines[-1].startswith(f"{emit.indent}{result} = "):
        emit.lines[-1] = emit.lines[-1].replace(result, m["res"], 1)
    else:
        emit.op(f"arith.addi {result}, {emit.const(0)} : index", m["res"])
    # one line for all of them: diagnostics keep the line numbers of the file as written
    return emit.indent + " ".join(line.strip() for line in emit.lines)


def lower_affine_ops(text: str) -> str:
    """`text` with affine.apply/min/max rewritten as arith ops (see the module docstring)."""
    maps = {m["name"]: m["body"] for m in _ALIAS.finditer(text)}
    counter = [0]

    def replace(m: re.Match[str]) -> str:
        try:
            return _lower_op(m, maps, counter)
        except AffineTextError:
            return m.group(0)

    lowered = _OP.sub(replace, text)
    for name in maps:
        if not re.search(re.escape(name) + r"(?![\w.$-])", _ALIAS.sub("", lowered)):
            lowered = re.sub(r"^" + re.escape(name) + r"\s*=\s*affine_map<[^\n]*>[ \t]*$", "", lowered, flags=re.M)
    return lowered
