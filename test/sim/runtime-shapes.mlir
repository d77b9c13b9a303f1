// ascend-sim --bind: runtime sizes and scalars of a kernel compiled once (issue 17).

// The default binding (n = 1000, x/y/z of 1000 elements): two tiles, the second partial.
// RUN: ascend-sim %S/Inputs/vecadd_dyn.mlir | filecheck %s --check-prefix=DEFAULT
// DEFAULT: output z matches the reference
// DEFAULT: OK

// Size 0 runs and does nothing (more sizes, in process: test/python/test_runtime_shapes.py).
// RUN: ascend-sim %S/Inputs/vecadd_dyn.mlir --bind %n=0 --bind x=7 --bind arg1=0 --perturb 1 | filecheck %s --check-prefix=OK
// OK: 8 block(s)
// OK-NOT: error:
// OK: perturb: 1 runs
// OK: OK

// A runtime size beyond a GM extent: located at the access, exit 1.
// RUN: not ascend-sim %S/Inputs/vecadd_dyn.mlir --bind n=3000 --bind x=2900 2>&1 | filecheck %s --check-prefix=EXTENT
// EXTENT: vecadd_dyn.mlir:25:7: error: {{.*}}memref.subview out of bounds in dim 0: offset 2560, size 440, stride 1 on extent 2900
// EXTENT-NOT: Traceback

// A negative shape: located, exit 1.
// RUN: not ascend-sim %S/Inputs/vecadd_dyn.mlir --bind x=-4 2>&1 | filecheck %s --check-prefix=NEGATIVE
// NEGATIVE: vecadd_dyn.mlir:5:3: error: --bind x=-4: a size is never negative
// NEGATIVE-NOT: Traceback

// Sizes no host memory holds: located, exit 1 (the inputs were a 64 GiB numpy allocation,
// an internal MemoryError, or the OOM killer where the allocation is lazy).
// RUN: not ascend-sim %S/Inputs/vecadd_dyn.mlir --bind n=17179869184 2>&1 | filecheck %s --check-prefix=HUGE
// RUN: not ascend-sim %S/Inputs/vecadd_dyn.mlir --bind n=4611686018427387904 2>&1 | filecheck %s --check-prefix=HUGE
// HUGE: vecadd_dyn.mlir:5:3: error: --bind: at these sizes the kernel's GM arguments take {{[0-9.]+}} GiB (z {{[0-9.]+}} GiB, y {{[0-9.]+}} GiB, x {{[0-9.]+}} GiB), more than a quarter of this machine's {{[0-9.]+}} GiB of memory
// HUGE-NOT: internal error

// Bad values on the command line: located at the kernel, exit 1.
// RUN: not ascend-sim %S/Inputs/vecadd_dyn.mlir --bind n=1.5 2>&1 | filecheck %s --check-prefix=TYPE
// TYPE: vecadd_dyn.mlir:5:3: error: --bind n=1.5: argument %n is index: expected an integer
// RUN: not ascend-sim %S/Inputs/vecadd_dyn.mlir --bind m=3 2>&1 | filecheck %s --check-prefix=NAME
// NAME: vecadd_dyn.mlir:5:3: error: --bind m=3: @vecadd_dyn has no argument named 'm' (its arguments: x, y, z, n)
// RUN: not ascend-sim %S/Inputs/vecadd_dyn.mlir --bind n 2>&1 | filecheck %s --check-prefix=FORM
// FORM: ascend-sim: error: --bind n: expected NAME=VALUE

// --help states the defaults.
// RUN: ascend-sim --help | filecheck %s --check-prefix=HELP
// HELP: --bind NAME=VALUE
// HELP: Defaults: unbound integer/index scalars

// A hivm-level kernel (our compile output, or a foreign dump) binds the same way.
// RUN: ascend-opt %S/Inputs/vecadd_dyn.mlir -p ascend-compile | ascend-sim - --bind n=700 --bind y=800 --perturb 1 | filecheck %s --check-prefix=HIVM
// HIVM: 8 block(s)
// HIVM-NOT: error:
// HIVM: OK
