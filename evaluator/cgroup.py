"""The cgroup one bubblewrap sandbox runs in (evaluator.bwrap's cgroup layer), and the job's own
cgroup below it.

A sandbox's cgroup bounds its processes (pids.max) and memory, and is frozen whole while another
sandbox's candidate is timed (evaluator.pool.quiet). The job's processes (the child the zygote
forks for one candidate, and all it forks) live in a cgroup of their own below it (`Cgroup.job`,
`Cgroup.admit`), whose memory limit is the job's: when a job runs out, the OOM killer chooses
among the job's processes only, never the zygote, whatever OOM scores the job wrote. A job's
process can raise the zygote's /proc/1/oom_score_adj (its /proc files are the sandbox uid's) and
lower its own; while both shared one cgroup a job that filled /tmp and /dev/shm while its
processes stayed small got the zygote killed and its sandbox lost (red team s61b, measured:
"out of memory (the sandbox was lost with it)", the sandbox replaced). The sandbox's own limit
is the job's plus what the zygote held when the first job was admitted (`ZYGOTE_MARGIN` more),
so the job's limit is the one a job meets.

Layouts: v1 (no rule against processes in inner cgroups): the sandbox's processes in the
sandbox's pids and memory (and freezer) cgroups, the job in `<memory>/job`. v2 (a cgroup that
enables controllers for its children holds no process): the sandbox's processes in
`<sandbox>/sandbox`, the job in `<sandbox>/job`; freezing and cgroup.kill of `<sandbox>` reach
both.
"""
from __future__ import annotations

import os
import shlex
import signal
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from common.config.evaluator import SandboxConfig
    from evaluator.bwrap import Layers


def _own_cgroup_dirs() -> dict[str, Path]:
    """This process's cgroup directory per hierarchy: "unified" (v2), or the v1
    controller names ("pids", "memory", "freezer")."""
    own: dict[str, str] = {}
    with open("/proc/self/cgroup", encoding="utf-8") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for c in controllers.split(",") if controllers else ["unified"]:
                own[c] = path
    dirs: dict[str, Path] = {}
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        for line in f:
            left, right = line.split(" - ", 1)
            root, point = left.split()[3:5]
            fstype, _, options = right.split()[:3]
            keys = (["unified"] if fstype == "cgroup2"
                    else [o for o in options.split(",") if o in ("pids", "memory", "freezer")]
                    if fstype == "cgroup" else [])
            for key in keys:
                path = own.get(key)
                if path is not None and (path + "/").startswith(root.rstrip("/") + "/"):
                    dirs[key] = Path(point) / path[len(root.rstrip("/")):].lstrip("/")
    return dirs


def _v2_parent(parent: Path | None) -> Path:
    """The v2 directory sandbox cgroups go under, with memory (and pids, where the host offers
    it) enabled for its children. A cgroup holding processes cannot enable them (v2's
    no-internal-process rule), so this process's own cgroup only works when it is the root of
    the tree. pids is optional: a host that delegates memory alone (the lent GPU machine,
    session 61) still gets the job's own cgroup and freezing; the layer lists pids_max as
    missing (`bwrap.Layers`), and `require_isolation` refuses it."""
    if parent is None:
        own = _own_cgroup_dirs().get("unified")
        if own is None:
            raise OSError("no cgroup2 hierarchy holds this process")
        parent = own
    created = not parent.exists()
    parent.mkdir(exist_ok=True)
    try:
        offered = set((parent / "cgroup.controllers").read_text().split())
        if "memory" not in offered:
            raise OSError(f"{parent} offers {sorted(offered)}, not memory (set "
                          "sandbox.cgroup_parent to a delegated directory)")
        wanted = {"memory"} | ({"pids"} & offered)
        if not wanted <= set((parent / "cgroup.subtree_control").read_text().split()):
            try:
                (parent / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in sorted(wanted)))
            except OSError as exc:
                raise OSError(exc.errno, f"{parent}: cannot enable {' and '.join(sorted(wanted))} for "
                              f"children ({exc.strerror}; set sandbox.cgroup_parent to a "
                              "delegated directory that holds no process)") from None
    except OSError:
        if created:
            parent.rmdir()
        raise
    return parent


ZYGOTE_MARGIN = 256 << 20
"""Memory the sandbox's cgroup allows beyond the job's limit and what the zygote held when the
first job was admitted: the zygote's own growth (a job's end lists the files it wipes)."""


class Cgroup:
    """One sandbox's cgroup (pids.max and a memory limit), removed with its processes, and
    frozen whole while another sandbox's candidate is timed (`freeze`; evaluator.pool.quiet).
    The job's processes are in `job` (`admit`), with the job's memory limit: the OOM killer
    takes one of them (memory.oom.group stays 0), never the zygote."""

    def __init__(self, kind: str, dirs: tuple[Path, ...], freezer: Path | None = None,
                 job: Path | None = None, home: tuple[Path, ...] | None = None,
                 memory_bytes: int = 0):
        self.kind, self.dirs = kind, dirs
        self.freezer = freezer
        """v2: the cgroup itself (cgroup.freeze); v1: its directory in the freezer hierarchy,
        where this host mounts one; None: no freezing (pool.quiet stops a job by signals)."""
        self.job = job
        """The job's cgroup in the memory hierarchy (a child of dirs[-1]); None: the job shares
        the sandbox's (a bare cgroup made by a test)."""
        self.home = home if home is not None else dirs
        """Where the sandbox's own processes (bubblewrap, the zygote) are placed at its start."""
        self.memory_bytes = memory_bytes
        self._reserved = False

    @classmethod
    def create(cls, layers: Layers, cfg: SandboxConfig, slot: str = "sandbox",
               memory_bytes: int | None = None) -> Cgroup | None:
        """The cgroup one sandbox runs in (pids.max = cfg.max_pids, the job's memory limit =
        memory_bytes, else cfg.memory_limit_bytes, else 16 GiB; the evaluator passes
        config.evaluator.host_memory_limit); None without that layer (`layers.cgroup`)."""
        if layers.cgroup is None:
            return None
        if memory_bytes is None:
            memory_bytes = cfg.memory_limit_bytes or 16 << 30
        name = f"krl-{os.getpid()}-{slot}-{uuid.uuid4().hex[:8]}"
        return cls.make(layers.cgroup, name, cfg.max_pids, memory_bytes, cfg.cgroup_parent)

    @classmethod
    def make(cls, kind: str, name: str, max_pids: int, memory_bytes: int,
             parent: Path | None = None) -> Cgroup:
        """Make the directories (v2: under `parent`, else this process's own cgroup; v1:
        under this process's own cgroup in the pids and memory hierarchies), the job's below;
        OSError if the host refuses."""
        if kind == "v2":
            top = _v2_parent(parent) / name
            group = cls(kind, (top,), top, top / "job", (top / "sandbox",), memory_bytes)
            limits = {"pids.max": max_pids, "memory.max": memory_bytes, "memory.swap.max": 0}
        elif kind == "v1":
            bases = _own_cgroup_dirs()
            if "pids" not in bases or "memory" not in bases:
                raise OSError("no v1 pids and memory hierarchies hold this process")
            dirs = (bases["pids"] / name, bases["memory"] / name)
            freezer = bases["freezer"] / name if "freezer" in bases else None
            group = cls(kind, dirs, freezer, dirs[-1] / "job", None, memory_bytes)
            # memory and swap together as v2's swap.max 0 (where the kernel accounts swap):
            # tmpfs pages swapped out would be outside the limit
            limits = {"pids.max": max_pids, "memory.limit_in_bytes": memory_bytes,
                      "memory.memsw.limit_in_bytes": memory_bytes}
        else:
            raise ValueError(f"cgroup kind {kind!r}")
        try:
            group._make_dirs(limits)
        except OSError:
            group.remove()
            raise
        return group

    @property
    def pids_max(self) -> bool:
        """Whether the sandbox's process count is bounded (v1 always; v2 where pids is offered)."""
        return any((d / "pids.max").exists() for d in self.dirs)

    def _make_dirs(self, limits: dict[str, int]) -> None:
        for d in self.dirs:
            d.mkdir()
        if self.kind == "v1" and self.freezer is not None:
            try:  # optional: without it a busy job is stopped by signals
                self.freezer.mkdir()
            except OSError:
                self.freezer = None
        if self.kind == "v2" and not (self.dirs[0] / "cgroup.freeze").exists():
            self.freezer = None
        for key, value in limits.items():
            for d in self.dirs:
                if (d / key).exists():
                    (d / key).write_text(str(value))
        if self.kind == "v2":  # no process in the sandbox's own cgroup: its children get memory
            self.home[0].mkdir()
            (self.dirs[0] / "cgroup.subtree_control").write_text("+memory")
        self.job.mkdir()
        self._limit(self.job, self.memory_bytes)
        if self.kind == "v2" and (self.job / "memory.swap.max").exists():
            (self.job / "memory.swap.max").write_text("0")

    def _limit(self, folder: Path, memory_bytes: int) -> None:
        """Set `folder`'s memory limit (v1: with swap; the larger one first, as v1 asks)."""
        if self.kind == "v2":
            (folder / "memory.max").write_text(str(memory_bytes))
            return
        names = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
        current = int((folder / names[0]).read_text())
        for name in names if memory_bytes < current else reversed(names):
            if (folder / name).exists():
                (folder / name).write_text(str(memory_bytes))

    def admit(self, pid: int) -> None:
        """Move `pid`, a job's first process (forked by the zygote, before any candidate code
        runs in it), into the job's cgroup; what it forks stays there. At the first, the
        sandbox's limit becomes the job's plus what its own processes hold now and
        `ZYGOTE_MARGIN`, so the job meets its own limit first. OSError if the host refuses."""
        if self.job is None:
            return
        if not self._reserved:
            own = self._usage(self.dirs[-1]) - self._usage(self.job)
            self._limit(self.dirs[-1], self.memory_bytes + max(own, 0) + ZYGOTE_MARGIN)
            self._reserved = True
        (self.job / "cgroup.procs").write_text(str(pid))

    def _usage(self, folder: Path) -> int:
        return int((folder / ("memory.current" if self.kind == "v2" else "memory.usage_in_bytes")).read_text())

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """`argv` started by a shell that first moves itself into this cgroup."""
        join = " && ".join(f"echo $$ > {shlex.quote(str(d / 'cgroup.procs'))}"
                           for d in self._all_dirs())
        return ["/bin/sh", "-c", join + ' && exec "$@"', "krl-cgroup", *argv]

    def _all_dirs(self) -> tuple[Path, ...]:
        """Where the sandbox's own processes join (`wrap`): its cgroups, or the v2 leaf."""
        extra = self.kind == "v1" and self.freezer is not None and self.freezer not in self.home
        return (*self.home, self.freezer) if extra else self.home

    def _tree(self) -> tuple[Path, ...]:
        """Every directory made, children first (as they are removed)."""
        inner = [d for d in (self.job, *self.home) if d is not None and d not in self.dirs]
        extra = [self.freezer] if self.freezer is not None and self.freezer not in self.dirs else []
        return (*inner, *self.dirs, *extra)

    def freeze(self, timeout_s: float = 1.0) -> bool:
        """Freeze every process of the cgroup (the kernel's freezer: nothing of it runs, and
        no signal of its own can wake it); True once all are frozen, False if some were still
        freezing at `timeout_s` (one in an uninterruptible wait: it freezes once that ends,
        until `thaw`). OSError if the host refuses."""
        assert self.freezer is not None
        v2 = self.kind == "v2"
        (self.freezer / ("cgroup.freeze" if v2 else "freezer.state")).write_text("1" if v2 else "FROZEN")
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if (("frozen 1" in (self.freezer / "cgroup.events").read_text().splitlines()) if v2
                    else (self.freezer / "freezer.state").read_text().strip() == "FROZEN"):
                return True
            time.sleep(0.0005)
        return False

    def thaw(self) -> None:
        if self.freezer is not None and self.freezer.exists():
            v2 = self.kind == "v2"
            (self.freezer / ("cgroup.freeze" if v2 else "freezer.state")).write_text("0" if v2 else "THAWED")

    def pids(self) -> list[int]:
        out: set[int] = set()
        for d in self._tree():
            try:
                out.update(int(p) for p in (d / "cgroup.procs").read_text().split())
            except OSError:
                pass
        return sorted(out)

    def oom_kills(self) -> int:
        """Processes the kernel killed for this cgroup's memory limit or its job's (a count
        that only grows: callers compare it with an earlier one)."""
        name = "memory.events" if self.kind == "v2" else "memory.oom_control"
        return sum(_oom_kill(d / name) for d in dict.fromkeys((self.dirs[-1], self.job)) if d is not None)

    def remove(self, timeout_s: float = 5.0) -> None:
        """SIGKILL whatever is still inside, then delete the directories."""
        deadline = time.monotonic() + timeout_s
        while True:
            if self.kind == "v2" and (self.dirs[0] / "cgroup.kill").exists():
                (self.dirs[0] / "cgroup.kill").write_text("1")  # also catches forks in flight
            pids = self.pids()
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:  # a v1-frozen process dies of SIGKILL only once thawed (v2's die frozen)
                self.thaw()
            except OSError:
                pass
            try:
                for d in self._tree():
                    if d.exists():
                        d.rmdir()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)


def _oom_kill(path: Path) -> int:
    try:
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
    except OSError:
        pass
    return 0
