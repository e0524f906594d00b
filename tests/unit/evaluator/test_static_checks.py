"""The static allowlist: honest kernel files pass; structure, imports, decoding and speed.

Snippets are module text appended to a file with a Triton kernel and an honest ModelNew
(`source`), so the only thing wrong with a file is its snippet. A rejected snippet marks
the line to blame with `# <-`; the report must blame that line with the expected code,
and its message must quote the construct and say what to write instead. The attacks,
by class, are in test_static_attacks and test_static_attacks_state.
"""
from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest
from conftest import FIXTURES

from common.config.evaluator import StaticConfig
from evaluator.static_checks import check_source, decode_source

CFG = StaticConfig()
ROOT = Path(__file__).resolve().parents[3]
SOLUTIONS = sorted((ROOT / "evaluator/problems/builtin").glob("*/*.solution.py"))
FIXTURE_SOLUTIONS = sorted(FIXTURES.glob("*_solution.py"))

HEADER = '''\
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def launch(x):
    out = torch.empty_like(x)
    k[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
'''
MODEL = '''

class ModelNew(nn.Module):
    def forward(self, x):
        return launch(x)
'''


def source(body: str) -> str:
    body = textwrap.dedent(body)
    defined = "class ModelNew" in body or "\nModelNew = " in body
    return HEADER + "\n" + body + ("" if defined else MODEL)


def check(body: str, cfg: StaticConfig = CFG):
    return check_source(source(body), cfg)


def assert_rejected(body: str, code: str, status: str = "hack") -> None:
    text = source(body)
    marked = [i for i, line in enumerate(text.splitlines(), 1) if line.endswith("# <-")]
    report = check_source(text, CFG)
    assert report.status == status, report.findings
    blamed = [f for f in report.findings if f.code == code and f.status == status]
    assert blamed, report.findings
    if marked:
        assert {f.line for f in blamed} & set(marked), (marked, report.findings)
    for f in blamed:
        assert f.message.startswith("`") and "`: " in f.message and "; " in f.message, f.message


def assert_accepted(body: str, cfg: StaticConfig = CFG):
    report = check(body, cfg)
    assert report.status is None, report.findings
    return report


# ---------------------------------------------------------------------- honest files
@pytest.mark.parametrize("path", SOLUTIONS + FIXTURE_SOLUTIONS,
                         ids=[p.stem for p in SOLUTIONS + FIXTURE_SOLUTIONS])
def test_every_reference_solution_passes(path):
    report = check_source(path.read_text(), CFG)
    assert report.status is None, report.findings
    assert report.kernels and all(f"def {name}(" in path.read_text() for name in report.kernels)


def test_honest_idioms_pass():
    report = assert_accepted('''
        from __future__ import annotations

        import functools
        from dataclasses import dataclass
        from typing import Optional

        from triton.language.extra import libdevice

        CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in (256, 1024) for w in (4, 8)]


        @dataclass
        class Tile:
            block: int = 128


        @triton.autotune(configs=CONFIGS, key=["n"])
        @triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
        @triton.jit
        def epilogue(y_ptr, b_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            y = tl.load(y_ptr + offs, mask=offs < n) + tl.load(b_ptr + offs % 16)
            y = libdevice.tanh(y) + tl.extra.cuda.libdevice.exp(y) + tl.math.erf(y)
            tl.store(y_ptr + offs, tl.maximum(helper(y), 0.0), mask=offs < n)


        @triton.jit
        def helper(v):
            return v * 2.0


        @triton.jit
        def dot(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
            r = tl.arange(0, BLOCK)
            a = tl.load(a_ptr + r[:, None] * BLOCK + r[None, :])
            b = tl.load(b_ptr + r[:, None] * BLOCK + r[None, :])
            c = tl.dot(a, b, allow_tf32=True) + tl.dot(a, b, input_precision="tf32")
            tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], c)


        @functools.lru_cache(maxsize=None)
        def block_for(n: int) -> int:
            return max(16, triton.next_power_of_2(n))


        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, scale):
                ctx.save_for_backward(x)
                ctx.scale = scale
                return launch(x) * scale

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return grad * ctx.scale, None


        class ModelNew(nn.Module):
            """cuBLAS matmul plus a Triton epilogue."""

            eps = 1e-5

            def __init__(self, n: int = 16, tile: Optional[Tile] = None,
                         extra: dict[str, torch.Tensor] | None = None):
                super().__init__()
                self.weight = nn.Parameter(torch.empty(n, n))
                self.bias = nn.Parameter(torch.zeros(n))
                nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
                fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)
                nn.init.uniform_(self.bias, -1 / math.sqrt(fan_in), 1 / math.sqrt(fan_in))
                self.norm = nn.LayerNorm(n)
                self.layers = nn.ModuleList([nn.Linear(n, n) for _ in range(2)])
                self._cache = {}
                setattr(self, "tile", tile or Tile())
                self.linear = nn.Linear(n, n)
                self.linear.weight.requires_grad = False

            @torch.no_grad()
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                if not x.is_cuda:
                    return torch.relu(x)
                if x.dim() != 2:
                    raise ValueError(f"expected 2-D input, got {tuple(x.shape)}")
                assert x.is_contiguous(), "{} needs contiguous input".format("ModelNew")
                y = torch.matmul(x, self.weight) + x @ self.weight + F.linear(x, self.weight)
                n = y.numel()
                grid = lambda META: (triton.cdiv(n, META["BLOCK"]),)
                epilogue[grid](y, self.bias, n)
                with torch.no_grad(), torch.cuda.device(x.device):
                    self._cache[n] = getattr(self, "weight").shape
                total = sum(t.numel() for t in (x, y)) + len([i for i in range(3)])
                if isinstance(x, (torch.Tensor, nn.Module)) and hasattr(x, "is_cuda"):
                    torch.cuda.synchronize()
                out = torch.empty_like(y)
                out[:, :1] = Scale.apply(y, 2.0)[:, :1]
                props = torch.cuda.get_device_properties(x.device)
                return out + total * 0 + props.multi_processor_count * 0 + self.eps


        if __name__ == "__main__":
            print(ModelNew()(torch.randn(4, 16)))
    ''')
    assert set(report.kernels) == {"k", "epilogue", "helper", "dot"}


def test_a_file_whose_own_class_is_named_model_passes():
    assert_accepted('''
        class Model(nn.Module):
            def forward(self, x):
                return launch(x)

        ModelNew = Model
    ''')
    assert_accepted('''
        class Model(nn.Module):
            def __init__(self):
                nn.Module.__init__(self)

            def forward(self, x):
                return launch(x)

        class ModelNew(Model):
            def __init__(self):
                super(ModelNew, self).__init__()
                Model.__init__(self)
    ''')


def test_classmethod_factories_and_super_with_self_pass():
    assert_accepted('''
        class Tiles:
            BLOCK = 128

            def __init__(self, n):
                self.n = n

            @classmethod
            def for_size(cls, n):
                return cls(triton.cdiv(n, cls.BLOCK))

        class ModelNew(nn.Module):
            def __init__(self):
                super(ModelNew, self).__init__()
                self.tiles = Tiles.for_size(1024)

            def forward(self, x):
                return launch(x)
    ''')


def test_locals_may_shadow_builtins_and_import_names_without_escaping():
    assert_accepted('''
        def scaled(input, type=None, max=2.0):
            return input * max

        def pick(tl_like):
            return [tl_like for tl_like in range(3)]
    ''')
    # a parameter named getattr in one function leaves the builtin rule intact elsewhere
    assert_rejected('''
        def f(getattr):
            return getattr

        X = getattr(torch, "sy" + "s")  # <-
    ''', "reflection")


@pytest.mark.parametrize("body", [
    "import scipy  # <-", "import heapq  # <-", "from . import helpers  # <-",
    "from torch.nn.functional import *  # <-",
])
def test_unavailable_imports_are_compile_errors(body):
    code = {"from .": "relative_import", "from torch.nn.functional import *": "star_import"}
    assert_rejected(body, next((c for k, c in code.items() if body.startswith(k)),
                               "unavailable_module"), status="compile_error")


def test_of_collections_only_namedtuple_and_the_dict_kinds():
    """FlagGems returns max's values and indices as a collections.namedtuple (honest round,
    session 35); defaultdict and OrderedDict are dicts (honest round s38); the rest of
    collections stays out (UserDict is made to be subclassed with hooks)."""
    assert_accepted("from collections import namedtuple\n\nMax = namedtuple('max', ['values', 'indices'])\n")
    assert_accepted("from collections import OrderedDict, defaultdict\n\nT = OrderedDict(a=defaultdict(list))\n")
    assert_rejected("from collections import UserDict  # <-", "forbidden_api")
    assert_rejected("import collections\n\nQ = collections.deque()  # <-", "forbidden_api")


def test_torch_return_types_built_and_named_but_never_subclassed():
    """A wrapper returning torch's own result tuple, `torch.return_types.max((values, indices))`
    (honest round s68F): a structseq of what it is given. A class of the file deriving from one
    (an __iter__ of its own) stays refused as an untrusted base."""
    assert_accepted("import torch\n\n\ndef pack(v, i) -> torch.return_types.max:\n"
                    "    return torch.return_types.max((v, i))\n")
    assert_rejected("import torch\n\n\nclass Max(torch.return_types.max):  # <-\n    pass\n",
                    "monkey_patch")
    assert_rejected("import torch\n\nM = torch.return_types.__dict__  # <-\n", "reflection")


def test_xpu_device_queries_as_cuda_ones_and_nothing_else_of_it():
    """Liger's `elif X.device.type == "xpu"` branch reads the device's properties (honest round,
    session 35); a stream of it is the handle to cross-stream waits, as torch.cuda's is."""
    assert_accepted("import torch\n\nN = torch.xpu.get_device_properties(0)\n")
    assert_rejected("import torch\n\nS = torch.xpu.Stream()  # <-", "forbidden_api")


def test_a_module_level_call_result_read_by_attribute_is_checked_not_a_crash():
    """`M = f(); M.real(1)` at module level crashed the checker while it looked for
    `triton.jit(f)` calls (the worker answered "crashed, not your kernel"): now checked."""
    report = check_source(source("def f():\n    return 1\n\n\nM = f()\nX = M.real(1)\n"), CFG)
    assert all(f.code != "unchecked" for f in report.findings), report.findings


def test_a_function_decorated_by_a_name_bound_to_a_call_is_checked_not_a_crash():
    """flash-attn's amp shim, `custom_fwd = wrapper(custom_fwd)` then `@custom_fwd`, crashed the
    checker while it looked for kernels by decorator (honest round, session 36): now checked."""
    report = check_source(source('''
        def wrap(dec):
            return dec


        my_deco = wrap(torch.no_grad())


        @my_deco
        def launch(x):
            return torch.relu(x)
    '''), CFG)
    assert all(f.code != "unchecked" for f in report.findings), report.findings


def test_undefined_names_are_compile_errors():
    # the reference Model is not in the candidate's module: naming it is an error, not a path
    assert_rejected('''
        class ModelNew(nn.Module):
            def forward(self, x):
                return Model()(x)  # <-
    ''', "undefined_name", status="compile_error")
    # annotations may name what they like: they are not evaluated under __future__
    assert_accepted("from __future__ import annotations\n\ndef f(x: Undefined) -> None:\n"
                    "    return None\n")


def test_a_file_nested_beyond_the_checker_is_rejected_not_a_crash():
    report = check_source("x = 1" + " + 1" * 3000 + "\n", CFG)
    assert report.status == "compile_error"
    assert report.findings[0].code in ("too_deeply_nested", "syntax_error")


def test_allowed_imports_narrow_the_allowlist():
    narrow = StaticConfig(allowed_imports=["torch", "triton"])
    assert check("import itertools\n").status is None
    report = check("import itertools\n", narrow)
    assert report.status == "compile_error" and "itertools" in report.findings[0].message
    assert check("import math\n", narrow).status == "compile_error"  # the header's import


def test_messages_quote_the_construct_and_say_what_to_write():
    report = check('x = torch.sys.modules["__main__"]\n')
    (finding,) = report.findings
    assert finding.message.startswith("`torch.sys`")
    assert "torch.relu" in finding.message  # what to write instead
    report = check("t = type(torch.zeros(1))\n")
    assert "isinstance" in report.findings[0].message


def test_structure_errors():
    assert check_source(HEADER, CFG).findings[0].code == "no_modelnew"
    no_forward = check("class ModelNew(nn.Module):\n    pass\n")
    assert [f.code for f in no_forward.findings] == ["no_forward"]
    assert no_forward.status == "format_error"
    plain = check_source("import torch\nimport torch.nn as nn\n\nclass ModelNew(nn.Module):\n"
                         "    def forward(self, x):\n        return torch.relu(x)\n", CFG)
    assert plain.hacks == ["no_triton_kernel"] and plain.kernels == []


def test_torch_compute_beside_a_kernel_is_left_to_the_runtime():
    report = check('''
        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = nn.Linear(4, 4)

            def forward(self, x):
                y = self.linear(x) @ torch.matmul(x, x.t())
                return F.softmax(y, dim=-1)
    ''')
    assert report.status is None, report.findings
    assert report.kernels == ["k"]


def test_syntax_error_is_a_compile_error_with_its_line():
    report = check_source("x = 1\ndef f(:\n  pass\n", CFG)
    assert report.status == "compile_error" and report.findings[0].line == 2


@pytest.mark.parametrize("raw, code", [
    (b"", "empty_source"), ("   \n\n", "empty_source"), (b"\xff\xfe\x00bad", "not_utf8"),
    ("x = 1\n" * 60000, "source_too_large"),
])
def test_decode_rejects_unusable_files(raw, code):
    text, finding = decode_source(raw, CFG)
    assert text is None and finding.code == code and finding.status == "format_error"


def test_checking_a_file_grows_linearly_with_its_length():
    """The static check runs in the evaluator's parent on every candidate: a check whose cost
    grew faster than the file (a rescan per definition) would let one long candidate stall the
    pool. A ratio in the same run, not a time: ten times the helpers costs well under the
    hundredfold a quadratic pass would (a linear one is ~10x)."""
    longest = max(SOLUTIONS, key=lambda p: len(p.read_text())).read_text()

    def padded(n: int) -> str:
        return longest + "".join(f"\n\ndef helper_{i}(x, n=4):\n    y = torch.empty_like(x)\n"
                                 f"    return [y[j] * n for j in range(n)]\n" for i in range(n))

    def median_time(text: str) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            assert check_source(text, CFG).status is None
            times.append(time.perf_counter() - start)
        return sorted(times)[1]  # a garbage collection may hit one run

    short, long = padded(60), padded(600)
    assert len(long.splitlines()) > 3000
    check_source(short, CFG)  # tables built once per process
    ratio = median_time(long) / median_time(short)
    assert ratio < 30, ratio


def test_a_global_statement_in_a_host_function_passes():
    """A lazily filled module-level cache (`global _NUM_SMS`), as persistent kernels keep the
    SM count (honest round, session 31: refused as forbidden syntax before). The name is
    bound in the module; rebinding an import, kernel, class or builtin that way is refused
    (test_static_attacks_state)."""
    assert_accepted('''
        _NUM_SMS = None
        CALLS = 0

        def num_sms() -> int:
            global _NUM_SMS, CALLS
            CALLS += 1
            if _NUM_SMS is None:
                _NUM_SMS = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
            return _NUM_SMS
    ''')


def test_a_class_as_the_type_typing_cast_takes_passes():
    """`typing.cast(torch.Tensor, out)` returns `out` and never touches the class (honest
    round, session 31: refused as a class handled as a value)."""
    assert_accepted('''
        import typing
        from typing import Optional, cast

        def finish(out: Optional[torch.Tensor]) -> torch.Tensor:
            y = cast(torch.Tensor, out)
            return typing.cast(Optional[torch.Tensor], y)
    ''')


def test_a_literal_warning_filter_at_import_passes():
    """Files silence a library's warnings at import (honest round, session 31: refused)."""
    assert_accepted('''
        import warnings

        warnings.filterwarnings("ignore", message=".*TF32.*", category=UserWarning)
        warnings.filterwarnings(action="ignore", category=FutureWarning, module="torch")
        warnings.simplefilter("once")
    ''')


def test_inductor_runtime_helpers_are_refused_with_their_public_spelling():
    """A torch.compile-generated file imports Inductor's private runtime helpers (inline
    assembly, a grid barrier among them): refused, and the message names what to write
    instead (honest round, session 31)."""
    report = check("from torch._inductor.runtime import triton_helpers\n")
    assert report.status == "hack" and [f.code for f in report.findings] == ["reflection"]
    assert "tl.maximum" in report.findings[0].message and "libdevice" in report.findings[0].message


def test_a_launcher_kept_from_torch_compile_passes():
    """`@torch.compiler.disable` on a launcher (library code graph-breaks around a raw Triton
    launch so; honest round s31b): in an eager child it is a plain call."""
    assert_accepted('''
        @torch.compiler.disable
        def run(x):
            return launch(x)

        @torch.compiler.disable(recursive=False)
        def run2(x):
            return launch(x)
    ''')


def test_a_module_level_handler_never_catches_what_the_machine_raises(tmp_path):
    """Every except clause of the file runs evaluator.runner.resource_errors first: a MemoryError
    (a 30 GB allocation under the CPU sandbox's address-space limit, which a GPU host with the
    memory makes) or a RecursionError is raised again, so the handler cannot read the machine;
    any other exception is handled as written (round s47)."""
    import subprocess
    import sys

    from evaluator.static_checks import RESOURCE

    def pinned(body: str) -> str:
        report = check_source(source(body), CFG)
        assert report.status is None, report.findings
        return report.source

    roomy = pinned('''
        try:
            _PAD = "x" * 30_000_000_000
            ROOMY = True
        except Exception:
            ROOMY = False
        ''')
    assert f"except Exception:\n    {RESOURCE}(); ROOMY = False" in roomy
    plain = pinned('''
        try:
            _V = int("x")
            PARSED = True
        except ValueError:
            PARSED = False
        ''')
    run = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30)); "
           "import evaluator.runner, runpy; scope = runpy.run_path(sys.argv[1]); "
           "print(scope.get('ROOMY', scope.get('PARSED')))")
    root = str(Path(__file__).resolve().parents[3])
    (tmp_path / "roomy.py").write_text(roomy)
    (tmp_path / "plain.py").write_text(plain)
    done = subprocess.run([sys.executable, "-c", run, str(tmp_path / "roomy.py")], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": root}, timeout=300)
    assert done.returncode != 0 and "MemoryError" in done.stderr, (done.stdout, done.stderr[-2000:])
    done = subprocess.run([sys.executable, "-c", run, str(tmp_path / "plain.py")], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": root}, timeout=300)
    assert done.returncode == 0 and done.stdout.split()[-1] == "False", done.stderr[-2000:]
