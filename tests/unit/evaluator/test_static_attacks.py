"""The static allowlist against attacks on names and bindings: every way around it is
rejected, on its line.

Grouped by the class of attack (reflection, methods reached unbound, dynamic code,
aliasing, builtins shadowed by bindings that never ran, class-body order, module-level
and default-argument bindings, modules torch re-exports); classes, __init__, libraries,
state and the process are in test_static_attacks_state.py. Each snippet is appended to
an honest kernel file (see test_static_checks.source); `# <-` marks the line the report
must blame.
"""
from __future__ import annotations

import pytest
from test_static_checks import assert_rejected

ATTACKS = {
    # host Python in a kernel body the GPU compiler refuses (red team A, session 20)
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
    # a kernel kept on self is launched through self and nothing else (static_kernel_values)
    "kernel_as_value": ('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.kern = k  # <-

            def forward(self, x):
                return self.kern.fn
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
    # (an arm the checks cannot rule out; `if False:` is settled: the arm never runs and
    # the name stays the builtin, refused where it is used)
    "builtin_shadow_dead_branch": ('if torch.cuda.is_available():\n    eval = 0  # <-\nx = eval("1 + 1")',
                                   "reflection"),
    "builtin_shadow_settled_dead_branch": ('if False:\n    eval = 0\nx = eval("1 + 1")  # <-',
                                           "dynamic_code"),
    "builtin_shadow_deleted": ('getattr = 0  # <-\ndel getattr\nc = getattr(1, "__class__")',
                               "reflection"),
    "builtin_shadow_import": ('''
        if torch.cuda.is_available():
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

        if torch.cuda.is_available():
            Helper = 1  # <-
        leaked = Helper.peek(torch.zeros(1))
    ''', "monkey_patch"),
    "class_rebound_in_settled_dead_branch": ('''
        class Helper:
            def peek(self):
                return self._base

        if False:
            Helper = 1
        leaked = Helper.peek(torch.zeros(1))  # <-
    ''', "reflection"),
    "class_rebound_by_loop": ('''
        class Helper:
            def peek(self):
                return self._base

        for Helper in []:  # <-
            pass
        leaked = Helper.peek(torch.zeros(1))
    ''', "monkey_patch"),
    "kernel_rebound_in_dead_branch": ('''
        if torch.cuda.is_available():
            k = None  # <-
        scope = k.fn.get_capture_scope()
    ''', "monkey_patch"),
    "kernel_rebound_in_settled_dead_branch": ('''
        if False:
            k = None
        scope = k.fn.get_capture_scope()  # <-
    ''', "reflection"),
    # a class body holds constants (math and dtypes, a NamedTuple config: honest round,
    # session 21), never a callable that `self.name(...)` would hide
    "class_constant_bound_to_torch_function": ('''
        class ModelNew(nn.Module):
            impl = torch.matmul  # <-
    ''', "monkey_patch"),
    "class_config_holding_a_torch_function": ('''
        class Cfg(NamedTuple):
            fn: object
            block: int

        class ModelNew(nn.Module):
            CFG = Cfg(fn=torch.matmul, block=64)  # <-
    ''', "monkey_patch"),
    "class_dtype_map_to_a_function": ('''
        class ModelNew(nn.Module):
            TABLE = {torch.float32: F.relu}  # <-
    ''', "monkey_patch"),
    "class_constant_from_a_call_of_the_file": ('''
        def make():
            return torch.matmul

        class ModelNew(nn.Module):
            impl = make()  # <-
    ''', "monkey_patch"),
    # a module's `__version__` is one literal string (honest round, session 21), nothing else
    "version_dunder_bound_to_a_module": ("__version__ = torch  # <-", "reflection"),
    "version_dunder_bound_to_a_list": ("__version__ = [print]  # <-", "reflection"),
    # a pre_hook's `nargs["x_desc"].block_shape = [...]` (honest round, session 21) is the one
    # attribute store on something other than self: by a literal key, on a plain parameter
    "block_shape_on_a_module": ("tl.block_shape = [16, 16]  # <-", "monkey_patch"),
    "block_shape_on_a_local_dict_entry": ('''
        def hook():
            table = {"k": torch.float32}
            table["k"].block_shape = [16]  # <-
    ''', "monkey_patch"),
    "other_attribute_on_a_parameter_entry": ('''
        def hook(nargs):
            nargs["x"].data = nargs["y"]  # <-
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
    # red team s30b: super() in a classmethod is super(C, cls), whose methods come back
    # unbound; a storage's class imports by name and its from_buffer fills memory unseen
    "super_in_a_classmethod": ('''
        class Base(nn.Module):
            def poke(self):
                return self.training

        class Poker(Base):
            @classmethod
            def run(cls, obj):
                return super().poke(obj)  # <-
    ''', "reflection"),
    "super_in_a_lambda": ("class P(nn.Module):\n    f = None\ng = lambda: super()  # <-", "reflection"),
    "storage_type_method": ("S = torch.zeros(1).storage_type()  # <-", "file_access"),
    "typed_storage_private_on_self": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                s = self._typed_storage()  # <-
                return launch(x)
    ''', "file_access"),
    "from_buffer_on_a_name": ("def f(cls):\n    return cls.from_buffer(b'0000')  # <-", "file_access"),
    # session 30: a leaf module may be a base (a drop-in nn.Linear), its harness-called
    # nn.Module methods still may not be overridden
    "leaf_module_base_overrides_state_dict": ('''
        class FastLinear(nn.Linear):
            def state_dict(self, *args, **kwargs):  # <-
                return {}
    ''', "monkey_patch"),
    "jit_function_alias_in_function": ('''
        def helper():
            total = tl.sum  # <-
            return total.get_capture_scope()
    ''', "reflection"),
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_is_rejected_on_its_line(name):
    body, code = ATTACKS[name]
    assert_rejected(body, code)


# host Python in a kernel body (red team A, session 20): the GPU compiler refuses a lambda or
# a generator there, so the verdict is its compile error (session 43: a Triton-Puzzles
# solution's `stable_exp = lambda x: ...` was branded a cheat)
DEVICE_SYNTAX = {
    "lambda_in_a_kernel": '''
        @triton.jit
        def host_in_kernel(x_ptr, n):
            i = max(range(n), key=lambda j: tl.load(x_ptr + j))  # <-
    ''',
    "generator_in_a_kernel": '''
        @triton.jit
        def host_in_kernel(x_ptr, n):
            s = sum(tl.load(x_ptr + j) for j in range(n))  # <-
    ''',
}


@pytest.mark.parametrize("name", list(DEVICE_SYNTAX))
def test_host_python_in_a_kernel_body_is_the_gpu_compilers_refusal(name):
    assert_rejected(DEVICE_SYNTAX[name], "device_syntax", status="compile_error")
