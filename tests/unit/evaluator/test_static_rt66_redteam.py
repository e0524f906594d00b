"""Red team rt66 on the kernel-holding shapes (static_kernel_values' `self.X = kernel`,
static_class_body's class-body alias): what read the kernel object back by a name no attribute
or string of the file spelled, and is refused now, and the honest neighbours that stay
accepted. A class pattern's keyword is an attribute read (`case ModelNew(kern=k)`), and a
dataclass's generated __repr__/__eq__/astuple/asdict read every field by name, in the class
or inherited by a subclass."""
from __future__ import annotations

import pytest
from test_static_widened_narrow import assert_narrow

from tests.unit.evaluator.static_snippets import check_snippet

# snippet -> (the code the line marked `# <-` is blamed with)
REFUSED = {
    "self_kernel_read_by_class_pattern": ('''
        class Holder(nn.Module):
            def __init__(self):
                super().__init__()
                self.kern = k  # <-

            def go(self, x, out):
                self.kern[(1,)](x, out, x.numel(), BLOCK=1024)
                match self:
                    case Holder(kern=kk):
                        return hasattr(kk, "rewriter")
                return False
    ''', "reflection"),
    "self_kernel_in_a_dataclass_read_by_its_repr": ('''
        import dataclasses


        @dataclasses.dataclass(init=False)
        class Holder:
            kern: int = 0

            def __init__(self):
                self.kern = k  # <-

            def go(self, x, out):
                self.kern[(1,)](x, out, x.numel(), BLOCK=1024)
                return "Interpreted" in repr(self)
    ''', "reflection"),
    "self_kernel_in_a_class_a_dataclass_derives_from": ('''
        import dataclasses


        class Holder:
            def __init__(self):
                self.kern = k  # <-

            def go(self, x, out):
                self.kern[(1,)](x, out, x.numel(), BLOCK=1024)


        @dataclasses.dataclass(init=False)
        class Shown(Holder):
            kern: int = 0
    ''', "reflection"),
    "class_alias_under_an_inherited_dataclass_field": ('''
        import dataclasses


        @dataclasses.dataclass(init=False)
        class Fields:
            kern: int = 0


        class Holder(Fields):
            kern = k  # <-

            def go(self):
                return "Interpreted" in repr(self)
    ''', "monkey_patch"),
    "class_alias_in_a_dataclass_over_its_own_field": ('''
        import dataclasses


        @dataclasses.dataclass(init=False)
        class Holder:
            kern: int = 0
            kern = k  # <-
    ''', "monkey_patch"),
    "class_alias_under_a_name_autograd_calls": ('''
        class Fn(torch.autograd.Function):
            vjp = k  # <-
    ''', "monkey_patch"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_rt66_refused(name):
    assert_narrow(*REFUSED[name])


ACCEPTED = {
    # session 40's shape: the kernel under a longer name, only launched
    "self_kernel_launched_in_an_nn_module": '''
        class Holder(nn.Module):
            def __init__(self):
                super().__init__()
                self.kern = k

            def forward(self, x):
                out = torch.empty_like(x)
                self.kern[(1,)](x, out, x.numel(), BLOCK=1024)
                return out
    ''',
    # s51b's triton.ops.matmul: an inert alias on an autograd.Function
    "class_alias_never_read_back": '''
        class Fn(torch.autograd.Function):
            kernel = k
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_rt66_honest_neighbour_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, report.findings
