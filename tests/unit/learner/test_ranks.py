"""Two learner ranks (real processes, gloo) make the same update as one rank on all groups."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from learner_helpers import random_groups
from safetensors.torch import load_file

from common.ports import free_port
from learner.batch import group_tokens, shard_groups

HERE = Path(__file__).resolve().parent

# Rank 0 gets three groups and rank 1 one, so their micro-batch counts differ and the idle
# passes that keep ZeRO's collectives in step are exercised.
CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {here!r})
    from safetensors.torch import save_file
    from common.config.learner import LearnerConfig
    from learner.trainer import Trainer
    from learner_helpers import random_groups

    cfg = LearnerConfig.model_validate({cfg!r})
    trainer = Trainer(cfg)
    groups = random_groups(seed=5, n_groups=4, n_samples=3, max_turns=2, max_len=20)
    shard = groups[:3] if trainer.env.rank == 0 else groups[3:]
    stats = trainer.train_step(shard)
    weights = dict(trainer.state_dict_for_publish())
    if trainer.env.rank == 0:
        save_file(weights, {out!r})
        print("SAMPLES", stats["samples"], "LOSS", stats["loss"], "GRADNORM", stats["grad_norm"])
    # leave together, as learner.main does (see learner.main.leave_together)
    from learner.main import leave_together
    leave_together(0)
""")


def _cfg(model: str) -> dict:
    return {
        "lr": 1e-3,
        "trainer": {
            "model": model,
            "zero_stage": 2,
            "micro_batch_tokens": 48,
            "dtype": "float32",
        },  # 'auto' is bf16 on a GPU: not an exact comparison
        "algorithm": {"mrs": {"lower": 0.0, "upper": 1e9, "veto": None}},
    }


@pytest.mark.skipif(
    0 < torch.cuda.device_count() < 2,
    reason="two ranks on a GPU machine need two GPUs (one per rank)",
)
def test_two_ranks_make_the_same_update_as_one(tiny_model, tmp_path):
    from common.config.learner import LearnerConfig
    from learner.trainer import Trainer

    groups = random_groups(seed=5, n_groups=4, n_samples=3, max_turns=2, max_len=20)
    single = Trainer(LearnerConfig.model_validate(_cfg(tiny_model)))
    single_stats = single.train_step(groups)
    want = dict(single.state_dict_for_publish())

    out = tmp_path / "rank0.safetensors"
    code = CHILD.format(here=str(HERE), cfg=_cfg(tiny_model), out=str(out))
    port = str(free_port())
    procs = []
    for rank in range(2):
        env = dict(
            os.environ,
            RANK=str(rank),
            LOCAL_RANK=str(rank),
            WORLD_SIZE="2",
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=port,
        )
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", code],
                env=env,
                cwd=tmp_path,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    try:
        logs = [p.communicate(timeout=240)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert [p.returncode for p in procs] == [0, 0], "\n".join(log[-3000:] for log in logs)
    line = next(ln for ln in logs[0].splitlines() if ln.startswith("SAMPLES"))
    _, samples, _, loss, _, grad_norm = line.split()
    assert float(samples) == single_stats["samples"]  # stats are summed over ranks
    assert abs(float(loss) - single_stats["loss"]) < 1e-5 * max(1.0, abs(single_stats["loss"]))
    # Adam's first step is nearly scale-free, so the gradient's scale is checked by its norm.
    assert abs(float(grad_norm) - single_stats["grad_norm"]) < 1e-4 * single_stats["grad_norm"]
    got = load_file(str(out))
    for name, tensor in want.items():  # within 1% of one step (lr = 1e-3) everywhere
        torch.testing.assert_close(got[name], tensor, atol=1e-5, rtol=0)


def test_shard_groups_keeps_groups_whole_and_balances_tokens():
    groups = random_groups(seed=9, n_groups=9, n_samples=4, max_turns=3, max_len=30)
    shards = shard_groups(groups, 3)
    assert sorted(id(g) for s in shards for g in s) == sorted(id(g) for g in groups)
    loads = [sum(group_tokens(g) for g in s) for s in shards]
    assert max(loads) - min(loads) <= max(group_tokens(g) for g in groups)
