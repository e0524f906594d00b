"""`krl run`: every role as its own process on this machine, kept alive until the
learner reaches its step budget.

The supervisor imports no role but the hub ledger's reader (learner/ledger.py, for
summary.json): it starts `python -m launcher.cli ROLE CONFIG OVERRIDES` for the learner
(`supervisor.learner_ranks` DeepSpeed ranks), the broker, `supervisor.evaluators` workers and
`supervisor.actors` actors, each in its own process group with its own log file, a metrics
port of its own and, where configured, its own CUDA_VISIBLE_DEVICES.

Policy:
- A process that exits while the run is going (any exit code, except the learner's
  0) has what is left of its process group killed and is restarted after a capped
  exponential backoff; a process that stayed up `stable_after_s` starts its backoff
  afresh. More than `max_restarts` restarts of one process fails the run. The ranks of
  the learner live and die together: one exiting kills the others, and all restart.
- The learner exiting 0 means the step budget is reached: the others get SIGTERM,
  then SIGKILL after `stop_timeout_s` (whole process groups, so sandbox children and
  vLLM engine processes go too), and summary.json is written.
- Ctrl-C / SIGTERM to the supervisor stops everything the same way (the learner
  checkpoints on SIGTERM); running `krl run` again on the run directory resumes.
- The supervisor dying any other way (kill -9, OOM) sends every role SIGTERM
  (PR_SET_PDEATHSIG), so they stop as above instead of running on unsupervised.
- One `krl run` per run directory (RUN_DIR/krl-run.lock, common/runlock.py; taken by
  launcher/run_cli.py before the supervisor starts).
- A process whose /health (launcher/run_probe.py) is unhealthy or silent for
  `hang_after_s` is hung: killed and restarted like a crash, the console says why.
- An exit code in common.exits.NOT_RESTARTABLE (a start or config error) is not
  restarted: the run fails with the reason the process printed.
- No traceback, even on a full disk; summary.json (`status`, `reason`) is always written.

Run directory: config.yaml (the resolved config every role reads), logs/<proc>.log,
checkpoints/ and hub/ (the learner's), summary.json, supervisor.json (pids, ports).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import msgspec

from common.config import RunConfig
from common.exits import NOT_RESTARTABLE
from common.jsonfile import (
    StateFileError,
    read_json,
    read_json_checked,
    write_json_atomic,
    write_json_in_place,
)
from common.log import RateLimitedLog
from common.ports import free_port
from common.run_records import (
    Progress,
    StepRecord,
    Summary,
    SummaryStep,
    progress_path,
    read_progress,
    read_summary,
    summary_data,
    summary_path,
)
from common.stop import StopFlag
from launcher.process_groups import (  # noqa: F401
    group_members,
    leader_exited,
    signal_group,
    term_with_parent,
    wait_group_empty,
)
from launcher.run_probe import CounterTotal, disk_full_note, health, last_error_line, scrape
from learner.ledger import LEDGER, evaluations, reconcile

log = logging.getLogger("krl.run")


@dataclass
class Proc:
    """One supervised process and its restart bookkeeping."""

    name: str  # learner, broker, evaluator-0, actor-1, ...
    role: str  # the krl subcommand
    overrides: list[str]
    env: dict[str, str]
    metrics_port: int
    popen: Optional[subprocess.Popen] = None
    started_at: float = 0.0
    restarts: int = 0
    crashes_in_a_row: int = 0
    restart_at: Optional[float] = None
    exit_codes: list[int] = field(default_factory=list)
    watched: bool = True  # serves /health (its section's metrics are enabled)
    last_healthy: float = 0.0  # monotonic time of its last healthy /health answer
    next_health: float = 0.0
    health: str = ""  # what its last /health said, for the hang message
    hangs: int = 0


def throughput(history: list[StepRecord], window: int = 5) -> Optional[tuple[float, float]]:
    """(groups per minute, trained tokens per second) over the last `window` steps of the
    learner's history, from their wall-clock stamps; None before two stamped steps."""
    recent = [h for h in history[-(window + 1) :] if h.t is not None]
    if len(recent) < 2 or recent[-1].t <= recent[0].t:
        return None
    span = recent[-1].t - recent[0].t
    groups = sum(len(h.groups) for h in recent[1:])
    tokens = sum(h.tokens or 0 for h in recent[1:])
    return 60 * groups / span, tokens / span


class Supervisor:
    def __init__(self, cfg: RunConfig, config_path: Path):
        self.cfg, self.sc = cfg, cfg.supervisor
        self.run_dir = Path(cfg.run_dir)
        self.config_path = config_path
        self.logs = self.run_dir / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.procs = self._plan()
        # Sandbox runs, scraped from the workers: at least this many (see write_summary).
        self.runs = {p.name: CounterTotal() for p in self.procs if p.role == "evaluator"}
        self._warn = RateLimitedLog(log, interval_s=60.0)
        self.prior_runs = self.previous_summary().evaluator_runs_at_least  # a resumed run counts on
        self.stopping = False
        self.status = "running"
        self.reason = ""  # why the run failed, in a line
        self.t0 = time.monotonic()
        self.recovery_seen = len(self.recovery())
        for p in self.procs:
            p.watched = bool(getattr(self.cfg, self._section(p)).metrics.enabled)

    @staticmethod
    def _section(p: Proc) -> str:
        return {"evaluator": "evaluator", "broker": "broker", "actor": "actor"}.get(
            p.role, "learner"
        )

    def _plan(self) -> list[Proc]:
        sc = self.sc

        def proc(name, role, section, extra=(), gpus=None, index=0):
            # A configured port is the base for the role's processes (deploy/prometheus
            # scrapes them there); 0 means any free port.
            base = getattr(self.cfg, section).metrics.port
            port = base + index if base else free_port()
            env = {"CUDA_VISIBLE_DEVICES": gpus} if gpus is not None else {}
            return Proc(name, role, [f"{section}.metrics.port={port}", *extra], env, port)

        procs = [*self._learner_ranks(), proc("broker", "broker", "broker")]
        for i in range(sc.evaluators):
            gpus = sc.evaluator_gpus[i % len(sc.evaluator_gpus)] if sc.evaluator_gpus else None
            procs.append(
                proc(
                    f"evaluator-{i}",
                    "evaluator",
                    "evaluator",
                    [f"evaluator.worker.worker_id=evaluator-{i}"],
                    gpus,
                    i,
                )
            )
        for i in range(sc.actors):
            gpus = sc.actor_gpus[i % len(sc.actor_gpus)] if sc.actor_gpus else None
            procs.append(
                proc(f"actor-{i}", "actor", "actor", [f"actor.actor_id=actor-{i}"], gpus, i)
            )
        return procs

    def _learner_ranks(self) -> list[Proc]:
        """One process per learner rank, as DeepSpeed's launcher would start them on one
        node: RANK = LOCAL_RANK = i, every rank seeing all of learner_gpus and taking device
        i. They are told the same metrics port and serve on port + local rank."""
        sc, ranks = self.sc, self.sc.learner_ranks
        port = self.cfg.learner.metrics.port or free_port(ranks)
        env = {"CUDA_VISIBLE_DEVICES": sc.learner_gpus} if sc.learner_gpus is not None else {}
        if ranks == 1:  # a lone learner makes its own world-size-1 group
            return [Proc("learner", "learner", [f"learner.metrics.port={port}"], env, port)]
        master = str(free_port())
        return [
            Proc(
                "learner" if rank == 0 else f"learner-{rank}",
                "learner",
                [f"learner.metrics.port={port}"],
                {
                    **env,
                    "RANK": str(rank),
                    "LOCAL_RANK": str(rank),
                    "WORLD_SIZE": str(ranks),
                    "MASTER_ADDR": "127.0.0.1",
                    "MASTER_PORT": master,
                },
                port + rank,
            )
            for rank in range(ranks)
        ]

    def _restart_learner_together(self, crashed: Proc) -> None:
        """The other ranks of a learner cannot go on without a crashed one (they would wait
        in a collective for it), so they are killed at once and all ranks restart together,
        at a new rendezvous port. Killing is safe: a checkpoint is complete or ignored."""
        ranks = [p for p in self.procs if p.role == "learner"]
        if len(ranks) < 2:
            return
        master = str(free_port())
        for p in ranks:
            p.env["MASTER_PORT"] = master
            if p is crashed:
                continue
            if p.popen is not None and p.popen.returncode is None:
                signal_group(p.popen.pid, signal.SIGKILL)
                p.exit_codes.append(p.popen.wait())
                log.warning("%s killed: learner rank %s exited", p.name, crashed.name)
            p.restart_at = crashed.restart_at

    # ------------------------------------------------------------------ processes
    def start(self, p: Proc) -> None:
        cmd = [sys.executable, "-m", "launcher.cli", p.role, str(self.config_path), *p.overrides]
        out = open(self.logs / f"{p.name}.log", "ab")
        p.popen = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **p.env},
            start_new_session=True,
            preexec_fn=term_with_parent(os.getpid()),
        )
        out.close()
        p.started_at, p.restart_at = time.monotonic(), None
        p.last_healthy, p.next_health, p.health = 0.0, 0.0, "not answering yet"
        log.info("started %s (pid %d, metrics :%d)", p.name, p.popen.pid, p.metrics_port)

    def stop_all(self, first: Optional[list[Proc]] = None) -> None:
        """SIGTERM every running process group (the given processes' first), wait up to
        stop_timeout_s for each group to empty, then SIGKILL what is left of it.

        A group is judged by its members, not its leader: a role that exits on SIGTERM
        may leave a vLLM engine core or sandbox children behind. Leaders are reaped only
        after their group's SIGKILL, so the group id cannot have been reused."""
        self.stopping = True
        for group in ([first] if first else []) + [self.procs]:
            running = [p for p in group if p.popen is not None and p.popen.returncode is None]
            for p in running:
                signal_group(p.popen.pid, signal.SIGTERM)
            deadline = time.monotonic() + self.sc.stop_timeout_s
            for p in running:
                if not wait_group_empty(p.popen.pid, deadline):
                    what = "did not stop" if not leader_exited(p.popen) else "left processes behind"
                    log.warning("%s %s within %.0fs: killed", p.name, what, self.sc.stop_timeout_s)
                signal_group(p.popen.pid, signal.SIGKILL)
                p.exit_codes.append(p.popen.wait())
                if not wait_group_empty(p.popen.pid, time.monotonic() + 10):
                    log.error(
                        "%s: processes of its group %d survived SIGKILL: %s",
                        p.name,
                        p.popen.pid,
                        group_members(p.popen.pid),
                    )

    def _on_exit(self, p: Proc, code: int) -> None:
        p.exit_codes.append(code)
        if p.role == "learner" and code == 0:
            # Every rank saves the last checkpoint together, but rank 0 then still stops the
            # hub (its ledger) and exits later: the run ends when the last rank has.
            busy = [
                q.name
                for q in self.procs
                if q.role == "learner"
                and q is not p
                and q.popen is not None
                and q.popen.returncode is None
            ]
            if busy:
                log.info("%s finished its step budget; waiting for %s", p.name, ", ".join(busy))
                return
            log.info("learner finished its step budget: stopping the run")
            self.status = "completed"
            return
        if self.stopping or self.status != "running":
            return
        logfile = self.logs / f"{p.name}.log"
        if code in NOT_RESTARTABLE:  # a restart cannot fix it (common/exits.py)
            why = last_error_line(logfile, p.name) or f"exit code {code}"
            self.fail(f"{p.name} cannot run and is not restarted (exit {code}): {why}")
            return
        if time.monotonic() - p.started_at >= self.sc.stable_after_s:
            p.crashes_in_a_row = 0
        p.crashes_in_a_row += 1
        if p.restarts >= self.sc.max_restarts:
            why = last_error_line(logfile, p.name)
            self.fail(
                f"{p.name} exited ({code}) after {p.restarts} restarts"
                + (f"; last error: {why}" if why else f" (see {logfile})")
            )
            return
        delay = min(
            self.sc.restart_backoff_max_s,
            self.sc.restart_backoff_min_s * 2 ** (p.crashes_in_a_row - 1),
        )
        p.restart_at = time.monotonic() + delay
        log.warning(
            "%s exited with code %d; restarting in %.1fs (see %s)",
            p.name,
            code,
            delay,
            self.logs / f"{p.name}.log",
        )
        if p.role == "learner":
            self._restart_learner_together(p)

    def fail(self, reason: str) -> None:
        """The run cannot go on: say why on the console, stop it with status failed."""
        self.status, self.reason = "failed", reason + disk_full_note(self.run_dir)
        log.error("the run fails: %s", reason)
        say(f"krl run: FAILED: {reason}")

    def check_health(self, p: Proc, now: float) -> None:
        """Kill a process whose /health has been unhealthy or silent for hang_after_s (after
        its start-up grace); the exit is then handled as a crash (restart)."""
        if not p.watched or self.sc.hang_after_s <= 0 or now < p.next_health:
            return
        p.next_health = now + self.sc.health_interval_s
        ok = health(p.metrics_port, timeout_s=min(5.0, max(1.0, self.sc.hang_after_s / 5)))
        if ok:
            p.last_healthy, p.health = now, "healthy"
            return
        p.health = "unhealthy (503)" if ok is False else "silent (no answer)"
        quiet = now - (p.last_healthy or p.started_at)
        allowed = (
            self.sc.hang_after_s
            if p.last_healthy
            else max(self.sc.hang_after_s, self.sc.startup_grace_s)
        )
        if quiet < allowed:
            return
        p.hangs += 1
        log.error(
            "%s is hung: its /health has been %s for %.0fs; killing it to restart it",
            p.name,
            p.health,
            quiet,
        )
        say(f"krl run: {p.name} hung (/health {p.health} for {quiet:.0f}s): killed, restarting")
        signal_group(p.popen.pid, signal.SIGKILL)
        p.next_health = float("inf")  # judged once: its exit (a tick later) restarts it

    def tick(self) -> None:
        """Notice exits, restart what is due, sample counters, kill hung processes."""
        now = time.monotonic()
        self.report_recovery()
        for p in self.procs:
            if p.popen is not None and p.popen.returncode is None and leader_exited(p.popen):
                # What the dead process left in its group (a vLLM engine core, sandbox
                # children) goes before the leader is reaped and its pid can be reused.
                signal_group(p.popen.pid, signal.SIGKILL)
                self._on_exit(p, p.popen.wait())
            if p.restart_at is not None and now >= p.restart_at and self.status == "running":
                p.restarts += 1
                self.start(p)
            if p.role == "evaluator" and p.popen is not None and not leader_exited(p.popen):
                value = scrape(p.metrics_port, "krl_evaluator_evaluations_total")
                if value is not None:
                    self.runs[p.name].observe(value)
        for p in self.procs:  # after every exit is handled: a peer's death comes first
            if p.popen is not None and p.popen.returncode is None and self.status == "running":
                self.check_health(p, now)

    def recovery(self) -> list[dict]:
        """The learner's checkpoint fallbacks (learner/recovery.json), oldest first."""
        return read_json(self.run_dir / "learner" / "recovery.json").get("events", [])

    def recovery_damage(self) -> list[str]:
        """What is known to be lost of the fallback record: the file damaged now, or damaged
        earlier (the learner moved it aside and says so in the new one)."""
        data, damaged = read_json_checked(self.run_dir / "learner" / "recovery.json")
        return [*data.get("damaged_records", []), *([damaged] if damaged else [])]

    def report_recovery(self) -> None:
        """Print each checkpoint fallback once, as the learner records it."""
        events = self.recovery()
        for ev in events[self.recovery_seen :]:
            skipped = ", ".join(f"{s['checkpoint']} ({s['reason']})" for s in ev["skipped"])
            say(
                f"krl run: CHECKPOINT FALLBACK: damaged {skipped}; resumed from "
                f"{ev['resumed_from'] or 'scratch'} at step {ev['step']}; "
                f"{len(ev['regenerated_prompts'])} prompts generated again"
            )
        self.recovery_seen = len(events)

    # ------------------------------------------------------------------ reporting
    def evaluations(self) -> int:
        """Evaluator verdicts in accepted groups, from the hub's ledger (learner/ledger.py)."""
        return evaluations(self.run_dir / "hub" / "groups" / LEDGER)

    def evaluator_runs(self) -> int:
        return self.prior_runs + int(sum(c.total for c in self.runs.values()))

    def progress(self) -> Progress:
        """The learner's progress; an empty one, said once a minute, while progress.json is
        damaged (the run goes on: the learner rewrites it after its next step)."""
        try:
            return read_progress(progress_path(self.run_dir))
        except StateFileError as exc:
            self._warn.warning("progress", "%s", exc)
            return Progress()

    def previous_summary(self) -> Summary:
        """The summary a resumed run keeps counting from: an empty one where there is none,
        or where it is damaged (said)."""
        try:
            return read_summary(self.run_dir) or Summary()
        except StateFileError as exc:
            log.warning("%s; the run counts from zero", exc)
            return Summary()

    def progress_line(self) -> str:
        pr = self.progress()
        last = pr.last or StepRecord(step=0)
        hub = pr.hub
        elapsed = time.monotonic() - self.t0
        restarts = {p.name: p.restarts for p in self.procs if p.restarts}

        def fmt(x):
            return f"{x:.3f}" if isinstance(x, (int, float)) else "-"

        rate = throughput(pr.history)
        return (
            f"[krl run {elapsed:6.0f}s] step {pr.learner_steps}/"
            f"{self.cfg.learner.max_steps} | reward {fmt(last.reward)} | correct "
            f"{fmt(last.correct)} | "
            + (f"{rate[0]:.1f} groups/min, {rate[1]:.0f} tok/s | " if rate else "")
            + (
                f"staleness {last.staleness_mean:.1f} (max {last.staleness_max}) | "
                if last.staleness_mean is not None
                else ""
            )
            + f"groups {hub.trained_total} trained, "
            f"{hub.buffered} buffered, {hub.leases} leased | evals "
            f"{self.evaluations()}" + (f" | restarts {restarts}" if restarts else "")
        )

    def write_summary(self) -> Summary:
        """summary.json; on a full disk it is rewritten in place (see reserve_summary), and
        without the history if even that does not fit. Never raises."""
        try:
            summary = self.summary()
        except Exception as exc:  # noqa: BLE001 (a damaged file must not cost the summary)
            log.exception("summary incomplete")
            summary = Summary(status=self.status, reason=self.reason or f"summary: {exc}")
        path = summary_path(self.run_dir)
        try:
            write_json_atomic(path, summary_data(summary), indent=2)
            return summary
        except OSError as exc:
            log.error("%s; rewriting it in place", exc)
        for compact in (summary, msgspec.structs.replace(summary, history=[])):
            try:
                write_json_in_place(path, summary_data(compact))
                return summary
            except OSError as exc:
                log.error("summary.json could not be written in place: %s", exc)
        say(
            f"krl run: summary.json could not be written (disk full?): status "
            f"{summary.status}, reason {summary.reason}"
        )
        return summary

    def reserve_summary(self) -> None:
        """Write summary.json at the start, padded to 64 KiB, so that its blocks are
        already held when the final summary must be written on a full disk."""
        path = self.run_dir / "summary.json"
        try:
            if path.exists() and path.stat().st_size >= 65536:
                return
            held = msgspec.structs.replace(self.previous_summary(), status="running")
            blob = json.dumps(summary_data(held), indent=2)
            path.write_text(blob + " " * max(0, 65536 - len(blob)))
        except OSError as exc:
            log.error("could not reserve %s: %s", path, exc)

    def summary(self) -> Summary:
        pr = self.progress()
        recovery, damage = self.recovery(), self.recovery_damage()
        status = self.status
        if status == "completed" and (recovery or damage):  # a fallback never reads as a clean run
            status = "completed_after_checkpoint_fallback"
        return Summary(
            status=status,
            reason=self.reason,
            learner_steps=pr.learner_steps,
            policy_version=pr.policy_version,
            groups_trained=pr.groups_trained,
            evaluations=self.evaluations(),
            evaluator_runs_at_least=self.evaluator_runs(),
            wall_seconds=round(time.monotonic() - self.t0, 1),
            groups=reconcile(self.run_dir, pr.history),
            restarts={p.name: p.restarts for p in self.procs},
            hung={p.name: p.hangs for p in self.procs if p.hangs},
            exit_codes={p.name: p.exit_codes for p in self.procs},
            checkpoint_fallbacks=recovery,
            checkpoint_fallback_records_damaged=damage,
            history=[SummaryStep.of(h) for h in pr.history],
        )

    def write_state(self) -> None:
        """supervisor.json: the live pids and ports (rewritten every tick; readers such as
        scripts finding a role's pid must never see it half-written)."""
        write_json_atomic(
            self.run_dir / "supervisor.json",
            {
                "pid": os.getpid(),
                "processes": {
                    p.name: {
                        "pid": p.popen.pid if p.popen else None,
                        "role": p.role,
                        "metrics_port": p.metrics_port,
                        "restarts": p.restarts,
                        "health": p.health if p.watched else "not watched",
                    }
                    for p in self.procs
                },
            },
            indent=2,
        )


def say(line: str) -> None:
    """A line on the console; a console that is gone is not the run's failure."""
    try:
        print(line, flush=True)
    except OSError:
        pass


def run(cfg: RunConfig, config_path: Path) -> int:
    logging.raiseExceptions = False  # a log write on a full disk must not print tracebacks
    sup = Supervisor(cfg, config_path)
    stop = StopFlag()
    sup.reserve_summary()
    warn = RateLimitedLog(log, interval_s=60.0)
    try:
        for p in sup.procs:
            sup.start(p)
        next_line = time.monotonic()
        while sup.status == "running" and not stop.set:
            sup.tick()
            try:
                sup.write_state()
            except OSError as exc:  # a full disk: the run goes on, supervisor.json is stale
                warn.warning("state", "supervisor.json not updated: %s", exc)
            if time.monotonic() >= next_line:
                say(sup.progress_line())
                next_line = time.monotonic() + sup.sc.progress_interval_s
            time.sleep(0.5)
    except Exception as exc:  # noqa: BLE001 (the supervisor's own failure still stops the run)
        log.exception("krl run failed")
        sup.fail(f"krl run itself failed: {type(exc).__name__}: {exc}")
    if stop.set and sup.status == "running":
        sup.status = "stopped"
        log.info("interrupted: stopping every process (the learner checkpoints first)")
    learner = [p for p in sup.procs if p.role == "learner"]
    sup.stop_all(first=learner if sup.status == "stopped" else None)
    summary = sup.write_summary()
    say(sup.progress_line())
    say(
        f"summary: {summary_path(sup.run_dir)} (status {summary.status}, "
        f"{summary.learner_steps} steps, {summary.groups_trained} groups, "
        f"{summary.evaluations} evaluations)"
        + (f"\nreason: {summary.reason}" if summary.reason else "")
    )
    return {"completed": 0, "stopped": 130, "failed": 1}[sup.status]
