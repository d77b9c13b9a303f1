"""`ascend-opt`: the mlir-opt style pass runner of ascend-mlir.

It is xDSL's `xDSLOptMain` with our dialects, passes and targets registered, plus what
users of MLIR tools expect and stock xdsl-opt does not give: every problem in the input
is reported as `file:line:col: error: message` with exit code 1 (never a traceback),
verifier errors are reported at the failing op, and `--verify-diagnostics` checks MLIR's
`// expected-error @+1 {{...}}` annotations.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from ascend_mlir import __version__, output_files
from ascend_mlir.dialects import register_dialects
from ascend_mlir.diagnostics import (
    Diagnostic,
    SourceLocation,
    check_expected,
    exception_diagnostic,
    expected_diagnostics,
    irdl_form_note,
    parse_diagnostic,
    parse_module,
    run_tool,
    verify_module,
    with_source_lines,
)

DESCRIPTION = """\
ascend-opt: run ascend-mlir passes on MLIR files and print the result.

Typical pipelines:
  ascend-opt k.mlir -p convert-tile-to-hivm -t npuir        AscendNPU IR for bishengir-compile
  ascend-opt k.mlir -p ascend-compile                       the whole chain (schedule + sync)
  ascend-opt k.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json
Pass options use MLIR's spelling: -p 'ascend-compile{chip=ascend910b sync=barrier-all}'.
A Python DSL file is read too: ascend-opt examples/vecadd.py -p ascend-compile takes
the kernel it defines at top level (FILE.py:NAME picks one, or calls a factory NAME()).
Errors in the input are reported as file:line:col: error: ..., with exit code 1.
"""

class _PipelineDiagnostics(Exception):
    """Verification failed between passes; carries the located diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic], after_pass: str):
        super().__init__(after_pass)
        self.diagnostics = diagnostics
        self.after_pass = after_pass


class _UnknownTarget(Exception):
    """`-t NAME` names no target (xDSL reports it as an argparse usage error, status 2)."""


_TARGET_CHOICE = re.compile(r"argument -t/--target: invalid choice: '(.*)' \(choose from (.*)\)$")


class _ParserWithPassList(argparse.ArgumentParser):
    """`--help` ends with every pass, its description and options (pass_help.py)."""

    passes: dict = {}

    def format_help(self) -> str:
        from ascend_mlir.tools.pass_help import pass_help

        return super().format_help() + "\n" + pass_help(self.passes)

    def error(self, message: str):  # type: ignore[override]
        # an unknown target is a bad value, not a misuse of the command line: one
        # `error:` line listing the targets and status 1, as for an unknown pass
        match = _TARGET_CHOICE.match(message)
        if match:
            raise _UnknownTarget(f"unknown target '{match.group(1)}' (known: {match.group(2)})")
        super().error(message)


# xDSL's options whose help describes xdsl-opt, not this driver (it reads its input and
# reports diagnostics itself): what they do here, or hidden when they do nothing here
_OPTION_HELP = {
    "verify_diagnostics": "check the input's MLIR `// expected-error @+1 {{...}}` (and warning, remark, "
                          "note) annotations against the diagnostics produced: exit 1 when one is missing "
                          "or unexpected; the diagnostics (or the output, when there are none) are "
                          "printed on stdout",
    "parsing_diagnostics": "print a parse error on stdout and exit 0 (for FileCheck tests of the parser)",
    "no_implicit_module": "require the input's top-level op to be a builtin.module",
    "disable_verify": "verify neither the input nor the IR between passes",
    "version": "print the version (ours and xDSL's) and exit",
    "frontend": argparse.SUPPRESS,  # the input is MLIR, or Python by its .py name
    "syntax_highlight": argparse.SUPPRESS,  # xDSL colours only its own diagnostics, never printed here
    "shrink": argparse.SUPPRESS,  # for xDSL's test-case shrinker, which raises nothing here
}


def _say_what_ascend_opt_does(arg_parser: argparse.ArgumentParser) -> None:
    for action in arg_parser._actions:  # pyright: ignore[reportPrivateUsage] - argparse has no other way
        if action.dest in _OPTION_HELP:
            action.help = _OPTION_HELP[action.dest]


class AscendOptMain(xDSLOptMain):
    version_format = f"ascend-opt {__version__} (xDSL {{xdsl_version}})"

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description=DESCRIPTION, args=args)

    # ----- registries ------------------------------------------------------------------

    def register_all_dialects(self):
        register_dialects(self.ctx)

    def register_all_passes(self):
        from ascend_mlir.context import available_passes

        for name, factory in available_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self):
        from xdsl.targets import get_all_targets as upstream_targets

        from ascend_mlir.targets import get_all_targets

        self.available_targets["mlir"] = upstream_targets()["mlir"]
        for name, factory in get_all_targets().items():
            self.available_targets[name] = factory

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        arg_parser.prog = "ascend-opt"  # argv[0] is __main__.py under `python -m`, a test's in process
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.__class__ = _ParserWithPassList
        # the passes are registered after the arguments: help reads them when printed
        arg_parser.passes = self.available_passes  # type: ignore[attr-defined]
        super().register_all_arguments(arg_parser)
        _say_what_ascend_opt_does(arg_parser)
        arg_parser.add_argument(
            "--dump-dir", metavar="DIR", default=None,
            help="write the IR after every pass (and every stage of ascend-compile), the "
                 "schedule JSON and SVG and the simulator trace into DIR, numbered in "
                 "pipeline order (DIR/index.txt lists them); the files of an earlier dump "
                 "in DIR are removed first, a DIR holding other files is refused")

    # ----- pipeline: verify op by op between passes -----------------------------------

    def setup_pipeline(self):
        timer = [time.perf_counter()]

        def callback(previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
            self._dump_between_passes(previous, module, following)
            now = time.perf_counter()
            if self.args.time_passes and previous is not None:
                print(f"pass {previous.name} took {now - timer[0]:.3f} s", file=sys.stderr)
            if previous is not None and not self.args.disable_verify:
                diagnostics = verify_module(module)
                if diagnostics:
                    raise _PipelineDiagnostics(diagnostics, previous.name)
            if previous and following and self.args.print_between_passes:
                print(f"// -----// IR after {previous.name} //----- //")
                Printer(stream=sys.stdout).print_op(module)
                print("\n")
            timer[0] = time.perf_counter()

        from ascend_mlir.context import parse_pipeline

        self.pipeline = parse_pipeline(self.available_passes, self.args.passes, callback)

    # ----- --dump-dir ---------------------------------------------------------------------

    _dump = None  # the DumpDir of the chunk being processed
    _running_pass: str | None = None

    def _dump_between_passes(self, previous, module: ModuleOp, following) -> None:
        if self._dump is None:
            return
        if previous is None:
            self._dump.ir("input", module, "the input")
        else:
            self._dump.ir(previous.name, module, f"the IR after pass {previous.name}")
        self._running_pass = following.name if following is not None else None

    def _dump_stage(self, stage: str, module: ModuleOp) -> None:
        if self._dump is not None:
            name = f"{self._running_pass}.{stage}"
            self._dump.ir(name, module, f"the IR after stage {stage} of pass {self._running_pass}")

    def _apply_passes_dumping(self, module: ModuleOp, chunk: int, chunks: int) -> None:
        from ascend_mlir.tools.dump_dir import DumpDir
        from ascend_mlir.transforms.stages import observe_stages

        prefix = f"chunk{chunk}-" if chunks > 1 else ""
        self._dump = DumpDir(self.args.dump_dir, self.ctx, prefix)
        try:
            with observe_stages(self._dump_stage):
                self.apply_passes(module)
            self._dump.finish(module)
        finally:
            self._dump = None

    # ----- driver ------------------------------------------------------------------------

    _kernel_file: tuple[str, str | None] | None = None  # (path, name) of a Python kernel input

    def _read_input(self) -> tuple[str, str]:
        """The input text and its name; raises OSError or UnicodeDecodeError. For a
        Python kernel file (`k.py`, `k.py:NAME`) the text is the Python source, which
        diagnostics quote; the module is built from it in `_process_chunk`."""
        if self.args.input_file is None or self.args.input_file == "-":
            return sys.stdin.buffer.read().decode("utf-8"), "<stdin>"
        from ascend_mlir.tools.kernel_files import kernel_file_spec

        self._kernel_file = kernel_file_spec(self.args.input_file)
        if self._kernel_file is not None:
            path = self._kernel_file[0]
            with open(path, "rb") as f:
                return f.read().decode("utf-8"), path
        with open(self.args.input_file, "rb") as f:
            return f.read().decode("utf-8"), self.args.input_file

    @staticmethod
    def _split(text: str) -> list[tuple[str, int]]:
        """Chunks of --split-input-file with the file line each starts at (0-based)."""
        chunks: list[tuple[str, int]] = []
        line = 0
        current: list[str] = []
        start = 0
        for raw in text.split("\n"):
            if raw.strip() == "// -----":
                chunks.append(("\n".join(current), start))
                current = []
                start = line + 1
            else:
                current.append(raw)
            line += 1
        chunks.append(("\n".join(current), start))
        return chunks

    def _module_of_kernel_file(self) -> ModuleOp | Diagnostic:
        from ascend_mlir.tools.kernel_files import build_kernel_file
        from ascend_mlir.user_modules import UserModuleError

        assert self._kernel_file is not None
        try:
            return build_kernel_file(*self._kernel_file)
        except UserModuleError as err:
            where = SourceLocation(err.path, err.line, err.column or 1) if err.line is not None else None
            return Diagnostic("error", err.message if where else f"{err.path}: {err.message}", where)

    def _process_chunk(
        self, text: str, name: str, offset: int, chunk: int = 0, chunks: int = 1
    ) -> tuple[str | None, list[Diagnostic]]:
        if self._kernel_file is not None:
            built = self._module_of_kernel_file()
            if isinstance(built, Diagnostic):
                return None, with_source_lines([built], text, offset, name)
            module = built
        else:
            try:
                module = parse_module(self.ctx, text, name, offset, implicit_module=not self.args.no_implicit_module)
            except ParseError as err:
                note = irdl_form_note(text)
                diagnostics = [parse_diagnostic(err)] + ([note] if note is not None else [])
                if self.args.parsing_diagnostics:  # the error is the output
                    return "".join(d.render() + "\n" for d in diagnostics), []
                return None, diagnostics
        if not self.args.disable_verify:
            diagnostics = verify_module(module)
            if diagnostics:
                return None, with_source_lines(diagnostics, text, offset, name)
        try:
            if self.args.dump_dir:
                try:
                    self._apply_passes_dumping(module, chunk, chunks)
                except OSError as err:
                    message = f"cannot write --dump-dir '{self.args.dump_dir}': {err.strerror}"
                    return None, [Diagnostic("error", message)]
            else:
                self.apply_passes(module)
            return self.output_resulting_program(module), []
        except _PipelineDiagnostics as err:
            notes = [Diagnostic("note", f"the IR stopped verifying after pass '{err.after_pass}'")]
            return None, with_source_lines(err.diagnostics, text, offset, name) + notes
        except (DiagnosticException, ParseError, ValueError, NotImplementedError) as err:
            return None, with_source_lines([exception_diagnostic(err)], text, offset, name)

    def _dump_dir_ready(self) -> bool:
        from ascend_mlir.tools.dump_dir import start_clean

        try:
            problem = start_clean(self.args.dump_dir)
        except OSError as err:
            problem = f"cannot empty '{self.args.dump_dir}': {err.strerror}"
        if problem is not None:
            print(f"ascend-opt: error: --dump-dir: {problem}", file=sys.stderr)
        return problem is None

    def _read_or_report(self) -> tuple[str, str] | None:
        """The input text and its name, or None after an `error: cannot read` message."""
        try:
            return self._read_input()
        except OSError as err:
            print(f"ascend-opt: error: cannot read '{self.args.input_file}': {err.strerror}", file=sys.stderr)
        except UnicodeDecodeError as err:
            name = self.args.input_file or "<stdin>"
            print(f"{name}: error: input is not UTF-8 text (byte offset {err.start})", file=sys.stderr)
        return None

    def _verify_chunk(
        self, name: str, chunk: str, offset: int, output: str | None, diagnostics: list[Diagnostic],
        outputs: list[str],
    ) -> bool:
        """--verify-diagnostics: check the expected diagnostics (False on a mismatch) and
        keep what was produced, so FileCheck can look at it (xDSL style)."""
        ok = True
        expected = expected_diagnostics(chunk, offset)
        if expected:
            failures = check_expected(name, diagnostics, expected)
            for failure in failures:
                print(failure, file=sys.stderr)
            ok = not failures
        for diag in diagnostics:
            outputs.append(diag.render(show_source=False) + "\n")
        if output is not None and not diagnostics:
            outputs.append(output)
        return ok

    @staticmethod
    def _report_chunk(output: str | None, diagnostics: list[Diagnostic], outputs: list[str]) -> bool:
        """Print the diagnostics (False when there are any) or keep the output."""
        for diag in diagnostics:
            print(diag.render(), file=sys.stderr)
        if not diagnostics and output is not None:
            outputs.append(output)
        return not diagnostics

    def run(self) -> int:  # type: ignore[override]
        read = self._read_or_report()
        if read is None:
            return 1
        text, name = read
        if self.args.dump_dir and not self._dump_dir_ready():
            return 1
        split = self.args.split_input_file and self._kernel_file is None  # one kernel per .py file
        chunks = self._split(text) if split else [(text, 0)]
        outputs: list[str] = []
        exit_code = 0
        for index, (chunk, offset) in enumerate(chunks):
            output, diagnostics = self._process_chunk(chunk, name, offset, index, len(chunks))
            if self.args.verify_diagnostics:
                ok = self._verify_chunk(name, chunk, offset, output, diagnostics, outputs)
            else:
                ok = self._report_chunk(output, diagnostics, outputs)
            if not ok:
                exit_code = 1
        if exit_code != 0 and not self.args.verify_diagnostics:
            return exit_code
        rendered = "// -----\n".join(outputs)
        if self.args.output_file:
            return write_output_file(self.args.output_file, rendered, "ascend-opt") or exit_code
        sys.stdout.write(rendered)
        return exit_code


def write_output_file(path: str, text: str, tool: str) -> int:
    """Write `text` to `path` (output_files.write_text: devices, FIFOs and symlinks are
    written through, regular files replaced whole or not at all); 0, or 1 after an
    `error: cannot write` message."""
    try:
        output_files.write_text(path, text)
    except output_files.OutputError as err:
        print(f"{tool}: error: {err}", file=sys.stderr)
        return 1
    return 0


def _pipeline_syntax_error(err: ArgSpecParseError) -> str:
    """xDSL's five-line message (a header, `pass-pipeline:1:COL`, the spec, a caret, the
    message) as one error line naming the problem and its column, then spec and caret."""
    lines = str(err).split("\n")
    if len(lines) < 5 or not lines[1].startswith("pass-pipeline:"):
        return str(err)
    column = lines[1].rsplit(":", 1)[1]
    return f"invalid pass pipeline: {lines[4].strip()} (column {column})\n{lines[2]}\n{lines[3]}"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        # argparse's --help, --version and usage errors exit through SystemExit as usual.
        tool = AscendOptMain(args=argv)
    except ArgSpecParseError as err:
        print(f"ascend-opt: error: {_pipeline_syntax_error(err)}", file=sys.stderr)
        return 1
    except _UnknownTarget as err:
        print(f"ascend-opt: error: {err}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, KeyError, DiagnosticException) as err:
        # Unknown pass, bad pass option name or value.
        message = str(err.args[0]) if err.args else str(err)
        print(f"ascend-opt: error: invalid pass pipeline: {message}", file=sys.stderr)
        return 1
    return run_tool(tool.args.input_file or "<stdin>", "internal compiler error", tool.run)


def _entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    _entry()
