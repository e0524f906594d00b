"""Problem sets users already have: a KernelBench checkout (levelN/ folders of reference
programs at their real sizes) and the Dr. Kernel tables (Parquet rows whose reference is in
`reward_model.ground_truth` and whose id is in `extra_info`), plus the `SOURCE:selection`
syntax that picks levels or problems out of any of them. Every file here is made by the
test in the published layouts; nothing is downloaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch

from common.messages import EvalRequest, decode, encode
from common.problemset import (
    ProblemError,
    UnknownProblemError,
    apply_sizes,
    exec_problem_source,
    from_payload,
    load_problems,
    to_payload,
)

# Shaped like KernelBench's files: sizes are module globals that get_inputs() reads.
MATMUL = '''import torch
import torch.nn as nn

class Model(nn.Module):
    """C = A * B for square matrices."""
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)

N = 2048 * 2

def get_inputs():
    return [torch.rand(N, N), torch.rand(N, N)]

def get_init_inputs():
    return []
'''
RELU = """import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)

batch_size = 4096
dim = 393216

def get_inputs():
    return [torch.rand(batch_size, dim)]

def get_init_inputs():
    return []
"""
CONV = '''import torch
import torch.nn as nn

class Model(nn.Module):
    """Convolution, ReLU, then a bias term."""
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(Model, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return torch.relu(self.conv(x)) + self.bias

batch_size = 128
in_channels = 64
out_channels = 128
height = width = 128
kernel_size = 3
bias_shape = (out_channels, 1, 1)

def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels, kernel_size, bias_shape]
'''
NOT_A_PROBLEM = "import torch\n\ndef helper():\n    return 1\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A KernelBench checkout: levels under KernelBench/, code that is no problem beside them."""
    root = tmp_path / "KernelBench"
    kb = root / "KernelBench"
    write(kb / "level1" / "1_Square_matrix_multiplication_.py", MATMUL)
    write(kb / "level1" / "19_ReLU.py", RELU)
    write(
        kb / "level1" / "2_Standard_matrix_multiplication_.py", MATMUL.replace("2048 * 2", "1024")
    )
    write(kb / "level1" / "100_HingeLoss.py", RELU.replace("relu", "tanh"))
    write(kb / "level2" / "1_Conv2D_ReLU_BiasAdd.py", CONV)
    write(kb / "changelog" / "v0.1", "level1/19_ReLU.py: sizes raised\n")
    write(root / "src" / "kernelbench" / "eval.py", NOT_A_PROBLEM)
    write(root / "scripts" / "generate_samples.py", NOT_A_PROBLEM)
    return root


LEVEL1 = [
    "level1/1_Square_matrix_multiplication_",
    "level1/2_Standard_matrix_multiplication_",
    "level1/19_ReLU",
    "level1/100_HingeLoss",
]


# ----------------------------------------------------------------------------- KernelBench


def test_a_kernelbench_checkout_reads_its_levels_in_problem_number_order(checkout):
    problems = load_problems(checkout)
    assert [p.name for p in problems] == LEVEL1 + ["level2/1_Conv2D_ReLU_BiasAdd"]
    assert problems.skipped == []  # src/ and scripts/ are not problem folders
    assert [p.family for p in problems] == ["level1"] * 4 + ["level2"]
    assert all(p.solution is None for p in problems)
    # The inner KernelBench/ folder and one level folder name problems the same way.
    assert [p.name for p in load_problems(checkout / "KernelBench")] == [p.name for p in problems]
    assert [p.name for p in load_problems(checkout / "KernelBench" / "level2")] == [
        "level2/1_Conv2D_ReLU_BiasAdd"
    ]


def test_a_selection_picks_levels_and_problems_from_kernelbench(checkout):
    assert [p.name for p in load_problems(f"{checkout}:level2")] == ["level2/1_Conv2D_ReLU_BiasAdd"]
    picked = load_problems(f"{checkout}/KernelBench:level2, level1/19_ReLU")
    assert [p.name for p in picked] == ["level1/19_ReLU", "level2/1_Conv2D_ReLU_BiasAdd"]
    assert [p.name for p in load_problems(f"{checkout}:level1", limit=2)] == LEVEL1[:2]
    with pytest.raises(UnknownProblemError, match=r"no family 'level3'.*\['level1', 'level2'\]"):
        load_problems(f"{checkout}:level3")
    with pytest.raises(UnknownProblemError, match="did you mean level1/19_ReLU"):
        load_problems(f"{checkout}:level1/19_Relu")
    with pytest.raises(ProblemError, match="no such file"):
        load_problems(f"{checkout}/missing:level1")


def test_a_path_holding_a_colon_is_read_whole_when_it_exists(tmp_path):
    folder = tmp_path / "sets:v2"
    write(folder / "level1" / "19_ReLU.py", RELU)
    assert [p.name for p in load_problems(folder)] == ["level1/19_ReLU"]
    assert [p.name for p in load_problems(f"{folder}:level1")] == ["level1/19_ReLU"]


def test_kernelbench_problems_run_at_their_file_sizes_unless_a_manifest_gives_cpu_sizes(checkout):
    kb = checkout / "KernelBench"
    relu = next(p for p in load_problems(kb) if p.name == "level1/19_ReLU")
    assert relu.sizes_for("cpu") == {} and relu.sizes_for("cuda") == {}
    assert exec_problem_source(relu, "cpu").dim == 393216  # the file's (GPU) size everywhere

    write(
        kb / "manifest.json",
        json.dumps(
            {
                "level2/1_Conv2D_ReLU_BiasAdd": {
                    "sizes": {
                        "cpu": {
                            "batch_size": 2,
                            "in_channels": 3,
                            "out_channels": 4,
                            "height": 8,
                            "width": 8,
                            "bias_shape": [4, 1, 1],
                        }
                    }
                },
                "level1/19_ReLU": {"sizes": {"cpu": {"batch_size": 2, "dim": 16}}, "atol": 1e-5},
            }
        ),
    )
    problems = {p.name: p for p in load_problems(kb / "level2")} | {
        p.name: p for p in load_problems(f"{checkout}:level1/19_ReLU")
    }
    conv = problems["level2/1_Conv2D_ReLU_BiasAdd"]
    assert conv.family == "level2" and problems["level1/19_ReLU"].tolerance == {"atol": 1e-5}
    module = exec_problem_source(conv, "cpu")
    model = module.Model(*module.get_init_inputs())
    [x] = module.get_inputs()
    assert tuple(x.shape) == (2, 3, 8, 8) and tuple(model(x).shape) == (2, 4, 6, 6)
    assert exec_problem_source(conv, "cuda").batch_size == 128


def test_globals_derived_from_overridden_sizes_follow_them(checkout):
    """KernelBench computes `bias_shape = (out_channels, 1, 1)` from a size global: a manifest
    that shrinks out_channels alone must not leave a bias of the full size (the reference
    would fail to broadcast, a verdict on no kernel); a global the sizes set is kept."""
    kb = checkout / "KernelBench"
    sizes = {"batch_size": 2, "in_channels": 3, "out_channels": 4, "height": 8, "width": 8}
    write(
        kb / "manifest.json",
        json.dumps({"level2/1_Conv2D_ReLU_BiasAdd": {"sizes": {"cpu": sizes}}}),
    )
    [conv] = load_problems(f"{checkout}:level2/1_Conv2D_ReLU_BiasAdd")
    module = exec_problem_source(conv, "cpu")
    assert module.bias_shape == (4, 1, 1)
    model = module.Model(*module.get_init_inputs())
    assert tuple(model(*module.get_inputs()).shape) == (2, 4, 6, 6)
    assert exec_problem_source(conv, "cuda").bias_shape == (128, 1, 1)

    namespace: dict = {}
    source = (
        "n = 8\nshape = (n, 2)\nsquare = shape[0] ** 2\nkept = (n,)\nimport math\nm = math.pi\n"
    )
    exec(source, namespace)
    apply_sizes(namespace, source, {"n": 3, "kept": [5]})
    assert (namespace["shape"], namespace["square"], namespace["kept"]) == ((3, 2), 9, [5])


def test_sizes_rerun_a_candidates_statements_as_its_own_file():
    """A candidate's size-derived statement re-run on the CPU's sizes runs as code of its file
    (what answers by the asking frame, its sum() and device queries, answered the harness's
    "<sizes>" frame otherwise: session 48), through the transform its module was compiled with."""
    import ast
    import sys

    namespace: dict = {"who": lambda: sys._getframe(1).f_code.co_filename}
    source = "n = 8\nwhere = who()\nm = n % 5\n"
    exec(source, namespace)

    def plus_one(tree: ast.AST) -> ast.AST:  # every % becomes a +
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
                node.op = ast.Add()
        return tree

    apply_sizes(
        namespace,
        "n = 8\nwhere = who() + str(n)\nm = n % 5\n",
        {"n": 3},
        filename="/w/candidate.py",
        transform=plus_one,
    )
    assert namespace["where"] == "/w/candidate.py3" and namespace["m"] == 8


def test_a_broken_kernelbench_file_is_skipped_and_counted(checkout, caplog):
    level1 = checkout / "KernelBench" / "level1"
    write(level1 / "7_Broken.py", MATMUL.replace("def get_inputs():", "def get_inputs(n):"))
    (level1 / "8_Latin1.py").write_bytes("# caf\xe9\n".encode("latin-1"))
    problems = load_problems(checkout)
    assert len(problems) == 5 and len(problems.skipped) == 2
    reasons = dict(problems.skipped)
    assert "must take no arguments" in reasons[str(level1 / "7_Broken.py")]
    assert "UTF-8" in reasons[str(level1 / "8_Latin1.py")]


def test_kernelbench_problems_travel_on_the_wire_unchanged(checkout):
    for problem in load_problems(checkout):
        wire = decode(
            encode(EvalRequest(request_id="r", problem=to_payload(problem), candidate=""))
        )
        back = from_payload(wire.problem)
        assert back.content_hash() == problem.content_hash() and back.family == problem.family


def test_krl_benchmark_takes_a_kernelbench_selection(checkout, tmp_path):
    """`--problems` goes through load_problems: a bad level is a usage error naming the
    levels; a good one loads and the command goes on to check the model."""

    def benchmark(problems: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "launcher.cli",
                "benchmark",
                "--no-plot",
                "--model",
                str(tmp_path / "no-model"),
                "--problems",
                problems,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )

    bad = benchmark(f"{checkout}:level9")
    assert bad.returncode == 2 and "no family 'level9'" in bad.stderr
    good = benchmark(f"{checkout}:level2")
    assert good.returncode == 2 and "--model" in good.stderr and "not a directory" in good.stderr


# ----------------------------------------------------------------------------- Dr. Kernel tables

PROMPT = pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
REWARD = pa.struct([("ground_truth", pa.string()), ("style", pa.string())])
RL_EXTRA = pa.struct(
    [
        ("entry_point", pa.string()),
        ("level", pa.string()),
        ("module_name", pa.string()),
        ("ops", pa.string()),
        ("original_prompt", pa.string()),
        ("repo_name", pa.string()),
        ("type", pa.string()),
        ("uuid", pa.int64()),
    ]
)
VALIDATION_EXTRA = pa.struct(
    [("difficulty", pa.null()), ("name", pa.string()), ("problem_id", pa.int64())]
)

# KernelBook-style: the model class is the row's entry point and get_init_inputs() returns
# [args, kwargs]; krl binds them into a `Model` (common/problem_tables.adapt_entry_point).
SCALE = """import torch
import torch.nn as nn

class ScaleShift(nn.Module):
    def __init__(self, k, bias=0.0):
        super().__init__()
        self.k, self.bias = k, bias

    def forward(self, x):
        return x * self.k + self.bias

def get_inputs():
    return [torch.rand(4, 4)]

def get_init_inputs():
    return [[2.0], {'bias': 1.0}]
"""


def chat(code: str) -> list[dict]:
    return [
        {
            "role": "user",
            "content": "Write ModelNew with Triton kernels for:\n```python\n" + code + "```",
        }
    ]


def rl_row(uuid: int, code: str | None, entry_point: str = "Model") -> dict:
    return {
        "data_source": "cuda_llm",
        "prompt": chat(code or ""),
        "ability": "kernel_optimization",
        "reward_model": {"ground_truth": code, "style": "rule"},
        "extra_info": {
            "entry_point": entry_point,
            "level": "1",
            "module_name": entry_point,
            "ops": "['torch.relu']",
            "original_prompt": "",
            "repo_name": "r",
            "type": "pytorch",
            "uuid": uuid,
        },
    }


def write_rl_parquet(path: Path, rows: list[dict]) -> Path:
    schema = pa.schema(
        [
            ("data_source", pa.string()),
            ("prompt", PROMPT),
            ("ability", pa.string()),
            ("reward_model", REWARD),
            ("extra_info", RL_EXTRA),
        ]
    )
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    return path


def test_the_dr_kernel_rl_layout_takes_the_ground_truth_and_the_uuid(tmp_path, caplog):
    relu = RELU.replace("4096", "2").replace("393216", "8")
    path = write_rl_parquet(
        tmp_path / "cuda_llm_rl.parquet",
        [
            rl_row(11, relu),
            rl_row(12, SCALE, entry_point="ScaleShift"),
            rl_row(13, relu.replace("def get_inputs():", "def inputs():")),  # not a problem
            rl_row(14, None),  # no reference
            rl_row(11, relu.replace("relu", "sigmoid")),  # uuid seen before
            rl_row(15, relu.replace("relu", "tanh")),
        ],
    )
    problems = load_problems(path)
    assert [p.name for p in problems] == ["cuda_llm_rl/11", "cuda_llm_rl/12", "cuda_llm_rl/15"]
    assert problems[0].source == relu  # the reference itself, not the chat prompt around it
    reasons = [reason for _, reason in problems.skipped]
    assert len(reasons) == 3
    assert any("get_inputs" in r for r in reasons) and any("empty" in r for r in reasons)
    assert any("duplicate id '11'" in r for r in reasons)
    assert "skipped 3 malformed" in caplog.text

    module = exec_problem_source(problems[1], "cpu")
    model = module.Model(*module.get_init_inputs())
    x = torch.ones(2, 2)
    assert torch.equal(model(x), x * 2.0 + 1.0)


def test_the_dr_kernel_validation_layout_is_named_like_the_kernelbench_files(tmp_path):
    conv = CONV.replace("batch_size = 128", "batch_size = 2")
    rows = [
        {
            "data_source": "kernelbench_level2_validation",
            "prompt": chat(conv),
            "reward_model": {"ground_truth": conv, "style": "rule"},
            "ability": "kernel_optimization",
            "extra_info": {"difficulty": None, "name": name, "problem_id": pid},
        }
        for pid, name in [
            (1, "Conv2D_ReLU_BiasAdd"),
            (2, "2_Conv2D_ReLU_BiasAdd_again"),
            (3, "3_Conv2D_ReLU_BiasAdd_file.py"),
        ]
    ]
    schema = pa.schema(
        [
            ("data_source", pa.string()),
            ("prompt", PROMPT),
            ("reward_model", REWARD),
            ("ability", pa.string()),
            ("extra_info", VALIDATION_EXTRA),
        ]
    )
    path = tmp_path / "validation_data_thinking.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    names = [p.name for p in load_problems(path)]
    assert names == [
        "validation_data_thinking/1_Conv2D_ReLU_BiasAdd",
        "validation_data_thinking/2_Conv2D_ReLU_BiasAdd_again",
        "validation_data_thinking/3_Conv2D_ReLU_BiasAdd_file",
    ]
    picked = load_problems(f"{path}:validation_data_thinking/2_Conv2D_ReLU_BiasAdd_again")
    assert [p.name for p in picked] == [names[1]]


def test_a_table_with_no_valid_row_is_an_error_naming_the_reasons(tmp_path):
    path = write_rl_parquet(tmp_path / "bad.parquet", [rl_row(1, None), rl_row(2, NOT_A_PROBLEM)])
    with pytest.raises(ProblemError, match=r"no valid problems \(2 skipped: .*empty"):
        load_problems(path)
