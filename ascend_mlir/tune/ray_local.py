"""A Ray cluster of several nodes on this one machine, for tests and benchmarks.

Each node is one `ray start --block` process in its own process group (the head first,
then the workers joining it), with its own free ports and a private temp directory, so
it never meets another user's Ray; `stop()` sends SIGTERM to those PIDs only (a
`--block` node stops the processes it started) and never runs `ray stop`. A node that
misses Ray's own start-up deadline (a loaded machine) is started again, up to
`attempts` times.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

READY = "This command will now block forever"
AGENT_PORTS = ("dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port",
               "metrics-export-port")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_command() -> str | None:
    """The `ray` command of this Python's Ray, if Ray is installed."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        return None
    beside = os.path.join(os.path.dirname(sys.executable), "ray")
    return beside if os.path.exists(beside) else shutil.which("ray")


class _Node:
    def __init__(self, args: list[str], log: str):
        self.log = log
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
        with open(log, "w") as out:
            self.process = subprocess.Popen([ray_command() or "ray", "start", "--block", *args], stdout=out,
                                            stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def wait_ready(self, deadline: float) -> bool:
        while time.monotonic() < deadline:
            with open(self.log, errors="replace") as f:
                if READY in f.read():
                    return True
            if self.process.poll() is not None:
                return False
            time.sleep(1)
        return False

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)  # its own group: only what it started
                self.process.wait()


class LocalCluster:
    def __init__(self, nodes: int = 2, cpus_per_node: int = 1, attempts: int = 5):
        self.nodes = nodes
        self.cpus = cpus_per_node
        self.attempts = attempts
        self.temp = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths are limited
        self._running: list[_Node] = []
        self.address: str | None = None

    def _common(self) -> list[str]:
        return [f"--num-cpus={self.cpus}", f"--temp-dir={self.temp}", "--disable-usage-stats",
                "--object-store-memory=80000000", *[f"--{p}={_free_port()}" for p in AGENT_PORTS]]

    def _start_node(self, args: list[str], name: str, timeout: float) -> _Node:
        for attempt in range(self.attempts):
            node = _Node([*args, *self._common()], os.path.join(self.temp, f"{name}-{attempt}.log"))
            if node.wait_ready(time.monotonic() + timeout):
                return node
            node.stop()
        raise RuntimeError(f"Ray node '{name}' did not start after {self.attempts} attempts (logs in {self.temp})")

    def start(self, timeout: float = 180) -> str:
        """Start the head and the workers; the address to pass to ray.init / --ray."""
        port = _free_port()
        self.address = f"127.0.0.1:{port}"
        try:
            self._running.append(self._start_node(
                ["--head", f"--port={port}", "--include-dashboard=false",
                 f"--ray-client-server-port={_free_port()}"], "head", timeout))
            for k in range(1, self.nodes):
                self._running.append(self._start_node([f"--address={self.address}"], f"worker{k}", timeout))
        except BaseException:
            self.stop(keep_logs=True)
            raise
        return self.address

    def stop(self, keep_logs: bool = False) -> None:
        for node in reversed(self._running):
            node.stop()
        self._running = []
        if not keep_logs:
            shutil.rmtree(self.temp, ignore_errors=True)
