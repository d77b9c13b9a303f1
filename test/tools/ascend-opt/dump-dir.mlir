// --dump-dir writes the IR after every pass and every stage of ascend-compile, the
// schedule (JSON + SVG) and the simulator trace, numbered in pipeline order.

// RUN: rm -rf %t && ascend-opt %examples/vecadd.mlir -p 'ascend-compile{schedule=program-order sync=barrier-all}' --dump-dir %t -o %t.out
// RUN: filecheck %s --check-prefix=INDEX < %t/index.txt
// RUN: %python %S/Inputs/cat_glob.py '%t/*-ascend-compile.convert-tile-to-hivm.mlir' | filecheck %s --check-prefix=CONVERTED
// RUN: %python %S/Inputs/cat_glob.py '%t/*-ascend-compile.mlir' | filecheck %s --check-prefix=SYNCED
// RUN: %python %S/Inputs/cat_glob.py '%t/*-schedule.json' | filecheck %s --check-prefix=JSON
// RUN: %python %S/Inputs/cat_glob.py '%t/*-schedule.svg' | filecheck %s --check-prefix=SVG
// RUN: %python %S/Inputs/cat_glob.py '%t/*-trace.json' | filecheck %s --check-prefix=TRACE
// RUN: filecheck %s --check-prefix=SYNCED < %t.out

// INDEX:      00-input.mlir: the input
// INDEX-NEXT: 01-ascend-compile.convert-tile-to-hivm.mlir: the IR after stage convert-tile-to-hivm of pass ascend-compile
// INDEX:      -ascend-compile.ascend-insert-barrier-sync.mlir: the IR after stage ascend-insert-barrier-sync of pass ascend-compile
// INDEX:      -ascend-compile.mlir: the IR after pass ascend-compile
// INDEX-NEXT: -schedule.json: {{.*}}ascend-modulo-schedule
// INDEX-NEXT: -schedule.svg:
// INDEX-NEXT: -trace.json: simulator trace of block 0 (Chrome/Perfetto JSON): {{[0-9]+}} cycles, 0 race(s)
// INDEX-NEXT: -trace.svg: simulator pipe timeline of block 0 (SVG)

// CONVERTED: hivm.hir.load
// CONVERTED-NOT: pipe_barrier
// SYNCED: hivm.hir.pipe_barrier
// JSON: "name": "vecadd"
// JSON: "ii": {{[0-9]+}}
// SVG: <svg
// TRACE: "traceEvents"

// A pipeline that schedules: the schedule files come from the IR that carries it.
// RUN: rm -rf %t2 && ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule --dump-dir %t2 -o %t2.out
// RUN: filecheck %s --check-prefix=SCHED < %t2/index.txt
// SCHED:      00-input.mlir: the input
// SCHED-NEXT: 01-convert-tile-to-hivm.mlir: the IR after pass convert-tile-to-hivm
// SCHED-NEXT: 02-ascend-estimate-latency.mlir: the IR after pass ascend-estimate-latency
// SCHED-NEXT: 03-ascend-modulo-schedule.mlir: the IR after pass ascend-modulo-schedule
// SCHED-NEXT: 04-schedule.json: the schedule carried by the IR after ascend-modulo-schedule
// SCHED-NEXT: 05-schedule.svg:
// SCHED-NEXT: 06-trace.json:

// No passes: the input, and a note that there is nothing to trace.
// RUN: rm -rf %t3 && ascend-opt %examples/vecadd.mlir --dump-dir %t3 -o %t3.out
// RUN: filecheck %s --check-prefix=NONE < %t3/index.txt
// NONE:      00-input.mlir: the input
// NONE-NEXT: (no trace: the final IR is not a hivm-level kernel

// An unwritable directory is a diagnostic.
// RUN: not ascend-opt %examples/vecadd.mlir --dump-dir /proc/no-such-dir 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: cannot write --dump-dir '/proc/no-such-dir'
// BAD-NOT: Traceback

// A directory an earlier dump wrote starts clean: the program-order run above left
// stage files that a plain convert-tile-to-hivm run does not write.
// RUN: ascend-opt %examples/vecadd.mlir -p convert-tile-to-hivm --dump-dir %t -o %t.out2
// RUN: %python -c "import os, sys; print(sorted(os.listdir(sys.argv[1])))" %t | filecheck %s --check-prefix=CLEAN
// CLEAN:     ['00-input.mlir', '01-convert-tile-to-hivm.mlir',
// CLEAN-NOT: ascend-compile
// CLEAN:     'index.txt']

// A directory with files no dump wrote is refused, and left alone.
// RUN: rm -rf %t.mine && mkdir %t.mine && touch %t.mine/notes.txt
// RUN: not ascend-opt %examples/vecadd.mlir --dump-dir %t.mine 2>&1 | filecheck %s --check-prefix=FOREIGN
// RUN: ls %t.mine | filecheck %s --check-prefix=KEPT
// FOREIGN: ascend-opt: error: --dump-dir: '{{.*}}' holds files no dump wrote (notes.txt): name a new or empty directory
// KEPT: notes.txt
