"""Exit codes `krl run` acts on, and the errors and helpers that produce them.

- START_ERROR (78, sysexits' EX_CONFIG): the role cannot start for a reason a restart
  cannot fix (a missing or empty data set, a missing model directory or one without a
  model, an unreadable problem set, missing CurveZMQ keys, an evaluator host or config that
  cannot sandbox: bwrap unusable, a required layer or a named cgroup_parent unavailable);
  the role raises `StartError`
  (in a thread too: `die_with_thread`), `krl ROLE` prints `krl ROLE: cannot start:
  <reason>` on stderr and exits 78. A config error exits 2 (common/config). The supervisor restarts
  neither: it stops the run and prints the reason.
- NON_FINITE (65): a learner step left NaN or Inf in the weights or optimizer state;
  the learner stops before publishing or checkpointing it. Restarting would retrain the
  same groups from the same checkpoint, so this is not restarted either.
- THREAD_DIED (70, EX_SOFTWARE): a server thread of the process died; `die_with_thread`
  logs it and ends the process at once, so the supervisor restarts it instead of the
  process living on without the thread (a learner without its hub serves nobody).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

START_ERROR = 78
THREAD_DIED = 70
NON_FINITE = 65  # sysexits' EX_DATAERR: a learner step made the model state NaN/Inf
CONFIG_ERROR = 2
NOT_RESTARTABLE = (CONFIG_ERROR, NON_FINITE, START_ERROR)
START_ERROR_PREFIX = "cannot start: "

log = logging.getLogger(__name__)


class StartError(Exception):
    """A role cannot start, and starting it again will not help."""


def check_model_dir(model: str, what: str) -> None:
    """StartError unless `model` is a model directory here (one holding config.json) or a
    Hugging Face repo id this machine can load: otherwise the loader fails with a "Repo
    id", connection or "Unrecognized model" error at every restart."""
    if not model.strip():
        raise StartError(f"{what} is empty: give the path of a Hugging Face model directory")
    path = Path(model).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise StartError(f"{what} {model!r}: not a model directory (no config.json in it)")
        return
    if path.exists():
        raise StartError(f"{what} {model!r}: model directory is not a directory")
    path_like = model.startswith((os.sep, ".", "~")) or model.count("/") > 1
    why = "" if path_like else _hub_repo_problem(model)
    if path_like or why:
        raise StartError(
            f"{what} {model!r}: model directory does not exist"
            + (f" (nor can it be loaded as a Hugging Face repo id: {why})" if why else "")
        )


def _hub_repo_problem(repo: str) -> str:
    """Why repo id `repo` cannot be loaded here ("" if its config.json is in the local
    Hugging Face cache or can be downloaded)."""
    try:
        from huggingface_hub import hf_hub_download

        hf_hub_download(repo, "config.json")
    except Exception as exc:  # noqa: BLE001 (not found, offline, invalid id: all say no)
        if type(exc).__name__ == "LocalEntryNotFoundError":
            return "not in the local cache, and the Hub cannot be reached"
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    return ""


def die_with_thread(name: str, exc: BaseException) -> None:
    """A thread the process cannot live without died: say so and end the process now (as
    a start error, which is not restarted, when what killed it is one: missing keys)."""
    if isinstance(exc, StartError):
        code, then = START_ERROR, "not restarted: a restart cannot fix it"
        print(f"krl: {START_ERROR_PREFIX}{name}: {exc}", file=sys.stderr, flush=True)
    else:
        code, then = THREAD_DIED, "so that it is restarted"
    log.critical(
        "%s thread died (%s: %s); the process exits %d, %s",
        name,
        type(exc).__name__,
        exc,
        code,
        then,
        exc_info=exc,
    )
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
