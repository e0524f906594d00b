"""A damaged bootstrap record (RUN_DIR/bootstrap/done.json) is said, naming the file, and its
stages run again; a missing one is a fresh run, said nothing about."""

import logging

from common.config import RunConfig
from launcher.bootstrap import Stages


def test_a_damaged_stage_record_names_itself_and_its_stages_run_again(tmp_path, caplog):
    record = tmp_path / "run" / "bootstrap" / "done.json"
    record.parent.mkdir(parents=True)
    record.write_text('{"sft": {"model": "/runs/x/bootstrap/sft", "seco')
    with caplog.at_level(logging.WARNING, logger="krl.run"):
        stages = Stages(RunConfig(run_dir=str(tmp_path / "run")))
    assert stages.done == {}
    assert any(
        str(record) in r.getMessage() and "damaged" in r.getMessage() for r in caplog.records
    )


def test_a_missing_stage_record_is_a_fresh_run(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="krl.run"):
        stages = Stages(RunConfig(run_dir=str(tmp_path / "run")))
    assert stages.done == {} and not caplog.records
