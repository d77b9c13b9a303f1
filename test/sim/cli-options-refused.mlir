// Options that do not apply are refused, located where the file says what they would
// override (issue 23 item 7); a chip file may name its own hacc target.

// --arch chooses the CCE spelling of --via cce: without it, refused.
// RUN: not ascend-sim %examples/vecadd.mlir --arch dav-c220 2>&1 | filecheck %s --check-prefix=ARCH
// ARCH: ascend-sim: error: --arch chooses the CCE spelling of --via cce

// --grid is for hivm-level kernels whose IR does not carry it: refused at a tile kernel.
// RUN: not ascend-sim %examples/vecadd.mlir --grid 2 2>&1 | filecheck %s --check-prefix=GRID
// GRID: vecadd.mlir:{{[0-9]+}}:{{[0-9]+}}: error: --grid is for hivm-level kernels

// --func must name a kernel.
// RUN: not ascend-sim %S/Inputs/options/kernel-and-helper.mlir --func helper 2>&1 | filecheck %s --check-prefix=FUNC
// FUNC: kernel-and-helper.mlir:{{[0-9]+}}:3: error: 'func.func' op 'helper' is not a kernel (no hacc.entry): this module's kernels are @relu
// A name no function has: the module's functions are listed.
// RUN: not ascend-sim %S/Inputs/options/kernel-and-helper.mlir --func nosuch 2>&1 | filecheck %s --check-prefix=NONE
// NONE: kernel-and-helper.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'builtin.module' op no function named 'nosuch' (this module's functions: @helper, @relu)
// RUN: ascend-sim %S/Inputs/options/kernel-and-helper.mlir --func relu | filecheck %s --check-prefix=KERNEL
// KERNEL: OK

// A chip file that names its own target: ascend-compile records it, every later pass finds it.
// RUN: sed 's/^module {/module attributes {hacc.target = #hacc.target<"MyChip_1">} {/' %examples/vecadd.mlir > %t.mlir
// RUN: ascend-sim %t.mlir --chip %S/Inputs/options/own-target.toml | filecheck %s --check-prefix=OWN
// OWN: output z matches the reference
// OWN: OK
