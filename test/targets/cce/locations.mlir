// Every statement names the tile-level line it comes from, also when the compiled IR
// goes through a file in between (--print-debuginfo keeps the locations). In one run, a
// barrier the sync pass inserted (it has no location of its own) names the op it
// protects; across a file, such ops carry the position of the intermediate text.
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile{schedule=program-order sync=barrier-all target=cce}' -t cce | filecheck %s --check-prefixes=CHECK,DIRECT
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile{schedule=program-order sync=barrier-all target=cce}' --print-debuginfo | ascend-opt -t cce | filecheck %s
// CHECK:       __ubuf__ float *ux = (__ubuf__ float *)(ub_buf + 0);  // {{.*}}examples/vecadd.mlir:16
// CHECK:       asc_copy_gm2ub_align(ux, xs, 1, 2048, 0, 0, false, (asc_load_l2_cache_mode)0, 2048, 2048);  // {{.*}}examples/vecadd.mlir:25
// DIRECT:      asc_sync();  // {{.*}}examples/vecadd.mlir:27
// CHECK:       vf_add_f32(uz, ux, uy, 512);  // {{.*}}examples/vecadd.mlir:27
// CHECK:       asc_copy_ub2gm_align(zs, uz, 1, 2048, (asc_store_l2_cache_mode)0, 2048, 2048);  // {{.*}}examples/vecadd.mlir:28
