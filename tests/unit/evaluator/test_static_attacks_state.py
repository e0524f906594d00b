"""The static allowlist against attacks on classes and state: every way around it is
rejected, on its line (names and bindings: test_static_attacks.py; imports, the process and
its settings: test_static_attacks_process.py).

Grouped by the class of attack (class bodies and dunder overrides, hooks, class objects
as values, autograd.Function's ctx, __init__-only attacks). Each snippet is appended to an
honest kernel file (see test_static_checks.source); `# <-` marks the line the report must blame.
"""
from __future__ import annotations

import pytest
from test_static_checks import assert_rejected

ATTACKS = {
    # class bodies, dunder overrides, hooks, __class__
    "class_body_forward": ('''
        def other(self, x):
            return torch.relu(x)

        class ModelNew(nn.Module):
            forward = other  # <-
    ''', "monkey_patch"),
    "class_body_call": ('''
        class ModelNew(nn.Module):
            __call__ = launch  # <-

            def forward(self, x):
                return launch(x)
    ''', "monkey_patch"),
    "call_override": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                return launch(x)

            def __call__(self, x):  # <-
                return torch.relu(x)
    ''', "monkey_patch"),
    "getattr_override": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                return launch(x)

            def __getattr__(self, name):  # <-
                return torch.relu
    ''', "monkey_patch"),
    "self_forward_rebinding": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.forward = torch.relu  # <-

            def forward(self, x):
                return launch(x)
    ''', "monkey_patch"),
    "setattr_forward": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                setattr(self, "forward", torch.relu)  # <-

            def forward(self, x):
                return launch(x)
    ''', "monkey_patch"),
    "assign_class": ('''
        class Other(nn.Module):
            def forward(self, x):
                return torch.relu(x)

        class ModelNew(nn.Module):
            def forward(self, x):
                self.__class__ = Other  # <-
                return launch(x)
    ''', "monkey_patch"),
    "forward_hook": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_forward_hook(lambda m, i, o: torch.relu(i[0]))  # <-

            def forward(self, x):
                return launch(x)
    ''', "monkey_patch"),
    "tensor_hook": ("h = torch.zeros(1).register_hook  # <-", "monkey_patch"),
    "global_module_hook": ("nn.modules.module.register_module_forward_hook(print)  # <-",
                           "reflection"),
    "patch_class_method": ("ModelNew.forward = lambda self, x: x  # <-", "monkey_patch"),
    "override_module_method": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                return launch(x)

            def to(self, *args, **kwargs):  # <-
                return self
    ''', "monkey_patch"),
    "override_call_impl": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                return launch(x)

            def _call_impl(self, x):  # <-
                return torch.relu(x)
    ''', "monkey_patch"),
    "method_through_class": ('''
        class Helper:
            def peek(self):
                return self._typed_storage()

        leaked = Helper.peek(torch.zeros(1))  # <-
    ''', "reflection"),
    "property_getter_through_class": ('''
        class Helper:
            @property
            def base(self):
                return self._base

        leaked = Helper.base.fget(torch.zeros(1))  # <-
    ''', "reflection"),
    "autograd_ctx_as_class": ('''
        class Fn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.steal = x
                return x

        Fn.forward(ModelNew, 1)  # <-
    ''', "reflection"),
    "library_class_as_value": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.cls = torch.Tensor  # <-

            def forward(self, x):
                self.cls.add = torch.sub
                return launch(x)
    ''', "reflection"),
    "class_through_alias_chain": ('''
        class Helper:
            def peek(self):
                return self._base

        Alias = Helper
        Again = Alias  # <-
        leaked = Again.peek(torch.zeros(1))
    ''', "reflection"),
    "class_in_container": ('''
        class Helper:
            def peek(self):
                return self._base

        leaked = [Helper][0].peek(torch.zeros(1))  # <-
    ''', "reflection"),
    "annotation_smuggling": ('''
        class Helper:
            def peek(self):
                return self._base

        def f(x: (Helper,)[0].peek(torch.zeros(1))):  # <-
            return x
    ''', "reflection"),
    "dataclass_field_types": ('''
        import dataclasses
        kinds = dataclasses.fields(ModelNew)  # <-
    ''', "forbidden_api"),
    "kernel_inside_class": ('''
        class ModelNew(nn.Module):
            @staticmethod
            @triton.jit
            def kern(x_ptr):  # <-
                pass

            def forward(self, x):
                self.kern.src = ""
                return launch(x)
    ''', "forbidden_syntax"),
    "tensor_subclass": ('''
        class T(torch.Tensor):  # <-
            pass
    ''', "monkey_patch"),
    # class objects handed out by attributes, classmethods and super(): a class value's
    # attributes can be replaced and its methods run with any object as self
    "mro_library_class": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.cls = torch.Tensor.mro()[0]  # <-

            def forward(self, x):
                self.cls.add = torch.sub
                return launch(x)
    ''', "reflection"),
    "mro_file_class": ('''
        class Helper:
            def peek(self):
                return self._base

        leaked = Helper.mro()[0].peek(torch.zeros(1))  # <-
    ''', "reflection"),
    "class_valued_attribute": ("kinds = tl.float32.KIND  # <-", "reflection"),
    "classmethod_returns_cls": ('''
        class Helper:
            def peek(self):
                return self._base

            @classmethod
            def me(cls):
                return cls  # <-

        leaked = Helper.me().peek(torch.zeros(1))
    ''', "reflection"),
    "classmethod_method_through_cls": ('''
        class Helper:
            def peek(self):
                return self._base

            @classmethod
            def leak(cls, obj):
                return cls.peek(obj)  # <-
    ''', "reflection"),
    "super_with_class_as_instance": ('''
        class Helper:
            def peek(self):
                return self._base

        class Child(Helper):
            pass

        leaked = super(Child, Child).peek(torch.zeros(1))  # <-
    ''', "reflection"),
    "super_with_other_object": ('''
        class Child(nn.Module):
            def steal(self, other):
                return super(Child, other).forward  # <-
    ''', "reflection"),
    # a Function's forward/backward get the ctx whether or not they are @staticmethod
    "function_forward_without_staticmethod": ('''
        class Fn(torch.autograd.Function):
            def forward(self, x):
                cls = self._forward_cls  # <-
                return x
    ''', "reflection"),
    "function_backward_without_staticmethod": ('''
        class Fn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            def backward(self, grad):
                self.saved_tensors = (grad,)  # <-
                return grad
    ''', "monkey_patch"),
    # attacks hidden in __init__
    "init_seeds": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                torch.manual_seed(0)  # <-

            def forward(self, x):
                return launch(x)
    ''', "harness_tamper"),
    "init_import": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                import sys  # <-

            def forward(self, x):
                return launch(x)
    ''', "forbidden_import"),
    "init_cuda_setting": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                torch.cuda.set_sync_debug_mode(0)  # <-

            def forward(self, x):
                return launch(x)
    ''', "harness_tamper"),
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_is_rejected_on_its_line(name):
    body, code = ATTACKS[name]
    assert_rejected(body, code)
