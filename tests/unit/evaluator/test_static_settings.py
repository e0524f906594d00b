"""The shapes of evaluator.static_settings, wrap_triton launches and kernel namespaces
(honest round, session 23): precision switches at import, a stateless Triton allocator,
`wrap_triton(k)[grid](...)`, `class K:` of @staticmethod kernels launched as `K.k[grid](...)`
pass; every shape next to them that could keep state, tell runs apart or reach the kernel's
internals is still rejected on its line (snippets as in test_static_checks)."""
from __future__ import annotations

import pytest
from test_static_checks import assert_accepted, assert_rejected

ACCEPTED = {
    "tf32_switches_at_import": '''
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        torch.backends.cudnn.benchmark = True
        torch.backends.cudnn.deterministic = False
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
        torch.set_float32_matmul_precision("high")
    ''',
    # a module-level `if` runs once, at import, as the switches above (static_branches)
    "switch_under_a_condition_at_import": '''
        if torch.cuda.is_available():
            torch.backends.cuda.matmul.allow_tf32 = True
    ''',
    # a notebook paste's header (honest round s41): the harness seeds the build after import
    # and draws inputs from its own generators
    "seed_and_logging_at_import": '''
        import logging

        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
        logging.basicConfig(level="DEBUG")
        log = logging.getLogger(__name__)
        torch.manual_seed(42)
        torch.cuda.manual_seed_all(0)
    ''',
    # a named range around the launch (vLLM, torchtitan): the harness's profiles count kernels
    "record_function_range": '''
        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.profiler.record_function("triton_scale_bias"):
                    return launch(x)
    ''',
    # the range imported by name (honest round s68F): each use a `with` item's call
    "record_function_imported_range": '''
        from torch.profiler import record_function

        class ModelNew(nn.Module):
            def forward(self, x):
                with record_function("triton::scale_bias"):
                    return launch(x)
    ''',
    # an NVTX range around the launch (vLLM, Megatron; honest round s49): push and pop only
    "nvtx_range": '''
        from torch.cuda import nvtx

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.cuda.nvtx.range("row_mean"):
                    y = launch(x)
                with nvtx.range(f"row_mean {tuple(x.shape)}"):
                    return launch(y)
    ''',
    # the do-nothing arm of a device switch (honest round s49), and a choice between two
    # allowed managers, as an `if` with a `with` in each arm would be
    "nullcontext_device_switch": '''
        import contextlib
        from contextlib import nullcontext

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.cuda.device(x.device) if x.is_cuda else nullcontext():
                    y = launch(x)
                with contextlib.nullcontext():
                    y = launch(y)
                with torch.autocast("cuda", enabled=False) if x.is_cuda else nullcontext(), torch.no_grad():
                    return launch(y)
    ''',
    # unsloth's device-context factory (honest round s50k): a def returning an allowed
    # manager's call, or an alias of one on the other arm of a device-count if
    "unsloth_torch_gpu_device_factory": '''
        from contextlib import nullcontext

        if torch.cuda.device_count() > 1:
            torch_gpu_device = torch.cuda.device
        else:
            def torch_gpu_device(device):
                """No-op context manager for single GPU."""
                return nullcontext()

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch_gpu_device(x.device):
                    return launch(x)
    ''',
    # a persistent grid's size off the GPU (honest round s41)
    "cpu_count_fallback": '''
        import os

        NUM_SM = torch.cuda.get_device_properties(0).multi_processor_count if torch.cuda.is_available() else os.cpu_count()
    ''',
    "allocator_def_tutorial_09": '''
        from typing import Optional

        DEVICE = triton.runtime.driver.active.get_active_torch_device()

        def alloc_fn(size: int, alignment: int, stream: Optional[int]):
            """Scratch for device-side tensor descriptors."""
            return torch.empty(size, device=DEVICE, dtype=torch.int8)

        triton.set_allocator(alloc_fn)
    ''',
    "allocator_def_nested_in_the_host_wrapper_tutorial_09": '''
        from typing import Optional

        def matmul_descriptor_persistent(a, b):
            # TMA descriptors require a global memory allocation
            def alloc_fn(size: int, alignment: int, stream: Optional[int]):
                return torch.empty(size, device="cuda", dtype=torch.int8)

            triton.set_allocator(alloc_fn)
            return launch(a)
    ''',
    "allocator_lambda_in_forward": '''
        class ModelNew(nn.Module):
            def forward(self, x):
                triton.set_allocator(lambda size, align, stream: torch.empty(
                    size, dtype=torch.int8, device="cuda" if torch.cuda.is_available() else "cpu"))
                return launch(x)
    ''',
    "wrap_triton_attribute": '''
        class ModelNew(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                torch.library.wrap_triton(k)[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
                return out
    ''',
    "wrap_triton_imported": '''
        from torch.library import wrap_triton

        class ModelNew(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                wrap_triton(k)[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
                return out
    ''',
    "kernel_namespace": '''
        class Kernels:
            """Kernels grouped by name."""

            @staticmethod
            @triton.jit
            def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
                offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
                tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

        class ModelNew(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                Kernels.copy[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
                return out
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_setting_is_accepted(name):
    assert_accepted(ACCEPTED[name])


REJECTED = {
    "switch_in_forward": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                torch.backends.cuda.matmul.allow_tf32 = True  # <-
                return launch(x)
    ''', "harness_tamper"),
    "switch_computed_value": ('''
        torch.backends.cudnn.allow_tf32 = bool(len(__name__))  # <-
    ''', "harness_tamper"),
    # under an `if` in a function it runs when the function does (see ACCEPTED for import time)
    "switch_under_if_in_a_function": ('''
        def configure():
            if torch.cuda.is_available():
                torch.backends.cuda.matmul.allow_tf32 = True  # <-
    ''', "harness_tamper"),
    "other_backend_switch": ('''
        torch.backends.cudnn.enabled = False  # <-
    ''', "harness_tamper"),
    "precision_in_forward": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                torch.set_float32_matmul_precision("high")  # <-
                return launch(x)
    ''', "harness_tamper"),
    "precision_computed": ('''
        MODE = "high"
        torch.set_float32_matmul_precision(MODE)  # <-
    ''', "harness_tamper"),
    # a forward that reseeds could replay a draw between two runs
    "seed_in_forward": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                torch.manual_seed(0)  # <-
                return launch(x)
    ''', "harness_tamper"),
    "seed_computed": ('''
        SEED = 7
        torch.manual_seed(SEED)  # <-
    ''', "harness_tamper"),
    "seed_as_value": ('''
        reseed = torch.manual_seed  # <-
    ''', "harness_tamper"),
    "rng_state_at_import": ('''
        torch.set_rng_state(torch.get_rng_state())  # <-
    ''', "harness_tamper"),
    "record_function_held": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.profiler.record_function("r") as r:  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "record_function_called": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                r = torch.profiler.record_function("r")  # <-
                return launch(x)
    ''', "harness_tamper"),
    # the imported range held, aliased or called outside a `with`: the import is refused as any
    # name of torch.profiler (only a `with` item's call makes it the range written out)
    "record_function_imported_held": ('''
        from torch.profiler import record_function

        class ModelNew(nn.Module):
            def forward(self, x):
                with record_function("r") as r:  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "record_function_imported_aliased": ('''
        from torch.profiler import record_function  # <-

        class ModelNew(nn.Module):
            def forward(self, x):
                rf = record_function
                with rf("r"):
                    return launch(x)
    ''', "harness_tamper"),
    "record_function_imported_called": ('''
        from torch.profiler import record_function  # <-

        class ModelNew(nn.Module):
            def forward(self, x):
                r = record_function("r")
                with record_function("s"):
                    return launch(x)
    ''', "harness_tamper"),
    # torch formats an NVTX message with the range's other arguments: `{0.__class__...}` walks them
    "nvtx_range_format_arguments": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.cuda.nvtx.range("{0.__class__}", x):  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "nvtx_range_keyword_arguments": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.cuda.nvtx.range("{t.shape}", t=x):  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    # a message that is not a str literal may be any object with a format method of its own
    "nvtx_range_message_not_a_literal": ('''
        NAME = "row_mean"

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.cuda.nvtx.range(NAME):  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "nvtx_range_held": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.cuda.nvtx.range("r") as r:  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    # outside a with statement the range is an object (a generator's context manager)
    "nvtx_range_called": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                r = torch.cuda.nvtx.range("r")  # <-
                return launch(x)
    ''', "harness_tamper"),
    # of contextlib only nullcontext: contextmanager runs the file's code at exit, suppress
    # swallows exceptions, ExitStack takes callbacks, redirect_* moves the process's streams
    "contextlib_contextmanager": ('''
        from contextlib import contextmanager  # <-
    ''', "forbidden_api"),
    # a factory is followed only when every binding of its name returns an allowed manager
    "factory_returning_suppress": ('''
        import contextlib

        def torch_gpu_device(device):
            return contextlib.suppress(Exception)

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch_gpu_device(x.device):  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "factory_with_more_than_a_return": ('''
        from contextlib import nullcontext

        def torch_gpu_device(device):
            launch(device)
            return nullcontext()

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch_gpu_device(x.device):  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "factory_redefined_as_a_plain_function": ('''
        from contextlib import nullcontext

        def torch_gpu_device(device):
            return nullcontext()

        def torch_gpu_device(device):
            return launch(device)

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch_gpu_device(x.device):  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "contextlib_suppress_as_an_arm": ('''
        import contextlib

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.no_grad() if x.is_cuda else contextlib.suppress(Exception):  # <-
                    return launch(x)
    ''', "try_except"),
    "context_arm_not_a_call": ('''
        from contextlib import nullcontext

        CTX = nullcontext()

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.no_grad() if x.is_cuda else CTX:  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "profiler_range_held_in_an_arm": ('''
        from contextlib import nullcontext

        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.profiler.record_function("r") if x.is_cuda else nullcontext() as r:  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    # nullcontext hands back what it is given: a kernel stays a kernel only where it is launched
    "kernel_through_nullcontext": ('''
        from contextlib import nullcontext

        class ModelNew(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                with nullcontext(k) as kk:  # <-
                    kk[(1,)](x, out, x.numel(), BLOCK=1024)
                return out
    ''', "reflection"),
    "nullcontext_subclassed": ('''
        from contextlib import nullcontext

        class Quiet(nullcontext):  # <-
            def __exit__(self, *exc):
                return True
    ''', "monkey_patch"),
    "profiler_session": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                with torch.profiler.profile():  # <-
                    return launch(x)
    ''', "forbidden_syntax"),
    "os_other_than_a_query": ('''
        import os

        CPUS = len(os.sched_getaffinity(0))  # <-
    ''', "forbidden_api"),
    # a file or stream handler writes where the sandbox's stderr does not
    "logging_to_a_file": ('''
        import logging

        logging.basicConfig(filename="/tmp/log.txt", level=logging.INFO)  # <-
    ''', "forbidden_api"),
    "logging_force": ('''
        import logging

        logging.basicConfig(level=logging.INFO, force=True)  # <-
    ''', "forbidden_api"),
    "logging_setup_in_forward": ('''
        import logging

        class ModelNew(nn.Module):
            def forward(self, x):
                logging.basicConfig(level=logging.INFO)  # <-
                return launch(x)
    ''', "forbidden_api"),
    "default_dtype_at_import": ('''
        torch.set_default_dtype(torch.float64)  # <-
    ''', "harness_tamper"),
    "allocator_counts_calls": ('''
        _CALLS = []

        def alloc_fn(size, align, stream):
            _CALLS.append(size)
            return torch.empty(size, dtype=torch.int8, device="cuda")

        triton.set_allocator(alloc_fn)  # <-
    ''', "harness_tamper"),
    "allocator_builtin_next": ('''
        _TICKS = iter(range(1 << 30))

        def alloc_fn(size, align, stream):
            return torch.empty(size + 0 * next(_TICKS), dtype=torch.int8, device="cuda")

        triton.set_allocator(alloc_fn)  # <-
    ''', "harness_tamper"),
    "allocator_draws": ('''
        def alloc_fn(size, align, stream):
            return torch.empty(size, dtype=torch.int8, device=torch.randn(1).device)

        triton.set_allocator(alloc_fn)  # <-
    ''', "harness_tamper"),
    "allocator_calls_own_helper": ('''
        _SEEN = {}

        def _device(size):
            _SEEN[size] = _SEEN.get(size, 0) + 1
            return "cuda"

        triton.set_allocator(lambda size, align, stream: torch.empty(size, device=_device(size)))  # <-
    ''', "harness_tamper"),
    "allocator_hands_out_a_tensor": ('''
        _KEEP = torch.zeros(1 << 20, dtype=torch.int8)

        def alloc_fn(size, align, stream):
            return _KEEP

        triton.set_allocator(alloc_fn)  # <-
    ''', "harness_tamper"),
    "allocator_nested_def_reads_its_closure": ('''
        def matmul_descriptor_persistent(a, b):
            def alloc_fn(size, alignment, stream):
                return torch.empty(size, device=a.device, dtype=torch.int8)

            triton.set_allocator(alloc_fn)  # <-
            return launch(a)
    ''', "harness_tamper"),
    "allocator_nested_def_counts_calls": ('''
        def matmul_descriptor_persistent(a, b):
            calls = []

            def alloc_fn(size, alignment, stream):
                calls.append(size)
                return torch.empty(size, device="cuda", dtype=torch.int8)

            triton.set_allocator(alloc_fn)  # <-
            return launch(a)
    ''', "harness_tamper"),
    "allocator_as_value": ('''
        set_alloc = triton.set_allocator  # <-
    ''', "harness_tamper"),
    "wrap_triton_held": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                w = torch.library.wrap_triton(k)  # <-
                out = torch.empty_like(x)
                w[(1,)](x, out, x.numel(), BLOCK=1024)
                return out
    ''', "harness_tamper"),
    "wrap_triton_launch_as_value": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                launcher = torch.library.wrap_triton(k)[(1,)]  # <-
                launcher(x, out, x.numel(), BLOCK=1024)
                return out
    ''', "harness_tamper"),
    "wrap_triton_of_a_plain_def": ('''
        def plain(x):
            return x

        class ModelNew(nn.Module):
            def forward(self, x):
                torch.library.wrap_triton(plain)[(1,)](x)  # <-
                return launch(x)
    ''', "harness_tamper"),
    "wrap_triton_imported_used_otherwise": ('''
        from torch.library import wrap_triton  # <-

        class ModelNew(nn.Module):
            def forward(self, x):
                return wrap_triton(k).kernel.fn(x)
    ''', "harness_tamper"),
    "torch_library_custom_op": ('''
        from torch.library import wrap_triton, custom_op  # <-
    ''', "harness_tamper"),
    "triton_op_registration": ('''
        @torch.library.triton_op("mylib::relu", mutates_args=())  # <-
        def relu_op(x: torch.Tensor) -> torch.Tensor:
            return launch(x)
    ''', "harness_tamper"),
}


@pytest.mark.parametrize("name", list(REJECTED))
def test_setting_stays_narrow(name):
    snippet, code = REJECTED[name]
    assert_rejected(snippet, code)

_NAMESPACE = '''
        class Kernels{bases}:
            @staticmethod
            @triton.jit
            def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):  # <-
                offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
                tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
{extra}
        class ModelNew(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                {use}
                return out
'''
_LAUNCH = "Kernels.copy[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)"
NAMESPACE_REJECTED = {
    "fn_of_namespace_kernel": dict(use="host = Kernels.copy.fn"),
    "namespace_launch_kept": dict(use="launcher = Kernels.copy[(1,)]"),
    # a class holding kernels may have instances and other members (static_member_kernels,
    # session 50), but a kernel is never read off one, nor off a base other than
    # nn.Module/autograd.Function
    "instance_launch": dict(use="Kernels().copy[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)"),
    "namespace_with_base": dict(bases="(nn.Linear)", use=_LAUNCH),
    "namespace_with_plain_method": dict(extra="""
            def plain(self, x):
                return self.copy
""", use=_LAUNCH),
}


@pytest.mark.parametrize("name", list(NAMESPACE_REJECTED))
def test_kernel_namespace_stays_narrow(name):
    parts = {"bases": "", "extra": "", **NAMESPACE_REJECTED[name]}
    assert_rejected(_NAMESPACE.format(**parts), "forbidden_syntax")


def test_a_namespace_handed_as_a_value_is_refused():
    assert_rejected(_NAMESPACE.format(bases="", extra="", use="print(Kernels)  # <-"), "reflection")
