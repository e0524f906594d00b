"""The krl command: --help is instant and lists only subcommands that work."""

import subprocess
import sys
import time

from launcher.cli import COMMANDS


def _krl(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "launcher.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_help_lists_every_command_and_is_fast():
    t = time.monotonic()
    r = _krl("--help")
    assert r.returncode == 0
    assert time.monotonic() - t < 5
    for name in COMMANDS:
        assert name in r.stdout


def test_each_listed_command_has_working_help():
    for name in COMMANDS:
        r = _krl(name, "--help")
        assert r.returncode == 0, (name, r.stderr)
        assert f"krl {name}" in r.stdout


def test_unknown_command_is_a_usage_error():
    r = _krl("frobnicate")
    assert r.returncode == 2 and "unknown command 'frobnicate'" in r.stderr


def test_config_show_and_readable_errors(tmp_path):
    r = _krl("config", "show", "learner.lr=0.5")
    assert r.returncode == 0 and "lr: 0.5" in r.stdout
    r = _krl("config", "show", "learner.lr=oops")
    assert r.returncode == 2 and "learner.lr" in r.stderr and "Traceback" not in r.stderr


def test_keys_generates_a_usable_layout(tmp_path):
    r = _krl("keys", str(tmp_path / "k"), "--client", "actor", "--client", "worker")
    assert r.returncode == 0, r.stderr
    k = tmp_path / "k"
    assert (k / "server.key").exists() and (k / "server.key_secret").exists()
    assert (k / "authorized" / "actor.key").exists() and (k / "authorized" / "worker.key").exists()
    assert oct((k / "clients" / "actor.key_secret").stat().st_mode & 0o777) == "0o600"
