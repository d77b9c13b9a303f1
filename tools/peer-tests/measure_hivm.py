"""How much of the peer's own HIVM IR tests ascend-opt reads, judged by the real bishengir-opt.

Splits every `.mlir` of AscendNPU-IR's `bishengir/test/Dialect/HIVM/IR` at `// -----`
(as `-split-input-file` does), asks bishengir-opt (`-allow-unregistered-dialect`, as
those tests run it) whether it accepts each chunk, and parses + verifies the chunk with
our context. A chunk is *in scope* when bishengir accepts it and every op it uses is one
our context defines (hivm.hir ops we lack, and other dialects' ops such as linalg or
bishengir's test dialect, put it out of scope); the target is that all in-scope chunks
parse and verify.
Op coverage: how many of the peer's `hivm.hir` ops (from its ODS files) we define, and
the share of the op uses in the tests (outside comments) those cover.

    python tools/peer-tests/measure_hivm.py [--repo GIT_DIR] [--json] [-v]

The tests are read from a bare mirror of github.com/Ascend/AscendNPU-IR with git; nothing
of them is copied into this repository.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field

DEFAULT_REPO = "/work/.mirror/Ascend+AscendNPU-IR/repo"
TEST_DIR = "bishengir/test/Dialect/HIVM/IR"
ODS_DIR = "bishengir/include/bishengir/Dialect/HIVM/IR"
SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
OP_USE = re.compile(r"\bhivm\.hir\.([A-Za-z0-9_]+)")
# an op at the start of a statement, custom (`%r = dialect.op`) or generic (`"dialect.op"(`);
# a quoted name not followed by `(` is a string operand (hivm.hir.custom's callee name on
# its own line), not an op
OP_NAME = re.compile(
    r"^\s*(?:%[^=]*=\s*)?(?:\"([a-z_][A-Za-z0-9_]*\.[A-Za-z0-9_.]+)\"(?=\()|([a-z_][A-Za-z0-9_]*\.[A-Za-z0-9_.]+)(?=[\s(<{])(?!\s*=))",
    re.MULTILINE,
)
# `def FooOp : HIVM_Op<"foo", ...>` and the like (op classes take the mnemonic first)
ODS_OP = re.compile(r"^def \w+Op\s*:\s*\w+<\s*\"([A-Za-z0-9_]+)\"", re.MULTILINE)


def split_chunks(text: str) -> list[str]:
    """The chunks `-split-input-file` makes of `text`."""
    return SPLIT.split(text)


def code_lines(text: str) -> str:
    """`text` without its comment lines (RUN/CHECK lines name ops they do not use)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def op_uses(text: str) -> Counter[str]:
    return Counter(OP_USE.findall(code_lines(text)))


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True, text=True).stdout


def peer_files(repo: str, directory: str) -> dict[str, str]:
    names = git(repo, "ls-tree", "-r", "--name-only", "HEAD", directory + "/").split()
    return {name: git(repo, "show", f"HEAD:{name}") for name in names}


def peer_ops(repo: str) -> set[str]:
    """The hivm.hir op mnemonics the peer defines in its ODS files."""
    ops: set[str] = set()
    for text in peer_files(repo, ODS_DIR).values():
        ops.update(ODS_OP.findall(text))
    return ops


def our_ops() -> set[str]:
    from ascend_mlir.dialects.hivm import HIVM

    return {op.name.removeprefix("hivm.hir.") for op in HIVM.operations if op.name.startswith("hivm.hir.")}


def foreign_ops(chunk: str) -> set[str]:
    """Ops of the chunk that our context does not define (other dialects: linalg, affine,
    bishengir's test dialect ...)."""
    from xdsl.context import Context

    from ascend_mlir.dialects import register_dialects

    ctx = register_dialects(Context())
    names = {quoted or bare for quoted, bare in OP_NAME.findall(code_lines(chunk))}
    return {name for name in names if ctx.get_optional_op(name) is None}


def bishengir_accepts(bishengir_opt: str, chunk: str) -> bool:
    run = subprocess.run(
        [bishengir_opt, "-allow-unregistered-dialect", "-"], input=chunk, capture_output=True, text=True
    )
    return run.returncode == 0


def our_verdict(chunk: str) -> str | None:
    """None when we parse and verify `chunk`, else the first line of our error."""
    from xdsl.context import Context
    from xdsl.parser import Parser

    from ascend_mlir.dialects import register_dialects

    ctx = register_dialects(Context(allow_unregistered=True))
    try:
        module = Parser(ctx, chunk).parse_module()
        module.verify()
    except Exception as error:  # noqa: BLE001 - any failure is a miss to report
        lines = [ln for ln in str(error).splitlines() if ln.strip()]
        return f"{type(error).__name__}: {lines[0] if lines else ''}"[:200]
    return None


@dataclass
class Report:
    chunks: int = 0
    accepted: int = 0
    in_scope: int = 0
    verified: int = 0
    misses: list[tuple[str, int, str]] = field(default_factory=list)
    out_of_scope_ops: Counter[str] = field(default_factory=Counter)
    uses: Counter[str] = field(default_factory=Counter)


def measure(files: dict[str, str], bishengir_opt: str, defined: set[str]) -> Report:
    report = Report()
    for name, text in sorted(files.items()):
        report.uses.update(op_uses(text))
        for index, chunk in enumerate(split_chunks(text)):
            if not code_lines(chunk).strip():
                continue
            report.chunks += 1
            if not bishengir_accepts(bishengir_opt, chunk):
                continue
            report.accepted += 1
            unknown = {f"hivm.hir.{op}" for op in set(op_uses(chunk)) - defined} | foreign_ops(chunk)
            if unknown:
                report.out_of_scope_ops.update(unknown)
                continue
            report.in_scope += 1
            problem = our_verdict(chunk)
            if problem is None:
                report.verified += 1
            else:
                report.misses.append((name.rsplit("/", 1)[-1], index, problem))
    return report


def summary(report: Report, peer: set[str], defined: set[str]) -> dict[str, object]:
    total_uses = sum(report.uses.values())
    covered = sum(n for op, n in report.uses.items() if op in defined)
    missing = sorted(((n, op) for op, n in report.uses.items() if op not in defined), reverse=True)
    return {
        "chunks": report.chunks,
        "accepted_by_bishengir": report.accepted,
        "in_scope": report.in_scope,
        "parse_and_verify": report.verified,
        "misses": [{"file": f, "chunk": i, "error": e} for f, i, e in report.misses],
        "peer_ops": len(peer),
        "ops_defined": len(defined & peer) if peer else len(defined),
        "ops_defined_not_in_peer_ods": sorted(defined - peer) if peer else [],
        "op_uses": total_uses,
        "op_uses_covered": covered,
        "op_use_coverage": round(covered / total_uses, 4) if total_uses else 1.0,
        "missing_by_use": [{"op": op, "uses": n} for n, op in missing],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repo", default=DEFAULT_REPO, help="bare git dir of AscendNPU-IR")
    parser.add_argument("--json", action="store_true", help="print the full summary as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the in-scope chunks we miss")
    args = parser.parse_args(argv)
    from ascend_mlir.testing import find_tool

    bishengir_opt = find_tool("bishengir-opt")
    if bishengir_opt is None:
        print("measure_hivm: bishengir-opt not found", file=sys.stderr)
        return 1
    peer = peer_ops(args.repo)
    defined = our_ops()
    report = measure(peer_files(args.repo, TEST_DIR), str(bishengir_opt), defined)
    result = summary(report, peer, defined)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(
        f"chunks {result['chunks']}, bishengir-opt accepts {result['accepted_by_bishengir']}, "
        f"in scope {result['in_scope']}, we parse+verify {result['parse_and_verify']}"
    )
    print(
        f"ops: we define {result['ops_defined']} of the peer's {result['peer_ops']}; "
        f"op uses covered {result['op_uses_covered']}/{result['op_uses']} ({100 * float(str(result['op_use_coverage'])):.1f}%)"
    )
    print("most used missing: " + ", ".join(f"{m['op']} {m['uses']}" for m in result["missing_by_use"][:20]))  # type: ignore[index]
    if args.verbose:
        for miss in report.misses:
            print("  miss: %s chunk %d: %s" % miss)
        print("  accepted chunks with ops we lack: " + ", ".join(f"{op} {n}" for op, n in report.out_of_scope_ops.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
