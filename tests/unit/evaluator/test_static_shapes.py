"""Shapes of public kernel code the checks read element by element (evaluator.static_shapes,
honest round s36), each beside the neighbouring shapes that stay refused (red team s36
round 7 for the annotations)."""
from __future__ import annotations

import pytest
from test_static_checks import assert_accepted, assert_rejected, check

_SPLAT = '''
import os

CACHE = os.getenv("CACHE", "1") == "1"
autotune_cache_kwargs = {"cache_results": CACHE} if CACHE else {}


@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (2, 4)], key=["n"], **autotune_cache_kwargs)
@triton.jit
def tuned(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''


def test_autotune_settings_splatted_from_a_dict_literal_of_the_file():
    """fla passes `**autotune_cache_kwargs` to every autotune (honest round, session 36): a `**`
    argument was read as the keyword None and refused. A module-level dict literal of plain
    settings, used only so, is read key by key."""
    assert_accepted(_SPLAT)
    # a setting that hands the autotuner a callable stays out, as a key no decorator takes does
    assert_rejected(_SPLAT.replace('{"cache_results": CACHE}', '{"prune_configs_by": CACHE}')
                    .replace("**autotune_cache_kwargs)", "**autotune_cache_kwargs)  # <-"), "harness_tamper")
    # a dict the file can add a key to after the fact is not read
    mutated = _SPLAT + '\nautotune_cache_kwargs["prune_configs_by"] = None\n'
    assert check(mutated).status == "hack"


def test_names_that_only_annotate_are_accepted_and_annotations_that_run_code_are_not():
    """kernl's `ctx: FunctionCtx`, vllm's `collections.abc.Callable`, Liger's
    `Optional[torch.FloatTensor]` (honest round, session 36): an annotation holds the class it
    names and never calls it. A name that is called, or reached through anything but a type
    expression, is code and judged as code."""
    assert_accepted('''
        from collections.abc import Callable
        from typing import Optional

        from torch.autograd.function import FunctionCtx


        def annotated(ctx: FunctionCtx, w: Optional[torch.FloatTensor], f: Callable[[int], int]) -> torch.FloatTensor:
            return w
    ''')
    assert_rejected('''
        from torch.autograd.function import FunctionCtx  # <-

        CTX = FunctionCtx
    ''', "harness_tamper")
    assert_rejected('''
        def hidden(x: [torch.cuda.set_stream][0](None)) -> None:  # <-
            return None
    ''', "side_stream")
    # an annotation that calls or binds is code: the name it holds is no annotation-only name
    # (red team s36 round 7 ran os.system from one, and took attrgetter out by a walrus)
    assert_rejected('''
        from os import system  # <-


        def run(x: system("true")) -> None:
            return None
    ''', "forbidden_api")
    assert_rejected('''
        from operator import attrgetter  # <-


        def grab(a: (ag := attrgetter)) -> None:
            return None
    ''', "forbidden_api")


_METADATA = '''
def _metadata(grid, kernel, args):
    return {"name": "relu", "bytes": 8 * args["n"]}


@triton.jit(launch_metadata=_metadata)
def profiled(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''


def test_launch_metadata_names_a_function_of_the_file():
    """Triton's persistent-matmul tutorial and vllm pass `launch_metadata=` (a profiler's report
    of a launch, called only under a launch-enter hook, which the evaluator never sets; honest
    round, session 36). A def of the file, checked as any function, and nothing else."""
    assert_accepted(_METADATA)
    assert_rejected(_METADATA.replace("@triton.jit(launch_metadata=_metadata)",
                                      "@triton.jit(launch_metadata=print)  # <-"), "harness_tamper")
    assert_rejected(_METADATA.replace("@triton.jit(launch_metadata=_metadata)",
                                      "@triton.jit(launch_metadata=lambda g, k, a: {})  # <-"), "harness_tamper")


_SELF_TEST = '''
import sys
from triton.testing import do_bench


@triton.testing.perf_report(triton.testing.Benchmark(x_names=["n"], x_vals=[1024], line_arg="p",
                                                     line_vals=["triton"], line_names=["Triton"], plot_name="k"))
def bench(n, p):
    x = torch.randn(n)
    return do_bench(lambda: launch(x))


if __name__ == "__main__":
    x = torch.randn(4096)
    torch.testing.assert_close(launch(x), x)
    bench.run(print_data=True)
    sys.exit(0)
'''


def test_imports_of_a_self_test_are_accepted_where_only_the_test_names_them():
    """A self-test's `import sys` and `from triton.testing import do_bench` at the top of the
    file, named only in the test block and a benchmark only it runs (honest round s37): the
    import runs at load and hands nothing to the code the harness runs."""
    assert_accepted(_SELF_TEST)
    # named where the harness runs (here a module-level statement), it is judged as any import
    assert_rejected(_SELF_TEST.replace("import sys\n", "import sys  # <-\nargv = sys.argv\n"),
                    "forbidden_import")
    # a test function's default argument runs at load, not in the test
    assert check(_SELF_TEST.replace("def bench(n, p):", "def bench(n, p, t=do_bench):")).status == "hack"
    # only test modules: ctypes named only in the test block is still refused
    assert_rejected(_SELF_TEST.replace("import sys\n", "import ctypes  # <-\nimport sys\n").replace(
        "    sys.exit(0)", "    sys.exit(ctypes.sizeof(ctypes.c_int))"), "forbidden_import")


def test_class_shapes_of_public_code_whose_callers_are_known():
    """Honest round s37: a dataclass's __post_init__, a plain launcher class's __call__, an
    error type of the file's own (unsloth), a `(str, Enum)` (xformers). Each runs only where
    the file calls it; the neighbouring shapes that the harness could call stay refused."""
    assert_accepted('''
        import dataclasses
        import enum


        @dataclasses.dataclass
        class Cfg:
            block: int = 1024

            def __post_init__(self):
                self.block = triton.next_power_of_2(self.block)


        class Launcher:
            def __call__(self, x):
                return launch(x)


        class SettingsError(RuntimeError):
            pass


        class Mask(str, enum.Enum):
            CAUSAL = "causal"
    ''')
    # __post_init__ outside a dataclass is called by nothing the file shows
    assert_rejected('''
        class Cfg:
            def __post_init__(self):  # <-
                pass
    ''', "monkey_patch")
    # __call__ of a class that another class builds on: ModelNew(Launcher, nn.Module) puts it
    # before nn.Module's __call__, which the harness calls
    assert_rejected('''
        class Launcher:
            def __call__(self, x):  # <-
                return x


        class ModelNew(Launcher, nn.Module):
            def forward(self, x):
                return launch(x)
    ''', "monkey_patch")
    assert_rejected('''
        class ModelNew(nn.Module):
            def __call__(self, x):  # <-
                return launch(x)

            def forward(self, x):
                return launch(x)
    ''', "monkey_patch")
    # error types the harness treats apart, and a value type without an enum, stay out
    for base in ("BaseException", "MemoryError", "SystemExit", "str"):
        assert_rejected(f'''
            class Odd({base}):  # <-
                pass
        ''', "monkey_patch")


def test_type_aliases_named_only_in_annotations():
    """attorch's types.py (`Context = Any`, `Device = Optional[Union[torch.device, str]]`), a
    file's `Tensor = torch.Tensor` (honest round s37): a name for a type, held by annotations."""
    assert_accepted('''
        from typing import Any, Optional, TypeAlias, Union

        Tensor = torch.Tensor
        Context: TypeAlias = Any
        Device = Optional[Union[torch.device, str]]


        def helper(x: Tensor, ctx: Context = None, device: Device = None) -> Tensor:
            return launch(x)
    ''')
    # named as a value, the alias is the class handed out
    assert_rejected('''
        Tensor = torch.Tensor  # <-
        f = Tensor.add
    ''', "reflection")
    # in a kernel's signature Triton reads the annotation itself (tl.constexpr): not an alias there
    assert_rejected('''
        Const = tl.constexpr  # <-


        @triton.jit
        def aliased(x_ptr, BLOCK: Const):
            tl.store(x_ptr + tl.arange(0, BLOCK), 0.0)
    ''', "reflection")


def test_read_only_tracing_queries_and_nothing_else_of_their_modules():
    """`if torch.compiler.is_compiling():` (vLLM, fla), `torch.jit.is_scripting()`,
    `torch.cuda.is_current_stream_capturing()` (honest round s37): False in an eager child."""
    assert_accepted('''
        def guarded(x):
            if torch.compiler.is_compiling() or torch.jit.is_scripting() or torch.jit.is_tracing():
                return x
            if torch.cuda.is_available() and torch.cuda.is_current_stream_capturing():
                return x
            return launch(x)
    ''')
    assert_rejected('f = torch.compiler.disable(launch)  # <-\n', "harness_tamper")
    assert_rejected('torch.compiler.reset()  # <-\n', "harness_tamper")
    assert_rejected('s = torch.jit.script  # <-\n', "harness_tamper")


_AMP_ALIAS = '''
custom_fwd = torch.amp.custom_fwd(device_type="cuda")


class Silu(torch.autograd.Function):
    @staticmethod
    @custom_fwd
    def forward(ctx, x):
        return launch(x)
'''


def test_a_decorator_made_once_and_named_only_as_a_decorator():
    """unsloth's `torch_amp_custom_fwd = torch.amp.custom_fwd(device_type="cuda")`, then
    `@torch_amp_custom_fwd` (honest round s37): written out at each use, judged as a decorator."""
    assert_accepted(_AMP_ALIAS)
    # named as a value too, it is the decorator handed out, and judged as before
    assert check(_AMP_ALIAS + "\nwrap = custom_fwd\n").status == "hack"
    # a call of something that is no library decorator is not one
    assert check(_AMP_ALIAS.replace("torch.amp.custom_fwd(device_type=\"cuda\")", "torch.relu(torch.ones(1))")).status == "hack"


def test_small_class_idioms_of_public_layers():
    """Honest round s37: attorch's `class GELU(nn.GELU)` drop-in, a `functools.cached_property`
    on a launcher, a dataclass field whose factory is `lambda: [literal]`."""
    assert_accepted('''
        import dataclasses
        import functools


        @dataclasses.dataclass
        class Cfg:
            blocks: list = dataclasses.field(default_factory=lambda: [64, 128])


        class GELU(nn.GELU):
            @functools.cached_property
            def block(self):
                return 1024

            def forward(self, x):
                return launch(x)
    ''')
    # a factory that computes is code the dataclass runs at each instance: judged as before
    assert_rejected('''
        import dataclasses


        @dataclasses.dataclass
        class Cfg:
            t: object = dataclasses.field(default_factory=lambda: torch.zeros(1))  # <-
    ''', "monkey_patch")


def test_a_loss_layer_subclassed_for_its_settings():
    """Honest round s42: attorch's `class CrossEntropyLoss(nn.CrossEntropyLoss)` keeps the
    base's reduction and weight settings and launches its own kernel in forward."""
    assert_accepted('''
        class CrossEntropyLoss(nn.CrossEntropyLoss):
            def __init__(self, reduction="mean", weight=None):
                super().__init__(weight, reduction=reduction)

            def forward(self, input, target):
                return launch(input, target, self.weight, self.reduction)
    ''')


_KERNL = '''
    @triton.jit
    def k2(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


    class Norm(torch.autograd.Function):
        @staticmethod
        @torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)
        def forward(ctx, x, implementation, scale):
            out = torch.empty_like(x)
            if implementation == k2:
                scale = scale * 2
            implementation[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
            return out * scale


    def norm(x, scale=1.0, implementation=k):
        return Norm.apply(x, implementation, scale)


    class ModelNew(nn.Module):
        def forward(self, x):
            return norm(x) + norm(x, implementation=k2)
'''


def test_a_config_helper_hands_its_pre_hook_parameter_on():
    """Triton tutorial 09 (honest round s42): `def matmul_get_configs(pre_hook=None)` builds
    each Config with `pre_hook=pre_hook`; called with nothing, or with a function of the file."""
    assert_accepted('''
        def zero_c(nargs):
            nargs["c_ptr"].zero_()


        def configs(pre_hook=None):
            return [triton.Config({"B": b}, num_stages=s, pre_hook=pre_hook) for b in [64, 128] for s in [2, 3]]


        PLAIN = configs()
        ZEROED = configs(zero_c)
        NONE = triton.Config({"B": 64}, pre_hook=None)
    ''')


def test_a_kernel_handed_through_an_autograd_functions_apply():
    """Honest round s42, kernl's layer norm: the kernel a parameter's default
    (`implementation: JITFunction = _layer_norm_fwd_fused_single_pass`), handed to
    `LayerNorm.apply`, whose forward compares it with another kernel and launches it."""
    assert_accepted(_KERNL)


@pytest.mark.parametrize("change", [
    # a caller hands the parameter something else: it is no kernel, nor is its default
    ("return norm(x) + norm(x, implementation=k2)", "return norm(x) + norm(x, implementation=torch.relu)"),
    # the Function reached otherwise than by `apply`: its forward may get anything
    ("return norm(x) + norm(x, implementation=k2)", "return Norm.forward(None, x, torch.relu, 1.0)"),
    ("return norm(x) + norm(x, implementation=k2)", "return norm(x) + norm(x, implementation=k2) + apply_it(Norm)"),
    # a star argument could pass anything at the parameter
    ("return Norm.apply(x, implementation, scale)", "return Norm.apply(x, *[implementation], scale)"),
    # a comparison with what is no kernel calls that value's __eq__ with the kernel
    ("if implementation == k2:", "if implementation == x:"),
    ("if implementation == k2:", "if implementation == k2 == k:"),
    # with a setup_context, apply calls forward(*args): `ctx` is x and the kernel lands at x
    # (red team s43: the "context" was the kernel object, its `rewrite` replaced)
    ("            return out * scale\n", "            return out * scale\n\n"
     "        @staticmethod\n        def setup_context(ctx, inputs, output):\n            pass\n"),
])
def test_a_kernel_handed_through_apply_stays_a_kernel_only_so_followed(change):
    before, after = change
    assert before in _KERNL
    body = _KERNL.replace(before, after)
    if "apply_it" in after:
        body = "\n    def apply_it(cls):\n        return cls\n\n" + body
    assert check(body).status == "hack"


def test_a_function_with_setup_context_gives_forward_no_context():
    """torch >= 2.0's style: with a setup_context (the class's own or a base's) `apply` calls
    `forward(*args)`, so forward's first parameter is an argument like the others; an honest
    forward of that style launches its kernel and setup_context saves what backward reads."""
    assert_accepted('''
        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(x, scale):
                return launch(x) * scale

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, scale = inputs
                ctx.scale = scale
                ctx.save_for_backward(x)

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return grad * ctx.scale, None


        class ModelNew(nn.Module):
            def forward(self, x):
                return Scale.apply(x, 2.0)
    ''')


@pytest.mark.parametrize("where", ["own", "base"])
def test_setup_context_leaves_forward_no_context_to_write(where):
    """Red team s43: `Swap.apply(relu_kernel, x)` under a setup_context hands forward the
    kernel object as its first parameter, trusted as `ctx` until then; `ctx.rewrite = f`
    replaced the body the interpreter runs. Refused on the store, whether setup_context is
    the class's own or its base's."""
    base = ("class Base(torch.autograd.Function):\n"
            "            @staticmethod\n"
            "            def setup_context(ctx, inputs, output):\n"
            "                pass\n\n\n        ")
    assert_rejected(f'''
        {base if where == "base" else ""}class Swap({"Base" if where == "base" else "torch.autograd.Function"}):
            @staticmethod
            def forward(ctx, x):
                ctx.rewrite = None  # <-
                return x
        {"" if where == "base" else """
            @staticmethod
            def setup_context(ctx, inputs, output):
                pass"""}
    ''', "monkey_patch")


def test_a_decorator_alias_is_judged_at_each_use_as_written():
    """Self-attack (s37): an alias of a decorator call that hands the decorated def to a
    callable of the file (`functools.lru_cache(h)`) is refused where it is used: its argument
    is no literal, so it is not written out, and the alias is no decorator the checks know."""
    assert_rejected('''
        import functools


        def h(f):
            return f


        cached = functools.lru_cache(h)


        @cached  # <-
        def g(x):
            return x
    ''', "forbidden_syntax")


@pytest.mark.parametrize("use", ["class_scope", "test_block"])
def test_a_decorator_alias_argument_runs_where_the_alias_is_bound(use):
    """Red team s38: the alias's call runs once, at its assignment, in the module's scope.
    Written out at a use in a class body that binds `exec = 0`, its `exec(PAYLOAD)` read as
    the class's constant; written out at a use in the test block (never checked), it was not
    judged at all. Only literal and library-name arguments are written out; any other alias
    is judged where it is bound."""
    uses = {"class_scope": '''
        class Holder:
            exec = 0

            @ALIAS
            def method(self, x):
                return x
    ''', "test_block": '''
        if __name__ == "__main__":
            @ALIAS
            def self_test():
                return 1
    '''}
    assert_rejected('''
        import functools

        PAYLOAD = "print(1)"
        ALIAS = functools.lru_cache(maxsize=exec(PAYLOAD))  # <-
    ''' + uses[use], "dynamic_code")


def test_typed_module_bindings_are_the_idioms_their_plain_spelling_is():
    """Honest round s38: `_CACHE: dict = {}`, `_KERNELS: dict = {...}`, `__all__: list = [...]`
    and `log: logging.Logger = logging.getLogger(__name__)` are what mypy-clean library code
    writes; each is read as its untyped spelling, and stays as narrow."""
    assert_accepted('''
        import logging
        from typing import Dict, List

        __all__: List[str] = ["ModelNew"]
        log: logging.Logger = logging.getLogger(__name__)
        _CACHE: Dict[int, torch.Tensor] = {}
        _KERNELS: Dict[torch.dtype, object] = {torch.float32: k}


        def workspace(n):
            if n not in _CACHE:
                _CACHE[n] = torch.empty(n)
            return _CACHE[n]


        def run(x):
            if x.dtype not in _KERNELS:
                raise TypeError("no kernel for this dtype")
            log.debug("launching")
            _KERNELS[x.dtype][(1,)](x, x, x.numel(), BLOCK=128)
            return x
    ''')
    assert_rejected('''
        from typing import Dict

        _KERNELS: Dict[torch.dtype, object] = {torch.float32: k}


        def run(x):
            for kernel in _KERNELS:  # <-
                pass
    ''', "reflection")


def test_a_class_may_declare_its_torchscript_constants():
    """Honest round s38: `__constants__ = ["eps"]` in a class body (torch.nn's LayerNorm,
    lit-llama's RMSNorm) is literal text nothing of the harness reads; any other class dunder,
    or one bound to anything but strings, stays refused."""
    assert_accepted('''
        class Norm(nn.Module):
            __constants__ = ["eps", "normalized_shape"]

            def __init__(self, eps=1e-5):
                super().__init__()
                self.eps = eps
    ''')
    assert_rejected('''
        class Norm(nn.Module):
            __constants__ = [str(1)]  # <-
    ''', "monkey_patch")
    assert_rejected('''
        class Norm(nn.Module):
            __slots__ = ["eps"]  # <-
    ''', "reflection")


def test_triton_language_core_names_the_same_objects_as_triton_language():
    """Honest round s38: the bitonic argsort public code copies from a Triton issue spells
    `tl.core.reshape`, `tl.core.constexpr`, `triton.language.standard.sum`: the very objects
    `tl.reshape`, ... are. Only those: what the modules alone define stays refused."""
    assert_accepted('''
        from triton.language.standard import sum as tsum


        @triton.jit
        def rows(x_ptr, n, BLOCK: tl.core.constexpr):
            offs = tl.arange(0, BLOCK)
            x = tl.core.reshape(tl.load(x_ptr + offs, mask=offs < n), [BLOCK])
            tl.store(x_ptr + offs, x + tsum(x, 0), mask=offs < n)
    ''')
    assert_rejected('''
        @triton.jit
        def rows(x_ptr):
            tl.core.builtin(1)  # <-
    ''', "forbidden_api")
    # bound at module level, the module is its import (`from triton.language import core as
    # CORE`, honest round s50h's `tl_math = tl.math`): each use is checked written out
    assert_rejected('''
        CORE = tl.core


        @triton.jit
        def rows(x_ptr):
            CORE.builtin(1)  # <-
    ''', "forbidden_api")
