"""A `lock` file left by a DeepSpeed op build that was killed must not make every later
learner wait forever; one whose builder is alive is waited for, not removed."""

import os
import threading
import time

from learner.ds_ops import clear_stale_batons


def _baton(ext_dir, age_s: float):
    baton = ext_dir / "deepspeed_shm_comm" / "lock"
    baton.parent.mkdir(parents=True)
    baton.touch()
    then = time.time() - age_s
    os.utime(baton, (then, then))
    return baton


def test_a_baton_left_by_a_killed_build_is_removed(tmp_path, caplog):
    baton = _baton(tmp_path, age_s=600)
    t0 = time.monotonic()
    assert clear_stale_batons(tmp_path) == [baton]
    assert not baton.exists() and time.monotonic() - t0 < 1
    assert "killed" in caplog.text and str(baton) in caplog.text


def test_a_live_builders_baton_is_waited_for_not_removed(tmp_path):
    baton = _baton(tmp_path, age_s=0)
    threading.Timer(1.0, baton.unlink).start()  # its builder finishes a second later
    t0 = time.monotonic()
    assert clear_stale_batons(tmp_path, stale_s=30) == []
    assert 0.9 < time.monotonic() - t0 < 5


def test_the_inference_only_shm_op_is_left_unbuilt(tmp_path, monkeypatch):
    """`deepspeed.init_distributed` on the CPU built DeepSpeed's shared-memory collective op, a
    minute of CPU on every fresh venv, for `inference_all_reduce` alone, which training never
    calls: after prepare_ops DeepSpeed's own build step declines it at once, building nothing."""
    from deepspeed.comm.torch import build_shm_op

    from learner.ds_ops import prepare_ops

    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path))
    prepare_ops(tmp_path)
    t0 = time.monotonic()
    assert build_shm_op() is None
    assert time.monotonic() - t0 < 5
    assert not (tmp_path / "deepspeed_shm_comm").exists()
