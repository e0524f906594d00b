"""The candidate child's process setup (evaluator.candidate_env) seen from a real process."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[3]


def test_wrap_triton_launches_stay_plain_launches_in_a_candidate_child(tmp_path):
    """On a GPU, `torch.library.wrap_triton(kernel)[grid](...)` went through a higher-order op
    that has no rule for the harness's dispatch modes: every checked forward of a file using it
    raised NotImplementedError (H200, session 26). In a child set up for a candidate the wrapper
    is the kernel itself, in every thread; before the setup it is PyTorch's wrapper."""
    code = textwrap.dedent("""
        import threading
        import torch, triton, triton.language as tl
        from torch.library import wrap_triton
        from evaluator.watched_reads import launches_stay_eager

        @triton.jit
        def k(x_ptr):
            tl.store(x_ptr, 1.0)

        before = wrap_triton(k)
        assert before is not k, type(before)
        launches_stay_eager()
        assert wrap_triton(k) is k
        seen = []
        t = threading.Thread(target=lambda: seen.append(wrap_triton(k) is k))
        t.start(); t.join()
        assert seen == [True]
        print("eager")
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TRITON_INTERPRET", None)  # the interpreter returns the kernel itself anyway
    script = tmp_path / "child.py"  # @triton.jit reads its source from a file
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "eager", done.stderr[-2000:]


def test_every_storage_class_refuses_raw_memory_in_a_candidate_child():
    """`_write_file` and `from_buffer` move a tensor's bytes to and from host Python with no
    dispatched op (red team s30b); in a child set up for a candidate they raise on the untyped,
    typed and legacy storages (torch.FloatStorage's own `_new_shared` reaches the untyped one),
    and tensors still work."""
    code = textwrap.dedent("""
        import io, warnings
        import torch
        from evaluator.watched_reads import raw_storage_closed
        warnings.simplefilter("ignore")
        raw_storage_closed()
        x = torch.arange(4.0)
        calls = [lambda: x.untyped_storage()._write_file(io.BytesIO(), False, False, 4),
                 lambda: torch.UntypedStorage.from_buffer(b"0000", dtype=torch.uint8),
                 lambda: torch.FloatStorage.from_buffer(b"0000", "native"),
                 lambda: torch.FloatStorage._new_shared(4),
                 lambda: x.share_memory_()]
        refused = 0
        for call in calls:
            try:
                call()
            except RuntimeError as exc:
                refused += "raw memory" in str(exc)
        print(refused, float((x * 2).sum()))
    """)
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["5", "12.0"], done.stdout + done.stderr[-2000:]


def test_unfold_and_fold_refuse_sizes_whose_block_count_overflows():
    # red team rt54: F.fold (col2im) with padding 2**62 was accepted beside a 4-column input and
    # 2**61 segfaulted; F.unfold (im2col) with such a dilation read far outside its input
    code = textwrap.dedent("""
        import torch
        import torch.nn.functional as F
        from evaluator.watched_reads import unfold_sizes_checked
        unfold_sizes_checked()
        cols, img = torch.ones(1, 4, 4), torch.ones(2, 4, 4)
        calls = [lambda: F.fold(cols, output_size=(3, 3), kernel_size=2, padding=2 ** 62),
                 lambda: F.fold(cols, output_size=(3, 3), kernel_size=2, padding=2 ** 61),
                 lambda: F.unfold(img[None], kernel_size=2, dilation=2 ** 62),
                 lambda: torch.nn.Unfold(2, padding=2 ** 62)(img[None]),
                 lambda: F.unfold(img[None], kernel_size=2, stride=-1),
                 # red team rt55: one-element tensors where ints go passed an int-only check
                 lambda: F.fold(cols, output_size=(3, 3), kernel_size=2,
                                padding=(torch.tensor(2 ** 62), torch.tensor(2 ** 62))),
                 lambda: F.unfold(img[None], kernel_size=2, dilation=[torch.tensor(2 ** 62)] * 2)]
        refused = 0
        for call in calls:
            try:
                call()
            except RuntimeError as exc:
                refused += "overflow" in str(exc)
        honest = F.fold(F.unfold(img[None], kernel_size=2, padding=1), output_size=(4, 4), kernel_size=2, padding=1)
        indexed = F.unfold(input=img[None], kernel_size=(2, torch.tensor(2)), padding=(1, torch.tensor(1)))
        print(refused, float(honest.sum()), tuple(indexed.shape))
    """)
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["7", "128.0", "(1,", "8,", "25)"], done.stdout + done.stderr[-2000:]


def test_cuda_autocast_runs_as_the_gpus_in_a_cpu_candidate_child(tmp_path):
    """`torch.autocast("cuda")` in a CPU child: float16 matmuls and the CUDA autocast state as an
    H200 gives them (recorded there in session 46: enabled inside, float16 out of a matmul),
    where a CPU build turned it off and the forward knew (red team s46); every state query is
    torch's own (get_autocast_gpu_dtype in a bfloat16 region, is_autocast_enabled("cpu"): red
    team s46 rt23); outside it, off; a host tensor is not CUDA autocast's to cast."""
    (tmp_path / "candidate.py").write_text(textwrap.dedent("""
        import torch
        def inside():
            a = torch.ones(4, 4, device="cuda")
            with torch.autocast("cuda", dtype=torch.float16):
                f16 = (torch.is_autocast_enabled(), torch.is_autocast_enabled("cuda"), (a @ a).dtype,
                       torch.get_autocast_dtype("cuda"))
            with torch.autocast("cuda", dtype=torch.bfloat16):
                bf16 = (torch.get_autocast_gpu_dtype(), torch.is_autocast_enabled("cpu"), torch.softmax(a, 0).dtype,
                        (torch.ones(2, 2) @ torch.ones(2, 2)).dtype)
            return f16, bf16
        def outside():
            return torch.is_autocast_enabled(), (torch.ones(2, 2) @ torch.ones(2, 2)).dtype
    """))
    code = textwrap.dedent(f"""
        import sys, warnings
        warnings.simplefilter("error")  # no "CUDA is not available. Disabling autocast"
        warnings.filterwarnings("ignore", category=DeprecationWarning)  # get_autocast_gpu_dtype's own
        sys.path.insert(0, {str(tmp_path)!r})
        from evaluator import candidate_env
        candidate_env.interpreted_tensors_look_like_cuda()
        import candidate
        print(candidate.inside(), candidate.outside())
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == (
        "((True, True, torch.float16, torch.float16), (torch.bfloat16, False, torch.float32, torch.float32)) "
        "(False, torch.float32)"), done.stdout



_CAST_CACHE_CASES = textwrap.dedent("""
import torch


def run(device, lower):
    p = torch.nn.Parameter(torch.ones(8, 8, device=device))
    eye = torch.ones(8, 8, device=device)

    def same(t, between=None, **kw):
        # two matmuls of `t` in one region, `t` changed in place between them: equal where cached
        with torch.autocast(device, dtype=lower, **kw):
            a = torch.mm(t, eye)
            t.data.add_(1.0)
            if between is not None:
                between()
            b = torch.mm(t, eye)
            t.data.sub_(1.0)
        return bool((a == b).all())

    def regions():
        with torch.autocast(device, dtype=lower):
            a = torch.mm(p, eye)
        p.data.add_(1.0)
        with torch.autocast(device, dtype=lower):
            b = torch.mm(p, eye)
        p.data.sub_(1.0)
        return bool((a == b).all())

    def nested():
        with torch.autocast(device, dtype=lower):
            with torch.autocast(device, dtype=lower):
                a = torch.mm(p, eye)
            p.data.add_(1.0)
            b = torch.mm(p, eye)
            p.data.sub_(1.0)
        return bool((a == b).all())

    def other_dtype():
        other = torch.float16 if lower is torch.bfloat16 else torch.bfloat16
        with torch.autocast(device, dtype=lower):
            torch.mm(p, eye)
            with torch.autocast(device, dtype=other):
                try:
                    return str(torch.mm(p, p).dtype)
                except RuntimeError as exc:
                    return type(exc).__name__

    with torch.no_grad():
        no_grad = same(p)
    return {"parameter": same(p), "no_grad": no_grad, "cache_disabled": same(p, cache_enabled=False),
            "no_grad_tensor": same(torch.ones(8, 8, device=device)),
            "leaf_requiring_grad": same(torch.ones(8, 8, device=device).requires_grad_()),
            "non_leaf": same(p * 1), "detached": same(p.detach().requires_grad_()),
            "view": same(torch.ones(8, 16, device=device)[:, :8].requires_grad_()),
            "cleared": same(p, between=torch.clear_autocast_cache), "regions": regions(), "nested": nested(),
            "other_dtype": other_dtype()}
""")


def test_cuda_autocast_keeps_atens_cast_cache_in_a_cpu_candidate_child(tmp_path):
    """ATen's cached_cast keeps the lower-precision cast of a float32 leaf that requires grad and
    is no view (a Parameter, under no_grad too) until the outermost autocast exits or
    torch.clear_autocast_cache() runs, where the cache is on: two matmuls of a parameter changed
    in place between them within one region are equal on the GPU (red team s47 rt25: the CPU
    child recast at every op, and the difference was a switch). In a CPU child, CUDA autocast
    answers every case as ATen's own cache does: CPU autocast's real kernels in a plain process,
    which go through the same cached_cast; and nothing is left cached after the region."""
    (tmp_path / "candidate.py").write_text(_CAST_CACHE_CASES)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    aten = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import json, sys
        import torch
        sys.path.insert(0, {str(tmp_path)!r})
        import candidate
        print(json.dumps([candidate.run("cpu", torch.bfloat16), candidate.run("cpu", torch.float16)]))
    """)], env=env, capture_output=True, text=True, timeout=120)
    assert aten.returncode == 0, aten.stderr[-2000:]
    child = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import json, sys, warnings
        warnings.simplefilter("error")
        sys.path.insert(0, {str(tmp_path)!r})
        from evaluator import candidate_autocast, candidate_env
        candidate_env.interpreted_tensors_look_like_cuda()
        import torch
        import candidate
        print(json.dumps([candidate.run("cuda", torch.bfloat16), candidate.run("cuda", torch.float16),
                          len(getattr(candidate_autocast, "_CACHED_CASTS", ()))]))
    """)], env=env, capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-2000:]
    expected = json.loads(aten.stdout.strip().splitlines()[-1])
    assert expected[0]["parameter"] and expected[0]["no_grad"] and expected[0]["nested"], expected
    assert not (expected[0]["cache_disabled"] or expected[0]["regions"] or expected[0]["cleared"]
                or expected[0]["non_leaf"] or expected[0]["view"] or expected[0]["no_grad_tensor"]), expected
    assert json.loads(child.stdout.strip().splitlines()[-1]) == [*expected, 0]

_CPP_POLICY = textwrap.dedent("""
    # each case's dtype under the installed torch's own C++ CUDA autocast kernels, which cast only
    # tensors whose device is CUDA: wrapper tensors that say cuda and hold CPU tensors
    import json, sys, torch
    from torch.utils._pytree import tree_map
    sys.path.insert(0, sys.argv[1])
    from record_gpu_image import AUTOCAST_CASES

    class W(torch.Tensor):
        @staticmethod
        def __new__(cls, t):
            r = torch.Tensor._make_wrapper_subclass(cls, t.shape, dtype=t.dtype, device="cuda", strides=t.stride())
            r.t = t
            return r

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            unwrap = lambda x: x.t if isinstance(x, W) else x
            args, kwargs = tree_map(unwrap, args), tree_map(unwrap, kwargs or {})
            if func in (torch.ops.aten._softmax.default, torch.ops.aten._log_softmax.default) and args[2]:
                args = (args[0].float(), args[1], False)  # the CPU lacks half_to_float; the dtype is float32
            return tree_map(lambda x: W(x) if isinstance(x, torch.Tensor) else x, func(*args, **kwargs))

    a = W(torch.rand(4, 4))
    scope = {"torch": torch, "a": a, "h": W(a.t.half()), "b": W(a.t.bfloat16()),
             "img": W(torch.rand(1, 1, 4, 4)), "w": W(torch.rand(1, 1, 3, 3))}
    out = {}
    for dtype in ("float16", "bfloat16"):
        torch.set_autocast_enabled("cuda", True)
        torch.set_autocast_dtype("cuda", getattr(torch, dtype))
        for case in AUTOCAST_CASES:
            if case.endswith(".dtype") and "host" not in case:
                try:
                    out[dtype + ": " + case] = repr(eval(case, scope))
                except Exception as exc:
                    if "not linked with support for cuda" not in str(exc):  # a CUDA allocation of a decomposition
                        out[dtype + ": " + case] = "raises " + type(exc).__name__
        torch.set_autocast_enabled("cuda", False)
    print(json.dumps(out))
""")


def test_the_cuda_autocast_policy_is_torchs_own(tmp_path):
    """The CPU child's CUDA autocast (evaluator.candidate_autocast) gives every case of the
    recording's list the dtype the installed torch's own C++ CUDA autocast kernels give it, and
    its table names exactly the ops those kernels are registered for."""
    import torch

    from evaluator.candidate_autocast import POLICY

    registered = {r.removeprefix("aten::") for r in torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCUDA")}
    # the table is this torch's, and what only the GPU image's torch registers (_cudnn_rnn)
    from evaluator.device_answers import IMAGE

    on_gpu = {r.removeprefix("aten::") for r in IMAGE.get("autocast", {}).get("registrations", [])}
    assert registered <= set(POLICY) and set(POLICY) - registered <= on_gpu, (
        sorted(registered - set(POLICY)), sorted(set(POLICY) - registered - on_gpu))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TRITON_INTERPRET", None)
    done = subprocess.run([sys.executable, "-c", _CPP_POLICY, str(ROOT / "scripts")], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    cpp = json.loads(done.stdout.strip().splitlines()[-1])
    sys.path.insert(0, str(ROOT / "tests" / "unit" / "evaluator"))
    from test_gpu_image import _recorded_in_a_candidate

    (child,) = _recorded_in_a_candidate(tmp_path, "autocast_answers")
    differ = {k: (v, child[k]) for k, v in cpp.items() if child[k] != v}
    assert not differ and len(cpp) > 40, (differ, len(cpp))


def test_conv_pad_and_max_pool_sizes_are_bounded_in_the_candidate_child():
    """Session 51d's audit: F.conv3d with stride=2**62 read past its input (9.6e31 out of ones),
    replicate pads of 2**63 - 1 and max_pool1d's kernel_size=2**63 - 1 segfaulted; in a candidate
    child every conv, pad and max_pool entry point takes sizes in [0, 2**31) (pads in
    (-2**31, 2**31)), one-element tensors included, and honest calls still run."""
    code = textwrap.dedent("""
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from evaluator.watched_reads import conv_and_pad_sizes_checked
        conv_and_pad_sizes_checked()
        conv_and_pad_sizes_checked()  # twice: not wrapped twice
        x5, w5, x4 = torch.ones(1, 2, 4, 4, 4), torch.ones(3, 2, 2, 2, 2), torch.ones(1, 2, 4, 4)
        calls = [lambda: F.conv3d(x5, w5, stride=2 ** 62),
                 lambda: torch.conv3d(x5, w5, None, (torch.tensor(2 ** 62),) * 3),
                 lambda: nn.Conv3d(2, 3, 2, stride=2 ** 62)(x5),
                 lambda: torch.convolution(x5, w5, None, [2 ** 62] * 3, [0] * 3, [1] * 3, False, [0] * 3, 1),
                 lambda: F.conv_transpose2d(x4, torch.ones(2, 3, 2, 2), dilation=2 ** 62),
                 lambda: F.pad(x4, [2 ** 63 - 1] * 4, mode="replicate"),
                 lambda: nn.ReplicationPad3d(2 ** 63 - 1)(x5),
                 lambda: torch.constant_pad_nd(x4, [-2 ** 62, 0]),
                 lambda: F.max_pool1d(torch.ones(1, 2, 4), 2 ** 63 - 1),
                 lambda: nn.MaxPool1d(2 ** 62, return_indices=True)(torch.ones(1, 2, 4))]
        refused = 0
        for call in calls:
            try:
                call()
            except RuntimeError as exc:
                refused += "overflow" in str(exc)
        honest = [F.conv2d(x4, torch.ones(3, 2, 3, 3), None, 1, "same").shape,
                  nn.Conv2d(2, 3, 3, padding=1, stride=2, padding_mode="replicate")(x4).shape,
                  F.conv_transpose2d(x4, torch.ones(2, 3, 2, 2), stride=2, output_padding=1).shape,
                  F.pad(x4, (1, -1, 2, 0), "constant", 3.5).shape, F.pad(x4, [1, 1], value=7).shape,
                  nn.MaxPool1d(3, 2, 1, ceil_mode=True)(torch.ones(1, 2, 8)).shape]
        print(refused, [tuple(s) for s in honest])
    """)
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split(maxsplit=1) == [
        "10", "[(1, 3, 4, 4), (1, 3, 2, 2), (1, 3, 9, 9), (1, 2, 6, 4), (1, 2, 4, 6), (1, 2, 5)]\n"], \
        done.stdout + done.stderr[-2000:]


def test_an_overlapping_out_is_refused_where_the_kernel_would_write_past_it():
    """Session 51d's out= probes: F.avg_pool3d and torch.narrow_copy wrote an expanded
    one-element out as if dense (15 and 31 elements past its storage); in a candidate child an
    out= with internal overlap raises there first, and a dense out still works."""
    code = textwrap.dedent("""
        import torch
        import torch.nn.functional as F
        from evaluator.watched_reads import outputs_not_overlapping
        outputs_not_overlapping()
        outputs_not_overlapping()
        refused = 0
        for call in (lambda: F.avg_pool3d(torch.ones(1, 2, 4, 4, 4), 2, out=torch.zeros(1).view(1, 1, 1, 1, 1).expand(1, 2, 2, 2, 2)),
                     lambda: torch.narrow_copy(torch.ones(16, 4), 0, 0, 8, out=torch.zeros(1, 1).expand(8, 4))):
            try:
                call()
            except RuntimeError as exc:
                refused += "overlap" in str(exc)
        dense = F.avg_pool3d(torch.ones(1, 2, 4, 4, 4), 2, out=torch.empty(1, 2, 2, 2, 2))
        rows = torch.narrow_copy(torch.ones(16, 4), 0, 2, 8, out=torch.empty(8, 4))
        print(refused, float(dense.sum()), float(rows.sum()))
    """)
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["2", "16.0", "32.0"], done.stdout + done.stderr[-2000:]


def test_a_device_conversion_to_a_wide_unsigned_type_is_refused_not_guessed():
    """float -> uint16/32/64 on the device is PTX's saturating cvt on the GPU and the host's wrap
    through int64 here (-1.0 -> 4294967295): a flag made so switched the CPU's ReLU on and the
    GPU's off (red team s62d); unmeasured, it raises. uint8 and the signed types keep the H200's
    recorded answers (test_gpu_image)."""
    from evaluator.candidate_env import cuda_cast

    x = torch.tensor([-1.0, 3.5, 1e10])
    for dtype in (torch.uint16, torch.uint32, torch.uint64):
        with pytest.raises(RuntimeError, match="not modelled"):
            cuda_cast(x, dtype)
    assert cuda_cast(x[:2], torch.uint8).tolist() == [255, 3]
    assert cuda_cast(x, torch.int32).tolist() == [-1, 3, 2 ** 31 - 1]
