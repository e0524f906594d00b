"""evaluator.cuda_fidelity: a CPU candidate child's torch ops on device tensors answer as CUDA's
kernels would (red team rt24, session 47). The end-to-end cases are the hacks
rt47_{host_device_mix_fidelity,int_mm_fidelity,rand_grain_switch,tf32_torch_mm_switch,
cumsum_double_acc_switch,var_welford_switch,topk_unsorted_order_switch}_relu."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import torch

from evaluator import cuda_fidelity, cuda_values

ROOT = Path(__file__).resolve().parents[3]


def test_tf32_rounds_to_nearest_even_and_keeps_non_finite():
    x = torch.tensor([1 + 2 ** -12, 1 + 2 ** -11, 1 + 3 * 2 ** -11, -(1 + 2 ** -9), float("inf"),
                      float("nan"), 0.0], dtype=torch.float32)
    r = cuda_fidelity.round_tf32(x)
    assert r[:4].tolist() == [1.0, 1.0, 1 + 2 ** -9, -(1 + 2 ** -9)]
    assert r[4] == float("inf") and torch.isnan(r[5]) and r[6] == 0


def test_curand_uniform_has_the_gpus_grain():
    u = cuda_values._curand_uniform(cuda_values._u32(4096))
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
    """An unstable CUDA sort (and kthvalue, median, mode) of the same row gives the same ties
    at every call; equal rows in one call agree too; the host's generator is not touched (the
    GPU's sort never draws from it); another child (keyed_draw's secret, redrawn after fork)
    may order the ties otherwise (red team rt48: a torch.randperm per call told the CPU by
    sort(x).indices != sort(x).indices, and moved the seeded host stream)."""
    from evaluator import keyed_draw

    aten = torch.ops.aten
    row = torch.tensor([3.0, 1.0, 3.0, 2.0, 3.0, 1.0] * 8)
    x = torch.stack([row, row, torch.ones(48)])
    first = cuda_values.h_sort(aten.sort.default, (x,), {})
    torch.manual_seed(7)
    seeded = torch.rand(4)
    torch.manual_seed(7)
    values, indices = cuda_values.h_sort(aten.sort.default, (x,), {})
    assert torch.equal(torch.rand(4), seeded)
    assert torch.equal(values, x.sort().values) and torch.equal(x.gather(1, indices), values)
    assert torch.equal(indices, first[1]) and torch.equal(indices[0], indices[1])
    again = cuda_values.h_sort(aten.sort.stable, (x.T,), {"dim": 0})[1].T
    assert torch.equal(again, indices)
    k = cuda_values.h_value_index(aten.kthvalue.default, (x, 40, 1), {})
    assert torch.equal(k[1], cuda_values.h_value_index(aten.kthvalue.default, (x, 40, 1), {})[1])
    assert k[1][0] == k[1][1] and torch.equal(k[0], x.kthvalue(40, 1).values)
    before = keyed_draw._SECRET[0]
    try:
        keyed_draw._redraw()
        other = cuda_values.h_sort(aten.sort.default, (x,), {})[1]
    finally:
        keyed_draw._SECRET[0] = before
    assert not torch.equal(other, indices) and torch.equal(other[0], other[1])
