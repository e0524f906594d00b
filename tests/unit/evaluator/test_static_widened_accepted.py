"""Constructs the static layer accepts because honest public code writes them (each entry
names the honest round that found it): a snippet appended to a minimal honest file passes.
Their narrow edges are pinned in test_static_widened_narrow.py."""
from __future__ import annotations

import pytest
from static_snippets import check_snippet

ACCEPTED = {
    # honest round s51b (FlagGems' kernels with their libentry() stubbed where the library is
    # not installed): an identity decorator or identity factory of the file, on a kernel too
    # honest round s51b (FlagGems' libtuner stubbed): a bare alias of a library decorator,
    # named only as a decorator, written out where it is used
    "bare_library_decorator_alias": '''
        libtuner = triton.autotune


        @libtuner(configs=[triton.Config({"BLOCK": 16})], key=["n"])
        @triton.jit
        def k5(x_ptr, n, BLOCK: tl.constexpr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)
    ''',
    "identity_decorator_factory_on_a_kernel": '''
        def libentry():
            def decorator(fn):
                return fn

            return decorator


        def keep(fn):
            """identity"""
            return fn


        @libentry()
        @triton.jit
        def k3(x_ptr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)


        @keep
        @triton.jit
        def k4(x_ptr):
            tl.store(x_ptr, tl.load(x_ptr) + 1)
    ''',
    # honest round s51b (Triton 2's triton.ops.matmul, vendored as it is): the kernel under a
    # class-body name nothing reads back, and a private @staticmethod of the file's own class
    # called through the class's name (`_matmul._call(a, b)` in forward)
    "class_body_kernel_alias_never_read": '''
        class _matmul(torch.autograd.Function):
            kernel = k

            _locks = {}

            @staticmethod
            def _call(x):
                out = torch.empty_like(x)
                k[(1,)](x, out, x.numel(), BLOCK=1024)
                return out

            @staticmethod
            def forward(ctx, x):
                return _matmul._call(x)


        matmul = _matmul.apply
    ''',
    # honest round s44 (cute-kernels): the default device of a launch's allocations
    "torch_device_context_around_a_launch": '''
        def launch(x):
            with torch.device(x.device):
                out = torch.empty_like(x)
                k[(1,)](x, out, x.numel(), BLOCK=1024)
            with torch.cuda.device_of(x):
                k[(1,)](x, out, x.numel(), BLOCK=1024)
            return out
    ''',
    # honest round s44 (FlashInfer's header): a typing import never named
    "unused_collections_abc_import": '''
        from collections.abc import Mapping
    ''',
    # honest round s44 (batch_invariant_ops): read-only host and accelerator queries
    "host_threads_and_accelerator_queries": '''
        def num_sms():
            device = getattr(torch.accelerator.current_accelerator(), "type", "cpu")
            if device == "cuda":
                return torch.cuda.get_device_properties(0).multi_processor_count
            return torch.get_num_threads()
    ''',
    # honest round s40 (h5_39c): a launcher object of no base whose method is named like
    # nn.Module's apply; the file only calls the class, so it is nobody's base
    "plain_class_method_named_like_a_module_method": '''
        class Launcher:
            def __init__(self, block):
                self.block = block

            def apply(self, x):
                out = torch.empty_like(x)
                k[(triton.cdiv(x.numel(), self.block),)](x, out, x.numel(), BLOCK=self.block)
                return out

            def to(self, x):
                return Launcher.apply(self, x)


        class Act(nn.Module):
            def __init__(self):
                super().__init__()
                self.op = Launcher(1024)

            def forward(self, x):
                return self.op.apply(x)
    ''',
    # honest round s40: a kernel variant chosen per instance and kept on self, only launched
    "kernel_on_self": '''
        class Act(nn.Module):
            def __init__(self, exact: bool):
                super().__init__()
                self._kern = k if exact else k
                self.block = 1024

            def forward(self, x):
                out = torch.empty_like(x)
                self._kern[(triton.cdiv(x.numel(), self.block),)](x, out, x.numel(), BLOCK=self.block)
                return out
    ''',
    # honest round s38: a device function handed to a generic kernel's tl.constexpr parameter,
    # which the kernel only calls (Triton specialises on it)
    "kernel_as_constexpr_argument": '''
        @triton.jit
        def neg(v):
            return -v


        @triton.jit
        def act_k(x_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(x_ptr + offs, ACT(tl.load(x_ptr + offs)), mask=offs < n)


        def launch(x):
            act_k[(1,)](x, x.numel(), ACT=neg, BLOCK=16)
            act_k[(1,)](x, x.numel(), neg, 16)


        def fused(x, activation):  # through a helper's kernel parameter (honest round s40)
            act_k[(1,)](x, x.numel(), ACT=activation, BLOCK=16)


        def run(x):
            fused(x, neg)
    ''',
    # honest round s38: collections' dict kinds, grouping work by block size on the host
    "collections_defaultdict_ordereddict": '''
        from collections import OrderedDict, defaultdict


        def plan(sizes):
            groups = defaultdict(list)
            for i, n in enumerate(sizes):
                groups[triton.next_power_of_2(n)].append(i)
            return OrderedDict(sorted(groups.items()))
    ''',
    # honest round s38 (h4_35, the Triton tutorials' shape): a pytest test beside the kernel,
    # its marks and import dropped (pytest is not in the sandbox; static_idioms "pytest marks")
    "pytest_parametrized_test": '''
        import pytest


        @pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
        @pytest.mark.parametrize("n, dtype", [(1000, torch.float16),
                                              pytest.param(7, torch.float32, id="odd")])
        def test_copy(n, dtype):
            torch.manual_seed(0)
            x = torch.randn(n, device="cuda", dtype=dtype)
            if n < 8:
                pytest.skip("too small")
            torch.testing.assert_close(ModelNew()(x), x)


        if __name__ == "__main__":
            pytest.main([__file__])
    ''',
    # honest round s38 (mamba_ssm's SSD kernels): the block size an autotuner chose, and the
    # smallest any config of it uses, read as numbers
    "autotune_best_config_block": '''
        @triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=["n"])
        @triton.jit
        def tk(x_ptr, n, BLOCK: tl.constexpr):
            tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.float32))

        def chosen():
            return tk.best_config.kwargs["BLOCK"]
    ''',
    "autotune_configs_min_block": '''
        @triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=["n"])
        @triton.jit
        def tk(x_ptr, n, BLOCK: tl.constexpr):
            tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.float32))

        MIN_BLOCK = min(cfg.kwargs["BLOCK"] for cfg in tk.configs)
    ''',
    # honest round, session 20: Triton's tutorial 03 as published, a test block's clock, and
    # a callable's signature in an annotation
    "hasattr_on_a_module": 'TORCH_HAS_FP8 = hasattr(torch, "float8_e5m2")\n',
    "heuristics_lambda_on_a_kernel": '''
        @triton.heuristics(values={"BLOCK": lambda args: triton.next_power_of_2(args["n"])})
        @triton.jit
        def fill_zero(x_ptr, n, BLOCK: tl.constexpr):
            tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.float32))
    ''',
    "operator_arithmetic": 'import functools\nimport operator\nN = functools.reduce(operator.mul, (2, 3), 1)\n',
    "time_in_the_test_block": '''
        import time
        if __name__ == "__main__":
            t0 = time.perf_counter()
            print(time.perf_counter() - t0)
    ''',
    "callable_annotation": '''
        from typing import Callable
        def apply(fn: Callable[[torch.Tensor, float], torch.Tensor], x: torch.Tensor) -> torch.Tensor:
            return fn(x, 1.0)
    ''',
    # inline assembly for arithmetic (fast tanh) is a kernel's business; only clocks are not
    "inline_asm_arithmetic": '''
        @triton.jit
        def fast_tanh(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n)
            y = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                          is_pure=True, pack=1)
            tl.store(y_ptr + offs, y, mask=offs < n)
    ''',
    "test_block": '''
        if __name__ == "__main__":
            import time
            torch.manual_seed(0)
            print(triton.testing.do_bench(lambda: ModelNew()(torch.randn(8))))
    ''',
    "all": '__all__ = ["ModelNew", "k"]\n',
    "reduce_combine": '''
        @triton.jit
        def r(x):
            return tl.reduce(x, 0, comb) + tl.reduce(x, 0, combine_fn=comb)
    ''',
    "scan_combine": '''
        @triton.jit
        def r(x):
            return tl.associative_scan(x, 0, comb, reverse=True)
    ''',
    "device_queries": '''
        DEVICE = triton.runtime.driver.active.get_active_torch_device()
        IS_CUDA = triton.runtime.driver.active.get_current_target().backend == "cuda"
        NUM_SM = triton.runtime.driver.active.utils.get_device_properties(0)["multiprocessor_count"]
    ''',
    "tensor_descriptor": '''
        from triton.tools.tensor_descriptor import TensorDescriptor

        def desc(x):
            return TensorDescriptor.from_tensor(x, [16, 16])
    ''',
    # session 12's honest corpus (helpers writing as people do): each was a hack before
    "warnings_warn": '''
        import warnings

        def upcast(x):
            if x.dtype == torch.float16:
                warnings.warn("computing in float32", UserWarning, stacklevel=2)
            return x.float()
    ''',
    "unused_numpy_and_logging_imports": '''
        import logging
        import numpy as np

        if __name__ == "__main__":
            print(np.allclose(1.0, 1.0))
    ''',
    "class_body_dtype_tuple": '''
        class Mish(nn.Module):
            SUPPORTED = (torch.float32, torch.float16, torch.bfloat16)
            ACC = tl.float32

            def forward(self, x):
                assert x.dtype in self.SUPPORTED
                return x
    ''',
    "named_tuple_config": '''
        from typing import NamedTuple

        class Cfg(NamedTuple):
            block: int = 1024
            warps: int = 4
    ''',
    # honest round, session 26: FlagGems' root-logger calls, attorch's autocast query and its
    # amp decorators imported by name
    "logging_module_functions": 'import logging\nlogging.debug("GEMS %s", "CUMSUM")\nlogging.info("x")\n',
    "autocast_query": 'FP16 = torch.is_autocast_enabled()\n',
    "amp_decorators_imported": '''
        from torch.cuda.amp import custom_bwd, custom_fwd

        class G(torch.autograd.Function):
            @staticmethod
            @custom_fwd
            def forward(ctx, x):
                return x

            @staticmethod
            @custom_bwd
            def backward(ctx, g):
                return g
    ''',
    # honest round, session 26 (second): unsloth's decorators written as rebinds right below the
    # def, by the module's name and by imported names
    "decorators_as_rebinds": '''
        def k2(x_ptr, n, FLAG: tl.constexpr, BLOCK: tl.constexpr):
            tl.store(x_ptr + tl.arange(0, BLOCK), n)


        k2 = triton.jit(k2)
        k2 = triton.heuristics({"FLAG": lambda args: bool(args["n"])})(k2)
        k2 = triton.autotune(configs=[triton.Config({"BLOCK": 16})], key=["n"])(k2)


        def launch(x):
            k2[(1,)](x, 1)
    ''',
    # honest round s45: a class named in an error message through str/repr/print
    "type_of_a_value_as_text": '''
        def check(x):
            if not isinstance(x, torch.Tensor):
                print("expected a tensor, got", type(x))
                raise TypeError("expected a tensor, got " + str(type(x)) + repr(type(x)))
            return x
    ''',
    # honest round s45: Triton tutorial 02's `from triton.runtime import driver`, used as the
    # head of the device-query chain
    "triton_runtime_driver_imported": '''
        from triton.runtime import driver

        DEVICE = driver.active.get_active_torch_device()


        def sms():
            return driver.active.utils.get_device_properties(DEVICE.index or 0)["multiprocessor_count"]
    ''',
    # honest round s44: a `match` on an activation's name, a type or a shape in host code
    "match_dispatch_in_host_code": '''
        def kind(name, x):
            match name:
                case "relu" | "none":
                    act = 0
                case str(other) if other.startswith("gelu"):
                    act = 1
                case _:
                    raise ValueError(f"unknown activation {name}")
            match x:
                case torch.Tensor(ndim=2, shape=(rows, cols)):
                    return act, rows, cols
                case [first, *rest]:
                    return act, first, len(rest)
                case {"rows": rows, **more}:
                    return act, rows, len(more)
            return act, 0, 0
    ''',
    # honest round s44: SGLang's `rmsnorm_autotune = triton.autotune(configs=[triton.Config(...)],
    # key=[...])` object, applied right below a kernel under a new name; both kernels launch
    "autotune_object_applied_as_a_new_name": '''
        tune = triton.autotune(
            configs=[triton.Config(kwargs={"BLOCK": 16}, num_warps=4, num_stages=1),
                     triton.Config({"BLOCK": 32}, num_warps=8)],
            key=["n"],
        )


        @triton.jit
        def k2(x_ptr, n, BLOCK: tl.constexpr):
            tl.store(x_ptr + tl.arange(0, BLOCK), n)


        k2_tuned = tune(
            k2
        )


        def launch(x):
            k2_tuned[(1,)](x, 1)
            k2[(1,)](x, 1, BLOCK=16)
            return x
    ''',
    "decorators_imported_as_rebinds": '''
        from triton import heuristics, jit


        def k2(x_ptr, n, FLAG: tl.constexpr, BLOCK: tl.constexpr):
            tl.store(x_ptr + tl.arange(0, BLOCK), n)


        k2 = jit(k2)
        k2 = heuristics({"FLAG": lambda args: bool(args["n"])})(k2)
    ''',
    "amp_custom_fwd": '''
        class F(torch.autograd.Function):
            @staticmethod
            @torch.amp.custom_fwd(device_type="cuda")
            def forward(ctx, x):
                return x

            @staticmethod
            @torch.amp.custom_bwd(device_type="cuda")
            def backward(ctx, g):
                return g
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_widened_construct_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, [(f.code, f.line, f.message) for f in report.findings]
