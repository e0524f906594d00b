"""The idioms of evaluator.static_idioms: honest public code in their shape passes, and
every shape next to it that would hand the file something (a foreign `self`, a Logger's
internals, a fallback the checks never saw, a test function the harness can reach) is
still rejected on its line.

Snippets follow test_static_checks: module text appended to an honest kernel file;
`# <-` marks the line the report must blame.
"""
from __future__ import annotations

import pytest
from test_static_checks import assert_accepted, assert_rejected, source

ACCEPTED = {
    "logger": '''
        import logging

        logger = logging.getLogger(__name__)
        log2 = logging.getLogger("my_kernels")

        class ModelNew(nn.Module):
            def forward(self, x):
                logger.debug("relu on %d elements", x.numel())
                if not logger.isEnabledFor(10):
                    log2.warning(f"shape {tuple(x.shape)}")
                return launch(x)
    ''',
    "class_name_in_extra_repr": '''
        class ModelNew(nn.Module):
            def extra_repr(self):
                return f"{self.__class__.__name__}(kernel={launch.__name__})"

            def forward(self, x):
                return launch(x)
    ''',
    # kornia-style input checks: a type only ever turned into text
    "type_in_error_message": '''
        def checked(x):
            if not isinstance(x, torch.Tensor):
                raise TypeError(f"expected a tensor, got {type(x)} ({type(x).__name__})")
            return launch(x)
    ''',
    "version_checks": '''
        TRITON_MAJOR = int(triton.__version__.split(".")[0])
        TORCH_2 = torch.__version__.startswith("2.")
    ''',
    "autocast_off_around_a_launch": '''
        def f(x):
            with torch.autocast("cuda", enabled=False):
                return launch(x)

        def g(x):
            with torch.amp.autocast(device_type="cuda", dtype=torch.float16):
                return launch(x)
    ''',
    "module_level_cache": '''
        _BUFFERS = {}
        _SEEN = []

        def f(x):
            key = (tuple(x.shape), x.dtype)
            if key not in _BUFFERS:
                _BUFFERS[key] = torch.empty_like(x)
                _SEEN.append(key)
            return launch(x)
    ''',
    # the Triton tutorials' benchmark, run only by the test block
    "perf_report_benchmark": '''
        @triton.testing.perf_report(
            triton.testing.Benchmark(x_names=["N"], x_vals=[2 ** i for i in range(12, 16)],
                                     line_arg="provider", line_vals=["triton", "torch"],
                                     line_names=["Triton", "Torch"], ylabel="GB/s",
                                     plot_name="relu", args={}))
        def benchmark(N, provider):
            x = torch.randn(N, device="cuda")
            fn = (lambda: torch.relu(x)) if provider == "torch" else (lambda: launch(x))
            return triton.testing.do_bench(fn)

        def check():
            import time
            start = time.perf_counter()
            benchmark.run(print_data=True)
            return time.perf_counter() - start

        if __name__ == "__main__":
            print(check())
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_idiom_is_accepted(name):
    assert_accepted(ACCEPTED[name])


REJECTED = {
    # the logger: only its logging methods, called
    "logger_manager": ('''
        import logging
        log = logging.getLogger(__name__)
        loggers = log.manager.loggerDict  # <-
    ''', "reflection"),
    "logger_filter": ('''
        import logging
        log = logging.getLogger(__name__)
        log.addFilter(print)  # <-
    ''', "reflection"),
    "logger_as_value": ('''
        import logging
        log = logging.getLogger(__name__)
        other = log  # <-
    ''', "reflection"),
    "root_logger": ('''
        import logging
        log = logging.getLogger()  # <-
    ''', "reflection"),
    "logger_of_a_computed_name": ('''
        import logging
        NAME = "torch"
        log = logging.getLogger(NAME)  # <-
    ''', "reflection"),
    "logger_in_function": ('''
        import logging

        def f():
            log = logging.getLogger(__name__)  # <-
            return log
    ''', "reflection"),
    "logger_rebound": ('''
        import logging
        log = logging.getLogger(__name__)  # <-
        log = None
    ''', "reflection"),
    "logging_root": ('''
        import logging
        r = logging.root  # <-
    ''', "forbidden_api"),
    # test-only functions: never reachable from the harness, else checked
    "benchmark_called_from_forward": ('''
        def bench(x):
            return eval("x")  # <-

        class ModelNew(nn.Module):
            def forward(self, x):
                return bench(launch(x))

        if __name__ == "__main__":
            bench(1)
    ''', "dynamic_code"),
    "benchmark_named_in_a_default": ('''
        def bench():
            return eval("1")  # <-

        def f(g=bench):
            return g()

        if __name__ == "__main__":
            bench()
    ''', "dynamic_code"),
    "benchmark_named_by_a_live_decorator": ('''
        def deco2(fn):
            return eval("fn")  # <-

        @deco2
        def f():
            return 1

        if __name__ == "__main__":
            deco2(f)
    ''', "dynamic_code"),
    # a name Triton's interpreter calls from a rewritten kernel (a chained comparison becomes
    # _InterpreterComparison(...)): reached by code the file never shows (red team D)
    "interpreter_name_not_test_only": ('''
        def _InterpreterComparison(value, op=None):
            return eval("value")  # <-

        if __name__ == "__main__":
            _InterpreterComparison(1)
    ''', "dynamic_code"),
    "perf_report_on_live_function": ('''
        @triton.testing.perf_report(triton.testing.Benchmark(x_names=["N"]))  # <-
        def bench(N):
            return 1.0

        class ModelNew(nn.Module):
            def forward(self, x):
                bench(1)
                return launch(x)
    ''', "harness_tamper"),
    "perf_report_arguments_checked": ('''
        @triton.testing.perf_report(triton.testing.Benchmark(x_names=[eval("1")]))  # <-
        def bench(N):
            return 1.0
    ''', "dynamic_code"),
    "benchmark_default_argument_checked": ('''
        def bench(N, f=eval("1")):  # <-
            return 1.0

        if __name__ == "__main__":
            bench(1)
    ''', "dynamic_code"),
    # a test function's body is skipped only while nothing live can reach it: here a
    # test function names another, and forward names the first
    "benchmark_reached_through_another": ('''
        def inner():
            return eval("1")  # <-

        def outer():
            return inner()

        class ModelNew(nn.Module):
            def forward(self, x):
                outer()
                return launch(x)

        if __name__ == "__main__":
            outer()
            inner()
    ''', "dynamic_code"),
    "version_written": ('''
        torch.__version__ = "9.9"  # <-
    ''', "monkey_patch"),
    "other_module_dunder_read": ('''
        V = torch.__file__  # <-
    ''', "reflection"),
    # a module-level cache: only its own items are written
    "cache_nested_write": ('''
        _C = {}

        def f(x):
            _C["a"]["b"] = x  # <-
    ''', "monkey_patch"),
    "cache_bound_to_a_library_object": ('''
        _C = triton.Config({"BLOCK": 1}).kwargs

        def f(x):
            _C["BLOCK"] = 2  # <-
    ''', "monkey_patch"),
    "cache_rebound": ('''
        _C = {}
        _C = triton.Config({"BLOCK": 1}).kwargs

        def f(x):
            _C["BLOCK"] = 2  # <-
    ''', "monkey_patch"),
    # dunder names: a string, read, and nothing else
    "class_as_value": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                c = self.__class__  # <-
                return launch(x)
    ''', "reflection"),
    "class_name_written": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                self.__class__.__name__ = "Model"  # <-
                return launch(x)
    ''', "monkey_patch"),
    "type_as_value": ('''
        def f(x):
            t = type(x)  # <-
            return t
    ''', "reflection"),
    "type_in_format_spec": ('''
        def f(x):
            return f"{type(x).mro}"  # <-
    ''', "reflection"),
    "type_of_three": ('''
        def f(x):
            return f"{type('C', (), {})}"  # <-
    ''', "reflection"),
    "class_dict": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                d = self.__class__.__dict__  # <-
                return launch(x)
    ''', "reflection"),
}


@pytest.mark.parametrize("name", list(REJECTED))
def test_idiom_stays_narrow(name):
    snippet, code = REJECTED[name]
    assert_rejected(snippet, code)


# ---------------------------------------------------------------------- FX leaves
_FX_LEAVES = '''
    import torch.fx


    @torch.fx.wrap
    def leaf(x):
        return launch(x)


    torch.fx.wrap("launch")
'''


def test_an_fx_leaf_registration_is_dropped_from_the_source_that_runs(tmp_path):
    """s68f_06b (honest round s68): torchrec and xformers register a Triton launcher as an FX
    leaf, `torch.fx.wrap("name")` at module level or `@torch.fx.wrap`. It only records the
    module's globals for a later symbolic trace to patch; the checks accept that shape and the
    source that runs drops it on the same lines, so nothing of torch.fx runs in the candidate's
    process (the registry a trace reads stays as it was) and the def is the one judged."""
    import runpy

    from torch.fx import _symbolic_trace

    report = assert_accepted(_FX_LEAVES)
    assert "torch.fx" not in report.source and report.source.count("@(lambda f: f)") == 1
    assert report.source.count("\n") == source(_FX_LEAVES).count("\n")
    before = dict(_symbolic_trace._wrapped_fns_to_patch)
    path = tmp_path / "candidate.py"
    path.write_text(report.source)
    assert runpy.run_path(str(path))["leaf"].__name__ == "leaf"
    assert _symbolic_trace._wrapped_fns_to_patch == before


FX_REJECTED = {
    # registered where a trace would patch it at run time, or as a value
    "in_a_function": ('''
        def register():
            torch.fx.wrap("launch")  # <-
    ''', "harness_tamper"),
    "as_a_value": ('''
        leaf = torch.fx.wrap(launch)  # <-
    ''', "harness_tamper"),
    # a builtin's name: a trace patches the module's `len` with its own wrapper
    "a_builtins_name": ('''
        torch.fx.wrap("len")  # <-
    ''', "harness_tamper"),
    "on_a_method": ('''
        class ModelNew(nn.Module):
            @torch.fx.wrap  # <-
            def forward(self, x):
                return launch(x)
    ''', "harness_tamper"),
    # any other use of torch.fx beside a registration keeps the whole file to the plain rules
    "beside_a_trace": ('''
        torch.fx.wrap("launch")
        trace = torch.fx.symbolic_trace  # <-
    ''', "harness_tamper"),
}


@pytest.mark.parametrize("name", list(FX_REJECTED))
def test_torch_fx_outside_a_module_level_leaf_registration_stays_refused(name):
    snippet, code = FX_REJECTED[name]
    assert_rejected(snippet, code)
