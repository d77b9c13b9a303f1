"""The `hacc` dialect: the function and module attributes bishengir uses for kernels.

* `hacc.entry` (a unit attribute on the kernel function; nothing to define),
* `hacc.function_kind = #hacc.function_kind<DEVICE|HOST>`,
* `hacc.target = #hacc.target<"Ascend950PR_9599">` on the module: the chip the IR is for,
* `hacc.arg_type = #hacc.arg_type<ffts_base_address>` on a kernel argument.
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Data, Dialect
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

ENTRY = "hacc.entry"
FUNCTION_KIND = "hacc.function_kind"
TARGET = "hacc.target"


class FunctionKind(StrEnum):
    HOST = "HOST"
    DEVICE = "DEVICE"


@irdl_attr_definition
class FunctionKindAttr(EnumAttribute[FunctionKind]):
    """`#hacc.function_kind<DEVICE>`."""

    name = "hacc.function_kind"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> FunctionKind:
        parser.parse_punctuation("<")
        value = parser.parse_str_enum(FunctionKind)
        parser.parse_punctuation(">")
        return value


@irdl_attr_definition
class TargetAttr(Data[str]):
    """`#hacc.target<"Ascend950PR_9599">`: the chip, in bishengir's own spelling."""

    name = "hacc.target"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.data)
        printer.print_string(">")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        parser.parse_punctuation("<")
        value = parser.parse_str_literal(" (the hacc target name)")
        parser.parse_punctuation(">")
        return value


# bishengir's kernel argument kinds (`#hacc.arg_type<...>` on function arguments).
KERNEL_ARG_TYPES: tuple[str, ...] = (
    "ffts_base_address",
    "input",
    "output",
    "input_and_output",
    "workspace",
    "sync_block_lock",
    "tiling_key",
    "tiling_data",
    "tiling_struct",
    "mesh_arg",
    "sanitizer_addr",
    "gm_addr",
    "sub_workspace",
)


class _KindAttr(Data[str]):
    """`#hacc.<mnemonic><kind>` with kind one of `KINDS` (bishengir's I32 enums that print
    as a bare identifier in angle brackets)."""

    KINDS: ClassVar[tuple[str, ...]] = ()

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        parser.parse_punctuation("<")
        pos = parser.pos
        value = parser.parse_identifier()
        if value not in cls.KINDS:
            parser.raise_error(f"unknown {cls.name} '{value}' (expected one of {', '.join(cls.KINDS)})",
                               pos, parser.pos)
        parser.parse_punctuation(">")
        return value

    def verify(self) -> None:
        if self.data not in self.KINDS:
            raise VerifyException(f"unknown {self.name} '{self.data}'")


@irdl_attr_definition
class ArgTypeAttr(_KindAttr):
    """`#hacc.arg_type<ffts_base_address>`: what a kernel argument is for (e.g. the base
    address of the cross-core flags, which MIX kernels take as their first argument)."""

    name = "hacc.arg_type"
    KINDS = KERNEL_ARG_TYPES


ARG_TYPE = "hacc.arg_type"
FFTS_BASE_ADDRESS = ArgTypeAttr("ffts_base_address")


def is_ffts_base_address(func_op: Any, index: int) -> bool:
    """Whether argument `index` of a function is the FFTS base address of a MIX part
    (`{hacc.arg_type = #hacc.arg_type<ffts_base_address>}`), not kernel data."""
    arg_attrs = func_op.arg_attrs
    if arg_attrs is None or index >= len(arg_attrs.data):
        return False
    return arg_attrs.data[index].data.get(ARG_TYPE) == FFTS_BASE_ADDRESS


# bishengir's host function kinds (`#hacc.host_func_type<...>` on the host-side helper
# functions bishengir adds to a kernel module, e.g. triton-ascend's task-type query).
HOST_FUNC_TYPES: tuple[str, ...] = (
    "host_entry",
    "tiling_function",
    "infer_output_shape_function",
    "infer_workspace_shape_function",
    "infer_sync_block_lock_num_function",
    "infer_sync_block_lock_init_function",
    "get_tiling_struct_size_function",
    "infer_task_type_function",
    "infer_vf_mode_function",
)


@irdl_attr_definition
class HostFuncTypeAttr(_KindAttr):
    """`#hacc.host_func_type<infer_task_type_function>`: what a host function of the
    module computes (it runs on the host, never on a core: the simulator skips it)."""

    name = "hacc.host_func_type"
    KINDS = HOST_FUNC_TYPES


HACC = Dialect("hacc", [], [FunctionKindAttr, TargetAttr, ArgTypeAttr, HostFuncTypeAttr])
