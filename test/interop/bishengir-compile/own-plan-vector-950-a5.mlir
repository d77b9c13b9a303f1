// Fast tier: own-plan-vector-910b.mlir (our plan through bishengir-compile) and
// vecadd-950-a5.mlir (the a5 build) stand in.
// UNSUPPORTED: fast-tier
// ascend-compile's default (schedule=modulo sync=solver) output keeps OUR sync and OUR
// buffers/versions through bishengir-compile on Ascend 950 with the a5 build: alloc-planned-buffers
// re-spells the planned pointer_casts (bishengir's PlanMemory aborts on any of them) as
// one memref.alloc per buffer version, selected by `iv mod V`, and
// --disable-hivm-auto-inject-sync keeps bishengir's own sync out. It stops at the
// missing closed-source `hivmc-a5`: module.hivm.opt.mlir is the proof of acceptance.
// REQUIRES: bishengir-a5
// RUN: rm -rf %t && mkdir -p %t
// (vecadd with unroll=1: its multi-buffered tile, selected by iv mod 2)
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile{unroll=1},alloc-planned-buffers' -t npuir -o %t/vecadd.npuir.mlir
// RUN: filecheck %s --check-prefix=NPUIR --input-file %t/vecadd.npuir.mlir
// RUN: %bishengir_compile_a5 %t/vecadd.npuir.mlir -o %t/vecadd.o --target=Ascend950PR_9599 --disable-hivm-auto-inject-sync --save-temps=%t/vt > %t/vlog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/vlog
// RUN: filecheck %s --check-prefix=VECADD --input-file %t/vt/module.hivm.opt.mlir
// The default (vecadd unrolled twice, each copy with its own buffers) goes through too.
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/pair.npuir.mlir
// RUN: %bishengir_compile_a5 %t/pair.npuir.mlir -o %t/pair.o --target=Ascend950PR_9599 --disable-hivm-auto-inject-sync --save-temps=%t/pt > %t/plog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/plog
// RUN: filecheck %s --check-prefix=PAIR --input-file %t/pt/module.hivm.opt.mlir
// RUN: ascend-opt %examples/softmax.mlir -p 'ascend-compile,alloc-planned-buffers' -t npuir -o %t/softmax.npuir.mlir
// RUN: %bishengir_compile_a5 %t/softmax.npuir.mlir -o %t/softmax.o --target=Ascend950PR_9599 --disable-hivm-auto-inject-sync --save-temps=%t/st > %t/slog 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/slog
// RUN: filecheck %s --check-prefix=SOFTMAX --input-file %t/st/module.hivm.opt.mlir

// NPUIR-NOT: hivm.hir.pointer_cast
// NPUIR-COUNT-4: memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
// NPUIR: arith.select %{{.*}}, %{{.*}}, %{{.*}} : memref<512xf32, #hivm.address_space<ub>>
// LOG: Cannot find hivmc-a5
// Our version-0/1 WAR flags primed before the loop survive.
// PAIR: func.func @vecadd(
// PAIR: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// VECADD: func.func @vecadd(
// VECADD: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// (the a5 build lowers the version select to llvm.select)
// VECADD: select
// SOFTMAX: func.func @softmax(
// SOFTMAX: hivm.hir.set_flag
