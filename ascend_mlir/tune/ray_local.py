"""A Ray cluster of several nodes on this one machine, for tests and benchmarks.

Each node is one `ray start --block` process in its own process group (the head first,
then the workers joining it), with its own free ports and a private temp directory, so
it never meets another user's Ray; `stop()` sends SIGTERM to those PIDs only (a
`--block` node stops the processes it started) and never runs `ray stop`.

Why a start fails on a loaded machine: each node's raylet spawns Ray's dashboard agent and
gives it a fixed 15 s to write its HTTP port file (`--include-dashboard=false` does not
remove the agent, and `RAY_agent_register_timeout_ms` does not change that wait), then
aborts ("Timed out waiting for file .../dashboard_agent_listen_port_..."); `ray start`
waits another fixed 30 s for the raylet and fails. The agent imports all of Ray's
dashboard modules first (3.3 CPU s, 12.5 s of wall time at load 12 on 2 cores, alone), so
every other Python process starting in those 15 s pushes it over. The nodes start
without the two that the executor never uses: the autoscaler's monitor (`--no-monitor`:
nothing to scale) and the log monitor (`ray.init(log_to_driver=False)`: nobody reads the
forwarded logs). A node that still misses the deadline is started again, up to
`attempts` times; a cluster that did not start keeps its temp directory (the error names
it and quotes the raylet's fatal line).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial

READY = "This command will now block forever"
AGENT_PORTS = ("dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port",
               "metrics-export-port")
EVERY_NODE = ("--include-log-monitor=false",)
HEAD_ONLY = ("--no-monitor", "--include-dashboard=false")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _client_server_args() -> list[str]:
    """A free port for the head's Ray Client server, when this Ray has one. Without the
    flag, a Ray with the client extra listens on the fixed port 10001, which two clusters
    on one machine (two test workers, a user's own Ray) would both claim. A Ray without it
    (`pip install ray` from 2.5x on: no grpc) starts no client server at all and refuses
    the flag ("Ray Client requires pip package `ray[client]`"), so it is left out there."""
    import importlib.util

    return [f"--ray-client-server-port={_free_port()}"] if importlib.util.find_spec("grpc") else []


def ray_command() -> str | None:
    """The `ray` command of this Python's Ray, if Ray is installed."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        return None
    beside = os.path.join(os.path.dirname(sys.executable), "ray")
    return beside if os.path.exists(beside) else shutil.which("ray")


def node_environment() -> dict[str, str]:
    """The environment of a node's processes. A bytecode cache directory that is never
    written (PYTHONPYCACHEPREFIX with PYTHONDONTWRITEBYTECODE, e.g. run-tests.sh's prefix
    with the machine's DONTWRITE set) makes Python compile every module from source in
    every process, Ray's own included: the dashboard agent then needs 8.6 CPU s instead of
    3.3 and misses its 15 s even on an idle machine beside one busy pytest worker. Without
    the prefix the processes read the bytecode installed beside Ray's sources and still
    write none."""
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    if env.get("PYTHONDONTWRITEBYTECODE"):
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


class _Node:
    def __init__(self, args: list[str], log: str):
        self.log = log
        env = node_environment()
        with open(log, "w") as out:
            self.process = subprocess.Popen([ray_command() or "ray", "start", "--block", *args], stdout=out,
                                            stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def wait_ready(self, deadline: float, failed: Callable[[], bool]) -> bool:
        """Whether the node came up before `deadline`; False as soon as `failed()` says its
        raylet aborted (`ray start` itself only gives up 30 s later, polling the GCS all
        the while: 10 CPU s of a failed attempt's 25 at load 15)."""
        while time.monotonic() < deadline:
            with open(self.log, errors="replace") as f:
                if READY in f.read():
                    return True
            if self.process.poll() is not None or failed():
                return False
            time.sleep(1)
        return False

    def kill(self) -> None:
        """Stop a node that never came up: `ray start` does not act on SIGTERM before it
        is ready, so its whole process group (only what it started) is killed."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)  # its own group: only what it started
                self.process.wait()


class LocalCluster:
    def __init__(self, nodes: int = 2, cpus_per_node: int = 1, attempts: int = 3):
        self.nodes = nodes
        self.cpus = cpus_per_node
        self.attempts = attempts
        self.temp = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths are limited
        self._running: list[_Node] = []
        self.address: str | None = None
        self.failed = False
        self.node_pids: list[int] = []  # every `ray start` of every attempt: each leads its own session

    def _common(self) -> list[str]:
        return [f"--num-cpus={self.cpus}", f"--temp-dir={self.temp}", "--disable-usage-stats",
                "--object-store-memory=80000000", *EVERY_NODE,
                *[f"--{p}={_free_port()}" for p in AGENT_PORTS]]

    def _fatal_lines(self) -> list[str]:
        """The raylets' fatal log lines (Ray's `C` severity) of the failed attempts."""
        lines: list[str] = []
        for err in sorted(glob.glob(os.path.join(self.temp, "session_*", "logs", "raylet*.err"))):
            with open(err, errors="replace") as f:
                for line in f:
                    if re.match(r"\[[^]]*\bC\b", line):
                        line = line.strip()
                        line = line[line.find("Check failed"):] if "Check failed" in line else line
                        if line[:400] not in lines:
                            lines.append(line[:400])
        return lines

    def _aborted_since(self, known: int) -> bool:
        return len(self._fatal_lines()) > known

    def _start_node(self, args: list[str], name: str, timeout: float) -> _Node:
        for attempt in range(self.attempts):
            before = len(self._fatal_lines())
            node = _Node([*args, *self._common()], os.path.join(self.temp, f"{name}-{attempt}.log"))
            self.node_pids.append(node.process.pid)
            try:
                ready = node.wait_ready(time.monotonic() + timeout, partial(self._aborted_since, before))
            except BaseException:  # an interrupt while it starts: not in _running yet, so stop it here
                node.kill()
                raise
            if ready:
                return node
            node.kill()
        self.failed = True
        fatal = "".join(f"\n  {line}" for line in self._fatal_lines())
        raise RuntimeError(f"Ray node '{name}' did not start after {self.attempts} attempts (logs kept in "
                           f"{self.temp}){fatal}")

    def start(self, timeout: float = 180) -> str:
        """Start the head and the workers; the address to pass to ray.init / --ray."""
        port = _free_port()
        self.address = f"127.0.0.1:{port}"
        try:
            self._running.append(self._start_node(
                ["--head", f"--port={port}", *HEAD_ONLY, *_client_server_args()], "head",
                timeout))
            for k in range(1, self.nodes):
                self._running.append(self._start_node([f"--address={self.address}"], f"worker{k}", timeout))
        except BaseException:
            self.failed = True
            self.stop()
            raise
        return self.address

    def stop(self) -> None:
        """Stop the nodes by PID; remove the temp directory unless a start failed."""
        for node in reversed(self._running):
            node.stop()
        self._running = []
        if not self.failed:
            shutil.rmtree(self.temp, ignore_errors=True)
