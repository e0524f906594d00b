"""A real hub server process for fault tests: `python hub_fault_server.py GROUPS_DIR ENDPOINT
FLAGS_DIR`. It serves like the learner's hub; a file `bug` in FLAGS_DIR makes handling a
group raise (a bug met by one message), a file `held_bug` makes a bucket request wait (as
for a bucket being packed) and then raise when it is answered, a file `die` makes the
server loop itself raise (a fault outside any one message)."""

import sys
import time
from pathlib import Path

from common.config import LogConfig, TransportConfig
from common.config.hub import HubConfig
from common.log import setup
from common.messages import ProblemPayload
from common.metrics import Metrics
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer


def main() -> None:
    groups, endpoint, flags = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    setup("learner", 0, LogConfig())
    cfg = HubConfig(endpoint=endpoint, publish_endpoint="tcp://127.0.0.1:0")
    metrics = Metrics("learner")
    hub = Hub(
        cfg,
        groups_per_step=2,
        max_staleness=4,
        n_samples=2,
        max_turns=1,
        source=PromptSource([ProblemPayload(name="p", source="x")], seed=0),
        store=GroupStore(groups),
        metrics=metrics,
        vocab_size=64,
    )
    receive = hub.receive

    def faulty_receive(group, frames):
        if (flags / "bug").exists():
            raise KeyError("an injected bug")
        return receive(group, frames)

    hub.receive = faulty_receive
    server = HubServer(hub, cfg, TransportConfig(), metrics)
    answer_held = server._answer_held

    def faulty_loop(srv):
        if (flags / "die").exists():
            raise RuntimeError("an injected fault in the server loop")
        answer_held(srv)

    server._answer_held = faulty_loop
    bucket, held = server._bucket, set()

    def faulty_bucket(req):
        if (flags / "held_bug").exists():
            if req.request_id not in held:
                held.add(req.request_id)
                return None  # held, as while its bucket is packed
            raise KeyError("an injected bug in answering a held request")
        return bucket(req)

    server._bucket = faulty_bucket
    server.start()
    print("ready", flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main()
