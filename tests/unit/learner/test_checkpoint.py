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


def test_verify_finds_a_truncated_changed_or_missing_file(tmp_path):
    ck = Checkpoints(tmp_path)
    path = ck.save(10, _writer({"step": 10, "pad": "x" * 100}))
    assert ck.verify(path) == ""
    hub = path / "hub.json"
    data = hub.read_bytes()
    hub.write_bytes(data[:-5])
    assert "hub.json has" in ck.verify(path) and "bytes" in ck.verify(path)
    hub.write_bytes(data[:-1] + b"!")  # same size, other content
    assert "hub.json does not match its checksum" in ck.verify(path)
    hub.unlink()
    assert ck.verify(path) == "hub.json is missing"
    (path / "COMPLETE").write_text('{"step": 1')  # a torn marker: damaged, not skipped silently
    assert "COMPLETE unreadable" in ck.verify(path) and path in ck.named()
    aside = ck.set_aside(path)
    assert aside.name == "damaged_step_00000010" and ck.latest() is None


def test_a_failed_write_names_the_path_and_leaves_nothing(tmp_path):
    ck = Checkpoints(tmp_path)

    def full(d):
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match=r"step_00000010.*disk full"):
        ck.save(10, full)
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_state_file_names_itself(tmp_path):
    from common.jsonfile import StateFileError, load_json_state

    (tmp_path / "hub.json").write_text('{"version": 3, "lea')
    with pytest.raises(StateFileError, match=r"hub\.json: damaged \(not valid JSON"):
        load_json_state(tmp_path / "hub.json")
    with pytest.raises(StateFileError, match=r"progress\.json: cannot be read"):
        load_json_state(tmp_path / "progress.json")
