"""The one stop flag of the long-running processes (`krl run`, `krl broker`, `krl evaluator`,
`krl learner`, the tests' server scripts); the actor's asyncio loop sets its own stop event
from loop.add_signal_handler instead.

Signal handlers only set a flag; each loop checks it between steps and shuts down
with its own deadline.
"""

from __future__ import annotations

import signal


class StopFlag:
    """Set by SIGTERM or SIGINT; call it to read it (`loop.run(stop)`)."""

    def __init__(self) -> None:
        self.set = False
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._handler)

    def _handler(self, signum, _frame) -> None:
        self.set = True

    def __call__(self) -> bool:
        return self.set
