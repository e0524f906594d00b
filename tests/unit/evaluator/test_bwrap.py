"""The bubblewrap sandbox, tested with real processes: each test runs the venv's Python
inside `bwrap.command(...)` and checks from inside (and, where it matters, from the
host) that a door is shut. Each check is something a candidate would try."""
from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from common.config.evaluator import EvaluatorConfig, SandboxConfig, sandbox_environment
from evaluator import bwrap

pytestmark = pytest.mark.skipif(bwrap.shutil.which("bwrap") is None,
                                reason="bubblewrap (bwrap) is not installed")

PRELUDE = """\
import ctypes, errno, json, os, socket, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

def err(rc):
    return 0 if rc != -1 else ctypes.get_errno()

def oserr(fn, *args):
    try:
        fn(*args)
        return 0
    except OSError as exc:
        return exc.errno

"""


def start(code: str, cfg: SandboxConfig | None = None, *, seccomp: bool = True,
          cgroup: bool = True, env: dict | None = None, device: str = "cpu"):
    """argv, pass_fds and cleanup for running `code` (after PRELUDE) in a sandbox."""
    cfg = cfg or SandboxConfig()
    layers = bwrap.probe(cfg)
    if not seccomp:
        layers = replace(layers, seccomp=False)
    fd = bwrap.seccomp_fd(layers)
    group = bwrap.Cgroup.create(layers, cfg, "test") if cgroup else None
    env = {"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", **(env or {})}
    python = [sys.executable, "-c", PRELUDE + textwrap.dedent(code)]
    argv = bwrap.command(cfg, layers, device, python, env=env, seccomp_fd=fd, cgroup=group)

    def cleanup():
        if fd is not None:
            os.close(fd)
        if group is not None:
            group.remove()
    return argv, () if fd is None else (fd,), cleanup, group


def sandboxed(code: str, cfg: SandboxConfig | None = None, **kw) -> dict:
    """Run `code` in a sandbox; it prints one JSON object last, which is returned."""
    argv, fds, cleanup, _ = start(code, cfg, **kw)
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, pass_fds=fds,
                              env=bwrap.launcher_environment())
    finally:
        cleanup()
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_probe_reports_every_layer_on_this_host():
    layers = bwrap.probe(SandboxConfig())
    details = layers.as_details()
    assert layers.missing() == [], layers.problems
    assert details["bwrap"] is True and details["seccomp"] is True
    assert details["cgroup"] in ("v1", "v2") and details["problems"] == []
    bwrap.check(SandboxConfig(require_isolation=True), layers)  # does not raise


def test_missing_layer_is_reported_and_refused_when_required():
    layers = replace(bwrap.probe(SandboxConfig()), net=False, problems=("net: refused",))
    assert layers.missing() == ["net"] and layers.as_details()["net"] is False
    bwrap.check(SandboxConfig(), layers)
    with pytest.raises(bwrap.IsolationUnavailable, match="net"):
        bwrap.check(SandboxConfig(require_isolation=True), layers)
    with pytest.raises(bwrap.IsolationUnavailable):
        bwrap.command(SandboxConfig(), bwrap.Layers(), "cpu", ["true"], env={})


def test_a_cgroup_parent_named_in_the_config_that_cannot_be_used_stops_the_evaluator(tmp_path):
    """Without a cgroup_parent, a host without usable cgroups runs on the watchdog (said once);
    one named in the config that cannot hold the sandboxes is a configuration error the worker
    cannot serve past (a start error: `krl run` does not restart it)."""
    from evaluator.pipeline import Evaluator
    from evaluator.pool import EvaluatorUnavailable

    taken = tmp_path / "not-a-cgroup"
    taken.write_text("a file where the cgroup directory should be")
    cfg = SandboxConfig(cgroup_parent=taken)
    layers = bwrap.probe(cfg)
    assert layers.cgroup is None
    with pytest.raises(bwrap.IsolationUnavailable, match="sandbox.cgroup_parent .*not-a-cgroup"):
        bwrap.check(cfg, layers)
    with pytest.raises(EvaluatorUnavailable, match="cgroup_parent"):
        Evaluator(EvaluatorConfig.model_validate({"device": "cpu", "sandbox": {"cgroup_parent": str(taken)}}))


def test_identity_capabilities_hostname_and_environment(monkeypatch):
    monkeypatch.setenv("KRL_FAKE_SECRET", "hunter2-do-not-leak")
    out = sandboxed("""
        status = dict(l.split(":\\t", 1) for l in open("/proc/self/status").read().splitlines()
                      if ":\\t" in l)
        print(json.dumps({"uid": os.getuid(), "gid": os.getgid(), "host": socket.gethostname(),
                          "caps": {k: status[k].strip() for k in status if k.startswith("Cap")},
                          "nnp": status["NoNewPrivs"].strip(), "env": dict(os.environ),
                          "cwd": os.getcwd(), "pid": os.getpid()}))
    """, env={"KRL_PASSED": "1"})
    assert (out["uid"], out["gid"], out["host"]) == (1000, 1000, "sandbox")
    assert set(out["caps"].values()) == {"0000000000000000"} and out["nnp"] == "1"
    assert out["env"] == {"HOME": "/tmp", "TMPDIR": "/tmp", "PWD": "/tmp", "LANG": "C.UTF-8",
                          "PATH": "/usr/bin:/bin", "KRL_PASSED": "1"}
    assert out["cwd"] == "/tmp" and out["pid"] < 10  # its own PID namespace


def test_dev_holds_no_host_devices_and_kmsg_is_unwritable():
    out = sandboxed("""
        print(json.dumps({"dev": sorted(os.listdir("/dev")),
                          "kmsg": oserr(lambda: open("/dev/kmsg", "w").write("x")),
                          "mknod": oserr(os.mknod, "/dev/shm/mem", 0o600 | 0o020000,
                                         os.makedev(1, 1))}))
    """)
    assert not {"kmsg", "mem", "kmem", "port", "kvm", "vda", "loop0"} & set(out["dev"])
    assert {"null", "zero", "urandom", "shm"} <= set(out["dev"])
    assert out["kmsg"] in (errno.ENOENT, errno.EROFS, errno.EACCES)
    assert out["mknod"] == errno.EPERM


def test_sysv_ipc_keys_and_namespaces_are_refused():
    before = Path("/proc/sysvipc/msg").read_text()
    out = sandboxed("""
        CLONE_NEWUSER, CLONE_NEWNET, SIGCHLD = 0x10000000, 0x40000000, 17
        def clone(flags):
            rc = libc.syscall(56 if os.uname().machine == "x86_64" else 220, flags, 0, 0, 0, 0)
            if rc == 0:
                os._exit(0)
            return err(rc)
        print(json.dumps({
            "msgget": err(libc.msgget(0x4b524c, 0o1600)),
            "shmget": err(libc.shmget(0, 4096, 0o1600)),
            "add_key": err(libc.syscall(248 if os.uname().machine == "x86_64" else 217,
                                        b"user", b"krl", b"x", 1, -3)),
            "keyctl": err(libc.syscall(250 if os.uname().machine == "x86_64" else 219, 0, -3)),
            "unshare": err(libc.unshare(CLONE_NEWUSER)),
            "clone_newuser": clone(CLONE_NEWUSER | SIGCHLD),
            "clone_newnet": clone(CLONE_NEWNET | SIGCHLD),
            "clone3": err(libc.syscall(435 if os.uname().machine == "x86_64" else 435, 0, 0)),
            "fork": oserr(lambda: os.waitpid(os.fork() or os._exit(0), 0)),
        }))
    """)
    assert out["msgget"] == out["shmget"] == errno.EPERM
    assert out["add_key"] == out["keyctl"] == errno.EPERM
    assert out["unshare"] == out["clone_newuser"] == out["clone_newnet"] == errno.EPERM
    assert out["clone3"] == errno.ENOSYS and out["fork"] == 0
    assert Path("/proc/sysvipc/msg").read_text() == before


def test_ipc_namespace_alone_keeps_a_queue_off_the_host():
    """Without seccomp the queue is created, but in the sandbox's own IPC namespace."""
    before = Path("/proc/sysvipc/msg").read_text()
    out = sandboxed("""
        qid = libc.msgget(0x4b524c, 0o1600)
        print(json.dumps({"qid": qid, "seen": open("/proc/sysvipc/msg").read().count("\\n")}))
    """, seccomp=False)
    assert out["qid"] >= 0 and out["seen"] == 2  # header + its own queue
    assert Path("/proc/sysvipc/msg").read_text() == before


def test_only_unix_sockets_and_no_host_socket_paths(tmp_path):
    host_dir = Path("/tmp") / f"krl-test-{uuid.uuid4().hex[:8]}"
    host_dir.mkdir()
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(host_dir / "s.sock"))
    server.listen(1)
    try:
        out = sandboxed(f"""
            def sock(family, kind=socket.SOCK_STREAM):
                return oserr(lambda: socket.socket(family, kind).close())
            a, b = socket.socketpair(socket.AF_UNIX)
            a.sendall(b"ok")
            c = socket.socket(socket.AF_UNIX)
            print(json.dumps({{
                "inet": sock(socket.AF_INET), "inet6": sock(socket.AF_INET6),
                "netlink": sock(socket.AF_NETLINK, socket.SOCK_RAW),
                "packet": sock(socket.AF_PACKET, socket.SOCK_RAW),
                "vsock": sock(socket.AF_VSOCK), "alg": sock(socket.AF_ALG, socket.SOCK_SEQPACKET),
                "pair_inet": oserr(socket.socketpair, socket.AF_INET),
                "unix_pair": b.recv(2).decode(),
                "connect": oserr(c.connect, {str(host_dir / "s.sock")!r}),
                "host_dir": os.path.exists({str(host_dir)!r}),
                "run": os.path.exists("/run"), "var": os.path.exists("/var"),
            }}))
        """)
    finally:
        server.close()
        (host_dir / "s.sock").unlink()
        host_dir.rmdir()
    for family in ("inet", "inet6", "netlink", "packet", "vsock", "alg", "pair_inet"):
        assert out[family] == errno.EAFNOSUPPORT, family
    assert out["unix_pair"] == "ok"
    assert out["connect"] == errno.ENOENT and not out["host_dir"]
    assert not out["run"] and not out["var"]


def test_network_namespace_alone_reaches_no_host_port():
    """Without seccomp an AF_INET socket opens, but 127.0.0.1 is the sandbox's own."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    try:
        out = sandboxed(f"""
            s = socket.socket()
            s.settimeout(5)
            print(json.dumps({{"connect": oserr(s.connect, ("127.0.0.1", {port})),
                               "ifaces": sorted(n for _, n in socket.if_nameindex())}}))
        """, seccomp=False)
    finally:
        server.close()
    assert out["connect"] == errno.ECONNREFUSED and out["ifaces"] == ["lo"]


def test_no_tracing_or_reading_another_process():
    out = sandboxed("""
        class IOVec(ctypes.Structure):
            _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
        target = os.fork()
        if target == 0:
            time.sleep(30)
            os._exit(0)
        r, w = os.pipe()
        prober = os.fork()
        if prober == 0:  # a sibling of the target
            buf = ctypes.create_string_buffer(8)
            local, remote = IOVec(ctypes.addressof(buf), 8), IOVec(0x400000, 8)
            libc.process_vm_readv.restype = ctypes.c_ssize_t
            res = {"ptrace": err(libc.ptrace(16, target, 0, 0)),
                   "vm_readv": err(libc.process_vm_readv(target, ctypes.byref(local), 1,
                                                         ctypes.byref(remote), 1, 0)),
                   "mem": oserr(lambda: open(f"/proc/{target}/mem", "rb").read(1))}
            os.write(w, json.dumps(res).encode())
            os._exit(0)
        os.waitpid(prober, 0)
        res = json.loads(os.read(r, 4096))
        os.kill(target, 9)
        print(json.dumps(res))
    """)
    assert out["ptrace"] == errno.EPERM and out["vm_readv"] == errno.EPERM
    assert out["mem"] != 0  # ptrace-mode access to the sibling's memory fails too


def test_the_program_is_the_pid_namespaces_init_with_nothing_beside_it():
    """bwrap --as-pid-1 (red team s59e): bwrap's own reaper lived as PID 1 beside the program,
    dumpable and outliving it, and its memory was writable through /proc/1/mem from inside
    (the check above reads address 0, which fails for any process). The program is init."""
    if not bwrap.probe(SandboxConfig()).pid:
        pytest.skip("this host grants no PID namespace")
    out = sandboxed("""
        others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
        print(json.dumps({"pid": os.getpid(), "others": others}))
    """)
    assert out == {"pid": 1, "others": []}


def test_filesystem_is_read_only_except_tmp_and_masks_host_secrets():
    secret = bwrap.REPO / f".krl-test-secret-{uuid.uuid4().hex[:8]}"
    secret.write_text("private key")
    secret.chmod(0o600)
    try:
        out = sandboxed(f"""
            def write(path):
                return oserr(lambda: open(path, "w").write("x"))
            print(json.dumps({{
                "usr": write("/usr/krl-test"), "repo": write({str(bwrap.REPO / "krl-test")!r}),
                "etc": write("/etc/krl-test"), "root": write("/krl-test"),
                "dev": write("/dev/krl-test"), "sysctl": oserr(os.open,
                    "/proc/sys/kernel/core_pattern", os.O_WRONLY),
                "tmp": write("/tmp/krl-test"), "shm": write("/dev/shm/krl-test"),
                "secret": oserr(lambda: open({str(secret)!r}).read()),
                "shadow": oserr(lambda: open("/etc/shadow").read()),
                "git": os.listdir({str(bwrap.REPO / ".git")!r})
                       if os.path.isdir({str(bwrap.REPO / ".git")!r})  # a file in a git worktree
                       else oserr(lambda: open({str(bwrap.REPO / ".git")!r}).read()),
                "sys": os.path.exists("/sys/kernel"),
            }}))
        """)
    finally:
        secret.unlink()
    for where in ("usr", "repo", "etc", "root", "dev", "sysctl"):
        assert out[where] == errno.EROFS, where
    assert out["tmp"] == out["shm"] == 0
    # what host root may read and others may not stays unreadable (masked by a
    # /dev/null on a nodev mount), though the sandbox's uid is host root's
    assert out["secret"] == errno.EACCES and out["git"] in ([], errno.EACCES) and not out["sys"]
    if os.path.exists("/etc/shadow") and not os.stat("/etc/shadow").st_mode & 0o004:
        assert out["shadow"] == errno.EACCES


def test_tmpfs_size_limit_holds():
    cfg = SandboxConfig(tmpfs_bytes=8 << 20)
    out = sandboxed("""
        def fill(path):
            try:
                with open(path, "wb") as f:
                    for _ in range(32):
                        f.write(b"x" * (1 << 20))
                        f.flush()
                        os.fsync(f.fileno())
            except OSError as exc:
                return exc.errno, os.path.getsize(path)
            return 0, os.path.getsize(path)
        print(json.dumps({"tmp": fill("/tmp/big"), "shm": fill("/dev/shm/big")}))
    """, cfg)
    for where in ("tmp", "shm"):
        code, size = out[where]
        assert code == errno.ENOSPC and size <= 8 << 20, where


def test_pids_limit_stops_a_fork_loop():
    cfg = SandboxConfig(max_pids=24)
    if bwrap.probe(cfg).cgroup is None:
        pytest.skip("no cgroup layer on this host")
    out = sandboxed("""
        children, error = [], 0
        for _ in range(100):
            try:
                pid = os.fork()
            except OSError as exc:
                error = exc.errno
                break
            if pid == 0:
                time.sleep(30)
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        print(json.dumps({"forked": len(children), "error": error}))
    """, cfg)
    assert out["error"] == errno.EAGAIN and 0 < out["forked"] < 24


def test_memory_limit_kills_the_sandbox_hog():
    cfg = SandboxConfig(memory_limit_bytes=96 << 20)
    if bwrap.probe(cfg).cgroup is None:
        pytest.skip("no cgroup layer on this host")
    argv, fds, cleanup, group = start("""
        hog = [bytearray(1 << 20) for _ in range(512)]
        print("survived")
    """, cfg)
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, pass_fds=fds)
        assert "survived" not in proc.stdout and proc.returncode != 0
        assert group.oom_kills() >= 1
    finally:
        cleanup()


def _freezable(kind: str) -> bwrap.Cgroup:
    """A bare cgroup with a freezer for one test: v1 through `Cgroup.make` (this host's layer),
    v2 as a directory of this process's own cgroup2 hierarchy (the freezer needs no
    controller); skipped where the host offers none."""
    if kind == "v1":
        try:
            group = bwrap.Cgroup.make("v1", f"krl-freeze-{uuid.uuid4().hex[:8]}", 16, 256 << 20)
        except OSError as exc:
            pytest.skip(f"no v1 cgroups here ({exc})")
        if group.freezer is None:
            group.remove()
            pytest.skip("no v1 freezer hierarchy here")
        return group
    own = bwrap._own_cgroup_dirs().get("unified")
    folder = own / f"krl-freeze-{uuid.uuid4().hex[:8]}" if own is not None else None
    try:
        folder.mkdir()
    except (OSError, AttributeError) as exc:
        pytest.skip(f"no writable cgroup2 hierarchy here ({exc})")
    return bwrap.Cgroup("v2", (folder,), freezer=folder)


@pytest.mark.parametrize("kind", ["v1", "v2"])
def test_a_frozen_cgroup_runs_nothing_until_thawed_and_is_removed_frozen(kind):
    """`Cgroup.freeze` (pool.quiet's stop of a job during another's timing): a spinning process
    gains no CPU time while frozen and runs again once thawed; removing a frozen cgroup kills
    its processes (a v1-frozen process dies of SIGKILL only once thawed)."""
    group = _freezable(kind)
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        for d in group._all_dirs():
            (d / "cgroup.procs").write_text(str(spinner.pid))

        def ticks() -> int:
            fields = Path(f"/proc/{spinner.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])

        assert group.freeze()
        before = ticks()
        time.sleep(0.3)
        assert ticks() == before
        group.thaw()
        deadline = time.monotonic() + 10
        while ticks() == before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ticks() > before
        assert group.freeze()
    finally:
        group.remove()
    assert spinner.wait(10) == -signal.SIGKILL


def test_no_cgroup_file_is_writable_where_the_sandbox_sees_sys():
    """A GPU sandbox binds the host's /sys read-only (NVML reads it), cgroup mounts included: a
    job could otherwise thaw its own sandbox while another candidate is timed, freeze the timed
    one's, or leave its own memory cgroup (evaluator.cgroup) for the sandbox's, where the zygote
    is (red team s61b: refused, EROFS; a CPU sandbox has no /sys at all)."""
    out = sandboxed("""
        tried, opened = 0, []
        for top, dirs, files in os.walk("/sys/fs/cgroup"):
            for name in files:
                if name in ("cgroup.procs", "cgroup.freeze", "freezer.state", "tasks", "memory.max",
                            "memory.limit_in_bytes", "cgroup.kill"):
                    tried += 1
                    try:
                        os.close(os.open(os.path.join(top, name), os.O_WRONLY))
                        opened.append(os.path.join(top, name))
                    except OSError:
                        pass
        print(json.dumps({"tried": tried, "opened": opened[:5]}))
    """, device="cuda")
    if not out["tried"]:
        pytest.skip("no cgroup files under this host's /sys/fs/cgroup")
    assert out["opened"] == [], out


def test_sandbox_dies_with_the_process_that_started_it():
    marker = f"krl-orphan-{uuid.uuid4().hex}"
    argv, fds, cleanup, _ = start(f"""
        marker = {marker!r}
        print("ready", flush=True)
        time.sleep(60)
    """, cgroup=False, seccomp=False)
    middle = subprocess.Popen([sys.executable, "-c",
                               "import subprocess, sys; subprocess.run(sys.argv[1:])", *argv],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert middle.stdout.readline().strip() == "ready"
        sandboxed_pids = _pids_with(marker)
        assert sandboxed_pids
        os.kill(middle.pid, signal.SIGKILL)
        middle.wait(5)
        deadline = time.monotonic() + 5
        while _alive(sandboxed_pids) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not _alive(sandboxed_pids)
    finally:
        for pid in _pids_with(marker):  # only if the assertion above failed
            os.kill(pid, signal.SIGKILL)
        cleanup()


def _pids_with(marker: str) -> list[int]:
    """Host pids of live processes whose command line holds `marker` (bwrap's and the
    sandboxed Python's), excluding the middle process that only passes it on."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmd and b"subprocess.run(sys.argv[1:])" not in cmd:
                found.append(int(entry))
    return found


def _alive(pids: list[int]) -> bool:
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            return True
    return False


KERNEL = """
import torch, triton, triton.language as tl

@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)
"""


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_cuda_and_triton_compile_and_run_inside():
    """The binds suffice for the driver, NVML's /sys reads and Triton's compiler."""
    cfg = SandboxConfig()
    out = sandboxed(f"""
        open("/tmp/kernel.py", "w").write({KERNEL!r})
        sys.path.insert(0, "/tmp")
        import torch, kernel
        x, y = torch.randn(1000, device="cuda"), torch.randn(1000, device="cuda")
        out = torch.empty_like(x)
        kernel.add[(4,)](x, y, out, 1000, BLOCK=256)
        print(json.dumps({{"ok": bool(torch.allclose(out, x + y)),
                           "name": torch.cuda.get_device_name(),
                           "nvidia": sorted(n for n in os.listdir("/dev") if "nvidia" in n)}}))
    """, cfg, env=sandbox_environment(cfg), device="cuda")
    assert out["ok"] and out["nvidia"], out
