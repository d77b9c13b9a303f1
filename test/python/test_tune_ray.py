"""ascend-tune on Ray: a local cluster of two nodes on this machine (a head and a worker,
each `ray start --block` in its own process group, started here and stopped by PID:
`ascend_mlir.tune.ray_local`), and the rows must be the inline executor's, bit for bit.

Skipped (with the reason shown) only where Ray is not installed; a failure under
ASCEND_MLIR_REQUIRE_TOOLS=1 (CI installs Ray through tools/setup.sh)."""

from __future__ import annotations

import importlib.util
import sys
import textwrap

import pytest

from ascend_mlir.testing import tools_required

FACTORY = textwrap.dedent('''
    import ascend_mlir.frontend as T


    def make_scale(tile=256, num_stages=2):
        if 1024 % tile:
            raise ValueError(f"1024 is not a multiple of {tile}")
        @T.kernel(grid=2)
        def scale(x: T.Tensor((2048,), "f32"), z: T.Tensor((2048,), "f32")):
            base = T.block_idx() * 1024
            ux = T.alloc((tile,), "f32", "ub")
            uz = T.alloc((tile,), "f32", "ub")
            for i in T.pipelined(range(1024 // tile), num_stages=num_stages):
                off = base + i * tile
                T.copy(x[off:off + tile], ux)
                T.mul(ux, 2.0, uz)
                T.copy(uz, z[off:off + tile])

        return scale
''')


@pytest.fixture(scope="module")
def cluster():
    from ascend_mlir.tune.ray_local import LocalCluster, ray_command

    if ray_command() is None:
        if tools_required():
            pytest.fail("ASCEND_MLIR_REQUIRE_TOOLS=1 but Ray is not installed (tools/setup.sh installs the ray extra)")
        pytest.skip("Ray is not installed here (pip install 'ascend-mlir[ray]')")
    import ray

    local = LocalCluster(nodes=2, cpus_per_node=1)
    try:
        address = local.start()
        ray.init(address=address, log_to_driver=False)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        assert ray.cluster_resources().get("CPU") == 2
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        local.stop()


def test_an_unreachable_ray_head_is_an_error_not_a_wait(tmp_path, capsys):
    """`--ray nohost:1` waited on Ray's own retries until killed (minutes, its warnings
    scrolling): an address whose port accepts no connection is refused at once, the
    command exits 1 naming it. A port just closed here (nothing listens on it)."""
    import socket

    from ascend_mlir.tools.ascend_tune import main
    from ascend_mlir.tune.executors import _reachable

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(ConnectionError, match=f"cannot reach the Ray head at {address}"):
            _reachable(address)
    _reachable("auto")  # Ray finds (or fails to find) this machine's cluster itself
    for address in ("nohost", "nohost:port", ":6379"):
        with pytest.raises(ConnectionError, match="is not a Ray address"):
            _reachable(address)
    factory = tmp_path / "scale_factory.py"
    factory.write_text(FACTORY)
    assert main([f"{factory}:make_scale", "-s", "tile=256", "--no-cache", "--ray", f"127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err
    assert f"cannot reach the Ray head at 127.0.0.1:{port}" in err and "Traceback" not in err


@pytest.mark.slow  # starts a 2-node Ray cluster (about 25 s); the local pool test stays in the fast tier
def test_ray_rows_are_the_inline_rows(cluster, tmp_path):
    from ascend_mlir.tune import autotune, result_rows_equal

    path = tmp_path / "ray_factories.py"
    path.write_text(FACTORY)
    spec = importlib.util.spec_from_file_location("ray_factories", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ray_factories"] = module
    spec.loader.exec_module(module)
    space = {"tile": [256, 512, 300]}
    on_ray = autotune(module.make_scale, space, executor="ray", ray_address=cluster, cache=False, verify=1,
                      perturb=1)
    inline = autotune(module.make_scale, space, executor="inline", cache=False, verify=1, perturb=1)
    assert result_rows_equal(on_ray, inline)
    assert [r["status"] for r in on_ray.rows] == ["ok", "ok", "invalid"]


def test_node_environment_drops_a_bytecode_prefix_nobody_writes(monkeypatch):
    # a prefix with writing off made every Ray process compile Ray from source (the
    # dashboard agent 7.9 CPU s instead of 3.3: past the raylet's fixed 15 s)
    from ascend_mlir.tune.ray_local import node_environment

    monkeypatch.setenv("PYTHONPYCACHEPREFIX", "/tmp/unwritten-prefix")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = node_environment()
    assert "PYTHONPYCACHEPREFIX" not in env and env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert env["RAY_USAGE_STATS_ENABLED"] == "0"
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE")  # run-tests.sh: the prefix is written, so shared
    assert node_environment()["PYTHONPYCACHEPREFIX"] == "/tmp/unwritten-prefix"


def test_a_failed_start_names_the_raylets_fatal_line(tmp_path):
    from ascend_mlir.tune.ray_local import LocalCluster

    cluster = LocalCluster()
    cluster.stop()  # removes its own temp directory: this test reads a made-up one
    cluster.temp = str(tmp_path)
    logs = tmp_path / "session_2026-12-02_13-30-00_1" / "logs"
    logs.mkdir(parents=True)
    fatal = ("Check failed: statussetor3588.has_value() Timed out waiting for file "
             f"{tmp_path}/session_2026-12-02_13-30-00_1/dashboard_agent_listen_port_127b")
    (logs / "raylet.err").write_text(
        "[2026-12-02 13:30:31,448 I 15066 15112] (raylet) agent_manager.cc:81: Monitor agent process\n"
        f"[2026-12-02 13:30:47,534 C 15066 15066] (raylet) node_manager.cc:3588:  An unexpected system "
        f"state has occurred. {fatal}\n*** StackTrace Information ***\n")
    assert cluster._fatal_lines() == [fatal]
    assert not cluster._aborted_since(1) and cluster._aborted_since(0)

