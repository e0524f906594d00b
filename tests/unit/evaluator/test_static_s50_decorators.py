"""Decorators of typed and mixed-precision host code (honest round s50): typing.overload stubs,
enum.unique, autocast around a function, and a property's setter on a plain launcher class;
and the edges that stay refused beside them."""
from __future__ import annotations

import pytest

from tests.unit.evaluator.static_snippets import check_snippet

SETTER = '''
    class Launcher:
        def __init__(self, block):
            self._block = 1024
            self.block = block

        @property
        def block(self):
            return self._block

        @block.setter
        def block(self, value):
            if value & (value - 1):
                raise ValueError("block must be a power of two")
            self._block = value


    LAUNCHER = Launcher(128)
'''

ACCEPTED = {
    "overload_stubs": '''
        from typing import Optional, overload


        @overload
        def run(x: torch.Tensor) -> torch.Tensor: ...


        @overload
        def run(x: torch.Tensor, out: torch.Tensor) -> torch.Tensor: ...


        def run(x, out: Optional[torch.Tensor] = None):
            return x if out is None else out
    ''',
    "enum_unique": '''
        import enum


        @enum.unique
        class Mode(enum.Enum):
            BOTH = 0
            LOWER = 1
    ''',
    "autocast_decorator": '''
        class M(nn.Module):
            @torch.autocast(device_type="cuda", enabled=False)
            def forward(self, x):
                return x

            @torch.amp.autocast("cuda", dtype=torch.float16)
            def in_half(self, x):
                return x

            @torch.cuda.amp.autocast(enabled=False)
            def plain(self, x):
                return x
    ''',
    "property_setter_plain_class": SETTER,
}

REFUSED = {
    # a callable handed to autocast would be handed the decorated function
    "autocast_callable_argument": ('''
        def g(fn):
            return fn


        class M(nn.Module):
            @torch.autocast(device_type=g)
            def forward(self, x):
                return x
    ''', "reflection"),
    "autocast_unknown_keyword": ('''
        class M(nn.Module):
            @torch.cuda.amp.autocast(enabled=False, device_type="cuda")
            def forward(self, x):
                return x
    ''', "harness_tamper"),
    "unique_as_value": ('''
        import enum
        u = enum.unique
    ''', "forbidden_syntax"),
    # the setter's function taken from the class runs with any object as its self
    "setter_fset_from_class": (SETTER + '''

    def poke(m):
        Launcher.block.fset(m, 3)
    ''', "reflection"),
    # nn.Module's attributes are assigned by the harness (.eval() sets training): no setter there
    "setter_on_module": ('''
        class M(nn.Module):
            @property
            def flag(self):
                return 1

            @flag.setter
            def flag(self, v):
                pass
    ''', "forbidden_syntax"),
    # a class another class builds on is not plain: its setter could run under a subclass
    "setter_on_base_class": (SETTER + '''

    class Sub(Launcher):
        pass
    ''', "forbidden_syntax"),
    "setter_beside_another_decorator": (SETTER.replace(
        "        @block.setter", "        @staticmethod\n        @block.setter"), "forbidden_syntax"),
    # the store runs a setter only in the class that defines it; elsewhere it rebinds a method
    "setter_name_stored_by_other_class": (SETTER + '''

    class Other:
        def __init__(self):
            self.block = 3
    ''', "monkey_patch"),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_s50_decorator_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, [(f.code, f.line, f.message) for f in report.findings]


@pytest.mark.parametrize("name", list(REFUSED))
def test_s50_decorator_edge_is_refused(name):
    source, code = REFUSED[name]
    report = check_snippet(source)
    assert report.status == "hack", name
    assert code in {f.code for f in report.findings}, [(f.code, f.message) for f in report.findings]
