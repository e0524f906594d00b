"""The ready-made run configs in configs/: each loads through the real config loader (every
field known and valid), the settings README.md's GPU section lists for it are the values
loaded, and the 8-GPU layout gives each process the GPUs the README says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from common.config import ConfigError, RunConfig, load
from launcher.supervisor import Supervisor

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
GPU_CONFIGS = ["node-8gpu.yaml", "drkernel-recipe.yaml"]


def _dotted(cfg: RunConfig, key: str):
    node = cfg.model_dump(mode="json")
    for part in key.split("."):
        node = node[part]
    return node


def _readme_settings() -> dict[str, dict[str, object]]:
    """config file name -> {dotted key: value} from the `| `key` ... | `value` |` rows under
    each "### `configs/NAME`" heading of the README's GPU section."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## On a GPU node / on a cluster", 1)[1].split("\n## ", 1)[0]
    settings: dict[str, dict[str, object]] = {}
    for block in section.split("### `configs/")[1:]:
        name = block.split("`", 1)[0]
        rows = re.findall(r"^\| `([a-z_.]+)`[^|]*\| `([^`]+)` \|$", block, re.MULTILINE)
        assert len(rows) == len(re.findall(r"^\| `", block, re.MULTILINE)), f"{name}: a bad row"
        settings[name] = {key: yaml.safe_load(value) for key, value in rows}
    return settings


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_every_config_loads_with_only_known_valid_fields(path):
    cfg = load(path, [], RunConfig)
    assert cfg.run_dir != RunConfig().run_dir  # each config names its own run directory
    raw = yaml.safe_load(path.read_text())
    assert set(raw) <= set(RunConfig.model_fields)


def test_the_readme_lists_settings_of_the_gpu_configs_and_they_are_the_loaded_values():
    settings = _readme_settings()
    assert sorted(settings) == sorted(GPU_CONFIGS)
    for name, rows in settings.items():
        assert len(rows) >= 10, name
        cfg = load(ROOT / "configs" / name, [], RunConfig)
        for key, value in rows.items():
            assert _dotted(cfg, key) == value, f"{name}: {key} is {_dotted(cfg, key)!r}"


def test_the_paper_recipe_is_the_papers():
    cfg = load(ROOT / "configs" / "drkernel-recipe.yaml", [], RunConfig)
    lc, algo, reward = cfg.learner, cfg.learner.algorithm, cfg.evaluator.reward
    assert (lc.groups_per_step, lc.n_samples, lc.max_turns) == (16, 16, 3)
    assert algo.estimator == "trloo" and algo.mrs.enabled and algo.prs.enabled
    assert (algo.mrs.lower, algo.mrs.upper) == (0.999, 1.001)
    assert (reward.w_correct, reward.w_speed, reward.speedup_cap, reward.w_coverage) == (
        0.5,
        0.5,
        3.0,
        0.5,
    )
    assert (algo.prs.threshold, algo.prs.factor) == (0.3, 0.1)
    assert lc.lr == 1e-6
    assert lc.hub.synchronous and lc.max_staleness == 0  # on-policy, as the MRS bounds assume
    assert cfg.actor.eval.timing and cfg.actor.eval.profile  # speedup and coverage are scored
    assert lc.dataset.endswith(".parquet")
    assert cfg.learner.trainer.model == cfg.actor.model
    assert cfg.learner.trainer.temperature == cfg.actor.sampling.temperature


@pytest.mark.parametrize("name", GPU_CONFIGS)
def test_krl_run_pins_every_process_of_the_8_gpu_layout_to_its_gpus(name, tmp_path):
    cfg = load(ROOT / "configs" / name, [f"run_dir={tmp_path / 'run'}"], RunConfig)
    procs = {p.name: p for p in Supervisor(cfg, tmp_path / "config.yaml").procs}
    ranks = ["learner", "learner-1", "learner-2", "learner-3"]
    assert sorted(procs) == sorted(
        ranks + ["broker", "actor-0", "actor-1", "evaluator-0", "evaluator-1"]
    )
    gpus = {n: p.env.get("CUDA_VISIBLE_DEVICES") for n, p in procs.items()}
    assert gpus == {
        **dict.fromkeys(ranks, "0,1,2,3"),
        "actor-0": "4",
        "actor-1": "5",
        "evaluator-0": "6",
        "evaluator-1": "7",
        "broker": None,
    }
    for rank, n in enumerate(ranks):  # one process group; rank i trains on device i
        env = procs[n].env
        assert (env["RANK"], env["LOCAL_RANK"], env["WORLD_SIZE"]) == (str(rank), str(rank), "4")
        assert env["MASTER_PORT"] == procs["learner"].env["MASTER_PORT"]
        assert procs[n].metrics_port == 9400 + rank
    assert [procs[f"evaluator-{i}"].metrics_port for i in range(2)] == [9410, 9411]
    assert [procs[f"actor-{i}"].metrics_port for i in range(2)] == [9420, 9421]
    assert cfg.learner.trainer.zero_stage == 3
    assert cfg.actor.engine.tensor_parallel_size == 1  # one GPU per actor
    assert cfg.evaluator.device == "cuda" and cfg.actor.eval.device == "cuda"


def test_learner_gpus_must_cover_the_learner_ranks():
    with pytest.raises(ConfigError, match="lists 2 device.*4 learner_ranks"):
        load(ROOT / "configs" / "node-8gpu.yaml", ["supervisor.learner_gpus=0,1"], RunConfig)
