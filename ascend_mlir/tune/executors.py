"""Where variants run. Every executor runs `evaluate.evaluate` on the same task dicts, so
the rows are the same bit for bit whichever runs them.

* `InlineExecutor`: in the calling process, one at a time (no time limit); the warm
  single-process baseline.
* `LocalPool` (the default): one long-lived worker process per core, started once and
  kept warm (the compiler is imported once per worker, not per variant). A variant that
  exceeds the time limit gets a `timeout` row and its worker is killed (by its own PID);
  a worker that dies gets a `crash` row. Either is replaced when the next variant needs
  its slot (a sweep that ends on a timeout starts no worker it would not use).
* `RayExecutor`: Ray core tasks (not Ray Tune) on a running cluster (`address="auto"`
  or `host:port`), one CPU each; Ray's worker processes stay warm between tasks. A task
  over the time limit is force-cancelled (its worker is killed) and gets `timeout`.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
from multiprocessing.connection import wait
from typing import Any

from ascend_mlir.tune import evaluate as _evaluate


def _timeout_row(limit: float) -> dict[str, Any]:
    return {"status": "timeout", "cache_hit": False, "seconds": round(limit, 3),
            "message": f"no result within {limit:g} s: the worker was recycled"}


class _VariantTimeout(BaseException):
    """Raised in the inline executor's variant at its time limit (a BaseException: the
    variant's own `except Exception` rows must not take it for a crash)."""


class InlineExecutor:
    """Each variant in this process, one after another. A time limit stops a variant by
    SIGALRM on the main thread where the OS has it (a factory that hangs hung the sweep);
    the signal is handled between Python bytecodes, so a variant inside one long C call
    (a solver check) stops when that call returns."""

    slots = 1

    def __init__(self, timeout: float | None = None) -> None:
        self._done: list[tuple[int, dict]] = []
        self.timeout = timeout

    def submit(self, task_id: int, task: dict) -> None:
        limit = self.timeout
        if not limit or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
            self._done.append((task_id, _evaluate.evaluate(task)))
            return

        def stop(signum, frame):
            raise _VariantTimeout

        previous = signal.signal(signal.SIGALRM, stop)
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, limit)
                row = _evaluate.evaluate(task)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)  # disarmed before the handler goes
        except _VariantTimeout:  # (also one that fired as the variant returned: at the limit)
            row = {**_timeout_row(limit), "message": f"no result within {limit:g} s: the variant was stopped"}
        finally:
            signal.signal(signal.SIGALRM, previous)
        self._done.append((task_id, row))

    def free(self) -> int:
        return 0 if self._done else 1

    def busy(self) -> int:
        return len(self._done)

    def wait(self, timeout: float | None = None) -> list[tuple[int, dict]]:
        done, self._done = self._done, []
        return done

    def close(self) -> None:
        pass


def _send(stream, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _recv(stream):
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    (size,) = struct.unpack("<Q", head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def become_warm_worker() -> None:
    """Make this process a worker (autotune refuses to run again from a factory module)
    and import the compiler before the first task. The imported compiler lives as long
    as the worker: keep the garbage collector's full passes off it (they walked it after
    every few variants). Pool and Ray workers alike."""
    _evaluate.IN_WORKER = True
    import ascend_mlir.frontend  # noqa: F401
    import ascend_mlir.sim.simulator  # noqa: F401

    gc.freeze()


def worker_main() -> None:
    """A pool worker (`python -m ascend_mlir.tune.executors`): import the compiler once,
    then evaluate the tasks read from stdin until it closes. The protocol owns the
    original stdout; anything the user's code prints goes to stderr."""
    protocol_in = sys.stdin.buffer
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    become_warm_worker()
    _send(protocol_out, "ready")  # time limits start from here, not from interpreter start-up
    while True:
        try:
            task = _recv(protocol_in)
        except EOFError:
            return
        _send(protocol_out, _evaluate.evaluate(task))


class _Worker:
    """One worker process, started as a fresh interpreter running `worker_main` (not a
    multiprocessing child, which would re-import the caller's __main__)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "ascend_mlir.tune.executors"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        self.task_id: int | None = None
        self.started = 0.0

    def await_ready(self) -> None:
        """Block until the worker has imported the compiler (or died trying)."""
        try:
            _recv(self.stdout)
        except (EOFError, OSError):
            pass  # a worker that cannot start: its first task reports the crash

    def stop(self, force: bool) -> None:
        if force:
            self.process.kill()
        try:
            self.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stdout.close()


class LocalPool:
    """`workers` warm worker processes (default: one per core), all started at the first
    submit (a sweep answered by the cache starts none)."""

    def __init__(self, workers: int | None = None, timeout: float | None = None):
        self.slots = max(1, workers or os.cpu_count() or 1)
        self.timeout = timeout
        self._workers: list[_Worker | None] = []  # None: a recycled slot, refilled by submit

    def _live(self) -> list[_Worker]:
        return [w for w in self._workers if w is not None]

    def free(self) -> int:
        return self.slots - self.busy()

    def busy(self) -> int:
        return sum(1 for w in self._live() if w.task_id is not None)

    def start(self) -> None:
        """Start the workers and wait until each has imported the compiler (submit does
        this on first use; a caller reusing one pool for several sweeps may do it first)."""
        if not self._workers:
            self._workers = [_Worker() for _ in range(self.slots)]
            for w in self._live():
                w.await_ready()

    def _idle_worker(self) -> _Worker:
        idle = next((w for w in self._live() if w.task_id is None), None)
        if idle is not None:
            return idle
        fresh = _Worker()
        fresh.await_ready()
        self._workers[self._workers.index(None)] = fresh
        return fresh

    def submit(self, task_id: int, task: dict) -> None:
        self.start()
        worker = self._idle_worker()
        worker.task_id, worker.started = task_id, time.monotonic()  # the limit counts from a ready worker
        try:
            _send(worker.stdin, task)
        except OSError:
            pass  # a dead worker: wait() reports the crash

    def _recycle(self, worker: _Worker) -> None:
        worker.stop(force=True)
        self._workers[self._workers.index(worker)] = None

    def wait(self, timeout: float | None = None) -> list[tuple[int, dict]]:
        """Rows of the variants finished within `timeout` seconds."""
        busy = [w for w in self._live() if w.task_id is not None]
        if not busy:
            return []
        limit = timeout
        if self.timeout is not None:
            left = max(0.0, min(w.started + self.timeout for w in busy) - time.monotonic())
            limit = left if limit is None else min(limit, left)
        ready = set(wait([w.stdout.fileno() for w in busy], timeout=limit))
        done: list[tuple[int, dict]] = []
        for w in busy:
            task_id = w.task_id
            row = self._collect(w, ready)
            if row is not None and task_id is not None:
                done.append((task_id, row))
                w.task_id = None
        return done

    def _collect(self, w: _Worker, ready: set) -> dict | None:
        fd = w.stdout.fileno()
        if fd not in ready:
            if self.timeout is None or time.monotonic() - w.started < self.timeout:
                return None
            if not wait([fd], timeout=0):  # over the limit with no answer (one may have come since `ready`)
                self._recycle(w)
                return _timeout_row(self.timeout)
        try:
            return _recv(w.stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            pass
        w.process.wait()
        code = w.process.returncode
        seconds = round(time.monotonic() - w.started, 3)
        self._recycle(w)
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return {"status": "crash", "cache_hit": False, "seconds": seconds,
                "message": f"the worker process died ({how}) while compiling or simulating this variant"}

    def close(self) -> None:
        for w in self._live():
            w.stop(force=w.task_id is not None)
        self._workers = []


def _ray_evaluate(task: dict) -> dict:
    from ascend_mlir.tune import evaluate

    evaluate.IN_WORKER = True
    return evaluate.evaluate(task)


def _ray_warm() -> int:
    """Make this Ray worker warm (what `worker_main` does before "ready")."""
    become_warm_worker()
    return os.getpid()


# how long a Ray head's port may take to accept a connection before the sweep gives up
RAY_CONNECT_SECONDS = 5.0


def _reachable(address: str) -> None:
    """Raise ConnectionError unless the Ray head at `address` ("host:port", or
    "ray://host:port" for Ray client) accepts a TCP connection: Ray itself retries an
    unknown host or a closed port for minutes, printing warnings (`--ray nohost:1`
    waited until killed). An address of neither form raises too (`--ray nohost` was
    Ray's internal ValueError); "auto" finds the cluster this machine runs, or fails at
    once."""
    import socket

    if address == "auto":
        return
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit():  # Ray: an internal "Invalid address format"
        raise ConnectionError(f"'{address}' is not a Ray address (give auto, HOST:PORT or ray://HOST:PORT)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_CONNECT_SECONDS).close()
    except OSError as err:
        raise ConnectionError(f"cannot reach the Ray head at {address}: {err.strerror or err}") from None


class RayExecutor:
    """Ray core tasks on the cluster at `address` ("auto": the one this machine runs;
    "local": start a private single-node Ray for this process)."""

    def __init__(self, address: str, timeout: float | None = None, slots: int | None = None):
        import ray

        self._ray = ray
        self._owns = not ray.is_initialized()  # a Ray this executor connected to, it disconnects
        if self._owns:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                _reachable(address)
                ray.init(address=address, log_to_driver=False)
        self.slots = max(1, slots or int(ray.cluster_resources().get("CPU", 1)))
        self.timeout = timeout
        self._remote = ray.remote(num_cpus=1, max_retries=0)(_ray_evaluate)
        self._running: dict[Any, tuple[int, float]] = {}
        self._warm = False

    def start(self) -> None:
        """Import the compiler in the cluster's workers before the first variant, one
        warm-up task per slot, all at once so that each takes its own worker (as
        `LocalPool.start`): without it the first variant on each worker paid 1-3 s of
        imports (bench/tune: Ray 2.3x the pool's wall time on a 6-variant sweep, 1.1x
        once warm). Time limits count from here, as the pool's do."""
        if not self._warm:
            warm = self._ray.remote(num_cpus=1, max_retries=0)(_ray_warm)
            self._ray.get([warm.remote() for _ in range(self.slots)])
            self._warm = True

    def free(self) -> int:
        return self.slots - len(self._running)

    def busy(self) -> int:
        return len(self._running)

    def submit(self, task_id: int, task: dict) -> None:
        self.start()
        self._running[self._remote.remote(task)] = (task_id, time.monotonic())

    def wait(self, timeout: float | None = None) -> list[tuple[int, dict]]:
        ray = self._ray
        if not self._running:
            return []
        limit = timeout
        if self.timeout is not None:
            left = min(start + self.timeout for _, start in self._running.values()) - time.monotonic()
            limit = max(0.0, left) if limit is None else min(limit, max(0.0, left))
        refs = list(self._running)
        ready, _ = ray.wait(refs, num_returns=1, timeout=limit)
        if ready:  # whatever else finished meanwhile
            ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        done = []
        for ref in ready:
            task_id, start = self._running.pop(ref)
            try:
                done.append((task_id, ray.get(ref)))
            except Exception as err:  # noqa: BLE001 - the worker died: a crash row
                done.append((task_id, {"status": "crash", "cache_hit": False,
                                       "seconds": round(time.monotonic() - start, 3),
                                       "message": f"the Ray worker died: {type(err).__name__}"}))
        if self.timeout is not None:
            for ref, (task_id, start) in list(self._running.items()):
                if time.monotonic() - start >= self.timeout:
                    ray.cancel(ref, force=True)
                    del self._running[ref]
                    done.append((task_id, _timeout_row(self.timeout)))
        return done

    def close(self) -> None:
        for ref in list(self._running):
            self._ray.cancel(ref, force=True)
        self._running.clear()
        if self._owns:
            self._ray.shutdown()


if __name__ == "__main__":
    worker_main()
