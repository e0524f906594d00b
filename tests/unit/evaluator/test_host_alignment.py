"""A CPU sandbox's tensors are placed as CUDA's caching allocator (expandable segments, as the GPU
child runs it) places a GPU's (evaluator.host_alignment): 512-byte blocks packed one after the
other in a small (<= 1 MiB) and a large pool, a freed block handed back first, where PyTorch's
CPU allocator aligns to 64 and glibc leaves headers and gaps (red teams s46 and rt24:
`data_ptr() % 512`, the distance between two tensors made one after the other)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from evaluator import host_alignment

MiB = 1 << 20


def _r512(n: int) -> int:
    return max(512, -(-n // 512) * 512)


@pytest.fixture(scope="module")
def library() -> str:
    path = host_alignment.library()
    assert path is not None, "a C compiler builds the allocator library (make sandbox-tools installs one)"
    return path


def _child(code: str, library: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    if library:
        env["LD_PRELOAD"] = library
    # run in a forked child, as the sandbox's children are forked from its zygote: its pools
    # start fresh (what importing torch allocated stays in the parent's)
    body = textwrap.indent(textwrap.dedent(code), "        ")
    program = ("import json, os, sys, torch\nMiB = 1 << 20\np = lambda t: t.data_ptr()\n"
               "pid = os.fork()\nif pid == 0:\n    try:\n" + body +
               "\n        sys.stdout.flush()\n        os._exit(0)\n    except BaseException:\n"
               "        import traceback; traceback.print_exc(); sys.stderr.flush(); os._exit(1)\n"
               "sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    done = subprocess.run([sys.executable, "-c", program], env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_block_is_on_512_bytes_as_cudas(library):
    code = """
    sizes = (1, 3, 17, 100, 1000, 70000, 1 << 18, 1 << 20, 3 << 20)
    kept = [torch.empty(n) for n in sizes]
    print(json.dumps([p(t) for t in kept]))
    """
    assert all(a % 512 == 0 for a in _child(code, library))
    assert any(a % 512 for a in _child(code, None)), "without it PyTorch's CPU allocator aligns to 64"


def test_large_blocks_are_packed_at_512_rounded_offsets(library):
    """rt24_big_block_offset: four 1 MiB + 512 B tensors, one after the other in the large pool,
    the first at its 2 MiB mapping boundary (a fresh pool), the rest at +1 MiB + 512 each."""
    code = """
    a = [torch.empty(262272) for _ in range(4)]
    b = [torch.empty(300000, dtype=torch.float32) for _ in range(3)]  # 1.2 MB
    print(json.dumps({"a": [p(t) for t in a], "b": [p(t) for t in b]}))
    """
    got = _child(code, library)
    a, b = got["a"], got["b"]
    assert [y - x for x, y in zip(a, a[1:])] == [_r512(262272 * 4)] * 3
    assert a[0] % (2 * MiB) == 0 and any(x % (2 * MiB) for x in a)
    assert b[0] - a[-1] == _r512(262272 * 4)
    assert [y - x for x, y in zip(b, b[1:])] == [_r512(1_200_000)] * 2


def test_small_blocks_are_packed_and_a_freed_block_comes_back(library):
    """rt24_small_pack: small tensors 512-rounded apart; freeing one and asking again for its size
    hands back its address (best fit), as CUDA's cache does; freed neighbours merge."""
    code = """
    s = [torch.empty(96) for _ in range(6)]          # 384 B: one 512-byte block each
    m = [torch.empty(5000) for _ in range(3)]        # 20000 B -> 20480
    steps = [p(t) for t in s + m]
    hole = p(s[2]); del s[2]
    again = torch.empty(100)                         # 400 B: fits the freed 512-byte block exactly
    # the rotation of rt24's loop: b made while a lives, then a dropped
    seen, a = [], torch.empty(96)
    for _ in range(6):
        b = torch.empty(96)
        seen.append(p(b) - p(a))
        a = b
    # two neighbours freed merge: a block of both their sizes fits where they were (the large
    # pool, which nothing else in this child uses)
    g, x, y, z = (torch.empty(300000) for _ in range(4))
    base = p(x); del x, y
    w = torch.empty(600000)
    print(json.dumps({"steps": steps, "hole": hole, "again": p(again), "seen": seen,
                      "merged": [base, p(w)], "big_small": p(torch.empty(MiB // 4)) > 0}))
    """
    got = _child(code, library)
    st = got["steps"]
    assert [y - x for x, y in zip(st[:6], st[1:6])] == [512] * 5
    assert st[6] - st[5] == 512 and [y - x for x, y in zip(st[6:], st[7:])] == [20480] * 2
    assert got["again"] == got["hole"]
    assert sum(d == 512 for d in got["seen"]) >= 2 and all(abs(d) == 512 for d in got["seen"]), got["seen"]
    assert got["merged"][0] == got["merged"][1]


def test_pools_split_at_one_mib_and_big_blocks_pack_in_the_large_pool(library):
    """Up to 1 MiB the small pool, above it the large one (another address range); under
    expandable segments a block of 10 MiB and more is carved from the large pool's range like
    any other (no segment of its own), right after the block before it."""
    code = """
    small = torch.empty(MiB // 4)              # exactly 1 MiB: small pool
    small2 = torch.empty(16)
    large = torch.empty(MiB // 4 + 1)          # 1 MiB + 4 B: large pool
    huge = torch.empty(3 * MiB)                # 12 MiB
    huge2 = torch.empty(3 * MiB)
    print(json.dumps([p(small), p(small2), p(large), p(huge), p(huge2)]))
    """
    small, small2, large, huge, huge2 = _child(code, library)
    assert small2 - small == MiB
    assert abs(large - small) > 100 * MiB  # another pool, another range
    assert huge - large == _r512(MiB + 4) and huge2 - huge == 12 * MiB


def test_other_allocations_are_glibcs_and_memory_goes_back(library):
    """posix_memalign with another alignment, malloc/realloc/free of other code stay glibc's; a
    pointer of the arena realloc'ed or sized works; a freed 256 MiB tensor's pages go back to the
    kernel; threads and a fork allocate through it."""
    code = """
    import ctypes, os, threading, numpy as np
    libc = ctypes.CDLL(None)
    libc.realloc.restype = libc.malloc.restype = ctypes.c_void_p
    libc.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.free.argtypes = libc.malloc_usable_size.argtypes = [ctypes.c_void_p]
    arena = torch.empty(64); lo = p(arena)
    out = ctypes.c_void_p()
    assert libc.posix_memalign(ctypes.byref(out), 128, 1000) == 0
    other = abs(out.value - lo) > (1 << 40) or out.value % 512 != 0
    libc.free(out)
    assert libc.posix_memalign(ctypes.byref(out), 64, 3000) == 0   # the arena's, as c10's
    mine = abs(out.value - lo) < (1 << 36)
    ctypes.memset(out, 7, 3000)
    usable = libc.malloc_usable_size(out)
    grown = libc.realloc(out, 100000)
    kept = ctypes.string_at(grown, 3000) == b"\\x07" * 3000
    libc.free(grown)
    q = libc.malloc(12345); libc.free(q)
    arr = np.ones(10 ** 6).sum()
    def rss():
        return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    before = rss(); t = torch.ones(64 * MiB); peak = rss(); del t; after = rss()
    errs = []
    def work():
        try:
            for i in range(300):
                x = torch.randn(100 + i); y = torch.empty(300000) + 1; del x, y
        except Exception as exc:
            errs.append(repr(exc))
    ths = [threading.Thread(target=work) for _ in range(4)]
    [t.start() for t in ths]; [t.join() for t in ths]
    pid = os.fork()
    if pid == 0:
        k = [torch.randn(1000) for _ in range(50)]; del k
        os._exit(0 if torch.empty(96).data_ptr() % 512 == 0 else 3)
    status = os.waitpid(pid, 0)[1]
    print(json.dumps({"other": other, "mine": mine, "usable": usable, "kept": kept, "arr": float(arr),
                      "grew": peak - before, "back": peak - after, "errs": errs, "fork": status}))
    """
    got = _child(code, library)
    assert got["other"] and got["mine"] and got["usable"] == 3072 and got["kept"]
    assert got["arr"] == 1e6 and not got["errs"] and got["fork"] == 0
    assert got["grew"] > 200 * MiB and got["back"] > 200 * MiB, got


def test_a_fresh_childs_pools_start_where_the_h200s_did(library):
    """The first small and large blocks of a forked child sit where a fresh H200 process put
    them (session 47, measured): 0x302000000 and 157.28125 GiB after it, 16 MiB past a 20 MiB
    boundary; a CPU process's own mappings start near 2^47, and the size of an address told the
    machines apart."""
    code = """
    a = torch.empty(384, dtype=torch.uint8); b = torch.empty(2_000_000, dtype=torch.uint8)
    print(json.dumps([p(a), p(b)]))
    """
    small, large = _child(code, library)
    assert small == 0x302000000
    assert large - small == int(157.28125 * 2**30) and large % (20 * MiB_) == 16 * MiB_


MiB_ = 1 << 20


def test_a_fork_that_stands_in_for_its_parent_keeps_its_pools(library):
    """Red team s64G: a fork of the candidate child (autotune_forks' pinned forwards) got pools
    of its own at a random address, so a fresh tensor there lay terabytes from the inputs the
    child made, and a forward told the fork from the checked forward by that distance. With
    keep_pools on, the fork's fresh tensors land where the parent's next ones do; a fork taken
    without it (a new job's child) still starts pools of its own."""
    code = """
    from evaluator import host_alignment
    x = torch.empty(64000, dtype=torch.uint8)
    sent = {}
    for keep in (True, False):
        host_alignment.keep_pools(keep)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.write(w, str(p(torch.empty(256, dtype=torch.uint8))).encode()); os._exit(0)
        host_alignment.keep_pools(False)
        os.close(w); os.waitpid(pid, 0); sent[keep] = int(os.read(r, 64))
    print(json.dumps([p(x), p(torch.empty(256, dtype=torch.uint8)), sent[True], sent[False]]))
    """
    x, here, kept, fresh = _child(code, library)
    assert kept == here and abs(here - x) < MiB_
    assert abs(fresh - x) > 1 << 40
