"""Problem loading: files, directories, JSONL/Parquet tables, the built-in set, content hashes."""

from __future__ import annotations

import json
import logging

import pytest

from common.problemset import (
    MAX_SOURCE_BYTES,
    Problem,
    ProblemError,
    UnknownProblemError,
    builtin_problem,
    builtin_problems,
    exec_problem_source,
    load_problems,
    validate_problem_source,
)

GOOD = """import torch
import torch.nn as nn

dim = {dim}


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(2, dim)]


def get_init_inputs():
    return []
"""
SOLUTION = "class ModelNew:  # stands in for a Triton solution\n    pass\n"
NO_GET_INPUTS = (
    "import torch.nn as nn\n\nclass Model(nn.Module):\n    pass\n\n"
    "def get_init_inputs():\n    return []\n"
)
FAMILIES = {
    "elementwise",
    "activation",
    "reduction",
    "norm",
    "softmax",
    "attention",
    "matmul",
    "conv",
    "loss",
    "fused",
}


def write(path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_jsonl(path, rows: list) -> None:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------- files


def test_single_file_is_named_by_stem_and_picks_up_its_solution(tmp_path):
    write(tmp_path / "relu.py", GOOD.format(dim=8))
    write(tmp_path / "relu.solution.py", SOLUTION)
    [problem] = load_problems(tmp_path / "relu.py")
    assert problem.name == "relu"
    assert problem.source == GOOD.format(dim=8)
    assert problem.solution == SOLUTION


def test_single_file_of_a_kernelbench_level_takes_the_checkouts_name_and_cpu_sizes(tmp_path):
    # `krl check --problem KernelBench/level2/76_Gemm_Add_ReLU.py` at the CPU sizes the user
    # gave the checkout: at the file's own GPU sizes the interpreter runs out of time
    path = write(tmp_path / "KernelBench" / "level2" / "76_relu.py", GOOD.format(dim=8192))
    write(
        tmp_path / "KernelBench" / "manifest.json",
        json.dumps({"level2/76_relu": {"sizes": {"cpu": {"dim": 16}}}}),
    )
    [problem] = load_problems(path)
    assert problem.name == "level2/76_relu" and problem.family == "level2"
    assert problem.sizes_for("cpu") == {"dim": 16} and problem.sizes_for("cuda") == {}
    [alone] = load_problems(write(tmp_path / "other" / "level3" / "1_relu.py", GOOD.format(dim=4)))
    assert alone.name == "level3/1_relu" and alone.sizes_for("cpu") == {}


def test_directory_is_recursive_sorted_and_skips_solutions_and_init(tmp_path):
    write(tmp_path / "b" / "second.py", GOOD.format(dim=2))
    write(tmp_path / "a.py", GOOD.format(dim=1))
    write(tmp_path / "a.solution.py", SOLUTION)
    write(tmp_path / "__init__.py", "")
    problems = load_problems(tmp_path)
    assert [p.name for p in problems] == ["a", "b/second"]
    assert problems[0].solution == SOLUTION and problems[1].solution is None
    assert problems.skipped == []


def test_directory_skips_and_counts_malformed_files(tmp_path, caplog):
    write(tmp_path / "good.py", GOOD.format(dim=4))
    write(tmp_path / "no_inputs.py", NO_GET_INPUTS)
    (tmp_path / "latin1.py").write_bytes("# caf\xe9\n".encode("latin-1") + b"x = 1\n")
    with caplog.at_level(logging.WARNING, logger="common.problemset"):
        problems = load_problems(tmp_path)
    assert [p.name for p in problems] == ["good"]
    reasons = dict(problems.skipped)
    assert set(reasons) == {str(tmp_path / "no_inputs.py"), str(tmp_path / "latin1.py")}
    assert "get_inputs" in reasons[str(tmp_path / "no_inputs.py")]
    assert "UTF-8" in reasons[str(tmp_path / "latin1.py")]
    assert "no_inputs.py" in caplog.text


def test_directory_manifest_sets_family_sizes_tolerance_and_tags(tmp_path):
    write(tmp_path / "ops" / "relu.py", GOOD.format(dim=4096))
    write(
        tmp_path / "manifest.json",
        json.dumps(
            {
                "ops/relu": {
                    "family": "activation",
                    "sizes": {"cpu": {"dim": 3}, "cuda": {}},
                    "atol": 1e-5,
                    "tags": ["tiny_output"],
                }
            }
        ),
    )
    [problem] = load_problems(tmp_path)
    assert problem.family == "activation"
    assert problem.sizes_for("cpu") == {"dim": 3} and problem.sizes_for("cuda") == {}
    assert dict(problem.tolerance) == {"atol": 1e-5}
    assert problem.tags == ("tiny_output",)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (b"# \xff\xfe not utf-8\n", "UTF-8"),
        (NO_GET_INPUTS.encode(), "get_inputs"),
        (
            GOOD.format(dim=1).replace("def get_inputs():", "def get_inputs(n):").encode(),
            "get_inputs() must take no arguments",
        ),
        (b"class Model(:\n", "syntax error"),
    ],
)
def test_bad_single_files_are_rejected_naming_the_file(tmp_path, content, message):
    path = tmp_path / "bad_problem.py"
    path.write_bytes(content)
    with pytest.raises(ProblemError) as err:
        load_problems(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_huge_file_is_rejected(tmp_path):
    path = write(tmp_path / "huge.py", GOOD.format(dim=1) + "#" * MAX_SOURCE_BYTES)
    with pytest.raises(ProblemError, match="huge.py.*limit"):
        load_problems(path)


def test_missing_path_and_unknown_suffix_are_clear_errors(tmp_path):
    with pytest.raises(ProblemError, match="no such file"):
        load_problems(tmp_path / "absent.py")
    with pytest.raises(ProblemError, match="unknown problem source"):
        load_problems(write(tmp_path / "problems.csv", "code\n"))


def test_directory_with_nothing_valid_is_an_error(tmp_path):
    write(tmp_path / "bad.py", NO_GET_INPUTS)
    with pytest.raises(ProblemError, match="no valid problems.*get_inputs"):
        load_problems(tmp_path)


def test_validate_accepts_model_assigned_by_name():
    validate_problem_source(
        GOOD.format(dim=1).replace("class Model(", "class Net(") + "\nModel = Net\n", "inline"
    )
    with pytest.raises(ProblemError, match="inline: .*class Model"):
        validate_problem_source(GOOD.format(dim=1).replace("class Model(", "class Net("), "inline")


# ----------------------------------------------------------------------------- tables


def test_jsonl_autodetects_code_and_name_columns(tmp_path):
    path = tmp_path / "kb.jsonl"
    write_jsonl(
        path,
        [
            {"uuid": "p1", "pytorch_code": GOOD.format(dim=1)},
            {"uuid": "p2", "pytorch_code": GOOD.format(dim=2)},
        ],
    )
    problems = load_problems(path)
    assert [p.name for p in problems] == ["kb/p1", "kb/p2"]
    assert problems[1].source == GOOD.format(dim=2)


def test_jsonl_explicit_columns_and_row_index_names(tmp_path):
    path = tmp_path / "t.jsonl"
    write_jsonl(
        path,
        [
            {"ref": GOOD.format(dim=1), "code": "not used"},
            {"ref": GOOD.format(dim=2), "code": "not used"},
        ],
    )
    problems = load_problems(path, code_column="ref")
    assert [p.name for p in problems] == ["t/0", "t/1"]
    problems = load_problems(path, code_column="ref", name_column="code", limit=1)
    assert [p.name for p in problems] == ["t/not used"]
    with pytest.raises(ProblemError, match="no column 'missing'"):
        load_problems(path, code_column="missing")


def test_jsonl_reads_nested_fields_and_fenced_code_in_chat_prompts(tmp_path):
    path = tmp_path / "rl.jsonl"
    prompt = [
        {"role": "system", "content": "You write Triton kernels."},
        {
            "role": "user",
            "content": "Optimize this:\n```python\n"
            + GOOD.format(dim=5)
            + "```\nAnswer with ModelNew.",
        },
    ]
    write_jsonl(
        path,
        [
            {
                "reward_model": {"ground_truth": GOOD.format(dim=3)},
                "extra_info": {"uuid": "cuda_llm_1"},
            }
        ],
    )
    [problem] = load_problems(path)
    assert problem.name == "rl/cuda_llm_1" and problem.source == GOOD.format(dim=3)
    write_jsonl(path, [{"prompt": prompt}])
    [problem] = load_problems(path)
    assert problem.source == GOOD.format(dim=5)


def test_jsonl_malformed_rows_are_skipped_and_counted(tmp_path, caplog):
    path = tmp_path / "mixed.jsonl"
    write_jsonl(
        path,
        [
            {"id": "ok1", "code": GOOD.format(dim=1)},
            "{not json",
            "[1, 2]",
            {"id": "no_code"},
            {"id": "no_inputs", "code": NO_GET_INPUTS},
            {"id": "ok1", "code": GOOD.format(dim=9)},
            {"id": "ok2", "code": GOOD.format(dim=2)},
        ],
    )
    with caplog.at_level(logging.WARNING, logger="common.problemset"):
        problems = load_problems(path)
    assert [p.name for p in problems] == ["mixed/ok1", "mixed/ok2"]
    reasons = [reason for _, reason in problems.skipped]
    assert len(reasons) == 5
    assert any("invalid JSON" in r for r in reasons) and any("not an object" in r for r in reasons)
    assert any("empty" in r for r in reasons) and any("get_inputs" in r for r in reasons)
    assert any("duplicate id 'ok1'" in r for r in reasons)
    assert "skipped 5 malformed" in caplog.text


def test_jsonl_without_a_known_code_column_lists_the_columns(tmp_path):
    path = tmp_path / "odd.jsonl"
    write_jsonl(path, [{"body": GOOD.format(dim=1)}])
    with pytest.raises(ProblemError, match=r"columns are \['body'\]"):
        load_problems(path)


def test_kernelbook_rows_get_a_model_bound_to_their_entry_point(tmp_path):
    source = GOOD.format(dim=3).replace(
        "class Model(nn.Module):",
        "class Scale(nn.Module):\n"
        "    def __init__(self, k, bias=0.0):\n"
        "        super().__init__()\n"
        "        self.k, self.bias = k, bias\n",
    )
    source = source.replace("return torch.relu(x)", "return x * self.k + self.bias")
    source = source.replace(
        "def get_init_inputs():\n    return []",
        "def get_init_inputs():\n    return [[2.0], {'bias': 1.0}]",
    )
    path = tmp_path / "kernelbook.jsonl"
    write_jsonl(path, [{"uuid": 7, "python_code": source, "entry_point": "Scale"}])
    [problem] = load_problems(path)
    module = exec_problem_source(problem, "cpu")
    model = module.Model(*module.get_init_inputs())
    import torch

    x = torch.ones(2, 3)
    assert torch.equal(model(x), x * 2.0 + 1.0)


def test_parquet_needs_pyarrow_or_reads_like_jsonl(tmp_path):
    path = tmp_path / "t.parquet"
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        path.write_bytes(b"PAR1")
        with pytest.raises(ProblemError, match="install pyarrow to read parquet"):
            load_problems(path)
        return
    table = pa.table(
        {
            "reward_model": [{"ground_truth": GOOD.format(dim=1)}, {"ground_truth": "x"}],
            "uuid": ["a", "b"],
        }
    )
    pq.write_table(table, path)
    problems = load_problems(path)
    assert [p.name for p in problems] == ["t/a"] and len(problems.skipped) == 1


# ----------------------------------------------------------------------------- built-ins


def test_builtin_set_is_complete_and_consistent():
    problems = builtin_problems()
    names = [p.name for p in problems]
    assert len(problems) >= 40 and names == sorted(names) and len(set(names)) == len(names)
    assert {p.family for p in problems} == FAMILIES
    for p in problems:
        assert p.name.split("/")[0] == p.family
        assert p.solution and "@triton.jit" in p.solution and "class ModelNew" in p.solution
        assert set(p.sizes) == {"cpu", "cuda"} and p.sizes_for("cpu"), p.name
    dtypes = " ".join(p.source for p in problems)
    assert "torch.float16" in dtypes and "torch.bfloat16" in dtypes
    assert sum("tiny_output" in p.tags for p in problems) >= 2


def test_builtin_family_selection_and_unknown_names():
    norms = load_problems("builtin:norm")
    assert norms and all(p.family == "norm" for p in norms)
    assert len(load_problems("builtin")) == len(builtin_problems())
    with pytest.raises(UnknownProblemError, match="families are .*'norm'"):
        load_problems("builtin:nope")
    assert builtin_problem("activation/gelu").family == "activation"
    picked = load_problems("builtin:loss/mse, norm,activation/relu,norm/rmsnorm")
    assert [p.name for p in picked] == sorted(
        {"loss/mse", "activation/relu", *(p.name for p in norms)}
    )
    with pytest.raises(UnknownProblemError, match="did you mean activation/gelu"):
        load_problems("builtin:norm,activation/gelu2")
    with pytest.raises(UnknownProblemError, match="did you mean activation/gelu"):
        builtin_problem("activation/gelu2")


def test_cpu_sizes_override_module_globals_before_inputs_are_built():
    problem = builtin_problem("matmul/matmul")
    module = exec_problem_source(problem, "cpu")
    sizes = problem.sizes_for("cpu")
    a, b = module.get_inputs()
    assert tuple(a.shape) == (sizes["M"], sizes["K"]) and tuple(b.shape) == (sizes["K"], sizes["N"])
    full = exec_problem_source(problem, "cuda")
    assert full.M > sizes["M"]  # the file's own constants are the GPU size


# ----------------------------------------------------------------------------- hashing


def test_content_hash_is_stable_and_sensitive():
    base = Problem(name="p", source="src", sizes={"cpu": {"a": 1, "b": 2}})
    same = Problem(name="p", source="src", sizes={"cpu": {"b": 2, "a": 1}}, family="other")
    assert base.content_hash() == same.content_hash() == base.content_hash()
    assert len(base.content_hash()) == 64
    changed = [
        Problem(name="q", source="src", sizes={"cpu": {"a": 1, "b": 2}}),
        Problem(name="p", source="src ", sizes={"cpu": {"a": 1, "b": 2}}),
        Problem(name="p", source="src", sizes={"cpu": {"a": 1, "b": 3}}),
        Problem(name="p", source="src", sizes={"cpu": {"a": 1, "b": 2}}, tolerance={"atol": 1}),
    ]
    hashes = {p.content_hash() for p in changed}
    assert len(hashes) == len(changed) and base.content_hash() not in hashes
    assert hash(base) == hash(same)


def test_problems_are_immutable():
    problem = builtin_problem("loss/mse")
    with pytest.raises(TypeError):
        problem.sizes["cpu"]["batch_size"] = 1
    with pytest.raises(AttributeError):
        problem.source = "x"


def test_payload_round_trip_keeps_what_changes_a_verdict():
    from common.messages import EvalRequest, decode, encode
    from common.problemset import builtin_problem, from_payload, to_payload

    p = builtin_problem("loss/mse_close")
    wire = decode(encode(EvalRequest(request_id="r", problem=to_payload(p), candidate="")))
    back = from_payload(wire.problem)
    assert back.content_hash() == p.content_hash() and back.tags == p.tags


def test_a_problem_can_replace_the_extra_trial_distributions(tmp_path):
    """Attention trades the x1e3 trial (logits x1e6: fp32 rounding decides the softmax) for
    x10 (logits x100: a softmax without the row max overflows there, fp32 rounding does not);
    the problem's own list travels on the wire, keys caches and shapes the trial plan."""
    from common.config.evaluator import EvaluatorConfig
    from common.messages import EvalRequest, decode, encode
    from common.problemset import from_payload, to_payload
    from evaluator.reference import make_plan

    sdpa = builtin_problem("attention/sdpa")
    assert sdpa.distributions == ("scale:1e-3", "scale:10")
    assert builtin_problem("activation/relu").distributions is None
    cfg = EvaluatorConfig()
    # ... but never the spike (red team B, session 19: with x1e-3 alone, a softmax that never
    # subtracted the row max met no input larger than the problem's own, and was ok)
    assert [d for _, d in make_plan(cfg, 7, 2, sdpa.distributions).trials] == [
        "base",
        "base",
        "scale:1e-3",
        "scale:10",
        "spike",
    ]
    assert [d for _, d in make_plan(cfg, 7, 2, ["spike:16"]).trials] == ["base", "base", "spike:16"]
    assert [d for _, d in make_plan(cfg, 7, 2, []).trials] == ["base", "base", "spike"]
    assert [d for _, d in make_plan(cfg, 7, 2).trials] == [
        "base",
        "base",
        *cfg.correctness.distributions,
    ]
    wire = decode(encode(EvalRequest(request_id="r", problem=to_payload(sdpa), candidate="")))
    back = from_payload(wire.problem)
    assert back.distributions == sdpa.distributions and back.content_hash() == sdpa.content_hash()
    assert (
        Problem(name="p", source="s", distributions=[]).content_hash()
        != Problem(name="p", source="s").content_hash()
    )

    write(tmp_path / "ops" / "relu.py", GOOD.format(dim=8))
    write(tmp_path / "ops" / "relu2.py", GOOD.format(dim=8))
    write(
        tmp_path / "manifest.json",
        json.dumps(
            {
                "ops/relu": {"distributions": "scale:1e3"},
                "ops/relu2": {"distributions": ["shift:1"]},
            }
        ),
    )
    problems = load_problems(tmp_path)
    assert [p.name for p in problems] == ["ops/relu2"] and problems[0].distributions == ("shift:1",)
    assert "distributions" in problems.skipped[0][1]


def test_attention_problems_on_the_cpu_keep_the_gpu_sizes_alignment():
    """Flash-attention kernels tile the sequence in blocks of 64 or 128 and load a head whole
    (tl.arange(0, HEAD_DIM) needs a power of two); at the GPU sizes both hold, so a kernel
    that asserts them is correct for the problem. The CPU instance at seq_len 100 and head_dim
    24 refused such kernels on the CPU only (honest rounds, sessions 30-31): its sequence is a
    multiple of 128 and its head the GPU's."""
    for name in ("attention/sdpa", "attention/causal_sdpa_fp16"):
        problem = builtin_problem(name)
        cpu = problem.sizes_for("cpu")
        namespace: dict = {}
        exec(compile(problem.source, name, "exec"), namespace)  # noqa: S102  (a built-in problem)
        assert cpu["seq_len"] % 128 == 0 and namespace["seq_len"] % cpu["seq_len"] == 0, (name, cpu)
        assert cpu["head_dim"] == namespace["head_dim"], (name, cpu)
