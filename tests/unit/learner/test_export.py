"""`krl export`: a trained checkpoint becomes a Hugging Face directory transformers loads
with exactly the trained weights (ZeRO 0 and ZeRO-3 checkpoints, tied embeddings)."""

from __future__ import annotations

import pytest
import torch
from learner_helpers import random_groups, without_zero3_loading
from transformers import AutoModelForCausalLM

from common.config.learner import LearnerConfig
from launcher.cli import main as krl
from learner.checkpoint import Checkpoints
from learner.trainer import Trainer


def _trained_run(model: str, run_dir, stage: int) -> dict[str, torch.Tensor]:
    """One RL step, then a checkpoint in run_dir; returns the trained weights."""
    cfg = LearnerConfig.model_validate(
        {
            # float32: 'auto' is bfloat16 on a GPU, where small updates can vanish in rounding.
            "lr": 1e-2,
            "trainer": {"model": model, "zero_stage": stage, "dtype": "float32"},
            "algorithm": {"mrs": {"enabled": False}},
        }
    )
    trainer = Trainer(cfg)
    trainer.train_step(random_groups(seed=0))
    Checkpoints(run_dir / "checkpoints").save(
        trainer.step, lambda d: trainer.save(d / "model", "model")
    )
    return dict(trainer.state_dict_for_publish())


@pytest.mark.parametrize("stage", [0, 3])
def test_export_round_trips_the_trained_weights(tiny_model, tmp_path, stage):
    trained = _trained_run(tiny_model, tmp_path / "run", stage)
    out = tmp_path / "hf"
    assert krl(["export", str(tmp_path / "run"), str(out)]) == 0
    assert (out / "model.safetensors").is_file() and (out / "config.json").is_file()
    with without_zero3_loading():
        model = AutoModelForCausalLM.from_pretrained(out)
        base = dict(AutoModelForCausalLM.from_pretrained(tiny_model).named_parameters())
    got = dict(model.named_parameters())
    assert got.keys() == trained.keys()
    assert any(not torch.equal(base[k], trained[k]) for k in trained)  # training moved them
    for name, weight in trained.items():
        assert torch.equal(got[name], weight), name
    # The tiny model ties its LM head to the embedding; the export keeps the tie.
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()


def test_export_copies_the_tokenizer_and_refuses_to_overwrite(tiny_model_dir, tmp_path, capsys):
    _trained_run(str(tiny_model_dir), tmp_path / "run", stage=0)
    step_dir = Checkpoints(tmp_path / "run" / "checkpoints").latest()
    out = tmp_path / "hf"
    assert krl(["export", str(step_dir), str(out), "--dtype", "bfloat16"]) == 0
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(out)
    msgs = [{"role": "user", "content": "hi"}]
    assert tok.apply_chat_template(msgs, tokenize=False) == AutoTokenizer.from_pretrained(
        tiny_model_dir
    ).apply_chat_template(msgs, tokenize=False)
    with without_zero3_loading():
        assert AutoModelForCausalLM.from_pretrained(out).dtype == torch.bfloat16
    assert krl(["export", str(step_dir), str(out)]) == 2
    assert "exists" in capsys.readouterr().err
    assert krl(["export", str(tmp_path / "nothing"), str(tmp_path / "x")]) == 2
    assert "no complete krl checkpoint" in capsys.readouterr().err
