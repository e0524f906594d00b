"""The static allowlist against attacks on the process: pickle/ctypes/importlib and files,
torch.library/ops, numpy, generators and global state, writes to modules and classes, streams
and process-wide settings, concurrency, and the file's coding declaration. Every way around it
is rejected, on its line (classes and state: test_static_attacks_state.py). Each snippet is
appended to an honest kernel file (see test_static_checks.source); `# <-` marks the line the
report must blame.
"""
from __future__ import annotations

import pytest
from test_static_checks import CFG, assert_rejected, source

from evaluator.static_checks import check_source

ATTACKS = {
    # pickle, marshal, ctypes, importlib, files
    "pickle": ("import pickle  # <-", "forbidden_import"),
    "pickle_loads": ("from pickle import loads  # <-", "forbidden_import"),
    "marshal": ("import marshal  # <-", "forbidden_import"),
    "ctypes": ("import ctypes  # <-", "forbidden_import"),
    "importlib": ("import importlib  # <-", "forbidden_import"),
    # operator is importable for its arithmetic (session 20); its string-to-lookup helpers stay out
    "operator_attrgetter": ('from operator import attrgetter  # <-', "forbidden_api"),
    "operator_methodcaller": ('import operator\nm = operator.methodcaller("numpy")  # <-', "forbidden_api"),
    "operator_itemgetter_value": ('import operator\ng = operator.itemgetter  # <-', "forbidden_api"),
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
    # a plain generator runs only when resumed, as a generator expression (honest round,
    # session 22); one suspended inside a with block leaves the context entered
    "generator_in_with": ("def gen():\n    with torch.no_grad():\n        yield 1  # <-", "forbidden_syntax"),
    "generator_yield_from": ("def gen():\n    yield from [1]  # <-", "forbidden_syntax"),
    "generator_lambda": ("gen = lambda: (yield)  # <-", "forbidden_syntax"),
    "generator_kernel": ('''
        @triton.jit
        def k2(x_ptr):
            yield tl.load(x_ptr)  # <-
    ''', "forbidden_syntax"),
    # kernels held as values (honest round, session 22: static_kernel_values): only shapes
    # whose every use stays a launch; an entry, a parameter or a name that escapes is refused
    "kernel_table_entry_attribute": ("T = {0: k}\nF = T[0].fn  # <-", "reflection"),
    "kernel_table_method": ("T = {0: k}\nG = T.get(0)  # <-", "reflection"),
    "kernel_table_handed_over": ("T = (k,)\nL = list(T)  # <-", "reflection"),
    "kernel_table_mixed": ("T = {0: k, 1: print}  # <-\nT[0][(1,)](1)", "reflection"),
    "kernel_param_other_caller": ('''
        def run(kern, x):
            return kern
        def a(x):
            run(k, x)  # <-
            run(print, x)
    ''', "reflection"),
    "kernel_param_attribute": ('''
        def run(kern, x):
            return kern.cache  # <-
        def a(x):
            run(k, x)
    ''', "reflection"),
    "kernel_param_helper_as_value": ('''
        def run(kern, x):
            return kern
        def a(x):
            run(k, x)  # <-
        R = run
    ''', "reflection"),
    "kernel_param_rebound": ('''
        def run(kern, x):
            f = kern.fn
            kern = 3
            return f
        def a(x):
            run(k, x)  # <-
    ''', "reflection"),
    "kernel_local_rebound": ('''
        def a(x):
            q = k  # <-
            q = print
            return q
    ''', "reflection"),
    "jit_call_body_named": ('''
        def body(x_ptr):
            pass
        kk = triton.jit(body)  # <-
        B = body
    ''', "forbidden_syntax"),
    "jit_call_in_function": ('''
        def body(x_ptr):
            pass
        def make():
            return triton.jit(body)  # <-
    ''', "forbidden_syntax"),
    # of os only reading a variable (honest round, session 22)
    "os_environ_value": ("import os\nE = os.environ  # <-", "reflection"),
    "os_environ_write": ("import os\nos.environ.update(A='1')  # <-", "forbidden_api"),
    "os_system": ("import os\nos.system('true')  # <-", "forbidden_api"),
    # the range itself is allowed on one literal message since honest round s49; with format
    # arguments it is still refused on its line (static_walk._nvtx_range)
    "nvtx_range_format": ("with torch.cuda.nvtx.range('{0}', 1):  # <-\n    pass", "forbidden_syntax"),
    "torch_version_write": ("torch.version.cuda = None  # <-", "monkey_patch"),
    "once_differentiable_called": ("from torch.autograd.function import once_differentiable\n"
                                   "F2 = once_differentiable(launch)  # <-", "forbidden_syntax"),
    "class_alias_not_a_context_manager": ("L = nn.Linear  # <-", "reflection"),
    # typing.cast takes a class as its type, not as the value it hands back
    "class_as_the_value_typing_cast_returns": ("from typing import cast\nL = cast(object, nn.Linear)  # <-",
                                               "reflection"),
    # an unnamed get_inputs copy goes unchecked; any other unnamed def, or a named copy, not
    "unnamed_def_checked": ("def helper():\n    torch.manual_seed(0)  # <-", "harness_tamper"),
    "get_inputs_named_checked": ("def get_inputs():\n    torch.manual_seed(0)  # <-\nG = get_inputs",
                                 "harness_tamper"),
    # `global` in a host function binds in the module: a rebinding there is refused as it is
    # at module level; a kernel body is Triton, where the GPU's compiler refuses `global`
    # a warning filter only as a literal module-level line that never raises
    "warning_filter_error": ("import warnings\nwarnings.simplefilter('error')  # <-", "forbidden_api"),
    "warning_filter_in_a_function": ("import warnings\ndef f():\n    warnings.simplefilter('ignore')  # <-",
                                     "forbidden_api"),
    "warning_filter_computed": ("import warnings\nA = 'ignore'\nwarnings.filterwarnings(A)  # <-",
                                "forbidden_api"),
    "warning_filter_own_class": ("import warnings\nclass W(UserWarning):\n    pass\n\n"
                                 "warnings.filterwarnings('ignore', category=W)  # <-", "forbidden_api"),
    # torch.compiler.disable only as a function's decorator; the rest of torch.compiler stays out
    "compiler_disable_called": ("f2 = torch.compiler.disable(launch)  # <-", "harness_tamper"),
    # of torch.compiler only is_compiling (False in an eager child: nothing traces a candidate;
    # honest round s37, test_static_shapes) and the disable decorator
    "compiler_other_than_is_compiling": ("def f():\n    return torch.compiler.allow_in_graph(f)  # <-",
                                         "harness_tamper"),
    "compiler_disable_on_a_method": ("class C(nn.Module):\n    @torch.compiler.disable  # <-\n"
                                     "    def g(self, x):\n        return launch(x)", "forbidden_syntax"),
    # a decorator's positional argument is the decorator's own (red team s31d)
    "compiler_disable_given_a_callable": ("@torch.compiler.disable(lambda f: f)  # <-\ndef g(x):\n    return x",
                                          "reflection"),
    "lru_cache_given_a_callable": ("import functools\ndef h(f):\n    return f\n\n@functools.lru_cache(h)  # <-\ndef g(x):\n"
                                   "    return x", "reflection"),
    "compiler_disable_computed_recursive": ("@torch.compiler.disable(recursive=bool(len('a')))  # <-\n"
                                            "def g(x):\n    return x", "reflection"),
    "global_in_a_kernel": ("N = tl.constexpr(0)\n\n@triton.jit\ndef k2(x_ptr):\n    global N  # <-\n"
                           "    tl.store(x_ptr, 0.0)", "forbidden_syntax"),
    "global_rebinds_an_import": ("def f():\n    global torch\n    torch = F  # <-", "monkey_patch"),
    "global_rebinds_a_kernel": ("def f():\n    global k\n    k = launch  # <-", "monkey_patch"),
    "global_rebinds_a_class": ("class C:\n    pass\n\ndef f():\n    global C\n    C = 1  # <-",
                               "monkey_patch"),
    "global_binds_a_builtin": ("def f():\n    global getattr\n    getattr = 1  # <-", "reflection"),
    "global_binds_a_dunder": ("def f():\n    global __builtins__\n    __builtins__ = {}  # <-",
                              "reflection"),
    # every binding form of a global name lands in the module (red team s31b: an import
    # rebound a builtin's name to numpy, which the checker then read as the builtin)
    "global_bound_by_an_import": ("def f():\n    global print\n    import numpy as print  # <-",
                                  "monkey_patch"),
    "global_bound_by_a_from_import": ("_ws = {}\ndef f():\n    global _ws\n"
                                      "    from torch import cuda as _ws  # <-", "monkey_patch"),
    "global_bound_by_a_def": ("def f():\n    global launch\n    def launch(x):  # <-\n        return x",
                              "monkey_patch"),
    "global_bound_by_a_class": ("def f():\n    global ModelNew\n    class ModelNew:  # <-\n        pass",
                                "monkey_patch"),
    "global_walrus_rebinds_an_import": ("def f():\n    global math\n    return (math := 2)  # <-",
                                        "monkey_patch"),
    "async_def": ("async def later():  # <-\n    pass", "forbidden_syntax"),
    # a module-level cache of the file's own takes items (test_static_idioms; caching
    # results is the runtime's to catch: fresh inputs per timed run, reveals), never writes
    # into what it holds or into a module-level object of another kind
    "module_state_from_function": ('''
        CACHE = {}
        STATE = triton.Config({}).kwargs

        class ModelNew(nn.Module):
            def forward(self, x):
                STATE[x.data_ptr()] = launch(x)  # <-
                return STATE[x.data_ptr()]
    ''', "monkey_patch"),
    # Triton reads a kernel's source again and starts at a line beginning with `def` (the
    # interpreter: the last one), so such a line inside a string runs (red team, session 13)
    "def_line_in_a_kernel_string": ('''
        @triton.jit
        def k2(x_ptr):
            notes = """
        def k2(x_ptr):  # <-
            pass
        """
            tl.store(x_ptr, 0.0)
    ''', "dynamic_code"),
    "def_line_after_a_tab_in_a_kernel_string": (
        '@triton.jit\ndef k2(x_ptr):\n    s = """\n\tdef(x):  # <-\n"""\n    tl.store(x_ptr, 0.0)\n',
        "dynamic_code"),
    "nested_class": ("def make():\n    class Hidden:  # <-\n        pass", "forbidden_syntax"),
    # (the identity `def deco(f): return f` stands anywhere since honest round s51b: it hands
    # back what it is given; one that hands back anything else is still no decorator)
    "other_decorator": ('''
        def other(x):
            return x

        def deco(f):
            return other

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
    # clocks: how a forward would tell a profiled run (slower launches) from a plain one
    "globaltimer_asm": ('''
        @triton.jit
        def stamp(t_ptr):
            now = tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64,  # <-
                                            is_pure=False, pack=1)
            tl.store(t_ptr, now)
    ''', "clock"),
    "clock64_asm_keyword": ('''
        @triton.jit
        def stamp(t_ptr):
            now = tl.inline_asm_elementwise(asm="mov.u64 $0, %clock64;", constraints="=l", args=[],  # <-
                                            dtype=tl.int64, is_pure=False, pack=1)
            tl.store(t_ptr, now)
    ''', "clock"),
    "computed_asm_text": ('''
        REG = "%global" + "timer"

        @triton.jit
        def stamp(t_ptr):
            now = tl.inline_asm_elementwise("mov.u64 $0, " + REG + ";", "=l", [], dtype=tl.int64,  # <-
                                            is_pure=False, pack=1)
            tl.store(t_ptr, now)
    ''', "clock"),
    "performance_counter_asm": ('''
        @triton.jit
        def stamp(t_ptr):
            now = tl.inline_asm_elementwise("mov.u32 $0, %pm0;", "=r", [], dtype=tl.int32,  # <-
                                            is_pure=False, pack=1)
            tl.store(t_ptr, now)
    ''', "clock"),
    "triton_globaltimer": ('''
        @triton.jit
        def stamp(t_ptr):
            tl.store(t_ptr, tl.extra.cuda.globaltimer())  # <-
    ''', "clock"),
    # the functional Enum API builds a class at run time, with any methods as members
    "enum_functional_dunders": ('''
        import enum

        def finalizer(member):
            return None

        Pending = enum.Enum("Pending", [("__del__", finalizer), ("a", 1)])  # <-
    ''', "reflection"),
    "enum_subclass_functional": ('''
        import enum

        class Base(enum.IntEnum):
            pass

        Made = Base("Made", {"__bool__": len, "a": 1})  # <-
    ''', "reflection"),
    # a literal TF32 line at module level is accepted since session 23's honest round
    # (evaluator.static_settings; test_static_settings holds its edges): a computed one is not
    "backends_flag": ("torch.backends.cuda.matmul.allow_tf32 = not torch.backends.cudnn.allow_tf32  # <-",
                      "harness_tamper"),
    "num_threads": ("torch.set_num_threads(1)  # <-", "harness_tamper"),
    "triton_knobs": ("import triton.knobs  # <-", "harness_tamper"),
    "triton_runtime": ("from triton.runtime import autotuner  # <-", "harness_tamper"),
    "autotune_pre_hook": ('''
        @triton.autotune(configs=[], key=["n"], pre_hook=print)  # <-
        @triton.jit
        def tuned(x_ptr, n):
            pass
    ''', "harness_tamper"),
    "config_pre_hook": ('c = triton.Config({"B": 1}, pre_hook=print)  # <-', "harness_tamper"),
    # tutorial 09's `def configs(pre_hook=None)` (accepted: test_static_shapes), called with a
    # library callable: the parameter is no function of the file
    "config_pre_hook_param": ('''
        def configs(pre_hook=None):
            return [triton.Config({"B": 1}, pre_hook=pre_hook)]  # <-


        CONFIGS = configs(print)
    ''', "harness_tamper"),
    # concurrency
    "threads": ("import threading  # <-", "concurrency"),
    "torch_multiprocessing": ("q = torch.multiprocessing.Queue()  # <-", "concurrency"),
    "data_parallel": ("dp = nn.DataParallel  # <-", "concurrency"),
    # a try inside any function (a module-level one runs once, at import: test_static_idioms)
    "try_except": ("def f():\n    try:  # <-\n        x = 1\n    except Exception:\n        x = 2",
                   "try_except"),
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_is_rejected_on_its_line(name):
    body, code = ATTACKS[name]
    assert_rejected(body, code)


@pytest.mark.parametrize("first_lines", ["# coding: utf-7\n", "#!/usr/bin/env python\n# -*- coding: utf_7 -*-\n",
                                         "# vim: set fileencoding=latin-1 :\n", "# coding: unicode_escape\n",
                                         "# coding: no-such-codec\n"])
def test_a_coding_declaration_other_than_utf8_is_refused(first_lines):
    """The file is imported from disk, where Python (and linecache, so Triton) decode it by
    its coding declaration: in utf-7 `+AAo-` in a comment is a new line the checker never
    saw (red team, session 13: exec from a comment, ok under strict)."""
    report = check_source(first_lines + source(""), CFG)
    assert report.status == "hack" and [f.code for f in report.findings] == ["dynamic_code"]
    assert report.findings[0].message.startswith("`coding: ")


@pytest.mark.parametrize("first_lines", ["# -*- coding: utf-8 -*-\n",
                                         "x = 1\n# coding: utf-7\n"])
def test_a_utf8_declaration_or_none_that_python_reads_is_accepted(first_lines):
    assert check_source(first_lines + source(""), CFG).status is None
