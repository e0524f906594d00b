"""The actor process: wire the engine, the evaluator client and the hub link, then run.

    logs, metrics (/metrics, /health)
    engine      vLLM started on actor.model, weights labelled actor.initial_version
    judge       common.eval_client to the broker (broker.frontend)
    hub         HubLink (hub_link.endpoint) + WeightSync (hub_link.publish_endpoint)
    run         actor.loop.Actor until SIGTERM/SIGINT, or until something fatal

A signal handler only sets the stop flag (asyncio's loop.add_signal_handler).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket

from common.config import RunConfig, dump
from common.exits import check_model_dir
from common.log import setup
from common.metrics import Metrics

log = logging.getLogger("krl.actor")


def build_runner(cfg: RunConfig, engine, metrics: Metrics, client_id: str):
    """Episodes on a started engine, judged through the broker (actor and benchmark)."""
    from actor.episode import EpisodeMetrics, EpisodeRunner
    from actor.judge import Judge
    from actor.prompts import Prompter
    from common.eval_client import EvalClient

    ac = cfg.actor
    client = EvalClient(cfg.broker, cfg.transport, metrics, client_id=client_id)
    judge = Judge(
        client,
        ac.eval,
        client.ccfg.request_deadline_s,  # the client's default
        ac.prompts.no_code_feedback,
        ac.simulate.evaluate_every_answer,
    )
    prompter = Prompter(ac.prompts, engine, engine.cfg.max_model_len)
    return EpisodeRunner(engine, judge, prompter, ac.sampling, EpisodeMetrics(metrics), ac.simulate)


def build(cfg: RunConfig, engine, metrics: Metrics, actor_id: str):
    """The actor around a started engine (also what tests and benchmarks use)."""
    from actor.hub_link import HubLink
    from actor.loop import Actor
    from actor.weight_sync import WeightSync

    ac = cfg.actor
    runner = build_runner(cfg, engine, metrics, actor_id)
    hub = cfg.hub_link
    link = HubLink(hub.endpoint, cfg.transport, metrics, actor_id)
    relay = None
    if hub.relay_fanout > 0:
        from actor.relay import RelayServer

        relay = RelayServer(
            ac.relay_endpoint,
            ac.relay_host,
            cfg.transport,
            metrics,
            busy_after_s=hub.relay_timeout_s / 3,
        )
    sync = WeightSync(
        hub.endpoint,
        hub.publish_endpoint,
        cfg.transport,
        metrics,
        current_version=engine.version,
        relay=relay,
        relay_timeout_s=hub.relay_timeout_s,
        actor_id=actor_id,
    )
    return Actor(
        ac,
        actor_id,
        engine,
        runner,
        link,
        sync,
        metrics,
        heartbeat_s=cfg.transport.heartbeat_interval_s,
    )


def close(actor) -> None:
    """Close the actor's sockets and its evaluator client (not the engine)."""
    actor.link.close()
    actor.sync.close()
    actor.runner.judge.client.close()


def run(cfg: RunConfig) -> int:
    from actor.engine import Engine, EngineDead

    setup("actor", 0, cfg.log)
    log.info("resolved config:\n%s", dump(cfg))
    if cfg.actor.reuse_receive_memory:  # before any socket or thread allocates
        from actor.receive_memory import keep_receive_memory

        keep_receive_memory()
    check_model_dir(cfg.actor.model, "actor.model")  # not a misleading "Repo id" error
    actor_id = cfg.actor.actor_id or f"{socket.gethostname()}-{os.getpid()}"
    holder: dict = {}
    metrics = Metrics(
        "actor",
        cfg.actor.metrics,
        health=lambda: (
            holder["actor"].health() if "actor" in holder else (False, {"starting": True})
        ),
    )
    metrics.start()
    engine = Engine(cfg.actor.engine, cfg.actor.model)

    async def main() -> None:
        await engine.start(cfg.actor.initial_version)
        actor = holder["actor"] = build(cfg, engine, metrics, actor_id)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, actor.request_stop)
        try:
            await actor.run()
        finally:
            close(actor)

    try:
        asyncio.run(main())
    except EngineDead as exc:
        log.error("the vLLM engine died: %s; exiting (the supervisor restarts the actor)", exc)
        return 1
    except Exception:
        log.exception("actor failed; exiting")
        return 1
    finally:
        engine.shutdown()
        metrics.stop()
    return 0
