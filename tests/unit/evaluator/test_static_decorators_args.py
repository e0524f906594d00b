"""Made-contiguous *args in a transparent decorator (evaluator.static_idioms): fla's input_guard
and Liger's ensure_contiguous hand on exactly what Python passed, each element kept or made
contiguous; every shape next to them that substitutes, reorders, drops, reads twice or computes
an argument is refused on its line (the accepted shapes: test_static_decorators.py)."""
from __future__ import annotations

import pytest
from test_static_checks import assert_rejected

REJECTED = {
    # made-contiguous *args (honest round s46): the element may only keep or make contiguous
    "contiguous_args_substitutes": ('''
        def deco(fn):
            def wrapper(*args):
                c = [torch if not isinstance(i, torch.Tensor) else i.contiguous() for i in args]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # a tensor replaced by another value
    "contiguous_args_computes_other": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i.contiguous() if isinstance(i, torch.Tensor) else i.sys for i in args]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # the test is isinstance of torch.Tensor, nothing else
    "contiguous_args_wrong_test": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if isinstance(i, nn.Module) else i.contiguous() for i in args]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # reordered: args[::-1]
    "contiguous_args_reversed": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args[::-1]]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # an element read out of args by index
    "contiguous_args_indexes": ('''
        def deco(fn):
            def wrapper(*args):
                c = [args[-1] if not isinstance(i, torch.Tensor) else i.contiguous() for i in args]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # a filter drops the non-tensors (self) and shifts the rest
    "contiguous_args_filtered": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args if isinstance(i, torch.Tensor)]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # a second for over another iterable
    "contiguous_args_extra_iterable": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for j in (torch,) for i in args]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # the iterable is not the wrapper's own *args
    "contiguous_args_prepended_iterable": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for i in (torch, *args)]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # the list changed after it is built
    "contiguous_args_mutated": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args]
                c[0] = torch
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # the list handed to a method that changes it
    "contiguous_args_inserted": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args]
                c.insert(0, torch)
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # the name bound twice
    "contiguous_args_rebound": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args]
                if len(args) > 1:
                    c = [torch]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # a generator advanced before the call: self dropped
    "contiguous_args_generator_advanced": ('''
        def deco(fn):
            def wrapper(*args):
                c = (i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args)
                next(c)
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # a generator read by two calls: the second finds it empty
    "contiguous_args_generator_read_twice": ('''
        def deco(fn):
            def wrapper(*args):
                c = (i if not isinstance(i, torch.Tensor) else i.contiguous() for i in args)
                fn(*c)
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # the comprehension over another name than the wrapper's *args
    "contiguous_args_of_another_star": ('''
        def deco(fn):
            def wrapper(*args):
                other = (torch,) + args
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous() for i in other]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # the element names a variable other than the comprehension's
    "contiguous_args_item_shadowed": ('''
        def deco(fn):
            def wrapper(*args):
                j = torch
                c = [j if not isinstance(i, torch.Tensor) else i.contiguous() for i in args]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # contiguous() takes no arguments here
    "contiguous_args_contiguous_with_arguments": ('''
        def deco(fn):
            def wrapper(*args):
                c = [i if not isinstance(i, torch.Tensor) else i.contiguous(torch) for i in args]
                return fn(*c)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    # *args rebound to its contiguous copy (honest round s57g): the helper may only keep or
    # make contiguous its own parameter, be bound once and be one return; args bound once more
    "rebound_args_helper_substitutes": ('''
        def deco(fn):
            def wrapper(*args):
                def swap(x):
                    return x.contiguous() if isinstance(x, torch.Tensor) else torch
                args = [swap(a) for a in args]
                return fn(*args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    "rebound_args_helper_two_statements": ('''
        def deco(fn):
            def wrapper(*args):
                def swap(x):
                    x = torch
                    return x.contiguous() if isinstance(x, torch.Tensor) else x
                args = [swap(a) for a in args]
                return fn(*args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    "rebound_args_helper_default": ('''
        def deco(fn):
            def wrapper(*args):
                def swap(x, y=torch):
                    return x.contiguous() if isinstance(x, torch.Tensor) else x
                args = [swap(a) for a in args]
                return fn(*args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    "rebound_args_helper_bound_twice": ('''
        def deco(fn):
            def wrapper(*args):
                def swap(x):
                    return x.contiguous() if isinstance(x, torch.Tensor) else x
                swap = lambda x: torch
                args = [swap(a) for a in args]
                return fn(*args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    "rebound_args_bound_again": ('''
        def deco(fn):
            def wrapper(*args):
                args = [a if not isinstance(a, torch.Tensor) else a.contiguous() for a in args]
                args = [torch, *args]
                return fn(*args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    "rebound_args_mutated": ('''
        def deco(fn):
            def wrapper(*args):
                args = [a if not isinstance(a, torch.Tensor) else a.contiguous() for a in args]
                args[0] = torch
                return fn(*args)
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
    "rebound_args_sliced": ('''
        def deco(fn):
            def wrapper(*args):
                args = [a if not isinstance(a, torch.Tensor) else a.contiguous() for a in args]
                return fn(*args[1:])
            return wrapper

        class Peek(nn.Module):
            @deco  # <-
            def peek(self, *rest):
                return self.sys
    ''', "forbidden_syntax"),
}


@pytest.mark.parametrize("name", list(REJECTED))
def test_contiguous_args_idiom_stays_narrow(name):
    snippet, code = REJECTED[name]
    assert_rejected(snippet, code)
