"""Honest idioms still refused after honest round s50, opened in session 51c: an abc.ABC or
typing.Protocol launcher interface with @abc.abstractmethod stubs, enum.Flag/IntFlag option
sets, @functools.singledispatch, `nonlocal` in a host closure; and the edges that stay refused
beside each (ABCMeta.register, __subclasshook__, runtime_checkable, an interface beside a torch
base; a Flag computing its members; a singledispatch registry keyed by a torch class or handed
a function, its attributes read; a nonlocal write that could change what a name was taken for)."""
from __future__ import annotations

import pytest

from tests.unit.evaluator.static_snippets import check_snippet

ABC = '''
    import abc


    class Launcher(abc.ABC):
        def __init__(self, block):
            self.block = block

        @abc.abstractmethod
        def launch(self, x, out):
            ...


    class ReluLauncher(Launcher):
        def launch(self, x, out):
            k[(1,)](x, out, x.numel(), BLOCK=self.block)
'''

PROTOCOL = '''
    from typing import Protocol


    class Launcher(Protocol):
        block: int

        def launch(self, x: torch.Tensor, out: torch.Tensor) -> None:
            ...


    class ReluLauncher:
        block = 1024

        def launch(self, x, out):
            k[(1,)](x, out, x.numel(), BLOCK=self.block)


    def run(launcher: Launcher, x, out):
        launcher.launch(x, out)
'''

SINGLEDISPATCH = '''
    import functools


    class Cfg:
        block = 64


    @functools.singledispatch
    def block_for(n):
        return 1024


    @block_for.register
    def _(n: tuple):
        return 256


    @block_for.register(Cfg)
    def _(n):
        return n.block


    B = block_for(Cfg()) + block_for((1, 2))
'''

NONLOCAL = '''
    def make_counter():
        calls = 0
        seen: bool = False

        def bump(x):
            nonlocal calls, seen
            calls += 1
            seen = True
            return x

        return bump
'''

ACCEPTED = {
    "abc_interface": ABC,
    "abc_from_import": ABC.replace("import abc", "from abc import ABC, abstractmethod").replace(
        "abc.ABC", "ABC").replace("@abc.abstractmethod", "@abstractmethod"),
    "abc_own_register_classmethod": ABC.replace("        @abc.abstractmethod", '''        @classmethod
        def register(cls, name):
            return name

        @abc.abstractmethod''') + '''

    N = Launcher.register("relu")
''',
    "protocol_interface": PROTOCOL,
    "intflag_options": '''
        import enum


        class Opt(enum.IntFlag):
            NONE = 0
            MASK = 1
            SCALE = 2


        FLAGS = Opt.MASK | Opt.SCALE
        HAS = bool(FLAGS & Opt.MASK) and Opt.SCALE in FLAGS
    ''',
    "flag_auto": '''
        from enum import Flag, auto


        class Opt(Flag):
            MASK = auto()
            SCALE = auto()


        FLAGS = Opt.MASK | Opt.SCALE
        NONE = Opt(0)
    ''',
    "singledispatch": SINGLEDISPATCH,
    "nonlocal_counter_and_flag": NONLOCAL,
    "nonlocal_through_two_closures": '''
        def outer():
            total = 0

            def middle():
                nonlocal total
                total += 1

                def inner():
                    nonlocal total
                    total -= 1
                return inner
            return middle
    ''',
}

SD_HEAD = SINGLEDISPATCH.split("\n\n\n    @block_for.register\n")[0]
REFUSED = {
    # ABCMeta.register makes a torch class a virtual subclass (isinstance answers yes)
    "abc_register_torch_class": (ABC + "\n\n    Launcher.register(torch.Tensor)\n", "reflection"),
    "abc_register_from_classmethod": ('''
        import abc


        class Launcher(abc.ABC):
            @classmethod
            def setup(cls):
                cls.register(torch.Tensor)
    ''', "reflection"),
    "abc_register_through_alias": (ABC + "\n\n    L2 = Launcher\n    L2.register(torch.Tensor)\n", "reflection"),
    "abc_register_through_getattr": (ABC + '\n\n    getattr(Launcher, "register")(torch.Tensor)\n', "reflection"),
    "abc_register_off_subclass": (ABC + "\n\n    ReluLauncher.register(torch.Tensor)\n", "reflection"),
    "protocol_register_torch_class": (PROTOCOL + "\n\n    Launcher.register(torch.Tensor)\n", "reflection"),
    "abc_subclasshook": (ABC.replace("        @abc.abstractmethod", '''        @classmethod
        def __subclasshook__(cls, other):
            return True

        @abc.abstractmethod'''), "monkey_patch"),
    "protocol_subclasshook": (PROTOCOL.replace("        def launch(self, x: torch.Tensor", '''        @classmethod
        def __subclasshook__(cls, other):
            return True

        def launch(self, x: torch.Tensor'''), "monkey_patch"),
    # a Protocol answers isinstance only when runtime_checkable (TypeError otherwise)
    "protocol_runtime_checkable": (PROTOCOL.replace("    class Launcher(Protocol):", "    import typing\n\n\n"
                                                    "    @typing.runtime_checkable\n    class Launcher(Protocol):"),
                                   "forbidden_syntax"),
    # ABCMeta would become the metaclass of the model
    "abc_beside_module": ('''
        import abc


        class M(nn.Module, abc.ABC):
            pass
    ''', "monkey_patch"),
    "abc_interface_under_module": (ABC + '''

    class M(nn.Module, Launcher):
        def launch(self, x, out):
            pass
    ''', "monkey_patch"),
    "abcmeta_metaclass": ('''
        import abc


        class L(metaclass=abc.ABCMeta):
            pass
    ''', "reflection"),
    "abcmeta_name": ("\n    import abc\n    M = abc.ABCMeta\n", "forbidden_api"),
    "abstractmethod_as_value": ("\n    import abc\n    f = abc.abstractmethod(torch.relu)\n", "forbidden_syntax"),
    "abc_private_registry": (ABC + "\n\n    X = Launcher._abc_impl\n", "reflection"),
    # Flag members are literal ints: no member computed by the file, none holding a function
    "flag_torch_member": ("\n    import enum\n\n\n    class F(enum.Flag):\n        A = torch.relu\n", "monkey_patch"),
    "flag_generate_next_value": ('''
        import enum


        class F(enum.Flag):
            def _generate_next_value_(name, start, count, last_values):
                return torch.relu

            A = enum.auto()
    ''', "forbidden_syntax"),
    "flag_boundary_keyword": ("\n    import enum\n\n\n    class F(enum.Flag, boundary=enum.KEEP):\n        A = 1\n",
                              "reflection"),
    "flag_boundary_attribute": ("\n    import enum\n\n\n    class F(enum.IntFlag):\n        _boundary_ = enum.EJECT\n"
                                "        A = 1\n", "monkey_patch"),
    "flag_functional_api": ('\n    import enum\n    F = enum.Flag("F", "A B")\n', "reflection"),
    # singledispatch: registered for builtins and the file's classes over a def, nothing else
    "singledispatch_torch_class": (SD_HEAD + '''


    @block_for.register(torch.Tensor)
    def _t(n):
        return n.numel()
''', "reflection"),
    "singledispatch_torch_annotation": (SD_HEAD + '''


    @block_for.register
    def _t(n: torch.Tensor):
        return n.numel()
''', "reflection"),
    "singledispatch_string_annotation": (SD_HEAD + '''


    @block_for.register
    def _t(n: "torch.Tensor"):
        return 1
''', "reflection"),
    "singledispatch_object": (SD_HEAD + '''


    @block_for.register(object)
    def _t(n):
        return 1
''', "reflection"),
    "singledispatch_registers_torch_function": (SD_HEAD + "\n\n\n    block_for.register(int, torch.relu)\n",
                                                "reflection"),
    "singledispatch_register_with_function": (SD_HEAD + '''


    @block_for.register(int, torch.relu)
    def _t(n):
        return 1
''', "reflection"),
    "singledispatch_dispatch_read": (SD_HEAD + "\n\n\n    F = block_for.dispatch(int)\n", "reflection"),
    "singledispatch_registry_read": (SD_HEAD + "\n\n\n    R = block_for.registry\n", "reflection"),
    "singledispatch_aliased": (SD_HEAD + "\n\n\n    g = block_for\n", "reflection"),
    "singledispatch_as_value": ("\n    import functools\n    sd = functools.singledispatch\n", "forbidden_syntax"),
    "singledispatch_called": ("\n    import functools\n    g = functools.singledispatch(torch.relu)\n",
                              "forbidden_syntax"),
    "singledispatch_method": ('''
        import functools


        class L:
            @functools.singledispatch
            def run(self, x):
                return x
    ''', "forbidden_syntax"),
    "singledispatch_register_kernel": (SD_HEAD + '''


    @block_for.register(int)
    @triton.jit
    def _kk(n):
        pass
''', "forbidden_syntax"),
    "singledispatch_register_nested": (SD_HEAD + '''


    def outer():
        @block_for.register(int)
        def _t(n):
            return 1
        return _t
''', "forbidden_syntax"),
    # nonlocal: the closure's write may not change what the checks took the name for
    "nonlocal_rebinds_kernel_alias": ('''
        def outer():
            kern = 0

            def inner():
                nonlocal kern
                kern = k
            inner()
            kern[(1,)](1, 2, 3, BLOCK=4)
    ''', "forbidden_syntax"),
    "nonlocal_rebinds_checked_torch_alias": ('''
        def outer(x):
            op = torch.relu

            def inner():
                nonlocal op
                op = 1
            inner()
            return op(x)
    ''', "forbidden_syntax"),
    "nonlocal_writes_torch_function": ('''
        def outer(x):
            op = 0

            def inner():
                nonlocal op
                op = torch.sigmoid
            inner()
            return op(x)
    ''', "forbidden_syntax"),
    "nonlocal_parameter": ('''
        def outer(fn):
            def inner():
                nonlocal fn
                fn = 1
            return inner
    ''', "forbidden_syntax"),
    "nonlocal_walrus": ('''
        def outer(x):
            op = 0

            def inner():
                nonlocal op
                (op := torch.relu)
            return inner
    ''', "forbidden_syntax"),
    "nonlocal_loop_target": ('''
        def outer(x):
            op = 0

            def inner():
                nonlocal op
                for op in (torch.relu, torch.sigmoid):
                    pass
            return inner
    ''', "forbidden_syntax"),
    "nonlocal_import": ('''
        def outer(x):
            op = 0

            def inner():
                nonlocal op
                from torch import relu as op
            return inner
    ''', "forbidden_syntax"),
    "nonlocal_del": ('''
        def outer(x):
            op = 0

            def inner():
                nonlocal op
                del op
            return inner
    ''', "forbidden_syntax"),
    "nonlocal_in_module_function": ("\n    def f():\n        nonlocal k\n        k = 0\n", "forbidden_syntax"),
    "nonlocal_in_kernel": ('''
        def outer():
            n = 0

            @triton.jit
            def kk(x):
                nonlocal n
                n += 1
            return kk
    ''', "forbidden_syntax"),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_s51c_idiom_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, [(f.code, f.line, f.message) for f in report.findings]


@pytest.mark.parametrize("name", list(REFUSED))
def test_s51c_idiom_edge_is_refused(name):
    source, code = REFUSED[name]
    report = check_snippet(source)
    assert report.status == "hack", (name, report.status, [(f.code, f.message) for f in report.findings])
    assert code in {f.code for f in report.findings}, [(f.code, f.message) for f in report.findings]
