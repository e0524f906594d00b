"""TEMPORARY stand-in for evaluator.bwrap (being written); same API the lead's code uses."""
from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

_REPO = str(Path(__file__).resolve().parents[1])


@dataclass(frozen=True)
class Layers:
    bwrap: bool = True

    def missing(self) -> list[str]:
        return [] if self.bwrap else ["bwrap"]

    def as_details(self) -> dict:
        return {"bwrap": self.bwrap}


def probe(cfg) -> Layers:
    return Layers(bwrap=shutil.which("bwrap") is not None)


class Cgroup:
    @staticmethod
    def create(layers, cfg):
        return None


def launcher_environment() -> dict:
    return {"PATH": "/usr/bin:/bin"}


def command(cfg, layers, device, program, env, cgroup=None) -> list[str]:
    binds = []
    for p in ["/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc", sys.base_prefix, sys.prefix, _REPO,
              *[p for p in sys.path if p and os.path.isdir(p)]]:
        if os.path.exists(p):
            binds += ["--ro-bind", p, p]
    argv = ["bwrap", "--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000",
            "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--hostname", "sandbox",
            "--clearenv", *binds, "--proc", "/proc", "--dev", "/dev", "--size", str(2 << 30),
            "--tmpfs", "/tmp", "--chdir", "/tmp"]
    for k, v in env.items():
        argv += ["--setenv", k, v]
    return argv + ["--", *program]
