"""ascend-tune (ascend_mlir.tune): every config is one row, failures included; the local
pool gives the inline executor's rows bit for bit; the cache answers reruns; pruning
skips only what cannot win; the CLI reports bad input as errors."""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path

import pytest

from ascend_mlir.tune import TuneError, autotune, result_rows_equal
from ascend_mlir.tune.space import SpaceError, grid

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

FACTORIES = textwrap.dedent('''
    import sys
    import time


    def exits(tile=256):
        sys.exit(3)

    import ascend_mlir.frontend as T


    def make_add(tile=256, num_stages=2, blocks=1, n=2048, scope="ub", sleep=0.0):
        """z = x + y over n fp32 elements in `blocks` blocks of `tile`-element tiles."""
        if n % blocks or (n // blocks) % tile:
            raise ValueError(f"{n} does not split into {blocks} blocks of {tile}")
        time.sleep(sleep)
        per_block = n // blocks

        @T.kernel(grid=blocks)
        def add(x: T.Tensor((n,), "f32"), y: T.Tensor((n,), "f32"), z: T.Tensor((n,), "f32")):
            base = T.block_idx() * per_block
            ux = T.alloc((tile,), "f32", scope)
            uy = T.alloc((tile,), "f32", "ub")
            uz = T.alloc((tile,), "f32", "ub")
            for i in T.pipelined(range(per_block // tile), num_stages=num_stages):
                off = base + i * tile
                T.copy(x[off:off + tile], ux)
                T.copy(y[off:off + tile], uy)
                T.add(ux, uy, uz)
                T.copy(uz, z[off:off + tile])

        return add
''')


@pytest.fixture(scope="module")
def factories(tmp_path_factory):
    path = tmp_path_factory.mktemp("tune") / "tune_factories.py"
    path.write_text(FACTORIES)
    spec = importlib.util.spec_from_file_location("tune_factories", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tune_factories"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pool():
    """One warm pool of two workers for the file's pool tests, as a caller keeping one
    across sweeps does (each worker imports the compiler once: 1.9 CPU s)."""
    from ascend_mlir.tune.executors import LocalPool

    workers = LocalPool(workers=2)
    yield workers
    workers.close()


def _by_config(result) -> dict[str, dict]:
    return {" ".join(f"{k}={v}" for k, v in r["config"].items()): r for r in result.rows}


def test_grid_order_puts_stages_outermost():
    variants = grid({"tile": [1, 2], "num_stages": [1, 2]})
    assert [v.config for v in variants] == [
        {"tile": 1, "num_stages": 1}, {"tile": 2, "num_stages": 1},
        {"tile": 1, "num_stages": 2}, {"tile": 2, "num_stages": 2}]
    assert [v.index for v in variants] == [0, 1, 2, 3]


def test_bad_spaces_are_refused(factories):
    with pytest.raises(SpaceError, match="neither a parameter"):
        autotune(factories.make_add, {"tyle": [1]}, executor="inline", cache=False)
    with pytest.raises(SpaceError, match="non-empty list"):
        autotune(factories.make_add, {"tile": []}, executor="inline", cache=False)
    with pytest.raises(SpaceError, match="twice"):
        autotune(factories.make_add, {"tile": [256, 256]}, executor="inline", cache=False)
    with pytest.raises(TuneError, match="top level"):
        autotune(lambda tile: None, {"tile": [1]}, executor="inline", cache=False)


def test_every_config_is_one_row_failures_included(factories):
    space = {"tile": [256, 512, 300], "scope": ["ub", "gm"]}
    result = autotune(factories.make_add, space, executor="inline", cache=False, perturb=1, verify=1)
    rows = _by_config(result)
    assert len(result.rows) == 6 and [r["index"] for r in result.rows] == list(range(6))
    # the factory refused a tile that does not divide the data
    assert rows["tile=300 scope=ub"]["status"] == "invalid"
    assert "ValueError" in rows["tile=300 scope=ub"]["message"]
    # a tile in GM is a DSL/compiler diagnostic, located in the factory's file
    assert rows["tile=256 scope=gm"]["status"] == "invalid"
    assert "tune_factories.py:" in rows["tile=256 scope=gm"]["message"]
    for r in result.rows:
        if r["status"] == "ok":
            assert r["bound"] <= r["cycles"], r
            assert r["bytes"]["ub"] >= 3 * 4 * r["config"]["tile"]
            assert r["loops"] and r["loops"][0]["ii"] >= r["loops"][0]["mii"]
    ok = [r for r in result.rows if r["status"] == "ok"]
    assert {r["config"]["tile"] for r in ok} == {256, 512}
    assert result.best == min(ok, key=lambda r: (r["cycles"], r["index"]))
    assert result.best.get("perturb") == 1
    summary = result.summary()
    assert "2 ok" in summary and "4 invalid" in summary and "invalid: 4" in summary
    # 3 x 80 KiB buffers fit the 950's unified buffer (the DSL accepts them) but not the
    # 910B's, even at one version each: invalid without compiling
    (big,) = autotune(factories.make_add, {"tile": [20480], "n": [20480], "chip": ["ascend910b"]},
                      executor="inline", cache=False).rows
    assert big["status"] == "invalid" and "static check" in big["message"], big


def test_local_pool_gives_the_inline_rows_and_the_cache_answers_reruns(factories, pool, tmp_path):
    # 512 elements (1-4 tiles a block) and the best variant perturbed once: the rows, the
    # perturbed run's among them, are compared whatever the size
    space = {"tile": [128, 256, 512], "num_stages": [1, 2], "n": [512]}
    inline = autotune(factories.make_add, space, executor="inline", cache=False, verify=1, perturb=1)
    assert inline.best is not None and inline.best.get("perturb") == 1
    pooled = autotune(factories.make_add, space, executor=pool, cache=tmp_path, verify=1, perturb=1)
    assert result_rows_equal(inline, pooled)
    assert not any(r["cache_hit"] for r in pooled.rows)
    # executor="local": the pool autotune starts (none of its workers: the cache answers) and closes
    rerun = autotune(factories.make_add, space, executor="local", workers=2, cache=tmp_path, verify=1,
                     perturb=1)
    assert result_rows_equal(inline, rerun)
    assert all(r["cache_hit"] for r in rerun.rows)
    # a wider space computes only its new variants
    wider = autotune(factories.make_add, {**space, "tile": [64, 128, 256, 512]}, executor="inline",
                     cache=tmp_path, verify=1, perturb=1)
    fresh = [r for r in wider.rows if not r["cache_hit"]]
    assert sorted(r["config"]["tile"] for r in fresh) == [64, 64]


def test_timeout_recycles_the_worker(factories, pool):
    # both workers take a sleeper (grid order: #0, #1) and are killed at the limit; #2 can
    # only run on a replacement worker. The limit counts from a ready worker, and #2 (one
    # 256-element tile, about 1 CPU s on a fresh worker) needs a tenth of it at load 20 on
    # 2 cores: 15 s is wall time the sleepers wait out, not CPU
    space = {"sleep": [60.0, 61.0, 0.0], "n": [256], "tile": [256]}
    result = autotune(factories.make_add, space, executor=pool, cache=False, timeout=15, verify=0)
    rows = _by_config(result)
    for sleeper in ("sleep=60.0 n=256 tile=256", "sleep=61.0 n=256 tile=256"):
        assert rows[sleeper]["status"] == "timeout"
        assert "recycled" in rows[sleeper]["message"]
    assert rows["sleep=0.0 n=256 tile=256"]["status"] == "ok"
    assert len(result.rows) == len(grid(space)) == 3


def test_crash_is_a_row_with_its_traceback(factories, monkeypatch):
    from ascend_mlir.tune import evaluate

    def broken(task, built):
        raise RuntimeError("a compiler bug")

    monkeypatch.setattr(evaluate, "_measure", broken)
    result = autotune(factories.make_add, {"tile": [256]}, executor="inline", cache=False)
    (row,) = result.rows
    assert row["status"] == "crash" and "a compiler bug" in row["message"]
    assert "Traceback" in row["traceback"] and result.crashed == [row]


def test_the_inline_executor_stops_a_variant_at_its_time_limit(factories):
    """--timeout was the worker pools' alone: with --executor inline a factory that hangs
    hung the sweep. The variant is stopped at the limit and the sweep goes on."""
    result = autotune(factories.make_add, {"sleep": [30.0, 0.0], "n": [256], "tile": [256]},
                      executor="inline", cache=False, timeout=0.5)
    assert [row["status"] for row in result.rows] == ["timeout", "ok"]
    assert "the variant was stopped" in result.rows[0]["message"]


def test_a_factory_that_exits_is_a_crash_row(factories):
    """A factory calling sys.exit() ended an inline sweep with its status and no table."""
    (row,) = autotune(factories.exits, {"tile": [256]}, executor="inline", cache=False).rows
    assert row["status"] == "crash" and row["message"] == "the factory called sys.exit(3)"


def test_dominance_and_bound_pruning(factories):
    # inline: window 2; #3 (num_stages=3) reads #0 (num_stages=2), whose loop chose fewer
    # versions (2 and 3 allow the same unroll factors; 4 would allow U = 4, a new schedule)
    space = {"num_stages": [2, 3], "tile": [256, 512, 1024], "n": [1024]}
    result = autotune(factories.make_add, space, executor="inline", cache=False, verify=0)
    rows = _by_config(result)
    dominated = rows["num_stages=3 tile=256 n=1024"]
    source = rows["num_stages=2 tile=256 n=1024"]
    assert max(source["loops"][0]["versions"].values()) < 2
    assert dominated["status"] == "dominated" and dominated["same_as"] == source["index"]
    assert dominated["cycles"] == source["cycles"]
    # compiled and simulated on its own, the dominated variant runs the cycles it was given
    (unpruned,) = autotune(factories.make_add, {"num_stages": [3], "tile": [256], "n": [1024]},
                           executor="inline", cache=False, prune=False, verify=0).rows
    assert unpruned["status"] == "ok" and unpruned["cycles"] == source["cycles"]
    # small tiles in one block: its pipe-busy bound is above the cycles of #0 (big tiles in
    # 8 blocks), so it is compiled but not simulated
    space = {"tile": [512, 128], "blocks": [8, 1], "n": [4096]}
    blocks = autotune(factories.make_add, space, executor="inline", cache=False, verify=0)
    one = blocks.rows[3]
    assert one["status"] == "pruned", one
    assert one["bound"] >= blocks.rows[0]["cycles"] and one.get("cycles") is None
    full = autotune(factories.make_add, space, executor="inline", cache=False, prune=False, verify=0)
    assert full.best is not None and blocks.best is not None
    assert full.best["config"] == blocks.best["config"]
    assert full.rows[3]["cycles"] >= one["bound"]


def test_time_budget_skips_but_keeps_every_row(factories):
    result = autotune(factories.make_add, {"tile": [256, 512]}, executor="inline", cache=False,
                      time_budget=0.0)
    assert [r["status"] for r in result.rows] == ["skipped", "skipped"]
    assert result.best is None


def test_tpe_is_seeded(factories):
    pytest.importorskip("optuna", reason="optuna (the tpe extra) is not installed")
    space = {"tile": [256, 512, 1024, 2048], "num_stages": [1, 2]}
    a = autotune(factories.make_add, space, executor="inline", cache=False, search="tpe", budget=3,
                 seed=7, verify=0)
    b = autotune(factories.make_add, space, executor="inline", cache=False, search="tpe", budget=3,
                 seed=7, verify=0)
    assert result_rows_equal(a, b)
    assert sum(r["status"] != "skipped" for r in a.rows) == 3 and len(a.rows) == 8


def test_cli_writes_the_table_and_reports_bad_input(factories, tmp_path, capsys):
    from ascend_mlir.tools.ascend_tune import main

    path = factories.__file__
    out = tmp_path / "out"
    status = main([f"{path}:make_add", "-s", "tile=256,300", "--space", '{"num_stages": [2]}',
                   "--executor", "inline", "--no-cache", "-o", str(out), "--verify", "1", "--perturb", "1"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "1 ok, 1 invalid" in captured.out and "best: #0 num_stages=2 tile=256" in captured.out
    assert "[tune] 2/2" in captured.err and "ETA" in captured.err
    table = json.loads((out / "results.json").read_text())
    assert [r["status"] for r in table["rows"]] == ["ok", "invalid"]
    assert (out / "results.csv").read_text().startswith("index,num_stages,tile,chip,status,cycles,bound")
    assert "<svg" in (out / "pareto.svg").read_text()
    assert "hivm.hir" in (out / "best.npuir.mlir").read_text()
    for argv, message in (([f"{path}:nope", "-s", "tile=1"], "has no function 'nope'"),
                          ([f"{path}:make_add", "-s", "tyle=1"], "neither a parameter"),
                          ([f"{path}:make_add"], "no space"),
                          (["missing.py:f", "-s", "a=1"], "no such file"),
                          ([f"{path}:make_add", "--space", "{"], "not JSON"),
                          # a kernel where its factory is meant (examples/gemm.py:gemm): said so, with
                          # the module's functions, not the Kernel object's repr
                          ([str(EXAMPLES / "gemm.py") + ":gemm", "-s", "tk=64"],
                           "'gemm' is a @T.kernel, not a kernel factory"),
                          # an output or cache path that cannot be a directory: an internal
                          # FileExistsError / NotADirectoryError after the sweep, until refused
                          ([f"{path}:make_add", "-s", "tile=256", "-o", str(table_file := out / "results.json")],
                           f"-o {table_file}: exists and is not a directory"),
                          ([f"{path}:make_add", "-s", "tile=256", "--cache", str(table_file)],
                           f"--cache {table_file}: exists and is not a directory"),
                          ([f"{path}:make_add", "-s", "tile=256,"], "an empty value (a stray comma?)")):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "ascend-tune: error: " in err and message in err and "Traceback" not in err
    # numbers out of their range are usage errors (--seed -1 made every variant a crash row)
    for option, value, message in (("--seed", "-1", "-1 is less than 0"), ("--workers", "0", "0 is less than 1"),
                                   ("--timeout", "0", "0.0 is less than 0.001"),
                                   ("--time-budget", "nan", "'nan' is not a finite number")):
        with pytest.raises(SystemExit) as usage:
            main([f"{path}:make_add", "-s", "tile=256", option, value])
        assert usage.value.code not in (0, None)
        assert f"argument {option}: {message}" in capsys.readouterr().err


def test_examples_have_factories_whose_defaults_are_the_examples():
    root = Path(__file__).resolve().parents[2] / "examples"
    for name in ("vecadd", "softmax", "gemm", "gemm_relu", "flash_attention"):
        spec = importlib.util.spec_from_file_location(f"example_{name}", root / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        factory = getattr(module, f"make_{name}")
        assert factory().to_mlir() == getattr(module, name).to_mlir()
        with pytest.raises(ValueError):
            factory(num_stages=2, **{next(iter(_odd_sizes(name))): 7})


def _odd_sizes(name: str) -> list[str]:
    return {"vecadd": ["tile"], "softmax": ["tr"], "gemm": ["tk"], "gemm_relu": ["tm"],
            "flash_attention": ["bm"]}[name]
