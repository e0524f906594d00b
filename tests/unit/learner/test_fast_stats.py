"""Fast@p per turn, the paper's headline metric, as the learner exports it in its step stats."""

import random

import torch
from learner_helpers import group_of, random_turn

from common.config.learner import AlgorithmConfig
from learner.batch import build_samples
from learner.stats import Stats


def test_fast_at_p_counts_correct_turns_faster_than_p_among_all_evaluated_turns():
    rng = random.Random(0)
    # Turn 0 of four trajectories: fast correct, barely-faster correct, slow correct, wrong but
    # fast.
    verdicts = [
        dict(correct=True, speedup=1.5),
        dict(correct=True, speedup=1.1),
        dict(correct=True, speedup=0.9),
        dict(correct=False, speedup=3.0, reward=0.0),
    ]
    trajs = [
        [random_turn(rng, 4, 4, **v), random_turn(rng, 4, 4, correct=True, speedup=2.0)]
        for v in verdicts
    ]
    stats = Stats()
    build_samples([group_of(trajs)], AlgorithmConfig(), torch.Generator(), stats)
    out = stats.to_dict()
    assert out["fast@1_turn0"] == 0.5  # 1.5x and 1.1x; the wrong answer does not count
    assert out["fast@1.2_turn0"] == 0.25  # only 1.5x
    assert out["fast@1.2_turn1"] == 1.0


def test_turn_one_speed_reaches_turn_one_tokens_under_every_estimator():
    """The learning benchmark's fast and slow answers (session 57: TRLOO settled on the slow one
    in 2 of 3 seeds): a fast correct turn 1 (reward 1 + 1000 x 0.007) must out-credit a slow
    correct one (1 + 1000 x 0.0007) on every token of turn 1, whatever turn 2 earned; at turn 1
    TRLOO and RLOO give the same advantage and GRPO (N-1)/N of it."""
    rng = random.Random(1)
    turn1 = [
        dict(reward=8.0, speedup=0.007),
        dict(reward=1.7, speedup=0.0007),
        dict(reward=0.0, correct=False, status="hack", speedup=None, coverage=None),
        dict(reward=8.0, speedup=0.007),
    ]
    turn2 = [0.0, 1.7, 0.0, 0.0]  # the slow answer's turn 2 repeats it; the others garble
    trajs = [
        [
            random_turn(rng, 5, 6, **v1),
            random_turn(
                rng, 9, 6, reward=r2, correct=r2 > 0, status="ok" if r2 else "compile_error"
            ),
        ]
        for v1, r2 in zip(turn1, turn2)
    ]
    first = {}
    for est in ("trloo", "rloo", "grpo"):
        samples = build_samples(
            [group_of(trajs)], AlgorithmConfig(estimator=est), torch.Generator(), Stats()
        )
        adv = {(s.traj, s.turn): s.advantages for s in samples}
        first[est] = [float(adv[(i, 0)][0]) for i in range(4)]
        for i in range(4):  # one advantage for every token of the turn
            assert bool((adv[(i, 0)] == adv[(i, 0)][0]).all())
        fast, slow, hack = first[est][0], first[est][1], first[est][2]
        assert fast > 0 > slow > hack, (est, first[est])
    assert first["trloo"] == first["rloo"]
    assert torch.allclose(torch.tensor(first["grpo"]), 0.75 * torch.tensor(first["trloo"]))
