"""Pass options as MLIR spells them (issue 22 item 3): a value runs to the next space or
brace, so `chip-file=chips/my.toml` needs no quotes, in ascend-opt and in run_pipeline."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ArgSpecParseError

from ascend_mlir.context import available_passes, parse_pipeline, quote_option_values
from ascend_mlir.tools import ascend_opt

ROOT = Path(__file__).resolve().parents[2]


def test_paths_are_quoted_identifiers_numbers_and_strings_kept():
    assert quote_option_values("ascend-compile{chip-file=chips/my.toml}") == 'ascend-compile{chip-file="chips/my.toml"}'
    spec = 'a{chip-file=/tmp/x.toml sync=solver},b{n=1.5 m=-3 f=true s="a b=c.d"},c'
    assert quote_option_values(spec) == 'a{chip-file="/tmp/x.toml" sync=solver},b{n=1.5 m=-3 f=true s="a b=c.d"},c'
    assert quote_option_values("convert-tile-to-hivm,ascend-compile") == "convert-tile-to-hivm,ascend-compile"


def test_ascend_opt_takes_an_unquoted_chip_file(tmp_path, monkeypatch, capsys):
    shutil.copy(ROOT / "ascend_mlir" / "chips" / "ascend910b.toml", tmp_path / "my.chip.toml")
    monkeypatch.chdir(tmp_path)
    vecadd = str(ROOT / "examples" / "vecadd.mlir")
    assert ascend_opt.main([vecadd, "-p", "ascend-compile{chip-file=my.chip.toml}"]) == 0
    unquoted = capsys.readouterr().out
    assert ascend_opt.main([vecadd, "-p", 'ascend-compile{chip-file="my.chip.toml"}']) == 0
    assert capsys.readouterr().out == unquoted and "hivm.hir" in unquoted


def test_a_comma_must_be_followed_by_a_pass():
    """xDSL reads `a,` as `a`; mlir-opt (and we) want a pass name after every comma."""
    passes = available_passes()
    for spec in ("cse,", "cse, ", "cse{},", ",cse", "cse,,dce"):
        with pytest.raises(ArgSpecParseError, match="Expected pass name here"):
            parse_pipeline(passes, spec)
    assert [p.name for p in parse_pipeline(passes, "cse,dce").passes] == ["cse", "dce"]
    assert parse_pipeline(passes, "").passes == ()
