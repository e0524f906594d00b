"""Transparent decorators (evaluator.static_idioms): functools.wraps wrappers, memoising
decorators and fla's input_guard, whose *args made contiguous hand on exactly what Python passed;
every shape next to them that substitutes, reorders, drops or computes an argument is refused on
its line. Snippets as in test_static_idioms."""
from __future__ import annotations

import pytest
from test_static_checks import assert_accepted, assert_rejected

ACCEPTED = {
    # Liger-Kernel's ensure_contiguous on an autograd.Function's forward (ctx stays ctx)
    "wraps_decorator_on_function_forward": '''
        import functools

        def ensure_contiguous(fn):
            @functools.wraps(fn)
            def wrapper(ctx, *args, **kwargs):
                def contiguous(x):
                    return x.contiguous() if isinstance(x, torch.Tensor) else x

                args = [contiguous(a) for a in args]
                kwargs = {k: contiguous(v) for k, v in kwargs.items()}
                return fn(ctx, *args, **kwargs)

            return wrapper

        class Relu(torch.autograd.Function):
            @staticmethod
            @ensure_contiguous
            def forward(ctx, x):
                ctx.n = x.numel()
                return launch(x)

        class ModelNew(nn.Module):
            def forward(self, x):
                return Relu.apply(x)
    ''',
    # a generic pass-through wrapper (`*args`) on a method that keeps using self
    "star_args_decorator_on_method": '''
        from functools import wraps

        def no_grad_checked(fn):
            """Checks the inputs, then runs fn."""
            @wraps(fn)
            def inner(*args, **kwargs):
                assert all(not isinstance(a, str) for a in args)
                return fn(*args, **kwargs)
            return inner

        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self._scale = 2.0

            @no_grad_checked
            def forward(self, x):
                return launch(x) * self._scale
    ''',
    # flash-linear-attention's input_guard: *args handed on rebuilt, each tensor made
    # contiguous, by a generator (honest round s46, G1)
    "fla_input_guard_generator": '''
        import functools

        def input_guard(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                contiguous_args = (i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args)
                contiguous_kwargs = {k: (v if not isinstance(v, torch.Tensor) else v.contiguous())
                                     for k, v in kwargs.items()}
                tensor = None
                for arg in args:
                    if isinstance(arg, torch.Tensor):
                        tensor = arg
                        break
                if tensor is not None:
                    with torch.cuda.device(tensor.device.index):
                        return fn(*contiguous_args, **contiguous_kwargs)
                return fn(*contiguous_args, **contiguous_kwargs)

            return wrapper

        @input_guard
        def relu(x):
            return launch(x)

        class Relu(torch.autograd.Function):
            @staticmethod
            @input_guard
            def forward(ctx, x):
                ctx.n = x.numel()
                return launch(x)

        class ModelNew(nn.Module):
            def forward(self, x):
                return Relu.apply(relu(x))
    ''',
    # the same as a list and as tuple(...), the condition the other way round, on a method
    "contiguous_args_list_and_tuple": '''
        from functools import wraps

        def guard(fn):
            @wraps(fn)
            def wrapper(*args, **kwargs):
                c = [a.contiguous() if isinstance(a, torch.Tensor) else a for a in args]
                if kwargs:
                    return fn(*c, **kwargs)
                return fn(*c)
            return wrapper

        def guard2(fn):
            def wrapper(*args):
                t = tuple(a.contiguous() if isinstance(a, torch.Tensor) else a for a in args)
                return fn(*t)
            return wrapper

        class ModelNew(nn.Module):
            @guard
            @guard2
            def forward(self, x):
                return launch(x)
    ''',
    # a memoising decorator: the cache functools.lru_cache is, spelled out (honest round s31c)
    "memoising_decorator": '''
        import functools

        def config_cache(fn):
            cache = {}

            @functools.wraps(fn)
            def wrapper(n, dtype):
                key = (n, dtype)
                if key not in cache:
                    cache[key] = fn(n, dtype)
                return cache[key]

            return wrapper

        @config_cache
        def block_for(n, dtype):
            return triton.next_power_of_2(n)
    ''',
    "undecorated_wrapper": '''
        def timed(fn):
            def run(self, x):
                return fn(self, x)
            return run

        class ModelNew(nn.Module):
            @timed
            def forward(self, x):
                return launch(x)
    ''',
    # the decorator called on a def of the file, as `@deco` would (red team rt73's rule)
    "wraps_decorator_called_on_own_def": '''
        import functools

        def ensure_contiguous(fn):
            @functools.wraps(fn)
            def wrapper(x, *args, **kwargs):
                return fn(x, *args, **kwargs)
            return wrapper

        def run(x):
            return launch(x)

        run_contiguous = ensure_contiguous(run)

        class ModelNew(nn.Module):
            def forward(self, x):
                return run_contiguous(x)
    ''',
    # Liger's ensure_contiguous without a ctx parameter: *args itself rebound to its copy made
    # contiguous by a helper def whose body is the keep-or-contiguous expression, on a module
    # function and on a method (honest round s57g)
    "star_args_rebound_by_maybe_to_contiguous_helper": '''
        import functools

        def ensure_contiguous(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                def maybe_to_contiguous(x):
                    return x.contiguous() if isinstance(x, torch.Tensor) else x

                args = [maybe_to_contiguous(arg) for arg in args]
                kwargs = {k: maybe_to_contiguous(v) for k, v in kwargs.items()}
                return fn(*args, **kwargs)

            return wrapper

        @ensure_contiguous
        def scale(x):
            return launch(x)

        class ModelNew(nn.Module):
            @ensure_contiguous
            def forward(self, x):
                return scale(x)
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_deco_idiom_is_accepted(name):
    assert_accepted(ACCEPTED[name])



REJECTED = {
    # decorators: the wrapper must hand on exactly what Python passed it first
    "decorator_swaps_self": ('''
        def deco(fn):
            def wrapper(self, *args):
                return fn(torch, *args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self):
                return self.sys
    ''', "forbidden_syntax"),
    "decorator_rebinds_first": ('''
        def deco(fn):
            def wrapper(self):
                self = torch
                return fn(self)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self):
                return self.sys
    ''', "forbidden_syntax"),
    "decorator_star_args_prepended": ('''
        def deco(fn):
            def wrapper(*args):
                args = (torch,) + args
                return fn(*args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self):
                return self.sys
    ''', "forbidden_syntax"),
    "decorator_calls_at_decoration": ('''
        def deco(fn):
            fn(torch)
            def wrapper(self):
                return fn(self)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self):
                return self.sys
    ''', "forbidden_syntax"),
    "decorator_hands_fn_out": ('''
        def deco(fn):
            def wrapper(self):
                return fn
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self):
                return self.sys
    ''', "forbidden_syntax"),
    "decorator_keyword_first": ('''
        def deco(fn):
            def wrapper(self, *args):
                return fn(*args, self=torch)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self):
                return self.sys
    ''', "forbidden_syntax"),
    "decorator_on_kernel": ('''
        def deco(fn):
            def wrapper(*args):
                return fn(*args)
            return wrapper

        @deco  # <-
        @triton.jit
        def k2(x_ptr):
            pass
    ''', "forbidden_syntax"),
    "decorator_on_class": ('''
        def deco(fn):
            def wrapper(*args):
                return fn(*args)
            return wrapper

        @deco  # <-
        class P(nn.Module):
            pass
    ''', "forbidden_syntax"),
    # the cache only as `k in cache`, `cache[k]`, `cache[k] = v`: handed out, it is a
    # decorator with state the checks cannot follow
    "memoising_decorator_hands_out_its_cache": ('''
        import functools

        def config_cache(fn):
            cache = {}

            @functools.wraps(fn)  # <-
            def wrapper(n):
                cache[n] = fn(n)
                return cache

            return wrapper

        @config_cache
        def block_for(n):
            return n
    ''', "forbidden_syntax"),
    "wraps_copies_code": ('''
        import functools

        def deco(fn):
            @functools.wraps(fn, assigned=("__code__",))  # <-
            def wrapper(self):
                return fn(self)
            return wrapper

        class P(nn.Module):
            @deco
            def peek(self):
                return 1
    ''', "forbidden_syntax"),
    "wraps_of_a_module": ('''
        import functools

        def deco(fn):
            @functools.wraps(torch)  # <-
            def wrapper(self):
                return fn(self)
            return wrapper

        class P(nn.Module):
            @deco
            def peek(self):
                return 1
    ''', "forbidden_syntax"),
    # red team rt73: functools.wraps copies __triton_builtin__ and __module__ from what it wraps,
    # so a transparent decorator handed a Triton builtin made a file function Triton calls in a
    # kernel body; the decorator is only ever handed a def of the file that is no kernel
    "transparent_decorator_on_a_triton_builtin": ('''
        import functools

        def deco(fn):
            @functools.wraps(fn)  # <-
            def wrapper(a, *args, **kw):
                return fn(a, *args, **kw)
            return wrapper

        floor_at = deco(tl.maximum)
    ''', "forbidden_syntax"),
    "transparent_decorator_as_a_value": ('''
        import functools

        def deco(fn):
            @functools.wraps(fn)  # <-
            def wrapper(a, *args, **kw):
                return fn(a, *args, **kw)
            return wrapper

        DECORATORS = [deco]
    ''', "forbidden_syntax"),
    "transparent_decorator_on_a_kernel_by_call": ('''
        import functools

        def deco(fn):
            @functools.wraps(fn)  # <-
            def wrapper(a, *args, **kw):
                return fn(a, *args, **kw)
            return wrapper

        @triton.jit
        def k2(x_ptr):
            tl.store(x_ptr, 1.0)

        k3 = deco(k2)
    ''', "forbidden_syntax"),
    "wraps_called": ('''
        import functools
        g = functools.wraps(torch)(launch)  # <-
    ''', "forbidden_syntax"),
}


@pytest.mark.parametrize("name", list(REJECTED))
def test_deco_idiom_stays_narrow(name):
    snippet, code = REJECTED[name]
    assert_rejected(snippet, code)
