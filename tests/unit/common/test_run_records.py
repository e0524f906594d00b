"""The run's records (common/run_records.py): one reader, which reads a file of an earlier
version and says what is wrong with a damaged one, naming the file and the field."""

import json

import pytest

from common.jsonfile import StateFileError
from common.run_records import (
    Progress,
    SftProgress,
    progress_path,
    read_progress,
    read_record,
    read_summary,
    summary_path,
)


def test_a_missing_record_reads_as_none_or_empty_unless_required(tmp_path):
    assert read_record(tmp_path / "progress.json", Progress) is None
    assert read_progress(progress_path(tmp_path)) == Progress()
    assert read_summary(tmp_path) is None
    with pytest.raises(StateFileError, match="progress.json: missing"):
        read_progress(tmp_path / "progress.json", required=True)


def test_a_file_of_an_earlier_version_reads(tmp_path):
    """Fields it lacks take their defaults; fields it has and this version dropped are
    ignored (a hub without counts, a step without its per-turn rows)."""
    path = progress_path(tmp_path)
    path.parent.mkdir()
    path.write_text(
        json.dumps(
            {
                "learner_steps": 2,
                "hub": {},
                "dropped_field": 1,
                "history": [{"step": 1, "reward": 0.5, "old": "x"}, {"step": 2, "groups": ["a"]}],
            }
        )
    )
    progress = read_progress(path)
    assert progress.learner_steps == 2 and progress.hub.trained_total == 0
    assert [h.step for h in progress.history] == [1, 2] and progress.last.groups == ["a"]
    summary_path(tmp_path).write_text(json.dumps({"status": "completed", "learner_steps": 2}))
    assert read_summary(tmp_path).status == "completed" and read_summary(tmp_path).history == []
    (tmp_path / "sft.json").write_text(json.dumps({"history": [{"step": 1, "loss": 2.0}]}))
    assert read_record(tmp_path / "sft.json", SftProgress).history[0].loss == 2.0


@pytest.mark.parametrize(
    "text, said",
    [
        ('{"learner_steps": 1, "history": [{"step": "one"}]}', r"\$\.history\[0\]\.step"),
        ('{"learner_steps": ', "not valid JSON"),
        ("[1, 2]", "not a Progress record"),
    ],
)
def test_a_damaged_record_names_the_file_and_what_is_wrong(tmp_path, text, said):
    path = tmp_path / "progress.json"
    path.write_text(text)
    with pytest.raises(StateFileError, match=said) as err:
        read_progress(path)
    assert str(path) in str(err.value)


def test_a_damaged_summary_is_said_not_read_as_none(tmp_path):
    summary_path(tmp_path).write_text('{"status": 3}')
    with pytest.raises(StateFileError, match=r"not a Summary record.*\$\.status"):
        read_summary(tmp_path)
