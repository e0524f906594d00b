"""The hub's ledger (learner/ledger.py): every group's fate is recorded, a restore voids the
rolled-back steps, and `reconcile` balances the books or says what is wrong."""

import json

from test_hub import group_for, make_hub, send

from common.messages import encode as encode_group
from learner.ledger import LEDGER, Ledger, evaluations, read, reconcile, trained_by_step


def _step(hub, history):
    batch = hub.take_batch(0.1)
    if batch is None:
        return False
    hub.mark_trained([g.group_id for g in batch])
    history.append({"step": hub.version, "groups": [g.group_id for g in batch]})
    return True


def _write_progress(run_dir, history):
    (run_dir / "learner").mkdir(exist_ok=True)
    (run_dir / "learner" / "progress.json").write_text(json.dumps({"history": history}))


def _accept(hub, n):
    for lease in hub.grant("a", n)[0]:
        assert send(hub, group_for(lease, version=hub.version)) == "accepted"


def test_crash_before_a_checkpoint_rolls_back_and_the_books_balance(tmp_path):
    run_dir = tmp_path
    hub = make_hub(run_dir / "hub", gps=1, staleness=5)
    history = []
    _accept(hub, 2)
    _step(hub, history)
    ckpt, ckpt_steps = hub.state_dict(), len(history)
    hub.checkpoint_done()
    _step(hub, history)  # step 2: never checkpointed, lost with the crash
    lost_step = history[-1]
    _accept(hub, 1)  # made by version 2, which the crash discards
    discarded = next(iter(hub.buffer))
    discarded_prompt = hub.buffer[discarded].prompt_id

    restored = make_hub(run_dir / "hub", gps=1, staleness=5)
    restored.load_state_dict(ckpt)
    del history[ckpt_steps:]
    while _step(restored, history):
        pass
    _write_progress(run_dir, history)
    ledger = run_dir / "hub" / "groups" / LEDGER
    events = [e["event"] for e in read(ledger)]
    assert events.count("accepted") == 3 and events.count("restored") == 1
    assert [e["step"] for e in read(ledger) if e["event"] == "trained"] == [1, 2, 2]
    assert trained_by_step(ledger) == {h["step"]: h["groups"] for h in history}
    assert lost_step["groups"] == history[1]["groups"]  # the same group, trained once more
    # The group made by the discarded version 2 is dropped, its prompt handed out again.
    assert [e["group_id"] for e in read(ledger) if e["event"] == "dropped"] == [discarded]
    assert not (run_dir / "hub" / "groups" / f"{discarded}.grp").exists()
    assert [lease.prompt_id for lease in restored.grant("a", 1)[0]] == [discarded_prompt]
    assert reconcile(run_dir) == {
        "accepted": 3,
        "trained": 2,
        "trained_twice": 0,
        "buffered": 0,
        "dropped_stale": 0,
        "dropped_rolled_back": 1,
        "lost": 0,
        "dropped_checkpoint_fallback": 0,
        "quarantined": 0,
        "not_accepted": 0,
        "ledger_matches_learner": True,
    }


def test_reconcile_reports_lost_and_twice_trained_groups(tmp_path):
    hub = make_hub(tmp_path / "hub", gps=1, staleness=5)
    history = []
    _accept(hub, 3)
    _step(hub, history)
    hub.checkpoint_done()
    gone = next(iter(hub.buffer))
    hub.store.remove([gone])  # an acked group whose file vanished
    history.append({"step": 2, "groups": history[0]["groups"]})  # and one trained again
    _write_progress(tmp_path, history)
    books = reconcile(tmp_path)
    assert books["lost"] == 1 and books["trained_twice"] == 1 and books["buffered"] == 1
    assert books["ledger_matches_learner"] is False


def test_a_fresh_start_rebuffers_groups_acked_before_any_checkpoint(tmp_path):
    """A learner killed before its first checkpoint restarts with no state to load; the
    hub still takes back what it acked (learner/main.py restores its own fresh state)."""
    hub = make_hub(tmp_path / "hub", gps=1, staleness=5)
    _accept(hub, 2)
    acked = set(hub.buffer)
    fresh = make_hub(tmp_path / "hub", gps=1, staleness=5)
    fresh.load_state_dict(fresh.state_dict())
    assert set(fresh.buffer) == acked
    leased = {lease.prompt_id for lease in fresh.grant("a", 5)[0]}
    assert not leased & {g.prompt_id for g in fresh.buffer.values()}  # not handed out again


def test_evaluations_are_the_verdicts_in_accepted_groups_counted_once(tmp_path):
    """summary.json's `evaluations`: per accepted group the actor's count of evaluator
    verdicts; a resend, a restore's re-buffering and a refused group add nothing."""
    hub = make_hub(tmp_path / "hub", gps=1, staleness=5)
    leases = hub.grant("a", 3)[0]
    first = group_for(leases[0])
    first.evaluations = 2
    assert send(hub, first) == "accepted"
    assert send(hub, first) == "duplicate"  # the actor resent it: no second count
    ckpt = hub.state_dict()
    late = group_for(leases[1])
    late.evaluations = 1
    assert send(hub, late) == "accepted"
    discarded = group_for(leases[2])
    discarded.evaluations, discarded.rolled_back = 2, True
    assert send(hub, discarded) == "stale"  # made by weights a learner restart discarded
    restored = make_hub(tmp_path / "hub", gps=1, staleness=5)
    restored.load_state_dict(ckpt)  # re-buffers `late`, acked after the checkpoint
    assert late.group_id in restored.buffer
    assert evaluations(tmp_path / "hub" / "groups" / LEDGER) == 3


def test_a_line_torn_by_a_host_crash_is_skipped_and_later_lines_still_count(tmp_path):
    path = tmp_path / LEDGER
    ledger = Ledger(path)
    ledger.append("accepted", group_id="g1", prompt_id="p1", version=0, evaluations=2)
    ledger.close()
    with open(path, "ab") as f:  # the host died in the middle of the next write
        f.write(b'{"event": "accepted", "group_id": "g2", "prom')
    ledger = Ledger(path)  # the restarted hub appends after it
    ledger.append("accepted", group_id="g3", prompt_id="p3", version=1, evaluations=1)
    ledger.close()
    assert [e["group_id"] for e in read(path)] == ["g1", "g3"]
    assert evaluations(path) == 3


def test_a_group_stored_just_before_a_crash_gets_its_ledger_line_on_restore(tmp_path):
    """Killed between the group's file and its ledger line (so before the ack): the
    restore finds the file, writes the missing line and re-buffers the group."""
    hub = make_hub(tmp_path / "hub", gps=1, staleness=5)
    ckpt = hub.state_dict()
    lease = hub.grant("a", 1)[0][0]
    group = group_for(lease)
    group.evaluations = 2
    hub.store.put(group.group_id, encode_group(group))  # ... and the process died here
    restored = make_hub(tmp_path / "hub", gps=1, staleness=5)
    restored.load_state_dict(ckpt)
    assert list(restored.buffer) == [group.group_id]
    lines = [e for e in read(tmp_path / "hub" / "groups" / LEDGER) if e["event"] == "accepted"]
    assert [(e["group_id"], e["recovered"]) for e in lines] == [(group.group_id, True)]
    assert evaluations(tmp_path / "hub" / "groups" / LEDGER) == 2
    history = []
    assert _step(restored, history)
    _write_progress(tmp_path, history)
    books = reconcile(tmp_path)
    assert books["accepted"] == books["trained"] == 1 and books["lost"] == 0
