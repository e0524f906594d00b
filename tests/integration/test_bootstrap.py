"""`krl run`'s bootstrap stages with real processes and tiny budgets: a tiny model, SFT
data from the learner's dataset, a two-step `krl sft`; the run's config.yaml then points
actors and learner at the fine-tuned model, and a second pass (a resumed run) finds both
stages done and runs nothing."""

from __future__ import annotations

import json

import pytest
import torch
import yaml
from safetensors.torch import load_file

from common.config import RunConfig, dump, load
from launcher.bootstrap import StageFailed, bootstrap

pytestmark = pytest.mark.slow


def _config(tmp_path, **bootstrap_tree) -> tuple[RunConfig, object]:
    tree = {
        "run_dir": str(tmp_path / "run"),
        "learner": {"dataset": "builtin:activation/relu,activation/silu"},
        "bootstrap": bootstrap_tree,
    }
    src = tmp_path / "run.yaml"
    src.write_text(yaml.safe_dump(tree))
    cfg = load(src, [], RunConfig)
    path = tmp_path / "run" / "config.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(dump(cfg))
    return cfg, path


def test_bootstrap_makes_and_fine_tunes_a_model_once(tmp_path):
    cfg, path = _config(
        tmp_path,
        tiny_model={"enabled": True, "hidden": 64, "heads": 2, "layers": 1},
        sft={
            "enabled": True,
            "max_steps": 2,
            "conversations_per_step": 2,
            "lr": 1e-2,
            "trainer": {"zero_stage": 0, "micro_batch_tokens": 4096},
        },
    )
    out = bootstrap(cfg, path)

    run = tmp_path / "run"
    sft_model = run / "bootstrap" / "sft" / "hf"
    assert out.actor.model == out.learner.trainer.model == str(sft_model)
    written = load(path, [], RunConfig)  # what every role reads
    assert written.actor.model == written.learner.trainer.model == str(sft_model)
    rows = [json.loads(line) for line in (run / "bootstrap" / "sft.jsonl").read_text().splitlines()]
    assert sorted(r["problem"] for r in rows) == ["activation/relu", "activation/silu"]
    history = json.loads((run / "bootstrap" / "sft" / "progress.json").read_text())["history"]
    assert [h["step"] for h in history] == [1, 2]
    tiny = load_file(run / "bootstrap" / "tiny-model" / "model.safetensors")
    tuned = load_file(sft_model / "model.safetensors")
    assert tiny.keys() == tuned.keys()
    assert any(not torch.equal(tiny[k], tuned[k]) for k in tiny)
    done = json.loads((run / "bootstrap" / "done.json").read_text())
    assert list(done) == ["tiny-model", "sft"]

    # A resumed run (same directory, config.yaml as written) runs no stage again.
    logs = {p.name: p.stat().st_size for p in (run / "logs").glob("bootstrap-*.log")}
    again = bootstrap(written, path)
    assert again.actor.model == str(sft_model)
    assert {p.name: p.stat().st_size for p in (run / "logs").glob("bootstrap-*.log")} == logs
    assert json.loads((run / "bootstrap" / "done.json").read_text()) == done


def test_sft_stage_without_a_model_says_what_to_set(tmp_path):
    cfg, path = _config(tmp_path, sft={"enabled": True, "max_steps": 1})
    with pytest.raises(StageFailed, match="enable bootstrap.tiny_model or set learner.trainer"):
        bootstrap(cfg, path)


def test_a_failing_stage_names_its_log(tmp_path):
    cfg, path = _config(tmp_path, tiny_model={"enabled": True, "hidden": 64, "heads": 4})
    with pytest.raises(StageFailed, match="bootstrap-tiny-model.log") as err:
        bootstrap(cfg, path)
    assert "head size" in str(err.value)  # the stage's own message, from its log
    assert not (tmp_path / "run" / "bootstrap" / "done.json").exists()
