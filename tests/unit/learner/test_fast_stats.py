"""Fast@p per turn, the paper's headline metric, as the learner exports it in its step stats."""
import random

import torch
from learner_helpers import group_of, random_turn

from common.config.learner import AlgorithmConfig
from learner.batch import build_samples
from learner.stats import Stats


def test_fast_at_p_counts_correct_turns_faster_than_p_among_all_evaluated_turns():
    rng = random.Random(0)
    # Turn 0 of four trajectories: fast correct, barely-faster correct, slow correct, wrong but fast.
    verdicts = [dict(correct=True, speedup=1.5), dict(correct=True, speedup=1.1),
                dict(correct=True, speedup=0.9), dict(correct=False, speedup=3.0, reward=0.0)]
    trajs = [[random_turn(rng, 4, 4, **v), random_turn(rng, 4, 4, correct=True, speedup=2.0)]
             for v in verdicts]
    stats = Stats()
    build_samples([group_of(trajs)], AlgorithmConfig(), torch.Generator(), stats)
    out = stats.to_dict()
    assert out["fast@1_turn0"] == 0.5     # 1.5x and 1.1x; the wrong answer does not count
    assert out["fast@1.2_turn0"] == 0.25  # only 1.5x
    assert out["fast@1.2_turn1"] == 1.0
