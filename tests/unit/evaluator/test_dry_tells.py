"""What the candidate's side observes in the dry launch model's forward (evaluator.dry_tells).

Red team s61d launched the full grid where `x.is_meta` or `x.data_ptr() == 0` said the forward
was the model's, then `"meta" in repr(x)`, `x.type()`, an f-string of `x` and the made-up
addresses' window did (s62a; hacks/s61d_dry_*_tell_*, hacks/s62a_*, ok before). The class is
closed by what is judged, not by names: on meta tensors only tensors and metadata answer the
candidate's side, anything else stops the forward (`Told`) for a real one on the CPU draw,
where what a launch not run may have stored reaches the host nowhere. Seen from a real
candidate child setup."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

_CANDIDATE = textwrap.dedent("""
    import dataclasses

    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

    @dataclasses.dataclass
    class Held:
        t: object

    def asked(x):
        y = torch.empty_like(x)
        z = torch.empty(8, device="cuda")
        return (x.is_meta, y.is_meta, z.is_meta, x.type(), x.device.type, x.is_cuda, x.shape[0],
                x.stride(), x.dtype, x.is_contiguous(), x.element_size(), len(x), x.nbytes)

    def observes(x, how):
        if how == "repr":
            return "meta" in repr(x)
        if how == "fstring":
            return "meta" in f"{x}"
        if how == "str":
            return "meta" in str(x.sum())
        if how == "address":
            return x.data_ptr()
        if how == "library":
            return "meta" in repr(Held(x))
        if how == "bool":
            return bool(x.sum() > 0)
        if how == "nonzero":
            return len(torch.nonzero(x))
        if how == "shape":
            return x.shape[0] + x.data_ptr() * 0
        if how == "tolist":
            return x.tolist()
        return x.abs().amax().item()

    def masked(x, y):
        return x[y > 0].shape[0]

    def relu(x):
        y = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 64),)](x, y, x.numel(), BLOCK=64)
        return y

    def names_meta(how):
        if how == 0:
            return torch.empty(1, device="meta")
        if how == 1:
            return torch.ones(2).to("meta")
        return torch.zeros(2, device=torch.device("meta"))
""")


def _child(tmp_path, body: str) -> list[str]:
    (tmp_path / "candidate.py").write_text(_CANDIDATE)
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import torch
        from evaluator import candidate_env, child, dry_tells, watched_reads
        candidate_env.interpreted_tensors_look_like_cuda()
        child._values_never_printed()  # a child's own tensor text, which passes no torch function mode
        import candidate

        def tried(f, *a):
            try:
                return repr(f(*a))
            except dry_tells.Told:
                return "told"
            except RuntimeError:
                return "raised"
    """) + textwrap.dedent(body)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split("\n")


def test_a_meta_tensor_answers_the_candidate_s_side_metadata_as_the_gpu_does(tmp_path):
    out = _child(tmp_path, """
        candidate_env.STANDING_DEVICE[0] = "meta"
        dry_tells.start("meta")
        x = torch.empty(64, device="meta")
        print(candidate.asked(x))
        print(dry_tells.told())
        dry_tells.start(None)
        print(x.is_meta, x.data_ptr())  # the harness's own reads see the meta tensor
        candidate_env.STANDING_DEVICE[0] = "cpu"
        print(candidate.asked(torch.ones(64))[:3])
    """)
    assert out[0] == ("(False, False, False, 'torch.cuda.FloatTensor', 'cuda', True, 64, (1,), torch.float32, "
                      "True, 4, 64, 256)"), out
    assert out[1:4] == ["None", "True 0", "(False, False, False)"], out


def test_anything_else_the_candidate_s_side_observes_of_a_meta_tensor_stops_the_meta_forward(tmp_path):
    # text of any spelling, an address (a made-up one was a tell of its own), a host value, and
    # text made by a library the candidate handed the tensor to
    out = _child(tmp_path, """
        candidate_env.STANDING_DEVICE[0] = "meta"
        x = torch.empty(64, device="meta")
        for how in ("repr", "fstring", "str", "address", "library", "item"):
            dry_tells.start("meta")
            print(how, tried(candidate.observes, x, how), dry_tells.told() is not None)
        dry_tells.start(None)
        print(candidate.observes(torch.ones(4), "repr"))  # outside the model: as ever
    """)
    assert out[:5] == [f"{how} told True" for how in ("repr", "fstring", "str", "address", "library")], out
    assert out[5] == "item raised False" and out[6] == "False", out  # raises on meta: the forward stops


def test_the_real_forward_refuses_reading_back_what_a_launch_not_run_may_have_stored(tmp_path):
    out = _child(tmp_path, """
        dry_tells.start("real")
        x, y = torch.randn(64), torch.empty(64)
        with dry_tells.Taint():
            dry_tells.launched(candidate.copy_kernel, (x, y, 64), {"BLOCK": 64}, 0)
            z = (y * 2)[3:]
            y.mul_(1)  # in place on a launched storage: no read
            print(tried(candidate.observes, x, "item") != "told", tried(candidate.observes, x, "address") != "told")
            print(tried(candidate.observes, z, "item"), tried(candidate.observes, z, "repr"),
                  tried(candidate.observes, y, "bool"), dry_tells.told() is not None)
            print(tried(candidate.observes, y, "shape"))  # metadata and addresses: a CPU trial's
            # a shape the values make is a value: nonzero's, a boolean mask's
            print(tried(candidate.observes, z, "nonzero"), tried(candidate.masked, x, y), tried(candidate.masked, y, x))
            print(tried(lambda: bool(y.sum() > 0)))  # the harness's own (not the candidate's file)
        dry_tells.start(None)
        dry_tells.start("real")
        watched_reads.library_reads_visible()  # tolist as a candidate child has it (s65f)
        with dry_tells.Taint():
            dry_tells.launched(candidate.copy_kernel, (x, y, 64), {"BLOCK": 64}, 0)
            print(tried(candidate.observes, y, "tolist"), tried(candidate.observes, x, "tolist") != "told")
        dry_tells.start(None)
    """)
    assert out[0] == "True True", out  # x is only read by the launch: its values are the GPU's
    assert out[1] == "told told told True" and out[2] == "64", out
    assert out[3].startswith("told told ") and out[3] != "told told told", out  # masked by x's values: a trial's
    assert out[4] in ("True", "False"), out
    assert out[5] == "told True", out  # tolist of a launched storage, one .item() at a time (s65f)


def test_an_honest_launch_in_the_meta_forward_observes_nothing(tmp_path):
    # Triton's generated binder reads data_ptr under the launch hook: the harness's, not the
    # candidate's (it sent every forward to the real one, twice the model's time)
    out = _child(tmp_path, """
        from evaluator.launch_hook import LaunchRecorder
        recorder = LaunchRecorder()
        recorder.install()
        candidate_env.STANDING_DEVICE[0] = "meta"
        recorder.dry = []
        dry_tells.start("meta")
        with recorder.suppressed():
            recorder.start()
            candidate.relu(torch.empty(4096, device="meta"))
            recorder.stop()
        print(len(recorder.dry), dry_tells.told())
    """)
    assert out[0] == "1 None", out


def test_no_candidate_makes_a_meta_tensor_of_its_own_in_a_cpu_child(tmp_path):
    out = _child(tmp_path, """
        for how in range(3):
            try:
                candidate.names_meta(how)
                print("made")
            except RuntimeError as exc:
                print("meta device is not available" in str(exc))
        print(torch.empty(1, device="meta").is_meta)  # the harness's own: as torch makes it
    """)
    assert out[:4] == ["True", "True", "True", "True"], out


def test_a_kernel_s_stored_parameters_are_those_its_stores_reach_through_their_pointers(tmp_path):
    import importlib.util

    from evaluator import dry_facts

    (tmp_path / "kernels_s62a.py").write_text(_CANDIDATE + textwrap.dedent("""
        def helper(p):
            return p

        @triton.jit
        def unknown_call(x_ptr, y_ptr):
            tl.store(helper(y_ptr), tl.load(x_ptr))

        @triton.jit
        def picked(x_ptr, y_ptr, flag):
            tl.store(tl.where(flag, x_ptr, y_ptr), 1.0)
    """))
    spec = importlib.util.spec_from_file_location("kernels_s62a", tmp_path / "kernels_s62a.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert dry_facts.stored_params(module.copy_kernel) == {"y_ptr", "BLOCK"}  # x_ptr only loaded
    assert dry_facts.stored_params(module.unknown_call) is None  # a call it cannot read: all of them
    assert dry_facts.stored_params(module.picked) == {"x_ptr", "y_ptr", "flag"}
