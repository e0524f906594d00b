"""Red team rt61 on session 51's widenings: what got through and is refused now, and the honest
neighbours that stay accepted. Private name mangling (evaluator.static_mangling): inside a class
C Python reads `__x` as `_C__x`, so a name spelled `_C__x` by hand is the same name to Python
and another to the checks. A walrus in a method's default, annotation or decorator binds a class
attribute no statement of the class body shows."""
from __future__ import annotations

import pytest
from test_static_widened_narrow import assert_narrow

from tests.unit.evaluator.static_snippets import check_snippet

# snippet -> (the code the line marked `# <-` is blamed with)
REFUSED = {
    # a class-body kernel alias (s51b) under a private name, read back through self by its
    # mangled spelling: the kernel object (its attributes are Triton internals)
    "class_kernel_alias_read_by_mangled_name": ('''
        class Holder:
            __kern = k

            def grab(self):
                return self._Holder__kern.fn  # <-
    ''', "reflection"),
    "class_kernel_alias_read_by_mangled_getattr": ('''
        class Holder:
            __kern = k

            def grab(self):
                return getattr(self, "_Holder__kern")  # <-
    ''', "reflection"),
    # a member kernel (static_member_kernels) under a private name, read the same way
    "member_kernel_read_by_mangled_name": ('''
        class Holder:
            @staticmethod
            @triton.jit
            def __kern(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
                offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
                tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

            def run(self, x, out):
                Holder.__kern[(1,)](x, out, 1, BLOCK=16)
                return self._Holder__kern.cache  # <-
    ''', "reflection"),
    # `@__keep` in a class body is `_Holder__keep` to Python: a module-level def of that name took
    # the identity decorator's place, and its wrapper handed the method any object as `self`
    "identity_decorator_replaced_by_mangled_def": ('''
        def __keep(fn):
            return fn

        def _Holder__keep(fn):  # <-
            def wrapper(self, v):
                return fn(v, v)
            return wrapper

        class Holder(nn.Module):
            @__keep
            def stamp(self, v):
                self.note = v
    ''', "reflection"),
    # the class's leading underscores are dropped by the mangling
    "mangled_name_of_an_underscored_class": ('''
        class _Holder:
            __kern = k

            def grab(self):
                return self._Holder__kern  # <-
    ''', "reflection"),
    "mangled_name_bound_by_import_alias": ('''
        import math as _Holder__m  # <-

        class Holder:
            def f(self):
                return __m.pi
    ''', "reflection"),
    "mangled_name_as_keyword": ('''
        class Holder:
            def __init__(self, **kw):
                self.kw = kw

        def make():
            return Holder(_Holder__x=1)  # <-
    ''', "reflection"),
    # a walrus in a method's default, annotation or decorator binds in the class body's scope
    "walrus_in_default_rebinds_own_staticmethod": ('''
        class Holder:
            @staticmethod
            def _call(x):
                return x

            def m(self, a=(_call := torch.relu)):  # <-
                return a

        def f(x):
            return Holder._call(x)
    ''', "monkey_patch"),
    "walrus_in_default_rebinds_module_method": ('''
        def moved(model, device):
            return model

        class Holder(nn.Module):
            def forward(self, x, _bind=(to := moved)):  # <-
                return x
    ''', "monkey_patch"),
    "walrus_in_annotation_binds_class_attribute": ('''
        class Holder:
            def m(self, a: (to := int) = 1):  # <-
                return a
    ''', "monkey_patch"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_rt61_refused(name):
    assert_narrow(*REFUSED[name])


ACCEPTED = {
    # private attributes written as Python means them, inside the class
    "private_attribute_inside_its_class": '''
        class Holder:
            def __init__(self):
                self.__scale = 2.0

            def scale(self):
                return self.__scale
    ''',
    # a name that only looks mangled: no class of the file is called `fwd`
    "double_underscore_inside_a_plain_name": '''
        def _fwd__impl(x):
            return x
    ''',
    # a walrus in a method's body binds the method's local
    "walrus_in_a_method_body": '''
        class Holder:
            def m(self, xs):
                if (n := len(xs)) > 2:
                    return n
                return 0
    ''',
    # a dunder is never mangled
    "dunder_after_a_class_prefix": '''
        class Holder:
            pass

        _Holder__all__ = ["x"]
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_rt61_honest_neighbour_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert not [f for f in report.findings if f.code == "reflection"], report.findings
