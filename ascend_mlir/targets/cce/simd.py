"""Row reductions and row broadcasts of the cce printer, as the text of each arch's calls.

IR-free: the printer (targets/cce/vector.py) hands over element types and sizes and prints what
these return.

dav-3510 (Ascend 950): vector code is register SIMD in `__simd_vf__` functions (the asc_*
C API of dav-3510 has no UB-pointer vector compute; TileLang's 950 backend prints vector
code the same way). One helper per reduction kind and element type, printed once before
the kernels and called with the tile's pointers, sizes and row strides:
* row reduce: per row, VL-sized column chunks under `asc_update_mask_b32/b16` tail masks,
  each reduced in-register (`asc_reduce_max/min/sum`: the result in lane 0), chunk results
  combined in lane 0 (`asc_max/min/add` under a one-lane mask), the lane stored with the
  unaligned-store pair `asc_storeunalign` + `asc_storeunalign_post` (the destination is one
  element per row, not 32-byte aligned);
* row broadcast: per row, the row's value read with `asc_loadunalign_pre/asc_loadunalign`,
  spread with `asc_duplicate` (lane 0 to every active lane), stored per chunk with
  `asc_storealign`.

dav-c220 (910B): the classic whole-reduce and block-broadcast intrinsics, inline:
* row reduce: `vcmax` / `vcmin` (ONLY_VALUE) / `vcadd` with repeat = rows (one 256-byte
  repeat per row, srcRepStride = the row stride in 32-byte blocks, one result per repeat),
  in normal mask mode with the row's lanes set; a row wider than one repeat is reduced one
  repeat-wide column chunk at a time into a scratch row at the top of UB and folded into
  the destination with `vmax` / `vmin` / `vadd` (counter mode), as Ascend C's ReduceMax
  folds through its shared temporary buffer;
* row broadcast: `vbrcb` (eight source elements per repeat, each to one 32-byte block: block
  stride = the row stride, so each row gets its value in its first block), then `vcopy`
  with source block and repeat strides 0 copies that block along the row.
"""

from __future__ import annotations

REGISTER = {"float": "vector_float", "half": "vector_half", "bfloat16_t": "vector_bfloat16_t"}
VL_BYTES = 256
_REDUCE = {"sum": ("asc_reduce_sum", "asc_add"), "max": ("asc_reduce_max", "asc_max"), "min": ("asc_reduce_min", "asc_min")}
C220_REDUCE = {"sum": ("vcadd", "0", "vadd"), "max": ("vcmax", "ONLY_VALUE", "vmax"), "min": ("vcmin", "ONLY_VALUE", "vmin")}
_SUFFIX = {"float": "f32", "half": "f16", "bfloat16_t": "bf16"}


def element_bytes(ctype: str) -> int:
    return 4 if ctype == "float" else 2


def lanes(ctype: str) -> int:
    return VL_BYTES // element_bytes(ctype)


def _mask_update(ctype: str) -> str:
    return f"asc_update_mask_b{8 * element_bytes(ctype)}"


def _load(reg: str, address: str, aligned: bool) -> list[str]:
    """Load one VL at `address`: `asc_loadalign` where it is 32-byte aligned, else the
    unaligned pair through the load register `in`."""
    if aligned:
        return [f"asc_loadalign({reg}, {address});"]
    return [f"asc_loadunalign_pre(in, {address});", f"asc_loadunalign({reg}, in, {address});"]


def row_reduce_helper(kind: str, ctype: str, aligned: bool = True) -> tuple[str, list[str]]:
    """(name, lines) of the dav-3510 helper reducing each row of a rows x cols tile (rows
    that may start anywhere when not `aligned`: unaligned loads)."""
    reduce_call, combine = _REDUCE[kind]
    name = f"vf_row_reduce_{kind}_{_SUFFIX[ctype]}{'' if aligned else '_unaligned'}"
    reg, n, bits = REGISTER[ctype], lanes(ctype), 8 * element_bytes(ctype)
    return name, [
        f"// dst[r * dst_stride] = {kind} of row r of src (rows x cols, row strides in elements)",
        f"__simd_vf__ inline void {name}(__ubuf__ {ctype} *dst, __ubuf__ {ctype} *src, uint32_t rows, uint32_t cols,",
        f"{' ' * (len(name) + 25)}uint32_t src_stride, uint32_t dst_stride) {{",
        f"  {reg} x;",
        f"  {reg} part;",
        f"  {reg} acc;",
        "  vector_store_unalign out;",
        *([] if aligned else ["  vector_load_unalign in;"]),
        f"  vector_bool lane0 = asc_create_mask_b{bits}(PAT_VL1);",
        "  for (uint32_t r = 0; r < rows; ++r) {",
        "    uint32_t count = cols;",
        f"    vector_bool mask = {_mask_update(ctype)}(count);",
        *[f"    {line}" for line in _load("x", "src + r * src_stride", aligned)],
        f"    {reduce_call}(acc, x, mask);",
        f"    for (uint32_t c = {n}; c < cols; c += {n}) {{",
        f"      mask = {_mask_update(ctype)}(count);",
        *[f"      {line}" for line in _load("x", "src + r * src_stride + c", aligned)],
        f"      {reduce_call}(part, x, mask);",
        f"      {combine}(acc, acc, part, lane0);",
        "    }",
        "    asc_storeunalign(dst + r * dst_stride, out, acc, 1);",
        "    asc_storeunalign_post(dst + r * dst_stride, out, 1);",
        "  }",
        "}",
    ]


def row_broadcast_helper(ctype: str, aligned: bool = True) -> tuple[str, list[str]]:
    """(name, lines) of the dav-3510 helper writing src[r * src_stride] along row r of dst
    (rows that may start anywhere when not `aligned`: unaligned stores, posted per row)."""
    name = f"vf_row_broadcast_{_SUFFIX[ctype]}{'' if aligned else '_unaligned'}"
    reg, n = REGISTER[ctype], lanes(ctype)
    if aligned:
        store = ["      asc_storealign(dst + r * dst_stride + c, y, mask);"]
        post: list[str] = []
    else:
        store = [f"      asc_storeunalign(dst + r * dst_stride + c, out, y, cols - c < {n} ? cols - c : {n});"]
        post = ["    asc_storeunalign_post(dst + r * dst_stride, out, cols);"]
    return name, [
        "// row r of dst (rows x cols, row strides in elements) = src[r * src_stride]",
        f"__simd_vf__ inline void {name}(__ubuf__ {ctype} *dst, __ubuf__ {ctype} *src, uint32_t rows, uint32_t cols,",
        f"{' ' * (len(name) + 25)}uint32_t dst_stride, uint32_t src_stride) {{",
        "  vector_load_unalign in;",
        *([] if aligned else ["  vector_store_unalign out;"]),
        f"  {reg} x;",
        f"  {reg} y;",
        "  for (uint32_t r = 0; r < rows; ++r) {",
        "    asc_loadunalign_pre(in, src + r * src_stride);",
        "    asc_loadunalign(x, in, src + r * src_stride);",
        "    uint32_t count = cols;",
        f"    for (uint32_t c = 0; c < cols; c += {n}) {{",
        f"      vector_bool mask = {_mask_update(ctype)}(count);",
        "      asc_duplicate(y, x, mask);",
        *store,
        "    }",
        *post,
        "  }",
        "}",
    ]


def c220_lane_mask(active: int) -> tuple[str, str]:
    """(high, low) words of a normal-mode vector mask with the low `active` lanes set."""

    def word(bits: int) -> str:
        bits = max(0, min(64, bits))
        return "0xffffffffffffffffULL" if bits == 64 else f"0x{(1 << bits) - 1:x}ULL"

    return word(active - 64), word(active)


def c220_runtime_lane_mask(active: str, lanes: int) -> tuple[str, str]:
    """(high, low) words, as C expressions, of a normal-mode vector mask with the low
    `active` (a C expression, 0 <= active <= lanes) lanes set."""
    low = f"({active} >= 64 ? 0xffffffffffffffffULL : (1ULL << ({active})) - 1)"
    if lanes <= 64:
        return "0x0ULL", low
    high = f"({active} >= 128 ? 0xffffffffffffffffULL : {active} > 64 ? (1ULL << (({active}) - 64)) - 1 : 0x0ULL)"
    return high, low


# ----- elementwise ops on dav-3510 ---------------------------------------------------------
# The asc_* count-form name the printer's tables give each op -> how its helper computes one
# register: the register call(s) on `x` (first source), `y` (second source, or the scalar
# spread with asc_duplicate_scalar) into `x`. Ops without a register call of their own are
# composed from documented ones: reciprocal 1 / x and rsqrt 1 / sqrt(x) divide a register
# of ones, x - s adds -s, x / s divides by the spread scalar (as the reference rounds x / s
# once, not x * (1 / s)).
_BINARY = {"asc_add": "asc_add", "asc_sub": "asc_sub", "asc_mul": "asc_mul", "asc_div": "asc_div",
           "asc_max": "asc_max", "asc_min": "asc_min"}
_UNARY = {"asc_exp": ["asc_exp(x, x, mask);"], "asc_log": ["asc_ln(x, x, mask);"], "asc_abs": ["asc_abs(x, x, mask);"],
          "asc_relu": ["asc_relu(x, x, mask);"], "asc_sqrt": ["asc_sqrt(x, x, mask);"],
          "asc_rsqrt": ["asc_sqrt(x, x, mask);", "asc_duplicate_scalar(y, 1.0f, mask);", "asc_div(x, y, x, mask);"],
          "asc_reciprocal": ["asc_duplicate_scalar(y, 1.0f, mask);", "asc_div(x, y, x, mask);"],
          "asc_copy": []}
_SCALAR = {"asc_add_scalar": ["asc_add_scalar(x, x, value, mask);"],
           "asc_sub_scalar": ["asc_add_scalar(x, x, -value, mask);"],
           "asc_mul_scalar": ["asc_mul_scalar(x, x, value, mask);"],
           "asc_max_scalar": ["asc_max_scalar(x, x, value, mask);"],
           "asc_min_scalar": ["asc_min_scalar(x, x, value, mask);"],
           "asc_div_scalar": ["asc_duplicate_scalar(y, value, mask);", "asc_div(x, x, y, mask);"]}


def has_elementwise_helper(call: str) -> bool:
    return call in _BINARY or call in _UNARY or call in _SCALAR or call == "asc_duplicate"


def elementwise_helper(call: str, ctype: str, aligned: bool = True) -> tuple[str, list[str]]:
    """(name, lines) of the dav-3510 helper for the count-form `call` on `ctype` elements:
    n consecutive elements, one register of VL bytes per step under a tail mask. When an
    operand may start off a 32-byte boundary (not `aligned`), the helper loads with the
    unaligned pair and stores with `asc_storeunalign` (the last partial block posted)."""
    reg, n = REGISTER[ctype], lanes(ctype)
    name = f"vf_{call.removeprefix('asc_')}_{_SUFFIX[ctype]}{'' if aligned else '_unaligned'}"
    p = f"__ubuf__ {ctype} *"
    if call in _BINARY:
        params, loads, body = f"{p}dst, {p}src0, {p}src1", ["src0", "src1"], [f"{_BINARY[call]}(x, x, y, mask);"]
    elif call in _SCALAR:
        params, loads, body = f"{p}dst, {p}src, float value", ["src"], _SCALAR[call]
    elif call == "asc_duplicate":
        params, loads, body = f"{p}dst, float value", [], ["asc_duplicate_scalar(x, value, mask);"]
    else:
        params, loads, body = f"{p}dst, {p}src", ["src"], _UNARY[call]
    regs = ["x", "y"] if len(loads) == 2 or any("(y," in line or ", y," in line for line in body) else ["x"]
    lines = [f"// {call} over n consecutive elements, {n} per register",
             f"__simd_vf__ inline void {name}({params}, uint32_t n) {{"]
    lines += [f"  {reg} {r};" for r in regs]
    if not aligned:
        lines += ["  vector_load_unalign in;"] * bool(loads) + ["  vector_store_unalign out;"]
    lines += ["  uint32_t count = n;", f"  for (uint32_t i = 0; i < n; i += {n}) {{"]
    if not aligned:
        lines.append(f"    uint32_t len = n - i < {n} ? n - i : {n};")
    lines.append(f"    vector_bool mask = {_mask_update(ctype)}(count);")
    for r, src in zip(["x", "y"], loads, strict=False):
        lines += [f"    {line}" for line in _load(r, f"{src} + i", aligned)]
    lines += [f"    {line}" for line in body]
    if aligned:
        lines += ["    asc_storealign(dst + i, x, mask);", "  }", "}"]
    else:
        lines += ["    asc_storeunalign(dst + i, out, x, len);", "  }", "  asc_storeunalign_post(dst, out, n);", "}"]
    return name, lines
