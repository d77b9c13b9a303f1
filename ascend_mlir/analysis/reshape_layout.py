"""The strided layout of `memref.collapse_shape` and `memref.expand_shape`, as MLIR
defines it (`computeCollapsedLayoutMap` / `computeExpandedLayoutMap` in MemRefOps.cpp),
on plain shapes and strides (elements), so the simulator and tests share one rule.

* collapse: each reassociation group of source dims becomes one dim whose size is their
  product and whose stride is the stride of the group's innermost dim that is not of size 1
  (the innermost dim when all are 1). The group must be contiguous pairwise: for two
  consecutive dims `a, b` of the group (dims of size 1 skipped), `stride[a] == stride[b] *
  size[b]`. A group that is not is invalid IR (MLIR's verifier rejects it): the bytes it
  would name are not one strided dimension.
* expand: each source dim becomes a group of result dims whose sizes multiply to it;
  within the group the strides are the source stride times the sizes to their right.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod


def collapsed_layout(shape: Sequence[int], strides: Sequence[int],
                     groups: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], tuple[int, ...]] | str:
    """(shape, strides) of the collapsed view, or why the collapse is invalid."""
    out_shape: list[int] = []
    out_strides: list[int] = []
    for group in groups:
        sizes = [shape[d] for d in group]
        out_shape.append(prod(sizes))
        kept = [d for d in group if shape[d] != 1] or [group[-1]]
        out_strides.append(strides[kept[-1]])
        for outer, inner in zip(kept, kept[1:]):
            if strides[outer] != strides[inner] * shape[inner]:
                return (f"collapse_shape of dims {list(group)} that are not contiguous: dim {outer} has stride "
                        f"{strides[outer]}, not {strides[inner]} x {shape[inner]} (dim {inner}'s stride x size); "
                        f"MLIR defines no layout for it")
    return tuple(out_shape), tuple(out_strides)


def expanded_layout(shape: Sequence[int], strides: Sequence[int], result_shape: Sequence[int],
                    groups: Sequence[Sequence[int]]) -> tuple[int, ...] | str:
    """Strides of the expanded view of `result_shape`, or why it does not fit the source."""
    out = [0] * len(result_shape)
    for dim, group in enumerate(groups):
        sizes = [result_shape[d] for d in group]
        if prod(sizes) != shape[dim]:
            return f"expand_shape of dim {dim} (size {shape[dim]}) into sizes {sizes} whose product differs"
        step = strides[dim]
        for d in reversed(group):
            out[d] = step
            step *= result_shape[d]
    return tuple(out)
