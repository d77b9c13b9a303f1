// ascend-sim's command line: bad input is a located diagnostic with exit code 1 (no
// traceback); --help explains the checks and the exit status.

// RUN: not ascend-sim %S/Inputs/bad_scope.mlir 2>&1 | filecheck %s --check-prefix=SCOPE
// SCOPE: bad_scope.mlir:4:5: error: 'hivm.hir.load' op destination must be in ub, got cbuf
// SCOPE-NOT: Traceback

// RUN: not ascend-sim %S/Inputs/bad_subview_bounds.mlir 2>&1 | filecheck %s --check-prefix=BOUNDS
// (refused when the module is verified: the computed offset is a constant)
// BOUNDS: bad_subview_bounds.mlir:5:5: error: 'memref.subview' op dimension 0 reads up to index 23 (offset 8, size 16, stride 1) but the source has size 16 there
// BOUNDS-NOT: Traceback

// RUN: not ascend-sim %S/Inputs/bad_unknown_op.mlir 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: bad_unknown_op.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Operation hivm.hir.bogus is not registered
// UNKNOWN-NOT: Traceback

// RUN: not ascend-sim %S/Inputs/bad_event_id.mlir 2>&1 | filecheck %s --check-prefix=EVENT
// EVENT: bad_event_id.mlir:{{[0-9]+}}:7: error: 'hivm.hir.wait_flag' op event id 9 is out of range (0..7: the chip has 8 per pipe pair)

// RUN: not ascend-sim %S/Inputs/does_not_exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: ascend-sim: error: cannot read '{{.*}}does_not_exist.mlir'

// RUN: ascend-sim --help | filecheck %s --check-prefix=HELP
// HELP: usage: ascend-sim
// HELP: tile-level file
// HELP: race detector
// HELP: Exit status: 0 when there is no race, no deadlock
// HELP: --trace T.json
// HELP: --svg T.svg
// HELP: --perturb N

// The trace and the SVG timeline of a run:
// RUN: ascend-sim %S/vadd_synced.mlir --trace %t.json --svg %t.svg
// RUN: filecheck %s --check-prefix=TRACE < %t.json
// TRACE: {"traceEvents": [{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "vec (time axis: cycles, shown as us)"}}
// TRACE-SAME: {"name": "thread_name", "ph": "M", "pid": 0, "tid": [[MTE2:[0-9]+]], "args": {"name": "MTE2"}}
// TRACE-SAME: {"name": "load", "cat": "MTE2", "ph": "X", "ts": {{[0-9]+}}, "dur": {{[0-9]+}}, "pid": 0, "tid": [[MTE2]], "args": {"loc": "{{[^"]*}}vadd_synced.mlir:33:7", "start_cycle": {{[0-9]+}}, "cycles": {{[0-9]+}}}}
// TRACE-SAME: "otherData": {"time_unit": "cycle", "note": "1 us of trace time is 1 simulated cycle"}
// RUN: filecheck %s --check-prefix=SVG < %t.svg
// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: <text x="4" y="{{[0-9]+}}">vec MTE2</text>
// SVG: <rect {{.*}}><title>vadd [{{[0-9]+}}, {{[0-9]+}}) {{.*}}vadd_synced.mlir:38:7</title></rect>
