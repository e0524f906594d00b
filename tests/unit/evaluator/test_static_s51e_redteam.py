"""Red team s51e on the s51c widenings (abc.ABC / typing.Protocol interfaces, Flag, singledispatch,
nonlocal): the edges that got through and are refused now, and the honest neighbours that stay
accepted."""
from __future__ import annotations

import pytest

from tests.unit.evaluator.static_snippets import check_snippet

REFUSED = {
    # a literal class constant the widening let through: isinstance(x, P) became hasattr(x, "_base")
    "protocol_runtime_constant": ('''
        from typing import Protocol


        class HasBase(Protocol):
            _is_runtime_protocol = True

            def _base(self):
                ...


        def probe(x):
            return isinstance(x, HasBase)
    ''', "reflection"),
    # any truthy value turns it on: a def of the name
    "protocol_runtime_def": ('''
        from typing import Protocol


        class P(Protocol):
            def _is_runtime_protocol(self):
                ...
    ''', "reflection"),
    # through a subclass of the file's protocol
    "protocol_runtime_in_subclass": ('''
        from typing import Protocol


        class P(Protocol):
            def relu(self):
                ...


        class Q(P, Protocol):
            _is_runtime_protocol: bool = True
    ''', "reflection"),
    "abc_impl_rebound": ('''
        import abc


        class A(abc.ABC):
            _abc_impl = 0
    ''', "reflection"),
    # singledispatch keyed by a runtime protocol: a torch.Tensor (which has .relu) routes the call
    "singledispatch_runtime_protocol_key": ('''
        import functools
        from typing import Protocol


        class Relus(Protocol):
            _is_runtime_protocol = True

            def relu(self):
                ...


        @functools.singledispatch
        def act(x):
            return x


        @act.register(Relus)
        def _(x):
            return x
    ''', "reflection"),
    # the library classes themselves: ABCMeta.register writes abc.ABC's registry
    "abc_library_register": ('''
        import abc


        def arm():
            abc.ABC.register(float)
    ''', "monkey_patch"),
    "from_abc_register": ('''
        from abc import ABC


        def arm():
            ABC.register(float)
    ''', "monkey_patch"),
    # a bare annotation binds nothing: `register` is still ABCMeta's
    "abc_annotation_only_register": ('''
        import abc


        class Launcher(abc.ABC):
            register: int


        def arm():
            Launcher.register(float)
    ''', "reflection"),
    "protocol_library_attribute": ('''
        from typing import Protocol


        def arm():
            return Protocol.register(float)
    ''', "monkey_patch"),
}

ACCEPTED = {
    # a register method of the class's own is what `Launcher.register` reads
    "abc_own_register_method": '''
        import abc


        class Launcher(abc.ABC):
            @classmethod
            def register(cls, n):
                return n + 1


        def arm():
            return Launcher.register(1)
    ''',
    # a private helper of the file's own in an interface class is not typing's machinery
    "abc_private_helper": '''
        import abc


        class Launcher(abc.ABC):
            _block = 1024

            def _grid(self, n):
                return (triton.cdiv(n, self._block),)

            @abc.abstractmethod
            def launch(self, x, out):
                ...
    ''',
    "protocol_plain": '''
        from typing import Protocol


        class Launcher(Protocol):
            block: int

            def launch(self, x: torch.Tensor, out: torch.Tensor) -> None:
                ...
    ''',
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_s51e_attack_is_refused(name):
    source, code = REFUSED[name]
    report = check_snippet(source)
    assert report.status == "hack", (name, report.status, [(f.code, f.message) for f in report.findings])
    assert code in {f.code for f in report.findings}, [(f.code, f.message) for f in report.findings]


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_s51e_neighbour_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, [(f.code, f.line, f.message) for f in report.findings]


_CHAIN = "\n\n".join(f"class C{i}(C{i - 1}):\n    pass" for i in range(1, 11))
DEEP = {
    # `_derives` stopped at 8 classes of the file: abc.ABC ten classes up joined nn.Module
    "interface_beside_module_deep": ("import abc\n\n\nclass C0(abc.ABC):\n    pass\n\n\n" + _CHAIN
                                     + "\n\n\nclass Net(C10, nn.Module):\n    pass\n", "monkey_patch"),
    "flag_generate_next_value_deep": ("import enum\n\n\nclass C0(enum.Flag):\n    pass\n\n\n" + _CHAIN
                                      + "\n\n\nclass F(C10):\n    def _generate_next_value_(name, start, count, last):"
                                      "\n        return 1\n", "forbidden_syntax"),
    # the functional-API refusal (session 18) stopped at 8 classes of the file too
    "flag_functional_api_deep": ("import enum\n\n\nclass C0(enum.IntFlag):\n    pass\n\n\n" + _CHAIN
                                 + "\n\n\ndef shout(member, spec):\n    return 'x'\n\n\n"
                                 "def build():\n    return C10('G', {'A': 1, '__format__': shout})\n", "reflection"),
}


@pytest.mark.parametrize("name", list(DEEP))
def test_s51e_deep_chain_is_refused(name):
    import textwrap
    source, code = DEEP[name]
    report = check_snippet(textwrap.indent(source, "    "))
    assert report.status == "hack", (name, report.status, [(f.code, f.message) for f in report.findings])
    assert code in {f.code for f in report.findings}, [(f.code, f.message) for f in report.findings]
