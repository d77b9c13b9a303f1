// Bad pass names and options are diagnostics, not tracebacks.
// RUN: not ascend-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not ascend-opt %s -p 'cse{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPT
// RUN: not ascend-opt %s.missing 2>&1 | filecheck %s --check-prefix=FILE
// RUN: ascend-opt --help | filecheck %s --check-prefix=HELP

// PASS: ascend-opt: error: invalid pass pipeline: Unrecognized passes: ['no-such-pass']
// PASS-NOT: Traceback
// OPT: ascend-opt: error: invalid pass pipeline:{{.*}}bogus
// FILE: ascend-opt: error: cannot read
// HELP: convert-tile-to-hivm
// HELP: file:line:col: error

func.func @f() {
  func.return
}
