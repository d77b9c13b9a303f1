"""Our tools as forks of one warm interpreter, for tests that run documented shell text.

A Python process of ours spends 0.8-2 CPU s importing xDSL and our dialects before it
reads its input, and the docs' blocks start dozens of them. `ForkedTools` keeps the shell
real (bash runs each block as written: pipes, redirections, `$(...)`, `||`, `$?`, exit
codes) and makes the processes cheap: it puts a directory first on PATH where
`ascend-opt`, `ascend-sim`, `ascend-tune`, `python` and `python3` are small clients (a
Python start without site, about 0.03 s) that hand their argv, working directory,
environment, umask and file descriptors 0-2 (SCM_RIGHTS: the very open files and pipes
bash gave them, offsets and all) to a server that imported the compiler once. The server
forks; the fork takes those descriptors as its own, runs the console script's function (or
python's `-c CODE`, `-m MODULE` or `SCRIPT` form, with sys.argv and sys.path[0] as python
sets them) and exits as the interpreter would (atexit, flushes, 1 and a traceback for an
escaping exception); the client exits with its status (a signal's death by the same
signal). So each command is still a process of its own, opening, writing and failing as
one; what differs from a fresh process is only what was imported before it ran and the
hash seed (every fork has the server's): a test of determinism across processes must
start real ones.

The server stands for the interpreter running the tests (sys.executable) and the console
scripts installed beside it. A client execs the real program instead when its
environment differs from the server's in what python reads at start-up (PYTHON*, the
locale) or when python gets options other than the three forms above.
"""

from __future__ import annotations

import marshal
import os
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType

from ascend_mlir.testing import console_script

# what a fork runs: the console scripts of this package (their functions are the installed
# entry points, pyproject's [project.scripts], resolved once by the server), and python itself
CONSOLE_SCRIPTS = ("ascend-opt", "ascend-sim", "ascend-tune")
_ENTRIES: dict[str, Callable[[], object]] = {}
PYTHON_NAMES = ("python", "python3")
# imported by the server once, before the first fork: the tools and the Python front end
PRELOAD = ("ascend_mlir.tools.ascend_opt", "ascend_mlir.tools.ascend_sim", "ascend_mlir.tools.ascend_tune",
           "ascend_mlir.frontend", "ascend_mlir.sim.simulator", "ascend_mlir.tune", "ascend_mlir.tune.executors",
           "ascend_mlir.user_modules")
_SOCKET_PATH_MAX = 100  # sun_path holds 108 bytes
_LOCALE = ("LANG", "LC_ALL", "LC_CTYPE")

# The client: a python run with -I -S (no site, no PYTHON* variables, stdlib only).
_CLIENT = '''\
#!{python} -IS
import os, socket, struct, sys
NAME, SOCKET, SHIMS, STARTUP = {name!r}, {socket!r}, {shims!r}, {startup!r}

def real():
    path = os.environ.get("PATH", "").split(os.pathsep)
    after = path[path.index(SHIMS) + 1:] if SHIMS in path else path
    for directory in after:
        candidate = os.path.join(directory or ".", NAME)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            os.execv(candidate, [NAME, *sys.argv[1:]])
    sys.stderr.write(f"{{NAME}}: command not found\\n")
    os._exit(127)

args = sys.argv[1:]
startup = {{k: v for k, v in os.environ.items() if k.startswith("PYTHON") or k in ("LANG", "LC_ALL", "LC_CTYPE")}}
if startup != STARTUP:
    real()
if NAME in ("python", "python3") and not (args and (args[0] in ("-c", "-m") and len(args) > 1 or not args[0].startswith("-"))):
    real()
fds = []
for fd in (0, 1, 2):
    try:
        os.fstat(fd)
        fds.append(fd)
    except OSError:
        pass
mask = os.umask(0)
os.umask(mask)
data = __import__("marshal").dumps((NAME, args, os.getcwd(), dict(os.environ), mask, fds))
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.connect(SOCKET)
socket.send_fds(server, [struct.pack("<Q", len(data)) + data], fds)
reply = b""
while len(reply) < 4:
    more = server.recv(4 - len(reply))
    if not more:
        sys.stderr.write(f"{{NAME}}: the tool server ended without an exit status\\n")
        os._exit(126)
    reply += more
(status,) = struct.unpack("<i", reply)
if status < 0:
    import signal
    signal.signal(-status, signal.SIG_DFL)
    os.kill(os.getpid(), -status)
    status = 128 - status
os._exit(status)
'''


def _startup_environment(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON") or k in _LOCALE}


class ForkedTools:
    """A server of forked tools and its client directory (`bin`), for a `with` block:

        with ForkedTools(env) as tools:
            subprocess.run(["bash", "-c", text], env=tools.environment(env))

    The server ends (and is waited for: its CPU time and its forks' count to the caller's
    children) when the block ends."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.env = dict(os.environ if env is None else env)
        self._directory = tempfile.TemporaryDirectory(prefix="forked-tools-")
        if len(self._directory.name) + len("/server.sock") > _SOCKET_PATH_MAX:  # a long $TMPDIR
            self._directory.cleanup()
            self._directory = tempfile.TemporaryDirectory(prefix="forked-tools-", dir="/tmp")
        self.bin = Path(self._directory.name) / "bin"
        self.socket = Path(self._directory.name) / "server.sock"
        self.bin.mkdir()
        for name in (*CONSOLE_SCRIPTS, *PYTHON_NAMES):
            client = self.bin / name
            client.write_text(_CLIENT.format(python=sys.executable, name=name, socket=str(self.socket),
                                             shims=str(self.bin), startup=_startup_environment(self.env)))
            client.chmod(0o755)
        self._server = subprocess.Popen([sys.executable, "-m", "ascend_mlir.forked_tools", str(self.socket)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=self.env,
                                        cwd=self._directory.name)
        assert self._server.stdout is not None
        if self._server.stdout.readline() != b"ready\n":
            self.close()
            raise RuntimeError("the forked-tools server did not start")

    def environment(self, env: Mapping[str, str] | None = None) -> dict[str, str]:
        """`env` (default: the server's) with the clients first on PATH."""
        env = dict(self.env if env is None else env)
        env["PATH"] = os.pathsep.join([str(self.bin), env.get("PATH", "")])
        return env

    def python(self) -> str:
        """The client standing for `python`, for a test that runs `python -c BLOCK` itself."""
        return str(self.bin / "python")

    def close(self) -> None:
        if self._server.stdin is not None and not self._server.stdin.closed:
            self._server.stdin.close()  # the server's signal to end, after its forks
        self._server.wait()
        if self._server.stdout is not None:
            self._server.stdout.close()
        self._directory.cleanup()

    def __enter__(self) -> ForkedTools:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


# --- the server and its forks ----------------------------------------------------------


def serve(socket_path: str) -> None:
    """Import the tools, listen on `socket_path`, fork a tool per client until stdin
    closes, then wait for the forks still running. A fork's status goes back to its
    client when the fork ends."""
    import importlib

    for module in PRELOAD:
        importlib.import_module(module)
    for name in CONSOLE_SCRIPTS:
        entry = console_script(name)
        if entry is not None:
            _ENTRIES[name] = entry
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "stop")
    os.write(1, b"ready\n")
    running: dict[int, tuple[int, socket.socket]] = {}  # pidfd -> (pid, client connection)
    stopping = False
    while not stopping or running:
        for key, _ in selector.select():
            if key.data == "accept":
                connection, _ = listener.accept()
                pid = os.fork()
                if pid == 0:
                    _fork_main(connection)
                pidfd = os.pidfd_open(pid)
                running[pidfd] = (pid, connection)
                selector.register(pidfd, selectors.EVENT_READ, "ended")
            elif key.data == "stop":
                selector.unregister(sys.stdin.fileno())
                selector.unregister(listener)
                listener.close()
                stopping = True
            else:
                pidfd = key.fileobj
                assert isinstance(pidfd, int)
                selector.unregister(pidfd)
                pid, connection = running.pop(pidfd)
                os.close(pidfd)
                _, status = os.waitpid(pid, 0)
                try:
                    connection.sendall(struct.pack("<i", os.waitstatus_to_exitcode(status)))
                except OSError:
                    pass  # the client is gone (killed): nobody to tell
                connection.close()


def _receive(connection: socket.socket) -> tuple[tuple, list[int]]:
    data, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
    while len(data) < 8 or len(data) < 8 + struct.unpack("<Q", data[:8])[0]:
        more = connection.recv(1 << 16)
        if not more:
            raise EOFError("the client closed its connection mid-request")
        data += more
    return marshal.loads(data[8:]), fds


def _fork_main(connection: socket.socket) -> None:
    """In the fork: become the client's process, run its command, exit with its code."""
    code = 1
    try:
        (name, args, cwd, env, mask, standard), fds = _receive(connection)
        for fd in (0, 1, 2):
            if fd in standard:
                os.dup2(fds[standard.index(fd)], fd)
            else:
                os.close(fd)
        os.closerange(3, 1 << 16)  # the fds received, the listener, the connections: a new process has none
        os.chdir(cwd)
        os.umask(mask)
        os.environ.clear()
        os.environ.update(env)
        _fresh_standard_streams()
        code = _run(name, args)
    finally:
        os._exit(code)


def _fresh_standard_streams() -> None:
    """sys.stdin/stdout/stderr over the new fds, as python makes them (line-buffered
    stdout only on a terminal, stderr always, stderr's errors backslashreplace)."""
    encoding, errors = sys.stdout.encoding, sys.stdout.errors
    sys.stdin = sys.__stdin__ = open(0, encoding=encoding, errors=errors, newline="\n", closefd=False)  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(1, "w", encoding=encoding, errors=errors, newline="\n",  # noqa: SIM115
                                       closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", encoding=encoding, errors="backslashreplace",  # noqa: SIM115
                                       newline="\n", closefd=False)
    sys.stderr.reconfigure(line_buffering=True)


def _run(name: str, args: list[str]) -> int:
    """The command as python would run it, then the interpreter's exit: its code."""
    import types

    main = types.ModuleType("__main__")
    sys.modules["__main__"] = main
    _reseed()
    code = 0
    try:
        _run_form(name, args, main)
    except SystemExit as exit_:
        code = _exit_status(exit_.code)
    except BaseException as error:  # noqa: BLE001  what the interpreter does with an escaping exception
        traceback = error.__traceback__
        while traceback is not None and traceback.tb_frame.f_code.co_filename == __file__:
            traceback = traceback.tb_next  # the frames of this module, which a process has not
        sys.excepthook(type(error), error.with_traceback(traceback), traceback)
        code = 1
    return _interpreter_exit(code)


def _run_form(name: str, args: list[str], main) -> None:
    import importlib
    import runpy

    if name in CONSOLE_SCRIPTS:
        script = Path(sys.executable).parent / name
        sys.argv = [str(script), *args]
        sys.path[0] = os.path.dirname(os.path.realpath(script))
        importlib.invalidate_caches()
        entry = _ENTRIES.get(name) or console_script(name)
        if entry is None:
            raise LookupError(f"no console script named {name!r} is installed")
        raise SystemExit(entry())  # as the console script's sys.exit(entry())
    if args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        sys.path[0] = ""
        importlib.invalidate_caches()
        exec(compile(args[1], "<string>", "exec"), main.__dict__)  # noqa: S102  python -c CODE
    elif args[0] == "-m":
        sys.argv = ["-m", *args[2:]]
        sys.path[0] = os.getcwd()
        importlib.invalidate_caches()
        runpy._run_module_as_main(args[1], alter_argv=True)  # type: ignore[attr-defined]  # what -m runs
    else:
        sys.argv = list(args)
        sys.path[0] = os.path.dirname(os.path.realpath(args[0]))
        importlib.invalidate_caches()
        main.__file__ = args[0]
        try:
            source = Path(args[0]).read_bytes()  # compile() reads its coding cookie as python does
        except OSError as error:
            print(f"{sys.executable}: can't open file {os.path.abspath(args[0])!r}: [Errno {error.errno}] "
                  f"{error.strerror}", file=sys.stderr)
            sys.exit(2)
        exec(compile(source, args[0], "exec"), main.__dict__)  # noqa: S102  python SCRIPT


def _reseed() -> None:
    """A new process's global random states (`random` reseeds itself after a fork)."""
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()


def _exit_status(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _interpreter_exit(code: int) -> int:
    """Threads joined, atexit run, stdout and stderr flushed, as at interpreter exit (a
    failed stdout flush makes the status 120)."""
    import atexit
    import threading

    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout:
                code = 120
    return code


if __name__ == "__main__":
    serve(sys.argv[1])
