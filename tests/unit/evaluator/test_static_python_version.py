"""What the static checks refuse because the CPU check's Python (3.11, Unicode 14.0) and the GPU
image's (3.12, Unicode 15.0) answer it apart, and a library class's attribute handed out as a
value (the CPU child's stand-ins): red team rt25's classes, session 48. Snippets as in
test_static_checks; `# <-` marks the line to blame."""
from __future__ import annotations

import pytest
from test_static_checks import assert_accepted, assert_rejected

# a library class's method or descriptor as a value is the object the process installed there:
# the CPU child's Tensor.is_cuda is a property, the GPU's a C getset (rt25)
CLASS_ATTRIBUTES = {
    "descriptor_repr": 'FLAG = repr(torch.Tensor.is_cuda).startswith("<attribute")  # <-',
    "descriptor_compared": "FLAG = torch.Tensor.is_cuda is None  # <-",
    "descriptor_isinstance": "FLAG = isinstance(torch.Tensor.is_cuda, property)  # <-",
    "descriptor_getattr": 'FLAG = getattr(torch.Tensor, "is_cuda")  # <-',
    "descriptor_of_a_subclass": "FLAG = repr(nn.Parameter.is_cuda)  # <-",
    "device_type_descriptor": "FLAG = repr(torch.device.type)  # <-",
    "method_as_a_value": "FLAG = str(torch.Tensor.add)  # <-",
    "module_method_as_a_value": "FLAG = repr(nn.Module.cuda)  # <-",
    "from_import_class": '''
        from torch import Tensor

        FLAG = repr(Tensor.is_cuda)  # <-
    ''',
    "method_passed": '''
        def f(xs):
            return list(map(torch.Tensor.contiguous, xs))  # <-
    ''',
    # the class as the object isinstance/issubclass test: the CPU child's torch.device is a
    # stand-in class, so issubclass(torch.device, torch.device) was False there, True on the GPU
    "class_tested_by_issubclass": "FLAG = issubclass(torch.device, torch.device)  # <-",
    "class_tested_by_isinstance": "FLAG = isinstance(torch.device, object)  # <-",
    "class_tested_in_a_tuple": "FLAG = isinstance((torch.Tensor, torch.device), tuple)  # <-",
}


@pytest.mark.parametrize("name", list(CLASS_ATTRIBUTES))
def test_a_library_class_attribute_as_a_value_is_refused(name):
    assert_rejected(CLASS_ATTRIBUTES[name], "reflection")


CLASS_ATTRIBUTES_ACCEPTED = {
    "called_at_once": '''
        def f(x):
            return torch.Tensor.add(x, x), torch.Tensor.contiguous(x)
    ''',
    "enum_member": '''
        @triton.jit
        def clamp(x_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs)
            tl.store(x_ptr + offs, tl.clamp(x, 0.0, 1.0, propagate_nan=tl.PropagateNan.ALL))
    ''',
    "hasattr_on_a_class": 'HAS = hasattr(torch.Tensor, "is_cuda")',
    "class_name": 'NAME = torch.Tensor.__name__',
    "class_tested_against": '''
        def f(x):
            return isinstance(x, torch.Tensor), isinstance(x, (torch.device, str))
    ''',
    "descriptor_read_off_an_instance": '''
        def f(x):
            return x.is_cuda, x.device.type, repr(x.add)
    ''',
    "base_init": '''
        class M(nn.Module):
            def __init__(self):
                nn.Module.__init__(self)

            def forward(self, x):
                return launch(x)
    ''',
}


@pytest.mark.parametrize("name", list(CLASS_ATTRIBUTES_ACCEPTED))
def test_a_library_class_attribute_called_or_a_member_passes(name):
    assert_accepted(CLASS_ATTRIBUTES_ACCEPTED[name])


# a str holding a character the two Unicode databases read apart, and every way from numbers or
# bytes to one the runtime does not refuse (evaluator.static_unicode)
UNICODE = {
    "escaped_new_letter": 'FLAG = "\\U00011f04".isalpha()  # <-',  # KAWI LETTER A, Unicode 15.0
    "written_new_letter": 'FLAG = "\U00011f04".isalpha()  # <-',
    "new_digit_in_a_try": '''
        try:
            FLAG = int("\\U00011f51") == 1  # <-
        except ValueError:
            FLAG = False
    ''',
    "case_changed_in_15": 'FLAG = "\\ua7f2".islower()  # <-',  # lowercase in 15.0, not in 14.0
    "in_a_docstring": '''
        def f():
            """\\U00011f04"""  # <-
    ''',
    "in_a_kernel": '''
        @triton.jit
        def pick(x_ptr, T: tl.constexpr):
            if "\\U00011f04" == T:  # <-
                tl.store(x_ptr, 1.0)
    ''',
    "fstring_spec_c": "FLAG = f'{0x11F04:c}'.isalpha()  # <-",
    "fstring_spec_computed_end": "FLAG = f'{0x11F04:>{1}}'.isalpha()  # <-",
    "fstring_spec_nested_fstring": "FLAG = f'{0x11F04:{\"c\"}}'.isalpha()  # <-",
    "format_template_spec_c": "FLAG = '{:c}'.format(0x11F04).isalpha()  # <-",
    "format_template_nested_spec": "FLAG = '{0:{1}}'.format(0x11F04, 'c').isalpha()  # <-",
    "format_map_spec_c": "FLAG = '{n:c}'.format_map({'n': 0x11F04}).isalpha()  # <-",
    "bytes_decode": "FLAG = bytes([240, 145, 188, 132]).decode().isalpha()  # <-",
    "str_with_an_encoding": 'FLAG = str(bytes([240, 145, 188, 132]), "utf-8").isalpha()  # <-',
    "str_with_keywords": 'FLAG = str(object=bytes([65]), encoding="ascii")  # <-',
    "str_mapped_over_two_lists": 'FLAG = list(map(str, [bytes([65])], ["ascii"]))  # <-',
    "str_in_a_partial": '''
        import functools

        DECODE = functools.partial(str, encoding="utf-8")  # <-
    ''',
    "bytes_literal": 'B = b"\\xf0\\x91\\xbc\\x84"  # <-',
    "bytes_in_a_str_enum": '''
        import enum

        class Letter(str, enum.Enum):
            A = (b"\\xf0\\x91\\xbc\\x84", "utf-8")  # <-
    ''',
    "int_to_bytes_decoded": 'FLAG = (0x11F04).to_bytes(4, "little").decode("utf-32").isalpha()  # <-',
    "translate": "FLAG = 'a'.translate({97: 0x11F04}).isalpha()  # <-",
    "maketrans": "TABLE = str.maketrans({'a': 0x11F04})  # <-",
}


@pytest.mark.parametrize("name", list(UNICODE))
def test_a_character_the_two_pythons_read_apart_is_refused(name):
    assert_rejected(UNICODE[name], "unicode_version", status="compile_error")


UNICODE_ACCEPTED = {
    "known_characters": 'TEXT = "relu × 2 → ok — é ñ 中 😀"',
    "a_character_made_at_run_time": "def f(i):\n    return chr(0x41 + i)",
    "format_specs": '''
        def f(x, n):
            return f"{x:.2f} {n:>8d} {n!r} {x:{8}.2f} {n:x}", "{:>8d} {:.3e}".format(n, x), format(n, "d")
    ''',
    "str_one_argument": '''
        def f(xs, x):
            return str(x), str(), list(map(str, xs)), sorted(xs, key=str), isinstance(x, (str, int))
    ''',
    "str_annotations": '''
        def f(name: str, mode: "str | None" = None) -> str:
            return name
    ''',
    "str_enum": '''
        import enum

        class Mode(str, enum.Enum):
            FAST = "fast"
    ''',
    "test_block_text": '''
        if __name__ == "__main__":
            print("\\U00011f04", b"bytes")
    ''',
}


@pytest.mark.parametrize("name", list(UNICODE_ACCEPTED))
def test_text_both_pythons_read_alike_passes(name):
    assert_accepted(UNICODE_ACCEPTED[name])


def test_operator_mod_is_no_longer_listed():
    """`operator.mod("%c", n)` is %-formatting that no `%` of the file shows (session 48)."""
    assert_rejected('''
        import operator

        FLAG = operator.mod("%c", 0x11F04).isalpha()  # <-
    ''', "forbidden_api")


# identity needs a singleton on one side: any other tells how the process made the objects (3.12
# hashes a slice, so typing caches `Literal[slice(0, 1)]` there and makes it anew on 3.11; the CPU
# child's stand-ins keep one object where the GPU's library makes a new one)
IDENTITY = {
    "typing_cache": '''
        import typing

        FLAG = typing.Literal[slice(0, 1)] is typing.Literal[slice(0, 1)]  # <-
    ''',
    "typing_cache_by_subscript": '''
        from typing import Literal

        FLAG = Literal[0:1] is Literal[0:1]  # <-
    ''',
    "stand_in_object": "FLAG = torch.cuda.get_device_properties(0) is not torch.cuda.get_device_properties(0)  # <-",
    "tensor_attributes": '''
        def f(x):
            return x.device is x.device  # <-
    ''',
    "chained": '''
        def f(x, y):
            return x is y is None  # <-
    ''',
    "constexpr_identity": '''
        @triton.jit
        def same(x_ptr, P: tl.constexpr, Q: tl.constexpr):
            if P is Q:  # <-
                tl.store(x_ptr, 1.0)
    ''',
}


@pytest.mark.parametrize("name", list(IDENTITY))
def test_identity_of_what_is_no_singleton_is_refused(name):
    assert_rejected(IDENTITY[name], "identity", status="compile_error")


def test_identity_against_a_singleton_passes():
    assert_accepted('''
        import enum

        class Mode(enum.StrEnum):
            FAST = "fast"

        def f(x, mode, bias=None, flag=True):
            return (x is None, bias is not None, flag is True, x.dtype is torch.float16, x.dtype is not tl.float32,
                    mode is Mode.FAST, tl.PropagateNan.ALL is mode, launch is launch)
    ''')
