"""ascend-mlir: a Z3 modulo-scheduling compiler for Ascend NPU tile kernels."""

import re as _re

from xdsl.utils.mlir_lexer import MLIRLexer as _MLIRLexer

__version__ = "0.1.0"

# xDSL 0.75's string-literal pattern `"(?:[^"...]+|...)*"` backtracks exponentially on a
# literal that is never closed: a lone `"` before a line of 80 characters (a Python
# docstring's opening quotes, a file given to the wrong tool) never finished lexing, in
# every parser of the process (ours, the IRDL route's, the tests'). The possessive form
# takes the same strings and fails at once on an unterminated one ("End of file reached
# before closing string literal"). Set here, where every use of the package starts.
_MLIRLexer._unescaped_characters_regex = _re.compile(  # pyright: ignore[reportPrivateUsage]
    r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')
