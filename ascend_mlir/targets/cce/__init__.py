"""`-t cce{arch=dav-3510|dav-c220}`: scheduled, synced hivm-level IR -> one CCE / Ascend C
translation unit per module.

`arch=dav-3510` (Ascend 950, the default for ascend950 modules) prints the `asc_*` C API
that TileLang's Ascend 950 backend prints (the anchor; see reference/cce-api.md);
`arch=dav-c220` (Ascend 910B) prints the classic intrinsics (`copy_gm_to_ubuf_align_b32`,
`load_cbuf_to_ca`, `mad`, `copy_matrix_cc_to_gm`, `set_flag(PIPE_MTE2, PIPE_V,
EVENT_ID0)`, ...). Without `arch`, the module's chip (`hacc.target`) decides. The output
is compiled by `bisheng` on a CANN machine and, here, by g++ against tools/cce-emu.

What the printer prints (it only prints; it never changes the IR). It takes what
`ascend-compile{target=cce}` prepared and refuses anything else with a located error that
names the pass to run (targets/cce/prepared.py): a tile-level op, an mmadL1 not lowered
by ascend-lower-mmad-l0, an on-chip `memref.alloc` not placed by ascend-plan-memory, a
kernel whose flags ascend-verify-sync's checker finds missing.

* one `extern "C" __global__` function per kernel: `__cube__` / `__vector__` /
  `__mix__(1, V)` (dav-c220: `__aicore__` + `KERNEL_TASK_TYPE_DEFAULT`). A MIX kernel is
  one function with `if ASC_IS_AIC { ... }` and `if ASC_IS_AIV { ... }` (dav-c220:
  `ASCEND_IS_AIC/AIV`), whether the IR is one MIX function (each side keeps the hivm ops
  of its core, plus the scalar code they need) or a `<name>_mix_aic` / `<name>_mix_aiv`
  pair (each side is its function). V is 2 when the kernel uses a dual fixpipe or the
  sub-block index, else 1 (the simulator's rule).
* memory: one byte arena per on-chip scope (`__ubuf__ uint8_t *ub_buf = (__ubuf__
  uint8_t *)0;`), every buffer a typed pointer at its offset: `hivm.hir.pointer_cast`
  prints its planned offset (an expression when the offset depends on the loop, as
  version-indexed buffers do). The printer picks no byte range of its own: a dav-c220
  reduction or broadcast of several V instructions (a row reduction wider than one
  repeat, static or runtime width; a column reduction; a broadcast into a partial tile)
  gets its scratch at the top of UB, its steps and its V barriers from
  ascend-lower-wide-reduce, in IR.
* scalar code: arith as C expressions, `scf.for` / `scf.if` as loops and ifs, subviews as
  pointer arithmetic from the memref strides.
* DMA: the call of the copy path with nBurst / burstLen / strides from the memref layouts
  (dav-3510 lengths and strides in bytes; dav-c220 GM side in bytes, UB side in 32-byte
  blocks), nd2nz with its parameter call, fixpipe with nz2nd to GM or UB (dual
  destination when the UB tile is half as tall), UB -> L1 as one strided burst copy per
  32-byte column block (that is how ND rows become NZ fractals).
* the cube: `cce.load_l0a` / `cce.load_l0b` / `cce.mmad` (dialects/cce.py), which
  `ascend-lower-mmad-l0` makes of each mmadL1 (its K steps, L0A/L0B halves, flags and
  event ids in IR, seen by ascend-verify-sync and the simulator), one call each:
  `asc_copy_l12l0a[_transpose]` / `asc_copy_l12l0b[_transpose]` / `asc_mmad` (dav-c220:
  `load_cbuf_to_ca/cb` per fractal row, `mad`). Transposed operands (`b_transpose`: B^T
  stored N x K, the anchor's own GEMM; `a_transpose`: A^T stored K x M) come to L1 with
  the same nd2nz as any operand, as the anchor loads its B^T tile (rows of the stored
  matrix are the NZ rows; no `dn2nz`, which would need the source read column-wise);
  the L1 -> L0 load fixes the orientation as the real API splits it: conventional A B
  is `asc_copy_l12l0a` + `asc_copy_l12l0b_transpose`, B^T takes the plain
  `asc_copy_l12l0b`, A^T `asc_copy_l12l0a_transpose` (dav-c220: load2d's transpose flag
  likewise).
* vector ops, one hivm op = one call (a loop over rows for strided views), so the op <->
  statement mapping and its flags stay one to one. dav-3510 has no UB-pointer vector
  compute (asc-devkit implements the count forms `asc_add(dst, a, b, count)` for
  910B-class 2201 cores only; the anchor prints vector code as `__simd_vf__` functions):
  every op calls a `__simd_vf__` helper of register SIMD, printed once per op and element
  type before the kernels (targets/cce/simd.py: the sequences and why; a helper's body
  is shared, its call carries the op's location). Elementwise: `asc_update_mask_b32/b16`
  tail masks, `asc_loadalign`, the register op (`asc_add`, `asc_exp`, `asc_ln`,
  `asc_mul_scalar`, `asc_duplicate_scalar`, ...; reciprocal and rsqrt divide a register of
  ones), `asc_storealign`. Row reductions: `asc_reduce_max/min/sum` into lane 0 per 64-lane
  chunk, combined under a one-lane mask, the row result stored with `asc_storeunalign` +
  `_post`; row broadcasts: `asc_loadunalign` + `asc_duplicate` + `asc_storealign`. The
  conversions (vcast) still print the count form `asc_float2bfloat16(dst, src, count)`: the
  register conversions place narrowed lanes by rules not modelled yet, so that is the one
  vector spelling left that bisheng for dav-3510 would not take. dav-c220 prints the
  classic intrinsics inline: counter-mode `set_vector_mask(0, count); vadd(dst, a, b, 1,
  1, 1, 1, 8, 8, 8);`, whole-reduce `vcmax` / `vcmin` (ONLY_VALUE) / `vcadd` with repeat =
  rows in normal mask mode, one 256-byte repeat per call, its lane mask computed at run
  time for a partial tile (wider rows are ascend-lower-wide-reduce's steps in IR, refused
  unlowered; so are column reductions of several rows), `vbrcb` once per 32-byte block
  of the row for static broadcasts (independent calls: no barrier inside the op); a
  partial tile's broadcast is its lowered steps: `vbrcb` into one block per row, then
  `cce.repeat_blocks`, a `vcopy` per row with source block stride 0.
* flags and barriers exactly as in the IR (the printer adds none): `asc_sync_notify/wait(PIPE_A, PIPE_B, (event_t)id)`,
  `asc_sync_pipe(PIPE_X)` / `asc_sync()`, cross-core `asc_sync_intra_arrive/wait` (the
  cube addresses vector core 1 with id + 16); dav-c220 `set_flag/wait_flag`,
  `pipe_barrier`, `ffts_cross_core_sync` / `wait_flag_dev`.
* every statement ends with `// file:line` of the op it comes from (the tile-level op
  when the IR was compiled in the same run; an op the passes created without a location
  takes the location of the next located op of its block, the op it was inserted for).

What it cannot print is an error at the op (`file:line:col: error: ...`), e.g. L0C -> UB
on dav-c220 (910B has no such path) or a rank-3 DMA.
"""

from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.targets.cce.kernels import Kernel, find_kernels, source_location
from ascend_mlir.targets.cce.printer import CcePrinter, CceTarget, default_arch, print_cce
from ascend_mlir.targets.cce.values import ARCHS, View, buffer_bytes, c_element_type

__all__ = [
    "ARCHS", "CcePrinter", "CceTarget", "Kernel", "View", "buffer_bytes", "c_element_type",
    "default_arch", "element_bytes", "find_kernels", "print_cce", "source_location",
]
