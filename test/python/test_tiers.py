"""The fast tier's promise (CONTRIBUTING.md): a lit test left out of it
(`// UNSUPPORTED: fast-tier`) says what stands in for it in a `// Fast tier:` comment, the
files that comment names exist, and every registered pass keeps a lit test in the tier."""

from __future__ import annotations

import re
from pathlib import Path

from ascend_mlir.transforms import get_all_passes

ROOT = Path(__file__).resolve().parents[2]
TEST = ROOT / "test"
FAST_TIER_LEFT_OUT = "// UNSUPPORTED: fast-tier"
# a file a stand-in comment names: a lit test or a pytest file
NAMED_FILE = re.compile(r"[\w./-]+\.(?:mlir|py)\b")


def _lit_tests() -> list[Path]:
    return sorted(p for p in TEST.rglob("*.mlir")
                  if not {"Output", "Inputs", "python", "examples"} & set(p.relative_to(TEST).parts[:-1]))


def _left_out(path: Path) -> bool:
    return FAST_TIER_LEFT_OUT in path.read_text(encoding="utf-8")


def _stand_in(path: Path) -> str:
    """The `// Fast tier:` comment, its continuation lines joined."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("// Fast tier:")), None)
    assert start is not None, f"{path.relative_to(TEST)} is left out of the fast tier without a '// Fast tier:' comment"
    text = []
    for line in lines[start:]:
        if not line.startswith("// ") or line.startswith(("// UNSUPPORTED", "// RUN", "// REQUIRES", "// LIT-")):
            break
        text.append(line[3:])
    return " ".join(text)


def _exists(name: str) -> bool:
    if name.endswith(".py"):
        return any(TEST.rglob(Path(name).name))
    return any(str(p).endswith("/" + name) for p in TEST.rglob(Path(name).name))


def test_every_left_out_lit_test_names_an_existing_stand_in():
    left_out = [p for p in _lit_tests() if _left_out(p)]
    assert left_out  # the tier leaves some out; the check below is not vacuous
    for path in left_out:
        named = [n for n in NAMED_FILE.findall(_stand_in(path)) if not n.endswith("/")]
        missing = [n for n in named if not _exists(n)]
        assert not missing, f"{path.relative_to(TEST)} names stand-ins that do not exist: {missing}"


def test_every_pass_keeps_a_lit_test_in_the_fast_tier():
    kept = {p.parent.name for p in _lit_tests() if p.parent.parent.name == "transforms" and not _left_out(p)}
    assert set(get_all_passes()) - kept == set()


def test_the_costliest_files_run_first_in_their_own_order():
    """conftest's COSTLY_FIRST names files that exist (a renamed file would silently lose
    its place), and the reordering moves whole files, each keeping its tests' order."""
    from types import SimpleNamespace

    from conftest import COSTLY_FIRST, _costly_first

    python_tests = ROOT / "test" / "python"
    assert all((python_tests / name).exists() for name in COSTLY_FIRST)
    names = ["test_a.py", COSTLY_FIRST[1], "test_a.py", COSTLY_FIRST[0], COSTLY_FIRST[1], "test_z.py"]
    items = [SimpleNamespace(path=python_tests / name, index=index) for index, name in enumerate(names)]
    _costly_first(items)  # type: ignore[arg-type]
    assert [(item.path.name, item.index) for item in items] == [
        (COSTLY_FIRST[0], 3), (COSTLY_FIRST[1], 1), (COSTLY_FIRST[1], 4), ("test_a.py", 0), ("test_a.py", 2),
        ("test_z.py", 5)]
