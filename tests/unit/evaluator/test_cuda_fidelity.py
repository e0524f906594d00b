"""evaluator.cuda_fidelity: a CPU candidate child's torch ops on device tensors answer as CUDA's
kernels would (red team rt24, session 47). The end-to-end cases are the hacks
rt47_{host_device_mix_fidelity,int_mm_fidelity,rand_grain_switch,tf32_torch_mm_switch,
cumsum_double_acc_switch,var_welford_switch,topk_unsorted_order_switch}_relu and
rt48_{device_rand_draws_host_stream,torch_cumsum_chunk_width}_switch_relu."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import torch

from evaluator import cuda_fidelity, cuda_orders, cuda_values

ROOT = Path(__file__).resolve().parents[3]


def test_tf32_rounds_to_nearest_even_and_keeps_non_finite():
    x = torch.tensor([1 + 2 ** -12, 1 + 2 ** -11, 1 + 3 * 2 ** -11, -(1 + 2 ** -9), float("inf"),
                      float("nan"), 0.0], dtype=torch.float32)
    r = cuda_fidelity.round_tf32(x)
    assert r[:4].tolist() == [1.0, 1.0, 1 + 2 ** -9, -(1 + 2 ** -9)]
    assert r[4] == float("inf") and torch.isnan(r[5]) and r[6] == 0


def test_curand_uniform_has_the_gpus_grain():
    u = cuda_values._uniforms(4096, torch.float32, cuda_values.CudaGenerator())
    assert u.dtype == torch.float32 and bool((u > 0).all()) and bool((u <= 1).all())
    scaled = u * 2.0 ** 24
    assert bool((scaled != scaled.floor()).any())  # bits below 2^-24, as curand's
    assert bool((scaled[u >= 0.5] == scaled[u >= 0.5].floor()).all())  # float32 has none above


def test_cpu_only_ops_are_cpu_only_in_native_functions():
    names = cuda_fidelity._yaml_names(lambda e: any(
        "CPU" in k.split(", ") and not any(x.strip() == "CUDA" or x.strip().startswith("Composite")
                                           for x in k.split(",")) for k in (e.get("dispatch") or {})))
    if not names:  # no yaml in this torch
        return
    assert cuda_fidelity._CPU_ONLY <= names | {n.split(".")[0] for n in names}


def _probe(tmp_path: Path, body: str) -> dict:
    """Run `body` (a function `probe()` returning a JSON-able dict) as a CPU candidate child's
    candidate.py, with the child's device stand-ins and this module's kernels."""
    (tmp_path / "candidate.py").write_text("import torch\nimport torch.nn.functional as F\n" + textwrap.dedent(body))
    driver = textwrap.dedent(f"""
        import json, sys, torch, torch._dynamo
        sys.path.insert(0, {str(tmp_path)!r})
        from evaluator import candidate_env, cuda_fidelity
        candidate_env.interpreted_tensors_look_like_cuda()
        cuda_fidelity.cuda_kernels_on_the_host()
        import candidate
        out = candidate.probe()
        a = torch.rand(4096) * 2.0 ** 24  # the harness's own draw: the CPU generator's, untouched
        out["harness_rand_on_the_cpu_grain"] = bool((a == a.floor()).all())
        print(json.dumps(out))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_candidates_device_calls_answer_as_cuda(tmp_path):
    out = _probe(tmp_path, """
        def raises(fn):
            try:
                fn()
            except (RuntimeError, NotImplementedError) as e:
                return str(e)[:60]
            return "ran"

        def probe():
            x = torch.randn(64, device="cuda")
            r = torch.rand(4096, device=x.device) * 2.0 ** 24
            h = torch.rand(4096) * 2.0 ** 24
            d = F.dropout(torch.ones(20000, device="cuda"), 0.25, True)
            v = torch.full((4097,), 2.0 ** -24, device="cuda")
            v[0] = 1.0
            p = torch.arange(8, device="cuda", dtype=torch.float32)
            p = torch.where(p.remainder(2) == 1, 8.0 - (p + 1) / 2, p / 2)
            a = torch.full((64, 64), 1.0 + 2.0 ** -12, device="cuda")
            e = torch.eye(64, device="cuda")
            exact = float(torch.mm(a, e)[0, 0] - 1)
            torch.backends.cuda.matmul.allow_tf32 = True
            tf32 = float(F.linear(a, e)[0, 0] - 1)
            torch.backends.cuda.matmul.allow_tf32 = False
            ie, he = torch.eye(2, dtype=torch.int32, device="cuda"), torch.eye(2, dtype=torch.int32)
            s = torch.tensor([3.0, 1.0, 3.0, 2.0, 3.0, 1.0], device="cuda")
            return {
                "device_rand_fine": bool((r != r.floor()).any()),
                "host_rand_fine": bool((h != h.floor()).any()),
                "dropout_rate": float((d == 0).float().mean()), "dropout_scale": float(d.max()),
                "cumsum_exact": bool(torch.cumsum(v, 0)[-1] == 1.0 + 2.0 ** -12),
                "var_const": float(torch.var(torch.full((4097,), 1e-3, device="cuda"))),
                "topk": [int(i) for i in torch.topk(p, 4, sorted=False).indices],
                "mm_exact": exact, "linear_tf32": tf32,
                "mix": raises(lambda: x + torch.zeros(64)),
                "mix_scalar": raises(lambda: x + torch.tensor(1.0)),
                "host_index": raises(lambda: x[torch.tensor([0, 2])]),
                "int_mm": raises(lambda: torch.mm(ie, ie)),
                "host_int_mm": int(torch.mm(he, he).sum()),
                "sorted_values": [float(t) for t in torch.sort(s).values],
            }
    """)
    assert out["device_rand_fine"] and not out["host_rand_fine"] and out["harness_rand_on_the_cpu_grain"]
    assert abs(out["dropout_rate"] - 0.25) < 0.02 and abs(out["dropout_scale"] - 1 / 0.75) < 1e-6
    assert not out["cumsum_exact"] and out["var_const"] == 0.0
    assert out["topk"] == [1, 3, 5, 7]
    assert out["mm_exact"] == 2.0 ** -12 and out["linear_tf32"] == 0.0
    assert out["mix"].startswith("Expected all tensors to be on the same device")
    assert out["mix_scalar"] == "ran" and out["host_index"] == "ran"
    assert out["int_mm"] == "\"addmm_cuda\" not implemented for 'Int'" and out["host_int_mm"] == 2
    assert out["sorted_values"] == [1.0, 1.0, 2.0, 3.0, 3.0, 3.0]


def test_a_build_draws_as_the_gpus_build_in_both_children(tmp_path):
    """The reference's build (reference_draws_as_cuda) and the candidate's (its own calls under
    the build flag) draw with curand's grain, as both do under torch.device("cuda") on the GPU,
    and an honest ModelNew built alike holds the reference's very parameters; a draw the
    candidate names the host for keeps the CPU generator's grain, as on the GPU."""
    (tmp_path / "candidate.py").write_text(textwrap.dedent("""
        import torch
        import torch.nn as nn

        def build():
            lin = nn.Linear(64, 32)
            r = torch.rand(4096) * 2.0 ** 24
            h = torch.rand(4096, device="cpu") * 2.0 ** 24
            return lin, bool((r != r.floor()).any()), bool((h != h.floor()).any())
    """))
    driver = textwrap.dedent(f"""
        import json, sys, torch, torch.nn as nn
        sys.path.insert(0, {str(tmp_path)!r})
        from evaluator import candidate_env, cuda_fidelity
        cuda_fidelity.cuda_generator_on_the_host()  # as a CPU child's set-up does (commands.ChildState)

        def reference():
            lin = nn.Linear(64, 32)
            r = torch.rand(4096) * 2.0 ** 24
            return lin, bool((r != r.floor()).any())

        torch.manual_seed(7)
        with cuda_fidelity.reference_draws_as_cuda():
            ref, ref_fine = reference()
        torch.manual_seed(7)
        plain, plain_fine = reference()
        candidate_env.interpreted_tensors_look_like_cuda()
        cuda_fidelity.cuda_kernels_on_the_host()
        import candidate
        torch.manual_seed(7)
        candidate_env.BUILDING[0] = True
        cand, cand_fine, host_fine = candidate.build()
        candidate_env.BUILDING[0] = False
        print(json.dumps({{
            "same_weight": bool(torch.equal(ref.weight, cand.weight)), "same_bias": bool(torch.equal(ref.bias, cand.bias)),
            "plain_differs": not bool(torch.equal(ref.weight, plain.weight)),
            "ref_fine": ref_fine, "plain_fine": plain_fine, "cand_fine": cand_fine, "host_fine": host_fine}}))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["same_weight"] and out["same_bias"] and out["plain_differs"]
    assert out["ref_fine"] and out["cand_fine"] and not out["plain_fine"] and not out["host_fine"]


def test_tie_orders_are_a_function_of_the_row():
    """median(dim) (whose tie index the H200's algorithm picks by a rule not modelled here; mode
    and kthvalue answer its measured rule: test_seeded_draws_and_ties_are_the_h200s) gives the
    same index for the same row at every call, equal rows in one call agree, the
    host's generator is not touched; another child (keyed_draw's secret, redrawn after fork) may
    pick another tie (red team rt48: a torch.randperm per call told the CPU)."""
    from evaluator import keyed_draw

    aten = torch.ops.aten
    row = torch.tensor([3.0, 1.0, 3.0, 2.0, 3.0, 1.0] * 8)
    x = torch.stack([row, row, torch.ones(48)])
    torch.manual_seed(7)
    seeded = torch.rand(4)
    torch.manual_seed(7)
    k = cuda_orders.h_value_index(aten.median.dim, (x, 1), {})
    assert torch.equal(torch.rand(4), seeded)
    assert torch.equal(k[1], cuda_orders.h_value_index(aten.median.dim, (x, 1), {})[1])
    assert k[1][0] == k[1][1] and torch.equal(k[0], x.median(1).values)
    before = keyed_draw._SECRET[0]
    others = []
    try:
        for _ in range(4):
            keyed_draw._redraw()
            others.append(cuda_orders.h_value_index(aten.median.dim, (x, 1), {})[1])
    finally:
        keyed_draw._SECRET[0] = before
    assert any(not torch.equal(o, k[1]) for o in others) and all(o[0] == o[1] for o in others)


def test_unstable_sort_ties_follow_cudas_algorithm_by_length():
    """sort/argsort with stable unset: rows of 2..32 through SmallBitonicSort's network (its
    tie order, the same in every child), longer rows (WarpMergeSort, radix sorts) and
    stable=True in index order: the H200 returns 64 equal values as 0..63 (red team rt49: a
    keyed shuffle of every row's ties told the CPU by `sort(zeros(64)).indices != arange`)."""
    from evaluator import keyed_draw

    aten = torch.ops.aten
    for n in (33, 64, 129, 5000):
        for descending in (False, True):
            idx = cuda_orders.h_sort(aten.sort.default, (torch.zeros(2, n), -1, descending), {})[1]
            assert torch.equal(idx, torch.arange(n).expand(2, n))
    assert cuda_orders.h_sort(aten.sort.stable, (torch.zeros(16),), {"stable": True}) is NotImplemented
    assert cuda_orders.h_sort(aten.sort.default, (torch.zeros(8),), {})[1].tolist() == [7, 6, 4, 5, 1, 0, 2, 3]
    row = torch.tensor([3.0, 1.0, 3.0, 2.0, 3.0, -0.0, float("nan"), 0.0, 1.0, float("nan")] * 3)
    x = torch.stack([row, row])
    for descending in (False, True):
        values, indices = cuda_orders.h_sort(aten.sort.default, (x, 1, descending), {})
        want = x.sort(descending=descending).values
        assert torch.equal(values.isnan(), want.isnan())
        assert torch.equal(values.nan_to_num(), want.nan_to_num()) and torch.equal(indices[0], indices[1])
        assert torch.equal(x.gather(1, indices).view(torch.int32), values.view(torch.int32))
        again = cuda_orders.h_sort(aten.sort.stable, (x.T,), {"dim": 0, "descending": descending})[1].T
        assert torch.equal(again, indices)
        before = keyed_draw._SECRET[0]
        try:
            keyed_draw._redraw()
            assert torch.equal(cuda_orders.h_sort(aten.sort.default, (x, 1, descending), {})[1], indices)
        finally:
            keyed_draw._SECRET[0] = before


# -- CUDA's generator (red team rt48: device draws advanced the host's stream) ------------------

def _philox_by_hand(ctr: list[int], key: list[int]) -> list[int]:
    m = 0xFFFFFFFF
    for i in range(10):
        if i:
            key = [(key[0] + 0x9E3779B9) & m, (key[1] + 0xBB67AE85) & m]
        p0, p1 = 0xD2511F53 * ctr[0], 0xCD9E8D57 * ctr[2]
        ctr = [(p1 >> 32) ^ ctr[1] ^ key[0], p1 & m, (p0 >> 32) ^ ctr[3] ^ key[1], p0 & m]
    return ctr


def test_philox_is_random123s_philox4x32_10():
    """Random123's known answers (kat_vectors), and a hand-written round on wide counters."""
    def signed(v: int) -> int:
        return v - (1 << 64) if v >= 1 << 63 else v

    kat = [((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
           ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
           ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
            (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1))]
    for ctr, key, want in kat:
        got = cuda_values._philox(key[0] | key[1] << 32, torch.tensor(signed(ctr[0] | ctr[1] << 32)),
                                  torch.tensor(signed(ctr[2] | ctr[3] << 32)))
        assert tuple(got.tolist()) == want
    counters, subs = torch.tensor([[5], [1 << 40]]), torch.tensor([[0, 7, (1 << 35) + 3]])
    got = cuda_values._philox(0xDEADBEEF12345, counters, subs)
    for i, c in enumerate(counters[:, 0].tolist()):
        for j, t in enumerate(subs[0].tolist()):
            ctr = [c & 0xFFFFFFFF, c >> 32, t & 0xFFFFFFFF, t >> 32]
            assert got[i, j].tolist() == _philox_by_hand(ctr, [0xDEADBEEF12345 & 0xFFFFFFFF, 0xDEADBEEF12345 >> 32])


def test_device_draws_are_the_gpus_for_a_seed():
    """torch.manual_seed(0) then torch.rand(3, device="cuda") / torch.randn(3, ...) on a GPU:
    the values PyTorch's CUDA kernels give, and the offsets advance as calc_execution_policy's."""
    gen = cuda_values.CudaGenerator().manual_seed(0)
    assert torch.allclose(cuda_values._uniforms(3, torch.float32, gen), torch.tensor([0.3990, 0.5167, 0.0249]), atol=1e-4)
    assert gen.get_offset() == 4
    gen.manual_seed(0)
    assert torch.allclose(cuda_values._normals(3, torch.float32, gen), torch.tensor([-0.9247, -0.4253, -2.6438]), atol=1e-4)
    stride = cuda_values._grid_stride(1 << 30)
    gen.manual_seed(0)
    cuda_values._uniforms(4 * stride + 1, torch.float32, gen)  # two rounds of the grid-stride loop
    assert gen.get_offset() == 8
    cuda_values._uniforms(2 * stride, torch.float64, gen)  # two doubles a draw: one round
    assert gen.get_offset() == 12
    # element i of a small draw is thread i's first draw's lane x, of a larger one lane i // stride
    gen.manual_seed(11)
    u = cuda_values._uniforms(2 * stride + 5, torch.float32, gen)
    key = [11, 0]
    for i in (0, 3, stride + 2, 2 * stride + 4):
        want = _philox_by_hand([0, 0, i % stride, 0], key)[i // stride]
        assert u[i] == torch.tensor(want, dtype=torch.float32) * 2.0 ** -32 + 2.0 ** -33
    state = gen.get_state()
    assert state.dtype == torch.uint8 and state.numel() == 16
    v = cuda_values._uniforms(5, torch.float32, gen)
    gen.set_state(state)
    assert torch.equal(cuda_values._uniforms(5, torch.float32, gen), v)


def test_device_draws_leave_the_host_stream_alone(tmp_path):
    """A candidate's device draws (rand, randn, dropout, bernoulli, randint, normal_) come from
    CUDA's generator's stand-in, which torch.manual_seed and torch.cuda's seeds seed: the host's
    seeded stream is the CPU generator's own, and a seed replays the device draws."""
    out = _probe(tmp_path, """
        def device_draws():
            x = torch.empty(64, device="cuda")
            return [torch.rand(4, device="cuda").tolist(), torch.randn(4, device="cuda").tolist(),
                    F.dropout(torch.ones(16, device="cuda"), 0.5, True).tolist(),
                    torch.randint(0, 1000, (4,), device="cuda").tolist(), x.normal_().tolist()[:4],
                    torch.bernoulli(torch.full((8,), 0.5, device="cuda")).tolist()]

        def probe():
            torch.manual_seed(7)
            first = device_draws()
            host = torch.rand(4).tolist()
            torch.manual_seed(7)
            host_alone = torch.rand(4).tolist()
            torch.cuda.manual_seed(7)
            again = device_draws()
            torch.cuda.manual_seed_all(7)
            state = torch.cuda.get_rng_state()
            replay = device_draws()
            torch.cuda.set_rng_state(state)
            restored = device_draws()
            with torch.random.fork_rng(device_type="cuda"):
                device_draws()
            forked = device_draws()
            torch.cuda.manual_seed(7)
            device_draws()
            return {"host": host, "host_alone": host_alone, "same": first == again == replay == restored,
                    "forked": forked != first, "seed": torch.cuda.initial_seed(), "rand": first[0]}
    """)
    assert out["host"] == out["host_alone"] == torch.rand(4, generator=torch.Generator().manual_seed(7)).tolist()
    assert out["same"] and out["forked"] and out["seed"] == 7
    gen = cuda_values.CudaGenerator().manual_seed(7)
    assert out["rand"] == cuda_values._uniforms(4, torch.float32, gen).tolist()


def test_the_build_and_unmodelled_draws_keep_the_host_stream(tmp_path):
    """The reference's build (reference_draws_as_cuda) draws from CUDA's generator's stand-in,
    seeded by torch.manual_seed, even for an op with no model of its values (randperm); the
    CPU's stream stays the seeded one."""
    driver = textwrap.dedent("""
        import json, torch, torch.nn as nn
        from evaluator import cuda_fidelity, cuda_values
        cuda_fidelity.cuda_generator_on_the_host()
        torch.manual_seed(3)
        with cuda_fidelity.reference_draws_as_cuda():
            lin = nn.Linear(8, 8)
            perm = torch.randperm(16)
        after = torch.rand(3).tolist()
        torch.manual_seed(3)
        with cuda_fidelity.reference_draws_as_cuda():
            perm2 = torch.randperm(16)
        print(json.dumps({"after": after, "offset": cuda_values.DEFAULT.get_offset(),
                          "perm_replays": perm2.tolist() != perm.tolist(), "weight": lin.weight[0, :2].tolist()}))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["after"] == torch.rand(3, generator=torch.Generator().manual_seed(3)).tolist()
    assert out["offset"] == 4  # randperm's own draw, after the seed
    assert out["perm_replays"]  # nn.Linear drew first the first time: a different offset


# -- scans (red team rt48: the inner scan's chunk width) -------------------------------------

def _width_by_hand(num_rows: int, row_size: int) -> int:
    import numpy as np

    lx = ly = 0
    while (1 << lx) < row_size:
        lx += 1
    while (1 << ly) < num_rows:
        ly += 1
    with np.errstate(over="ignore"):
        diff = np.uint32(lx) - np.uint32(ly)
        log = (np.uint32(9) + diff) // np.uint32(2)
    return 2 << int(min(max(np.uint32(4), log), np.uint32(9)))


def test_inner_scan_width_is_get_log_num_threads_x_inner_scan():
    for rows, size in [(2, 64), (512, 64), (1, 7), (4, 8), (2048, 2), (3, 1000), (100, 100), (1 << 20, 3),
                       (7, 1 << 20), (1000, 1)]:
        assert cuda_orders.inner_scan_width(rows, size) == _width_by_hand(rows, size), (rows, size)
    assert cuda_orders.inner_scan_width(2, 64) == 256 and cuda_orders.inner_scan_width(512, 64) == 32
    assert cuda_orders.inner_scan_width(2048, 2) == 1024  # uint32 arithmetic wraps to the widest


def _inner_scan_by_hand(x: torch.Tensor) -> torch.Tensor:
    """tensor_kernel_scan_innermost_dim_impl, thread by thread, in the dtype (torch 0-d adds)."""
    rows, n = x.shape
    nx = cuda_orders.inner_scan_width(rows, n) // 2
    out = torch.empty_like(x)
    for r in range(rows):
        total = torch.zeros((), dtype=x.dtype)
        for col0 in range(0, n, 2 * nx):
            buf = [x[r, c].clone() if c < n else torch.zeros((), dtype=x.dtype) for c in range(col0, col0 + 2 * nx)]
            buf[0] = buf[0] + total
            m = 0
            while (1 << m) <= nx:
                s = 1 << m
                for t in range(nx):
                    a = (t >> m << (m + 1)) | s
                    buf[a + t % s] = buf[a + t % s] + buf[a - 1]
                m += 1
            for c in range(col0, min(col0 + 2 * nx, n)):
                out[r, c] = buf[c - col0]
            total = buf[-1]
    return out


def test_cumsum_chunks_as_cudas_scan_innermost_dim():
    """The red team's rows: [1, 0 x 31, eps/2, eps/2, 0 ...] scanned along a 64-long last
    dimension is 1 + eps at element 33 with 2 rows (one 256-wide chunk) and 1 with 512 rows
    (32-wide chunks, the carry rounded into element 32 first); in every floating dtype; and
    random rows agree with the kernel simulated thread by thread."""
    scan = cuda_orders.h_scan(torch.add)
    for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
        eps = torch.finfo(dtype).eps
        for rows, want in ((2, 1 + eps), (512, 1.0)):
            x = torch.zeros(rows, 64, dtype=dtype)
            x[:, 0] = 1.0
            x[:, 32:34] = eps / 2
            out = scan(torch.ops.aten.cumsum.default, (x, 1), {})
            assert float(out[0, 33]) == want, (dtype, rows)
    gen = torch.Generator().manual_seed(5)
    for rows, n, dtype in ((3, 70, torch.float32), (2, 600, torch.float16), (40, 33, torch.bfloat16)):
        x = (torch.randn(rows, n, generator=gen) * 100).to(dtype)
        assert torch.equal(scan(torch.ops.aten.cumsum.default, (x, 1), {}), _inner_scan_by_hand(x)), (rows, n, dtype)


def test_scans_start_from_the_identity():
    """CUDA's scans combine the first element with the identity (scan_outer_dim's acc = init,
    the inner chunk's block_total = init): -0.0 sums to +0.0; cub's one-row scan starts with the
    element itself."""
    scan = cuda_orders.h_scan(torch.add)
    z = torch.full((3, 4), -0.0)
    for dim in (0, 1):
        out = scan(torch.ops.aten.cumsum.default, (z, dim), {})
        assert not bool(torch.signbit(out).any()), dim
    one = scan(torch.ops.aten.cumsum.default, (torch.full((5,), -0.0), 0), {})
    assert bool(torch.signbit(one).all())
    x = torch.tensor([[1.0, 2.0 ** -24, 2.0 ** -24]] * 2).t().contiguous()  # along dim 0: sequential
    assert float(scan(torch.ops.aten.cumsum.default, (x, 0), {})[2, 0]) == 1.0


def test_seeded_draws_and_ties_are_the_h200s(tmp_path):
    """What an H200 answered (fixtures/h200_device_draws.json, recorded in session 48) for seeded
    device draws, nn.Linear's build, a host draw after a device one, and the indices sort,
    mode and kthvalue give ties: the CPU child's stand-ins answer the same (randn to float32
    rounding: the GPU's fast sincosf/logf are not modelled bit for bit)."""
    want = json.loads((Path(__file__).parent / "fixtures" / "h200_device_draws.json").read_text())
    out = _probe(tmp_path, """
        def probe():
            out = {}
            def rec(name, t):
                out[name] = t.detach().float().flatten().tolist()
            torch.manual_seed(0); rec("rand3", torch.rand(3, device="cuda"))
            torch.manual_seed(0); rec("randn3", torch.randn(3, device="cuda"))
            torch.manual_seed(3); x = torch.empty(333, device="cuda"); x.uniform_(-2, 3); rec("uniform_333", x)
            torch.manual_seed(4); rec("bernoulli_1000", torch.bernoulli(torch.full((1000,), 0.3, device="cuda")))
            torch.manual_seed(6); a = torch.rand(5, device="cuda"); b = torch.rand(5, device="cuda"); rec("rand5_twice", torch.cat([a, b]))
            torch.manual_seed(7); lin = torch.nn.Linear(64, 32, device="cuda"); rec("linear_init_b", lin.bias)
            torch.manual_seed(7); rec("host_after_device", torch.cat([torch.rand(2, device="cuda").cpu() * 0, torch.rand(4)]))
            for n in (8, 16, 32, 33, 64, 129):
                z = torch.zeros(n, device="cuda")
                out[f"sort_zeros_{n}"] = torch.sort(z).indices.tolist()
                out[f"sort_zeros_desc_{n}"] = torch.sort(z, descending=True).indices.tolist()
                r = torch.tensor([3.0, 1.0, 3.0, 2.0] * (n // 4 + 1), device="cuda")[:n]
                out[f"sort_ties_{n}"] = torch.sort(r).indices.tolist()
                out[f"mode_{n}"] = int(torch.mode(r).indices)
                out[f"kth_{n}"] = int(torch.kthvalue(r, max(1, n // 2)).indices)
            return out
    """)
    for name, got in out.items():
        if name == "harness_rand_on_the_cpu_grain":
            continue
        if name == "randn3":
            assert all(abs(a - b) <= 1e-6 for a, b in zip(got, want[name])), (name, got, want[name])
        else:
            assert got == want[name], (name, got, want[name])
