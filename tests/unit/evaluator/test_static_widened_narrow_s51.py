"""The edges of what session 51 widened for honest public kernels stay narrow (honest round
s51b: identity decorators, library decorator aliases, nested import fallbacks, private
staticmethods of the file's classes, class-body kernel aliases; s51d: the index-data audit's
refusals). Each snippet is refused on the line marked `# <-`, with the code given; the older
widenings' edges are in test_static_widened_narrow.py."""
from __future__ import annotations

import pytest
from test_static_widened_narrow import assert_narrow

# snippet -> (the code the marked line is blamed with)
REJECTED = {
    # an identity decorator on a kernel (FlagGems' libentry() stubbed, honest round s51b) is
    # exactly `return fn`, bound once, called with nothing
    # a bare alias of a library decorator (`libtuner = triton.autotune`, honest round s51b) is
    # written out only where every use is a decorator and nothing else binds its name
    "bare_decorator_alias_read_as_a_value": ('''
        tuner = triton.autotune  # <-
        x = tuner
    ''', "forbidden_syntax"),
    "bare_decorator_alias_shadowed_by_a_parameter": ('''
        tuner = triton.autotune  # <-

        def make(tuner, x):
            @tuner(configs=[], key=[])
            def helper(y):
                return y
            return helper(x)
    ''', "forbidden_syntax"),
    "bare_alias_of_a_non_decorator": ('''
        tuner = torch.compile  # <-

        @tuner
        def helper(y):
            return y
    ''', "harness_tamper"),
    "identity_decorator_rebound": ('''
        def keep(fn):
            return fn

        keep = max

        @keep  # <-
        @triton.jit
        def k3(x_ptr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)
    ''', "forbidden_syntax"),
    "identity_decorator_returns_something_else": ('''
        def keep(fn):
            return comb

        @keep  # <-
        @triton.jit
        def k3(x_ptr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)
    ''', "forbidden_syntax"),
    "identity_decorator_with_a_default": ('''
        def keep(fn, extra=print):
            return fn

        @keep  # <-
        @triton.jit
        def k3(x_ptr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)
    ''', "forbidden_syntax"),
    "identity_factory_called_with_arguments": ('''
        def libentry():
            def decorator(fn):
                return fn
            return decorator

        @libentry(1)  # <-
        @triton.jit
        def k3(x_ptr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)
    ''', "forbidden_syntax"),
    "identity_factory_hands_back_another": ('''
        def libentry():
            def decorator(fn):
                return fn
            other = max
            return other

        @libentry()  # <-
        @triton.jit
        def k3(x_ptr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)
    ''', "forbidden_syntax"),
    # a class-body alias of a kernel (triton.ops.matmul's `kernel = _kernel`, honest round
    # s51b) is accepted only where nothing reads it back: an attribute of its name, a literal
    # getattr, a default or another class-body statement that takes it
    "class_kernel_alias_read_as_attribute": ('''
        class Holder:
            kernel = k  # <-

        def launch(x, out):
            Holder.kernel[(1,)](x, out, 1, BLOCK=16)
    ''', "monkey_patch"),
    "class_kernel_alias_read_by_getattr": ('''
        class Holder:
            kernel = k  # <-

        def grab():
            return getattr(Holder, "kernel")
    ''', "monkey_patch"),
    "class_kernel_alias_read_by_a_class_pattern": ('''
        class Holder:
            kernel = k  # <-

        def launch(x, out):
            match Holder():
                case Holder(kernel=f):
                    f[(1,)](x, out, 1, BLOCK=16)
    ''', "monkey_patch"),
    "class_kernel_alias_taken_as_a_default": ('''
        class Holder:
            kernel = k

            def run(self, x, out, fn=kernel):  # <-
                fn[(1,)](x, out, 1, BLOCK=16)
    ''', "reflection"),
    "class_kernel_alias_taken_by_a_class_statement": ('''
        class Holder:
            kernel = k
            other = [kernel]  # <-
    ''', "monkey_patch"),
    # a private of the file's own class through its name: a @staticmethod called at once only
    "own_private_plain_method_through_the_class": ('''
        class Holder:
            def _call(self, x):
                return x

        def f(x):
            return Holder._call(x, x)  # <-
    ''', "reflection"),
    "own_private_static_read_not_called": ('''
        class Holder:
            @staticmethod
            def _call(x):
                return x

        def f(x):
            g = Holder._call  # <-
            return g(x)
    ''', "reflection"),
    "inherited_private_through_the_class": ('''
        class Holder(nn.Module):
            @staticmethod
            def _helper(x):
                return x

        def f(x):
            return Holder._apply(x)  # <-
    ''', "reflection"),
    "own_private_static_through_a_parameter": ('''
        class Holder:
            @staticmethod
            def _call(x):
                return x

        def f(C, x):
            return C._call(x)  # <-
    ''', "reflection"),
    # import fallbacks nest in a handler (xformers' libdevice_find written out, honest round
    # s51b): a nested handler that runs is judged like any import, and a try nested in a
    # handler that is not a chain of imports is refused as any try but a module-level one
    "nested_fallback_kept_handler_imports_sys": ('''
        try:
            import triton.language.extra.nonexistent as lib
        except ImportError:
            try:
                import triton.language.extra.nonexistent2 as lib
            except ImportError:
                import sys as lib  # <-
    ''', "forbidden_import"),
    "nested_try_in_handler_computes": ('''
        try:
            BIG = torch.empty(1 << 40)
        except Exception:
            try:  # <-
                BIG = torch.empty(1 << 20)
            except Exception:
                BIG = None
    ''', "try_except"),
}


@pytest.mark.parametrize("name", list(REJECTED))
def test_s51_widened_construct_stays_narrow(name):
    assert_narrow(*REJECTED[name])
