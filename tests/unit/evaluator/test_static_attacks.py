"""The static allowlist against attacks: every way around it is rejected, on its line.

Grouped by the class of attack (reflection, dynamic code, aliasing, builtins shadowed
by bindings that never ran, class-body order, module-level and default-argument
bindings, modules torch re-exports, class bodies and dunder overrides, hooks,
__init__-only attacks, pickle/ctypes/importlib, torch.library/ops, numpy, generators
and global state, writes to modules and classes, streams and process-wide settings,
concurrency). Each snippet is appended to an honest kernel file (see
test_static_checks.source); `# <-` marks the line the report must blame.
"""
from __future__ import annotations

import pytest
from test_static_checks import assert_rejected

ATTACKS = {
    # reflection: computed names, dunders, private API, frames, modules as values
    "computed_getattr": ('x = getattr(torch, "sy" + "s")  # <-', "reflection"),
    "getattr_on_module": ('x = getattr(torch, "matmul")  # <-', "reflection"),
    "dunder_attribute": ("f = (lambda: 0).__code__  # <-", "reflection"),
    "function_globals": ("g = launch.__globals__  # <-", "reflection"),
    "builtins_dict": ('o = __builtins__["open"]  # <-', "reflection"),
    "vars_of_module": ("d = vars(torch)  # <-", "reflection"),
    "dir_and_globals": ("names = dir() + list(globals())  # <-", "reflection"),
    "private_torch": ("state = torch._C._get_tracing_state()  # <-", "reflection"),
    "private_import": ("from torch import _C  # <-", "reflection"),
    "module_internals_on_self": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                self._forward_hooks[0] = lambda *a: None  # <-
                return launch(x)
    ''', "reflection"),
    # a library base whose machinery calls methods unbound: Enum calls `cls._missing_(value)`,
    # so a plain `def _missing_(self)` gets the value it chose as `self`
    "enum_missing_foreign_self": ('''
        import enum

        class Frames(enum.Enum):
            A = 1

            def _missing_(self):
                return self.gi_frame  # <-

        F = Frames((i for i in range(3)))
    ''', "reflection"),
    "enum_method_private_of_foreign_self": ('''
        import enum

        class Peek(enum.IntEnum):
            A = 1

            def _missing_(self):
                return self._cdata  # <-
    ''', "reflection"),
    # a method's bare name in its class body is the plain function: a default argument or an
    # annotation runs it with any object as its trusted self (red team B2, exec under strict)
    "method_as_default_argument": ('''
        class Peek(object):
            def frame(self):
                return 1

            def grab(self, fr=frame):  # <-
                return fr((i for i in [0]))
    ''', "reflection"),
    "method_called_in_an_annotation": ('''
        class Peek(object):
            def frame(self):
                return 1

            def grab(self, a: frame(0)):  # <-
                return a
    ''', "reflection"),
    # Enum machinery reaches a method of an `object` mixin through the Enum subclass
    "enum_subclass_of_an_object_mixin": ('''
        import enum

        class Peek(object):
            def _missing_(self):
                return self._cdata  # <-

        class Lookup(Peek, enum.Enum):
            A = 1
    ''', "reflection"),
    "frame_name_on_self": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                return self.gi_frame  # <-
    ''', "reflection"),
    "generator_frame": ("fr = (i for i in range(3)).gi_frame.f_back  # <-", "reflection"),
    "format_field_traversal": ('s = "{0.__class__.__mro__}".format(1)  # <-', "reflection"),
    "format_on_computed_string": ('fmt = "{0.x}"\ns = fmt.format(1)  # <-', "reflection"),
    "format_via_str": ('s = str.format("{0.real}", 1)  # <-', "reflection"),
    "format_as_value": ('show = "{0.__class__.__mro__}".format  # <-\ns = show(1)',
                        "reflection"),
    "format_mapped": ('s = list(map("{0.__globals__}".format, [launch]))  # <-', "reflection"),
    "format_nested_spec": ('s = "{0:{1.__class__}}".format(1, 2)  # <-', "reflection"),
    "super_setattr": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__setattr__("forward", launch)  # <-
    ''', "reflection"),
    "object_subclasses": ("subs = object.__subclasses__()  # <-", "reflection"),
    "metaclass": ('''
        class Meta(nn.Module, metaclass=object):  # <-
            pass
    ''', "reflection"),
    "one_arg_type": ("t = type(torch.zeros(1))  # <-", "reflection"),
    "three_arg_type": ('T = type("T", (nn.Module,), {"forward": launch})  # <-', "reflection"),
    "kernel_attributes": ("src = k.fn  # <-", "reflection"),
    "kernel_as_value": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.kern = k  # <-
    ''', "reflection"),
    # a launch's result is the compiled kernel: its own launcher, any stream, the globals
    "launch_result_kept": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                self.compiled = k[(1,)](x, out, x.numel(), BLOCK=1024)  # <-
                return out
    ''', "reflection"),
    "launch_result_globals": ('''
        def peek(x):
            compiled = k[(1,)](x, x, x.numel(), BLOCK=1024)  # <-
            return compiled.src.fn.get_capture_scope()
    ''', "reflection"),
    "launch_returned": ('''
        def run(x):
            return k[(1,)](x, x, x.numel(), BLOCK=1024)  # <-
    ''', "reflection"),
    "launcher_as_value": ('''
        def run(x):
            launch_k = k[(1,)]  # <-
            launch_k(x, x, x.numel(), BLOCK=1024)
    ''', "reflection"),
    # dynamic code
    "exec": ('exec("import os")  # <-', "dynamic_code"),
    "eval": ('v = eval("1 + 1")  # <-', "dynamic_code"),
    "compile": ('c = compile("1", "x", "eval")  # <-', "dynamic_code"),
    "dunder_import": ('os = __import__("os")  # <-', "dynamic_code"),
    "aliased_eval": ("run = eval  # <-", "dynamic_code"),
    "breakpoint": ("breakpoint()  # <-", "dynamic_code"),
    # aliasing builtins that may only be called
    "aliased_getattr": ("g = getattr  # <-", "reflection"),
    "getattr_through_reduce": ('''
        import functools
        sys_ = functools.reduce(getattr, ["sys"], 0)  # <-
    ''', "reflection"),
    "setattr_through_partial": ('''
        import functools
        patch = functools.partial(setattr, 0)  # <-
    ''', "reflection"),
    # a global the module never bound is the builtin: `if False:`/`del`/later bindings
    "builtin_shadow_dead_branch": ('if False:\n    eval = 0  # <-\nx = eval("1 + 1")',
                                   "reflection"),
    "builtin_shadow_deleted": ('getattr = 0  # <-\ndel getattr\nc = getattr(1, "__class__")',
                               "reflection"),
    "builtin_shadow_import": ('''
        if False:
            from torch import relu as getattr  # <-

        def f(x):
            return getattr(x, "__class__")
    ''', "reflection"),
    "builtin_shadow_later": ('c = type(torch.zeros(1))\ntype = 0  # <-', "reflection"),
    "builtin_shadow_walrus": ('xs = [(open := 0) for _ in range(0)]  # <-\nf = open("/x")',
                              "reflection"),
    # a class body binds top to bottom: above its binding a name is the outer one
    "class_constant_after_default": ('''
        class Helper:
            def m(self, s=torch.sys):  # <-
                return s

            torch = 1
    ''', "reflection"),
    "method_named_like_import": ('''
        class Helper:
            def m(self, f=F):  # <-
                return f.torch.sys

            def F(self):
                return 1
    ''', "reflection"),
    "class_constant_named_like_builtin": ('''
        class Helper:
            def m(self, g=getattr):  # <-
                return g

            getattr = 1
    ''', "reflection"),
    # a second binding that never runs hides a class or kernel from the checker
    "class_rebound_in_dead_branch": ('''
        class Helper:
            def peek(self):
                return self._base

        if False:
            Helper = 1  # <-
        leaked = Helper.peek(torch.zeros(1))
    ''', "monkey_patch"),
    "class_rebound_by_loop": ('''
        class Helper:
            def peek(self):
                return self._base

        for Helper in []:  # <-
            pass
        leaked = Helper.peek(torch.zeros(1))
    ''', "monkey_patch"),
    "kernel_rebound_in_dead_branch": ('''
        if False:
            k = None  # <-
        scope = k.fn.get_capture_scope()
    ''', "monkey_patch"),
    # writes into objects held by self (shared library objects)
    "shared_dtype_through_self": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.t = tl.float32
                self.t.primitive_bitwidth = 256  # <-

            def forward(self, x):
                return launch(x)
    ''', "monkey_patch"),
    "shared_config_through_self": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                self.cfg = triton.Config({"BLOCK": 64})
                self.cfg.num_warps = 8  # <-
                return launch(x)
    ''', "monkey_patch"),
    "nested_delete_through_self": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                self.f = F.relu
                del self.f.x  # <-
                return launch(x)
    ''', "monkey_patch"),
    # module-level and default-argument bindings
    "module_level_binding": ("lib = torch.library  # <-", "harness_tamper"),
    "default_argument": ('''
        def register(x, lib=torch.library):  # <-
            return lib
    ''', "harness_tamper"),
    "default_argument_module": ('''
        def escape(x, t=torch):  # <-
            return t.sys
    ''', "reflection"),
    "module_as_value": ("t = torch  # <-\ns = t.sys", "reflection"),
    "walrus_module": ("s = (t := tl).core  # <-", "reflection"),
    "module_in_container": ("mods = [torch, math]  # <-", "reflection"),
    "rebind_import": ("torch = F  # <-", "monkey_patch"),
    "from_import_alias": ("from torch import library as L  # <-", "harness_tamper"),
    # modules torch re-exports
    "torch_sys": ('m = torch.sys.modules["__main__"]  # <-', "reflection"),
    "torch_os": ('torch.os.system("true")  # <-', "reflection"),
    "torch_importlib": ('torch.importlib.import_module("os")  # <-', "reflection"),
    "torch_ctypes": ("torch.ctypes.CDLL(None)  # <-", "reflection"),
    "functional_torch": ("F.torch.sys  # <-", "reflection"),
    "triton_extra_importer": ("tl.extra.module_from_spec(None)  # <-", "forbidden_api"),
    # helpers a listed module imported from elsewhere: functools.wraps sets any attribute
    "reexported_wraps": ('''
        def fake(device=None):
            return None

        tl.math.wraps(fake, assigned=["__code__"])(torch.cuda.synchronize)  # <-
    ''', "forbidden_api"),
    "reexported_wraps_import": ("from triton.language.math import wraps  # <-",
                                "forbidden_api"),
    # Triton's own JIT functions: attributes are Triton internals (a module's globals)
    "jit_function_capture_scope": ('core = tl.sum.get_capture_scope()["core"]  # <-',
                                   "reflection"),
    "jit_function_as_value": ("fns = [tl.softmax]  # <-\ng = fns[0].fn", "reflection"),
    "constexpr_function_attribute": ("src = triton.cdiv.fn  # <-", "reflection"),
    "jit_function_imported": ("from triton.language import sum as total\nf = total.run  # <-",
                              "reflection"),
    "jit_function_alias_attribute": ("np2 = triton.next_power_of_2\nsrc = np2.fn  # <-",
                                     "reflection"),
    "jit_function_alias_in_function": ('''
        def helper():
            total = tl.sum  # <-
            return total.get_capture_scope()
    ''', "reflection"),
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
                import os  # <-

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
    # pickle, marshal, ctypes, importlib, files
    "pickle": ("import pickle  # <-", "forbidden_import"),
    "pickle_loads": ("from pickle import loads  # <-", "forbidden_import"),
    "marshal": ("import marshal  # <-", "forbidden_import"),
    "ctypes": ("import ctypes  # <-", "forbidden_import"),
    "importlib": ("import importlib  # <-", "forbidden_import"),
    "operator_attrgetter": ('from operator import attrgetter  # <-', "forbidden_import"),
    "open": ('with open("/tmp/x", "w") as fh:  # <-\n    fh.write("x")', "file_access"),
    "torch_load": ('w = torch.load("/tmp/w.pt")  # <-', "file_access"),
    "untyped_storage": ("s = torch.zeros(1).untyped_storage()  # <-", "file_access"),
    # torch.library, torch.ops, jit, compile
    "library_custom_op": ('''
        @torch.library.custom_op("krl::relu", mutates_args=())  # <-
        def relu(x: torch.Tensor) -> torch.Tensor:
            return x
    ''', "harness_tamper"),
    "torch_ops": ("add = torch.ops.aten.add  # <-", "harness_tamper"),
    "import_torch_library": ("import torch.library  # <-", "harness_tamper"),
    "torch_compile": ("fast = torch.compile(launch)  # <-", "harness_tamper"),
    "module_compile": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                self.compile()  # <-
                return launch(x)
    ''', "harness_tamper"),
    # numpy
    # numpy may be imported (files import it for a test block); nothing in it is usable
    "numpy_used": ("import numpy as np\nA = np.frombuffer(b'1234', dtype=np.uint8)  # <-",
                   "forbidden_api"),
    "tensor_numpy": ("a = torch.zeros(1).numpy()  # <-", "forbidden_api"),
    "from_numpy": ("t = torch.from_numpy(None)  # <-", "forbidden_api"),
    # generators, async, global state
    "generator": ("def gen():\n    yield 1  # <-", "forbidden_syntax"),
    "global_statement": ("N = 0\ndef bump():\n    global N  # <-\n    N = 1", "forbidden_syntax"),
    "async_def": ("async def later():  # <-\n    pass", "forbidden_syntax"),
    "module_state_from_function": ('''
        CACHE = {}

        class ModelNew(nn.Module):
            def forward(self, x):
                CACHE[x.data_ptr()] = launch(x)  # <-
                return CACHE[x.data_ptr()]
    ''', "monkey_patch"),
    "nested_class": ("def make():\n    class Hidden:  # <-\n        pass", "forbidden_syntax"),
    "other_decorator": ('''
        def deco(f):
            return f

        @deco  # <-
        def g(x):
            return x
    ''', "forbidden_syntax"),
    # attribute assignment on modules and classes
    "patch_torch_function": ("torch.matmul = lambda a, b: a  # <-", "monkey_patch"),
    "patch_functional": ("F.relu = torch.sigmoid  # <-", "monkey_patch"),
    "patch_triton_language": ("tl.load = None  # <-", "monkey_patch"),
    "delete_torch_function": ("del torch.allclose  # <-", "monkey_patch"),
    "setattr_on_module": ('setattr(tl, "load", None)  # <-', "monkey_patch"),
    "patch_library_class": ("nn.Linear.forward = launch  # <-", "monkey_patch"),
    "patch_local_object": ("t = torch.zeros(1)\nt.data = torch.ones(1)  # <-", "monkey_patch"),
    # streams and process-wide settings
    "side_stream": ("s = torch.cuda.Stream()  # <-", "side_stream"),
    "current_stream": ("s = torch.cuda.current_stream()  # <-", "side_stream"),
    "backends_flag": ("torch.backends.cuda.matmul.allow_tf32 = True  # <-", "harness_tamper"),
    "num_threads": ("torch.set_num_threads(1)  # <-", "harness_tamper"),
    "triton_knobs": ("import triton.knobs  # <-", "harness_tamper"),
    "triton_runtime": ("from triton.runtime import driver  # <-", "harness_tamper"),
    "autotune_pre_hook": ('''
        @triton.autotune(configs=[], key=["n"], pre_hook=print)  # <-
        @triton.jit
        def tuned(x_ptr, n):
            pass
    ''', "harness_tamper"),
    "config_pre_hook": ('c = triton.Config({"B": 1}, pre_hook=print)  # <-', "harness_tamper"),
    # concurrency
    "threads": ("import threading  # <-", "concurrency"),
    "torch_multiprocessing": ("q = torch.multiprocessing.Queue()  # <-", "concurrency"),
    "data_parallel": ("dp = nn.DataParallel  # <-", "concurrency"),
    "try_except": ("try:  # <-\n    x = 1\nexcept Exception:\n    x = 2", "try_except"),
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_is_rejected_on_its_line(name):
    body, code = ATTACKS[name]
    assert_rejected(body, code)
