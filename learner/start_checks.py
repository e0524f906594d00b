"""What the learner checks before torch, DeepSpeed and transformers load: its model directory
and its data set. Either one missing or broken is a start error (a restart cannot fix it), and
finding it before the imports makes `krl run` fail in a second or two instead of after the
tens of seconds those imports take on a small machine (each of `krl run`'s start-error cases
spent nearly a minute importing on a shared 2-core box). `Learner` takes the prompts found here,
and checks for itself when a caller builds one without them."""

from __future__ import annotations

from common.config import LearnerConfig
from common.exits import StartError, check_model_dir
from common.problemset import ProblemError, load_problems, to_payload


def prompt_set(dataset: str) -> list:
    """The learner's prompts; StartError when the data set is missing, unreadable or empty
    (a restart cannot fix any of these)."""
    try:
        problems = [to_payload(p) for p in load_problems(dataset)]
    except (ProblemError, OSError, SyntaxError, ValueError) as exc:
        raise StartError(f"learner.dataset {dataset!r}: {exc}") from exc
    if not problems:
        raise StartError(f"learner.dataset {dataset!r} holds no problems")
    return problems


def check_start(lc: LearnerConfig) -> list:
    """StartError unless the model directory and the data set are usable; the prompts."""
    check_model_dir(lc.trainer.model, "learner.trainer.model")
    return prompt_set(lc.dataset)
