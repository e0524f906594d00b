"""Exit codes `krl run` acts on, and the errors and helpers that produce them.

- START_ERROR (78, sysexits' EX_CONFIG): the role cannot start for a reason a restart
  cannot fix (a missing data set or model directory, an unreadable problem set); the
  role raises `StartError`, `krl ROLE` prints `krl ROLE: cannot start: <reason>` on
  stderr and exits 78. A config error exits 2 (common/config). The supervisor restarts
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
    """StartError when `model` names a local directory that does not exist. A value that
    is not path-like ("org/name") is a Hugging Face repo id and is left to the loader."""
    path = Path(model).expanduser()
    path_like = model.startswith((os.sep, ".", "~")) or model.count("/") > 1
    if path_like and not path.is_dir():
        state = "is not a directory" if path.exists() else "does not exist"
        raise StartError(f"{what} {model!r}: model directory {state}")


def die_with_thread(name: str, exc: BaseException) -> None:
    """A thread the process cannot live without died: say so and end the process now."""
    log.critical("%s thread died (%s: %s); the process exits %d so that it is restarted",
                 name, type(exc).__name__, exc, THREAD_DIED, exc_info=exc)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(THREAD_DIED)
