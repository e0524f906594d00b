"""Module-level try statements (evaluator.static_try, static_walk._module_try) and import
fallbacks: what honest files compute at import under a try passes; a body or handler that could
answer otherwise on the CPU check and the GPU, or define or run the file's own code, is refused
on its line. Snippets as in test_static_idioms."""
from __future__ import annotations

import builtins
import sys
import textwrap

import pytest
from test_static_checks import assert_accepted, assert_rejected

from common.config.evaluator import StaticConfig
from evaluator.static_checks import check_source

ACCEPTED = {
    "module_try_device_query": '''
        try:
            CAPABILITY = torch.cuda.get_device_capability()
        except (RuntimeError, AssertionError):
            CAPABILITY = (0, 0)
            REASON = "no device"
        else:
            REASON = ""
        finally:
            READY = True
    ''',
    # feature and version probes public files wrap in a try (honest round s47): each computes
    # only what the CPU check and the GPU answer alike (evaluator.static_try)
    "module_try_capability_probe": '''
        try:
            _CAP = torch.cuda.get_device_capability()
            IS_HOPPER = _CAP[0] >= 9
            SM_COUNT = torch.cuda.get_device_properties(0).multi_processor_count
            IS_H = torch.cuda.get_device_name().startswith("NVIDIA H")
        except Exception:
            IS_HOPPER = False
            SM_COUNT = 132
    ''',
    "module_try_environment_int": '''
        import os

        try:
            MAX_FUSED = int(os.getenv("MAX_FUSED_SIZE", "65536"))
            DEBUG = os.environ.get("KERNEL_DEBUG", "0").lower() in ("1", "true")
            THREADS = os.cpu_count()
        except ValueError:
            MAX_FUSED = 65536
            DEBUG = False
    ''',
    "module_try_version_parse": '''
        from packaging.version import Version

        _TRITON_VERSION = triton.__version__
        try:
            TRITON_MAJOR, TRITON_MINOR = tuple(int(p) for p in _TRITON_VERSION.split(".")[:2])
            TORCH_VERSION = str(torch.__version__).split("+")[0]
            NEW_TRITON = Version(triton.__version__) >= Version("3.0.0")
            CUDA_MAJOR = int(torch.version.cuda.split(".")[0]) if torch.version.cuda else 0
            PARTS = list(map(int, TORCH_VERSION.split(".")[:2]))
        except (ValueError, TypeError):
            TRITON_MAJOR, TRITON_MINOR = 3, 0
            NEW_TRITON = True
    ''',
    "module_try_finfo_and_device": '''
        try:
            FP16_MAX = torch.finfo(torch.float16).max
            INT32_MAX = torch.iinfo(torch.int32).max
            DEVICE = torch.device("cuda")
            DEVICE_TYPE = torch.device(f"cuda:{0}").type
            TARGET = triton.runtime.driver.active.get_current_target()
            BLOCK = triton.next_power_of_2(max(16, min(1024, 300)))
            LOG2E = 1.0 / math.log(2.0)
        except Exception:
            FP16_MAX = 65504.0
            DEVICE = torch.device("cpu")
    ''',
    "import_fallback": '''
        try:
            from triton.language.extra import libdevice
        except ImportError:
            from triton.language.extra.cuda import libdevice

        @triton.jit
        def gelu(x):
            return 0.5 * x * (1 + libdevice.erf(x * 0.7071067811865476))
    ''',
    # honest round s51b: xformers' libdevice_find (an importlib search over three Triton
    # layouts) written out as nested fallbacks; the pinned source put the handler's resource
    # check on the nested `try:` line (`__krl_resource_errors__(); try:`, a syntax error)
    "import_fallback_nested_in_handler": '''
        try:
            from triton.language.extra.libdevice import rsqrt
        except ImportError:
            try:
                from triton.language.extra.cuda.libdevice import rsqrt
            except ImportError:
                from triton.language.math import rsqrt

        @triton.jit
        def rsqrt_kernel(x_ptr):
            tl.store(x_ptr, rsqrt(tl.load(x_ptr)))
    ''',
    # mamba_ssm/utils/determinism.py: an import and a recorded version under a try whose
    # handler names ImportError (refused as an unknown builtin before round s51b; `except
    # Exception:`, which it narrows, was accepted)
    "version_probe_except_import_error": '''
        from packaging import version

        try:
            import triton
            TRITON_VERSION = version.parse(triton.__version__)
        except ImportError:
            TRITON_VERSION = version.parse("0.0.0")

        TRITON_HAS_CACHE_RESULTS = TRITON_VERSION >= version.parse("3.4.0")
    ''',
    "import_fallback_nested_first_missing": '''
        try:
            from triton.language.extra.nonexistent import rsqrt
        except ImportError:
            try:
                from triton.language.extra.nonexistent2 import rsqrt
            except ImportError:
                from triton.language.math import rsqrt

        @triton.jit
        def rsqrt_kernel(x_ptr):
            tl.store(x_ptr, rsqrt(tl.load(x_ptr)))
    ''',
    # ColossalAI's guard (honest round s54): the handler prints an install hint of string
    # literals; the fallback is settled and `if HAS_TRITON:` with it, so its kernels are seen
    "import_fallback_handler_prints_install_hint": '''
        try:
            import triton
            import triton.language as tl

            HAS_TRITON = True
        except ImportError:
            HAS_TRITON = False
            print("please install triton from https://github.com/openai/triton")

        if HAS_TRITON:
            @triton.jit
            def relu_kernel(x_ptr):
                tl.store(x_ptr, tl.maximum(tl.load(x_ptr), 0.0))
    ''',
    # a flag a kernel reads must be a constexpr global (Triton refuses any other module global in
    # a jit function), so the fallback binds tl.constexpr(<literal>), and its handler sets the
    # module it could not import to None (honest round s68F): settled to the body, which exists
    "import_fallback_constexpr_flags_and_none": '''
        try:
            from triton.language.extra import libdevice

            USE_EXPM1 = tl.constexpr(True)
        except ImportError:
            libdevice = None
            USE_EXPM1 = tl.constexpr(False)

        @triton.jit
        def elu_kernel(x_ptr):
            x = tl.load(x_ptr)
            if USE_EXPM1:
                y = libdevice.expm1(x)
            else:
                y = tl.exp(x) - 1.0
            tl.store(x_ptr, y)
    ''',
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_try_idiom_is_accepted(name):
    assert_accepted(ACCEPTED[name])



REJECTED = {
    # try: only at module level
    "try_in_function": ('''
        def f(x):
            try:  # <-
                return launch(x)
            except RuntimeError:
                return torch.relu(x)
    ''', "try_except"),
    "try_in_method": ('''
        class ModelNew(nn.Module):
            def forward(self, x):
                try:  # <-
                    return launch(x)
                except Exception:
                    return x
    ''', "try_except"),
    "module_try_body_checked": ('''
        try:
            import math
            X = eval("1")  # <-
        except ImportError:
            pass
    ''', "dynamic_code"),
    "module_try_handler_checked": ('''
        try:
            X = 1
        except Exception:
            X = eval("1")  # <-
    ''', "dynamic_code"),
    # an exception hands out what the library put in it (AttributeError.obj: the object)
    "module_try_binds_the_exception": ('''
        try:
            X = torch.cuda.get_device_capability()
        except AttributeError as e:  # <-
            X = e
    ''', "try_except"),
    # a recursion of the file's own could stop a library call half-way, and carry on
    "module_try_calls_own_function": ('''
        def deep(n):
            return deep(n + 1) if n < 10 ** 6 else torch.zeros(1)

        try:
            Z = deep(0)  # <-
        except Exception:
            Z = None
    ''', "try_except"),
    # a flag's constexpr spelled through a class of the file's own is the file's code, not
    # Triton's: the try is no import fallback, and its body calls the file
    "import_fallback_flag_through_own_constexpr": ('''
        class fake:
            @staticmethod
            def constexpr(v):
                return v

        try:
            from triton.language.extra import libdevice
            USE_EXPM1 = fake.constexpr(True)  # <-
        except ImportError:
            USE_EXPM1 = fake.constexpr(False)
    ''', "try_except"),
    "module_try_lambda": ('''
        try:
            Z = (lambda: 1)()  # <-
        except Exception:
            Z = None
    ''', "try_except"),
    # a module-level try computes only what the CPU check and the GPU answer alike
    # (evaluator.static_try): a tensor op, a launch or an operator on a tensor can raise on one
    # machine only (a dtype one device lacks, pinned memory), and the handler picks the path
    "module_try_tensor_op": ('''
        try:
            _PINNED = torch.empty(4).pin_memory()  # <-
            ON_GPU = True
        except Exception:
            ON_GPU = False
    ''', "try_except"),
    "module_try_tensor_factory": ('''
        try:
            _T = torch.zeros(4, dtype=torch.float8_e4m3fn, device="cuda")  # <-
        except Exception:
            _T = None
    ''', "try_except"),
    "module_try_kernel_launch": ('''
        _X = torch.ones(8)
        try:
            relu_kernel[(1,)](_X, _X, 8, BLOCK=8)  # <-
        except Exception:
            pass
    ''', "try_except"),
    "module_try_operator_on_tensor": ('''
        _H = torch.ones(4, 4, dtype=torch.float16)
        try:
            _P = _H + 1  # <-
            ON_GPU = True
        except RuntimeError:
            ON_GPU = False
    ''', "try_except"),
    "module_try_matrix_product": ('''
        try:
            _P = (1, 2) @ (3, 4)  # <-
        except TypeError:
            _P = None
    ''', "try_except"),
    "module_try_int_of_tensor": ('''
        _N = torch.empty(1)
        try:
            N = int(_N)  # <-
        except ValueError:
            N = 0
    ''', "try_except"),
    "module_try_method_of_tensor": ('''
        _N = torch.empty(3)
        try:
            S = _N.sum()  # <-
        except RuntimeError:
            S = 0
    ''', "try_except"),
    # a container's items can be swapped for a tensor on another line
    "module_try_container_item": ('''
        _BOX = [1]
        _BOX[0] = torch.ones(1, dtype=torch.float16)
        try:
            Y = _BOX[0] + 1  # <-
        except RuntimeError:
            Y = 0
    ''', "try_except"),
    "module_try_name_bound_by_a_function": ('''
        _V = "3.0"

        def rebind():
            global _V
            _V = torch.ones(1)

        try:
            Y = int(_V.split(".")[0])  # <-
        except Exception:
            Y = 0
    ''', "try_except"),
    # the CPU's stand-in driver does not check a device index; the GPU's raises
    "module_try_driver_query_with_device": ('''
        try:
            P = triton.runtime.driver.active.utils.get_device_properties(3)  # <-
        except Exception:
            P = None
    ''', "try_except"),
    "module_try_format_width": ('''
        try:
            W = f"{1:>1000}"  # <-
        except Exception:
            W = ""
    ''', "try_except"),
    "module_try_defines_a_function": ('''
        try:
            def probe():  # <-
                return 1
        except Exception:
            pass
    ''', "try_except"),
    # a method of a literal that one Python has and the other lacks (3.12's int.is_integer):
    # the handler read which Python ran it (self-attack, session 47)
    "module_try_method_of_a_literal": ('''
        try:
            _WHOLE = (7).is_integer()  # <-
            NEW_PYTHON = True
        except AttributeError:
            NEW_PYTHON = False
    ''', "try_except"),
    # an import fallback whose first import does not exist is settled to its handler: the
    # handler runs, and is judged
    "import_fallback_handler_judged": ('''
        try:
            import triton.language.extra.nonexistent as lib
        except ImportError:
            import sys as lib  # <-
    ''', "forbidden_import"),
    # a nested fallback is settled as the outer one is: where the outer handler runs, so does
    # the nested handler of a missing import, and it is judged
    "nested_import_fallback_handler_judged": ('''
        try:
            import triton.language.extra.nonexistent as lib
        except ImportError:
            try:
                import triton.language.extra.nonexistent2 as lib
            except ImportError:
                import sys as lib  # <-
    ''', "forbidden_import"),
    # ImportError is only a name for a module-level try's handler (or a raise): what such a
    # try computes is judged as under `except Exception:`
    "import_error_try_calls_own_code": ('''
        def probe():
            return 1

        try:
            X = probe()  # <-
        except ImportError:
            X = 0
    ''', "try_except"),
    "import_error_rebound": ('''
        ImportError = KeyError  # <-
        try:
            import apex
            HAVE_APEX = True
        except ImportError:
            HAVE_APEX = False
    ''', "reflection"),
    "import_error_handler_binds_the_exception": ('''
        try:
            import triton
            V = triton.__version__
        except ModuleNotFoundError as err:  # <-
            V = "0"
    ''', "try_except"),
    # a handler kept (its body's import does not exist) runs, install hint and all, and is judged
    "import_fallback_with_install_hint_handler_judged": ('''
        try:
            import triton.language.extra.nonexistent as lib
        except ImportError:
            print("please install it")
            import sys as lib  # <-
    ''', "forbidden_import"),
    # only a fallback of imports nests: any other statement in the handler leaves the try unsettled
    "nested_try_with_other_code_not_a_fallback": ('''
        try:
            import triton.language.extra.nonexistent as lib
        except ImportError:
            try:  # <-
                x = (7).is_integer()
            except AttributeError:
                from triton.language.math import rsqrt
    ''', "try_except"),
    # an except* clause handles the group wrapping the body's error, so the resource check it
    # runs first never saw the CPU sandbox's MemoryError (red team rt58)
    "module_try_star_handles_a_wrapped_memory_error": ('''
        try:  # <-
            _PROBE = "x" * 30_000_000_000
            ON_CPU = False
        except* Exception:
            ON_CPU = True
    ''', "try_except"),
}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="except* is Python 3.11's")
def test_the_resource_check_reads_through_an_exception_group():
    """What an except* clause handles is the group: resource_errors raises it again where it
    holds a MemoryError or RecursionError (red team rt58)."""
    from evaluator.python_image import resource_errors
    run = textwrap.dedent("""
        def clause(error):
            try:
                raise error
            except* Exception:
                resource_errors()
    """)
    space = {"resource_errors": resource_errors}
    exec(compile(run, "<except-star>", "exec"), space)  # except* does not parse before 3.11
    with pytest.raises(builtins.BaseExceptionGroup):
        space["clause"](MemoryError)
    space["clause"](ValueError)  # anything else is the clause's to handle


@pytest.mark.parametrize("name", list(REJECTED))
def test_try_idiom_stays_narrow(name):
    snippet, code = REJECTED[name]
    assert_rejected(snippet, code)


def test_a_clause_runs_the_resource_check_first_even_through_a_nested_try():
    """The pinned source's resource check (static_checks.RESOURCE) is the first thing an except
    clause runs: on the clause's first line, or where the clause begins with a try (no finally)
    on the first line of that try's body, whose own handlers check again; a clause beginning with
    an if, a loop or a with is refused in words (its body need not run), never a syntax error."""
    from evaluator.static_checks import RESOURCE
    src = textwrap.dedent('''
        import torch
        try:
            from triton.language.extra.nonexistent import rsqrt
        except ImportError:
            try:
                from triton.language.extra.cuda.libdevice import rsqrt
            except ImportError:
                from triton.language.math import rsqrt
    ''')
    pinned = check_source(src, StaticConfig()).source.splitlines()
    assert pinned[3].strip().startswith("raise ModuleNotFoundError; ")
    assert pinned[6].strip() == f"{RESOURCE}(); from triton.language.extra.cuda.libdevice import rsqrt"
    assert pinned[8].strip().startswith(f"{RESOURCE}(); ")
    for head in ("if True:", "for _ in range(1):", "with torch.no_grad():"):
        bad = textwrap.dedent(f'''
            import torch
            try:
                X = torch.finfo(torch.float16).max
            except Exception:
                {head}
                    X = 1.0
        ''')
        report = check_source(bad, StaticConfig())
        assert report.status == "compile_error", (head, report.findings)
        assert any("simple statement" in f.message for f in report.findings), report.findings
    finally_first = textwrap.dedent('''
        import torch
        try:
            X = torch.finfo(torch.float16).max
        except Exception:
            try:
                X = 1.0
            finally:
                Y = 2.0
    ''')
    assert check_source(finally_first, StaticConfig()).status is not None


def test_a_fallback_the_gpu_image_would_settle_to_its_body_is_refused(monkeypatch):
    """Red team rt69: a body import that fails here but not on the GPU image (a name Triton 3.6
    has and 3.9 lacks, `tl.advance`) settled the fallback to its handler here and to its body
    there, switching every module-level `if` on its flags; such a fallback is refused (as
    hasattr on that name is), one whose import fails on both is still settled to its handler,
    and one that imports on both to its body."""
    from evaluator import gpu_names

    def src(name: str) -> str:
        return textwrap.dedent(f'''
            try:
                from triton.language import {name}
                HAS = True
            except ImportError:
                print("please install a newer triton")
                HAS = False
        ''')

    monkeypatch.setattr(gpu_names, "has", lambda name: name == "triton.language.only_on_the_gpu")
    report = check_source(src("only_on_the_gpu"), StaticConfig())
    assert report.status == "compile_error", report.findings
    assert any(f.code == "unknown_api" and "GPU image" in f.message and f.line == 3 for f in report.findings)
    for settled in ("on_neither", "sum"):  # (a file of no ModelNew: only the fallback is asked about)
        assert not any("GPU image" in f.message for f in check_source(src(settled), StaticConfig()).findings)
