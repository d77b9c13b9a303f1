"""Generated nested cube kernels: an outer loop over output tiles around a pipelined K loop.

`nested_gemm(tiles, k_steps, ...)` is one block computing `tiles` output tiles of
C = A @ B^T (tm x tn each, fp32 in L0C), each accumulated over `k_steps` K steps of `tk`
(A and B^T tiles staged in L1) and stored by one fixpipe: the shape of issue 18 item 4
("an outer loop around a pipelined K loop"). gemm_anchor's tile (256 x 224, 16 steps of
128, bf16) is `nested_gemm(tiles, 16)` with the defaults.
"""

from __future__ import annotations

CBUF = "#hivm.address_space<cbuf>"
CC = "#hivm.address_space<cc>"
GM = "#hivm.address_space<gm>"


def nested_gemm(
    tiles: int, k_steps: int, *, tm: int = 256, tn: int = 224, tk: int = 128, dtype: str = "bf16",
    inner_stages: int = 2, outer_stages: int = 1,
) -> str:
    """C[t*tm:(t+1)*tm, :tn] = A[t*tm:(t+1)*tm, :] @ B^T[:tn, :]^T for t < `tiles` (module doc)."""
    m, k = tiles * tm, k_steps * tk
    a_t, bt_t, c_t = f"memref<{m}x{k}x{dtype}, {GM}>", f"memref<{tn}x{k}x{dtype}, {GM}>", f"memref<{m}x{tn}xf32, {GM}>"
    la, lb, acc = f"memref<{tm}x{tk}x{dtype}, {CBUF}>", f"memref<{tn}x{tk}x{dtype}, {CBUF}>", f"memref<{tm}x{tn}xf32, {CC}>"
    a_view = f"memref<{tm}x{tk}x{dtype}, strided<[{k}, 1], offset: ?>, {GM}>"
    b_view = f"memref<{tn}x{tk}x{dtype}, strided<[{k}, 1], offset: ?>, {GM}>"
    c_view = f"memref<{tm}x{tn}xf32, strided<[{tn}, 1], offset: ?>, {GM}>"
    lines = [
        "module {",
        f"  func.func @nested_gemm(%a: {a_t}, %bt: {bt_t}, %c: {c_t}) attributes {{tile.kernel, tile.grid = 1 : i64}} {{",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        f"    %ctiles = arith.constant {tiles} : index",
        f"    %csteps = arith.constant {k_steps} : index",
        f"    %ctm = arith.constant {tm} : index",
        f"    %ctk = arith.constant {tk} : index",
        f"    %la = memref.alloc() : {la}",
        f"    %lb = memref.alloc() : {lb}",
        f"    %acc = memref.alloc() : {acc}",
        "    scf.for %t = %c0 to %ctiles step %c1 {",
        "      %m0 = arith.muli %t, %ctm : index",
        "      scf.for %s = %c0 to %csteps step %c1 {",
        "        %k0 = arith.muli %s, %ctk : index",
        f"        %as = memref.subview %a[%m0, %k0] [{tm}, {tk}] [1, 1] : {a_t} to {a_view}",
        f"        %bs = memref.subview %bt[0, %k0] [{tn}, {tk}] [1, 1] : {bt_t} to {b_view}",
        f"        tile.copy ins(%as : {a_view}) outs(%la : {la})",
        f"        tile.copy ins(%bs : {b_view}) outs(%lb : {lb})",
        "        %first = arith.cmpi eq, %s, %c0 : index",
        f"        tile.matmul {{transpose_b}} ins(%la, %lb : {la}, {lb}) outs(%acc : {acc}) init(%first : i1)",
        f"      }} {{tile.num_stages = {inner_stages} : i64}}",
        f"      %cs = memref.subview %c[%m0, 0] [{tm}, {tn}] [1, 1] : {c_t} to {c_view}",
        f"      tile.copy ins(%acc : {acc}) outs(%cs : {c_view})",
        f"    }} {{tile.num_stages = {outer_stages} : i64}}",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"
