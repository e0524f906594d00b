"""Session 53f: Triton tutorial 02's occupancy query (`k = kernel.warmup(..., grid=(1, ))`,
`k._init_handles()`, `k.n_regs`, `k.metadata.shared`, `k[grid](...)`), admitted as exactly
that idiom (evaluator.static_warmed; the candidate process answers warmup with a harness-owned
view, evaluator.warmed_kernel), and its edges: anything else of a warmed kernel stays refused."""
from __future__ import annotations

import pytest
from static_snippets import check_snippet
from test_static_widened_narrow import assert_narrow

_WARM = "k.warmup(x, out, n, BLOCK=1024, num_warps=4, grid=(1, ))"

ACCEPTED = {
    "tutorial_02_occupancy_query": f'''
        def run(x):
            out = torch.empty_like(x)
            n = x.numel()
            kernel = {_WARM}
            kernel._init_handles()
            n_regs = kernel.n_regs
            spills = kernel.n_spills
            size_smem = kernel.metadata.shared
            warps = kernel.metadata.num_warps + kernel.metadata.num_stages
            occupancy = 65536 // (n_regs * 32 * warps + spills)
            occupancy = min(occupancy, 232448 // max(size_smem, 1))
            kernel[(max(occupancy, 1), 1, 1)](x, out, n, 1024)
            return out
    ''',
    "warmup_in_a_method_launch_in_a_branch": f'''
        class Net(nn.Module):
            def forward(self, x):
                out = torch.empty_like(x)
                n = x.numel()
                kernel = {_WARM}
                if kernel.n_regs > 0:
                    kernel[(1,)](x, out, n, 1024)
                return out
    ''',
}

REJECTED = {
    "compiled_run": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            kernel.run(1, 1, 1, 0, None, None, None, None, None, x, out, n, 1024)  # <-
    ''', "reflection"),
    "compiled_function": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel.function  # <-
    ''', "reflection"),
    "compiled_asm": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel.asm["ptx"]  # <-
    ''', "reflection"),
    "compiled_kernel_bytes": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return len(kernel.kernel)  # <-
    ''', "reflection"),
    "metadata_whole": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel.metadata  # <-
    ''', "reflection"),
    "metadata_other_field": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel.metadata.hash  # <-
    ''', "reflection"),
    "n_regs_called": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel.n_regs()  # <-
    ''', "reflection"),
    "init_handles_as_a_value": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel._init_handles  # <-
    ''', "reflection"),
    "handed_to_a_function": (f'''
        def launch(c, x, out, n):
            c[(1,)](x, out, n, 1024)


        def run(x, out, n):
            kernel = {_WARM}
            launch(kernel, x, out, n)  # <-
    ''', "reflection"),
    "returned": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel  # <-
    ''', "reflection"),
    "launcher_held": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            go = kernel[(1,)]  # <-
            go(x, out, n, 1024)
    ''', "reflection"),
    "launch_result_used": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            return kernel[(1,)](x, out, n, 1024)  # <-
    ''', "reflection"),
    "read_in_a_nested_function": (f'''
        def run(x, out, n):
            kernel = {_WARM}

            def inner():
                kernel[(1,)](x, out, n, 1024)  # <-
            inner()
    ''', "reflection"),
    "warmed_twice_under_one_name": (f'''
        def run(x, out, n):
            kernel = {_WARM}
            kernel = {_WARM}  # <-
            kernel._init_handles()
    ''', "reflection"),
    "warmup_at_module_level": ('''
        _x = torch.empty(4)
        kernel = k.warmup(_x, _x, 4, BLOCK=1024, grid=(1, ))  # <-
    ''', "reflection"),
    "warmup_without_a_grid": ('''
        def run(x, out, n):
            kernel = k.warmup(x, out, n, BLOCK=1024)  # <-
            kernel._init_handles()
    ''', "reflection"),
    "warmup_with_starred_arguments": ('''
        def run(x, out, n):
            kernel = k.warmup(*(x, out, n), BLOCK=1024, grid=(1, ))  # <-
            kernel._init_handles()
    ''', "reflection"),
    "warmup_as_a_statement": ('''
        def run(x, out, n):
            k.warmup(x, out, n, BLOCK=1024, grid=(1, ))  # <-
    ''', "reflection"),
    "warmup_of_an_autotuned_kernel": ('''
        @triton.autotune(configs=[triton.Config({"BLOCK": 128})], key=["n"])
        @triton.jit
        def tuned(x_ptr, n, BLOCK: tl.constexpr):
            tl.store(x_ptr + tl.arange(0, BLOCK), 0.0)


        def run(x, n):
            kernel = tuned.warmup(x, n, grid=(1, ))  # <-
            kernel._init_handles()
    ''', "reflection"),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_s53f_warmed_kernel_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, report.findings


@pytest.mark.parametrize("name", list(REJECTED))
def test_s53f_warmed_kernel_stays_narrow(name):
    assert_narrow(*REJECTED[name])


NARROW_MORE = {
    "warmed_in_a_class_body": ('''
        def run(x, out, n):
            class Held:  # <-
                kernel = k.warmup(x, out, n, BLOCK=1024, grid=(1, ))
            return Held
    ''', "forbidden_syntax"),  # a nested class is refused first
    "warmed_global": ('''
        def run(x, out, n):
            global kernel
            kernel = k.warmup(x, out, n, BLOCK=1024, grid=(1, ))  # <-
    ''', "reflection"),
    "warmed_nonlocal": ('''
        def run(x, out, n):
            kernel = None

            def warm():
                nonlocal kernel  # <-
                kernel = k.warmup(x, out, n, BLOCK=1024, grid=(1, ))
            warm()
    ''', "forbidden_syntax"),  # nonlocal of a non-literal is refused first
}


@pytest.mark.parametrize("name", list(NARROW_MORE))
def test_s53f_warmed_binding_is_a_functions_own_local(name):
    assert_narrow(*NARROW_MORE[name])
