"""Checkpoints are atomic: a crash mid-write leaves the previous one as the newest."""
import json

import pytest

from learner.checkpoint import Checkpoints


def _writer(payload):
    def write(d):
        (d / "hub.json").write_text(json.dumps(payload))
    return write


def test_save_latest_and_retention(tmp_path):
    ck = Checkpoints(tmp_path, keep=2)
    for step in (10, 20, 30):
        ck.save(step, _writer({"step": step}))
    assert [Checkpoints.step_of(p) for p in ck.complete()] == [20, 30]
    assert json.loads((ck.latest() / "hub.json").read_text()) == {"step": 30}


def test_crash_during_write_keeps_previous(tmp_path):
    ck = Checkpoints(tmp_path)
    ck.save(10, _writer({"ok": 1}))

    def dies(d):
        (d / "hub.json").write_text("{half")
        raise KeyboardInterrupt("killed mid-write")
    with pytest.raises(KeyboardInterrupt):
        ck.save(20, dies)
    assert Checkpoints.step_of(ck.latest()) == 10


def test_directory_without_marker_is_skipped(tmp_path, caplog):
    ck = Checkpoints(tmp_path)
    ck.save(10, _writer({}))
    (tmp_path / "step_00000020").mkdir()  # e.g. copied by hand, marker missing
    assert Checkpoints.step_of(ck.latest()) == 10
    assert "incomplete checkpoint" in caplog.text
