"""Kernels kept in a class (evaluator.static_member_kernels, session 50): a @staticmethod
kernel of a class that has other members too (a @classmethod launcher, an autograd.Function's
forward, an nn.Module layer) is accepted as `C.kernel[grid](...)` or `cls.kernel[grid](...)`
statements; every other way to reach it (an instance, a subclass, a store, a string, a class
pattern, a `cls` that is not the class) is refused on the kernel's def (snippets as in
test_static_checks)."""
from __future__ import annotations

import pytest
from test_static_checks import assert_accepted, assert_rejected

_KERNEL = '''
            @staticmethod
            @triton.jit
            def {name}(x_ptr, out_ptr, n, BLOCK: tl.constexpr):{mark}
                offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
                tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''
_LAUNCH = "[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)"
_OPS = '''
        class Ops{bases}:
            BLOCK = 1024
''' + _KERNEL.format(name="_fwd", mark="  # <-") + '''
            @classmethod
            def launch(cls, x):
                out = torch.empty_like(x)
                {launch}
                return out
{extra}
        class ModelNew(nn.Module):
            def forward(self, x):
                {use}
'''


def _ops(bases: str = "", launch: str = "cls._fwd" + _LAUNCH, extra: str = "",
         use: str = "return Ops.launch(x)") -> str:
    return _OPS.format(bases=bases, launch=launch, extra=extra, use=use)


ACCEPTED = {
    "classmethod_launches_on_cls": _ops(),
    "classmethod_launches_on_the_name": _ops(launch="Ops._fwd" + _LAUNCH),
    "launch_through_a_module_level_alias": _ops(launch="Alias._fwd" + _LAUNCH, extra="\n        Alias = Ops\n"),
    "launch_in_a_closure_of_the_classmethod": _ops(
        launch="def go():\n                    cls._fwd" + _LAUNCH + "\n                go()"),
    "module_host": _ops(bases="(nn.Module)", use="return Ops().launch(x)"),
    "instance_calls_the_classmethod": _ops(use="ops = Ops()\n                return ops.launch(x)"),
    # Liger/unsloth: the Function holds the kernels its forward and backward launch
    "autograd_function_host": '''
        class _Fn(torch.autograd.Function):
''' + _KERNEL.format(name="_kernel", mark="") + '''
            @staticmethod
            def forward(ctx, x):
                out = torch.empty_like(x)
                _Fn._kernel''' + _LAUNCH + '''
                return out

            @staticmethod
            def backward(ctx, g):
                return g

        class ModelNew(nn.Module):
            def forward(self, x):
                return _Fn.apply(x)
    ''',
    "model_is_the_host": '''
        class ModelNew(nn.Module):
''' + _KERNEL.format(name="_kernel", mark="") + '''
            def forward(self, x):
                out = torch.empty_like(x)
                ModelNew._kernel''' + _LAUNCH + '''
                return out
    ''',
    # the same member name in two classes: each launch is read off its own class
    "two_hosts_one_member_name": _ops(extra='''
        class Other:
''' + _KERNEL.format(name="_fwd", mark="") + '''
            @classmethod
            def launch(cls, x):
                out = torch.empty_like(x)
                cls._fwd''' + _LAUNCH + '''
                return out
''', use="return Other.launch(Ops.launch(x))"),
    # a module's attribute of the member's name is no read of it
    "library_attribute_of_the_same_name": '''
        class Ops:
''' + _KERNEL.format(name="add", mark="") + '''
            @classmethod
            def launch(cls, x):
                out = torch.empty_like(x)
                cls.add''' + _LAUNCH + '''
                return torch.add(out, 0.0)
    ''',
    "private_kernel_of_a_namespace": '''
        class Kernels:
''' + _KERNEL.format(name="_copy", mark="") + '''
        def launch2(x):
            out = torch.empty_like(x)
            Kernels._copy''' + _LAUNCH + '''
            return out
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_member_kernel_is_accepted(name):
    assert_accepted(ACCEPTED[name])


_INSTANCE_METHOD = '''
        class Plain:
            def go(self, x):
                out = torch.empty_like(x)
                self._fwd''' + _LAUNCH + '''
                return out
'''
REJECTED = {
    # an instance's dict comes first: `self._fwd` could be anything `setattr(self, ...)` put there
    "launched_on_self": '''
        class ModelNew(nn.Module):
''' + _KERNEL.format(name="_fwd", mark="  # <-") + '''
            def forward(self, x):
                out = torch.empty_like(x)
                self._fwd''' + _LAUNCH + '''
                return out
    ''',
    "launched_on_self_of_another_class": _ops(extra=_INSTANCE_METHOD),
    "read_off_an_instance": _ops(use="k = Ops()._fwd\n                return Ops.launch(x)"),
    "returned_as_a_value": _ops(launch="return cls._fwd"),
    "launch_kept_as_a_value": _ops(launch="run = cls._fwd[(1,)]"),
    "fn_read_off_the_class": _ops(use="f = Ops._fwd.fn\n                return Ops.launch(x)"),
    "compared_as_a_value": _ops(use="return x if Ops._fwd is None else Ops.launch(x)"),
    "handed_to_a_launch_as_constexpr": _ops(launch="cls._fwd" + _LAUNCH[:-1] + ", ACT=cls._fwd)"),
    "stored_after_the_class": _ops(extra="\n        Ops._fwd = None\n"),
    "stored_in_a_function": _ops(extra="\n        def patch():\n            Ops._fwd = None\n"),
    "setattr_on_self_names_it": _ops(bases="(nn.Module)", extra='''
        class Other(nn.Module):
            def go(self):
                setattr(self, "_fwd", 1)
'''),
    "class_pattern_reads_it": _ops(use="match Ops():\n                    case Ops(_fwd=k):\n"
                                       "                        pass\n                return Ops.launch(x)"),
    "subclass": _ops(extra="\n        class Sub(Ops):\n            pass\n", use="return Sub.launch(x)"),
    "subclass_through_an_alias": _ops(extra="\n        Alias = Ops\n\n        class Sub(Alias):\n            pass\n"),
    "library_base": _ops(bases="(nn.Linear)"),
    "cls_rebound": _ops(launch="cls = Other\n                cls._fwd" + _LAUNCH, extra="\n        class Other:\n            pass\n"),
    "cls_rebound_by_a_walrus": _ops(launch="(cls := Other)\n                cls._fwd" + _LAUNCH,
                                    extra="\n        class Other:\n            pass\n"),
    "cls_a_lambda_parameter": _ops(launch="(lambda cls: cls._fwd" + _LAUNCH + ")(Ops)"),
    "classmethod_under_another_decorator": _ops().replace(
        "@classmethod\n", "@classmethod\n            @functools.lru_cache(maxsize=None)\n").replace(
        "class Ops", "import functools\n\n        class Ops"),
    "staticmethod_under_the_jit": _ops().replace(
        "@staticmethod\n            @triton.jit\n", "@triton.jit\n            @staticmethod\n"),
    "a_module_attribute_name": _ops(bases="(nn.Module)").replace("_fwd", "apply"),
}


@pytest.mark.parametrize("name", list(REJECTED))
def test_member_kernel_stays_narrow(name):
    assert_rejected(REJECTED[name], "forbidden_syntax")


@pytest.mark.parametrize("use", [
    'k = getattr(Ops, "fwd")',  # the one getattr the allowlist takes: a constant public name
    "k = Ops().fwd",
    "k = x.fwd",  # any object's attribute of the name could be an instance's
])
def test_a_public_member_name_is_spelled_nowhere_else(use):
    assert_rejected(_ops(use=use + "\n                return Ops.launch(x)").replace("_fwd", "fwd"), "forbidden_syntax")


def test_the_refusal_names_the_stray_use():
    from test_static_checks import check

    report = check(_ops(use="k = Ops()._fwd\n                return Ops.launch(x)"))
    [finding] = [f for f in report.findings if f.code == "forbidden_syntax"]
    assert "Ops._fwd" in finding.message and "Ops()._fwd" in finding.message, finding.message
