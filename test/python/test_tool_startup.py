"""ascend-opt's start-up (issue 22 item 2): a module no hardware rule can apply to (no
buffer, no memref/scf/tile/hivm op, no call) skips importing the hardware checks and the
chip data; a module any rule applies to is still checked. The timing itself is measured
in bench/startup/run.py, not here."""

from __future__ import annotations

import subprocess
import sys

from xdsl.dialects.builtin import ModuleOp

from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module, verify_module

TINY = "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"


def _verify(text: str) -> list[str]:
    module = parse_module(make_context(), text, "t.mlir")
    assert isinstance(module, ModuleOp)
    return [d.render(show_source=False) for d in verify_module(module)]


def test_tiny_module_does_not_load_the_hardware_checks():
    probe = (
        "import sys\n"
        "from ascend_mlir.tools.ascend_opt import main\n"
        "import io, contextlib\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    status = main(['-'])\n"
        "assert status == 0, status\n"
        "assert 'func.return' in out.getvalue(), out.getvalue()\n"
        "print(sorted(m for m in sys.modules if m.startswith('ascend_mlir.analysis') or m == 'ascend_mlir.chips'))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], input=TINY, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_declaration_with_a_buffer_is_still_checked():
    errors = _verify("func.func private @ext(memref<4xf64>)\n")
    assert len(errors) == 1 and "argument #0 has element type f64" in errors[0], errors


def test_loop_without_buffers_is_still_checked():
    text = (
        "func.func @f() {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c4 = arith.constant 4 : index\n"
        "  scf.for %i = %c0 to %c4 step %c0 {\n"
        "  }\n"
        "  func.return\n"
        "}\n"
    )
    errors = _verify(text)
    assert len(errors) == 1 and "scf.for" in errors[0], errors


def test_plain_scalar_module_verifies_clean():
    assert _verify(TINY) == []
