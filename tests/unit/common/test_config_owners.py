"""Each role reads its own config section plus the shared ones; keys that moved still load.

Values the hub and the actors must agree on (the hub's endpoints, the weight relay) are set
once in `hub_link`; the sampling temperature once at the top (RunConfig copies it into the
actor's and the learner's sections); the group shape the hub hands out in leases is the
learner's. A config written before the move loads with a warning naming the new key, and
one that sets two values for one fact differently is refused with both named.
"""

import ast
import re
from pathlib import Path

import pytest

from common.config import ConfigError, RunConfig, dump, load
from common.config.moved import RUN_MOVED, ConfigDeprecationWarning

ROOT = Path(__file__).resolve().parents[3]
OLD_RUN_YAML = """\
actor:
  n_samples: 8
  max_turns: 2
learner:
  hub:
    endpoint: tcp://learner:5560
    publish_endpoint: tcp://learner:5561
    relay_fanout: 2
    relay_timeout_s: 4
    lease_timeout_s: 900
"""


def test_a_config_with_the_old_keys_loads_them_at_their_new_place(tmp_path):
    p = tmp_path / "old.yaml"
    p.write_text(OLD_RUN_YAML)
    with pytest.warns(ConfigDeprecationWarning) as caught:
        cfg = load(p, [], RunConfig)
    assert (cfg.learner.n_samples, cfg.learner.max_turns) == (8, 2)
    link = cfg.hub_link
    assert (link.endpoint, link.publish_endpoint) == ("tcp://learner:5560", "tcp://learner:5561")
    assert (link.relay_fanout, link.relay_timeout_s) == (2, 4)
    assert cfg.learner.hub.lease_timeout_s == 900  # the hub's own settings stay where they were
    said = [str(w.message) for w in caught]
    assert any("actor.n_samples is deprecated: it moved to learner.n_samples" in m for m in said)
    assert any(
        "learner.hub.endpoint is deprecated: it moved to hub_link.endpoint" in m for m in said
    )
    assert all(str(p) == w.filename for w in caught)  # the warning names the file
    # a run directory's resolved config.yaml written from it holds only the new keys
    assert "n_samples" not in dump(cfg).split("learner:")[0] and "hub_link:" in dump(cfg)


def test_an_old_key_given_as_an_override_wins_over_the_files_new_key(tmp_path):
    """deploy scripts pass `learner.hub.endpoint=tcp://*:5560` to the learner on top of a
    config that names the host actors connect to: the override still binds."""
    p = tmp_path / "new.yaml"
    p.write_text("hub_link:\n  endpoint: tcp://krl-hub:5560\nlearner:\n  n_samples: 8\n")
    with pytest.warns(ConfigDeprecationWarning) as caught:
        cfg = load(p, ["learner.hub.endpoint=tcp://*:5560", "actor.max_turns=5"], RunConfig)
    assert cfg.hub_link.endpoint == "tcp://*:5560" and cfg.learner.max_turns == 5
    assert sorted(str(w.message).split()[0] for w in caught) == [
        "actor.max_turns",
        "learner.hub.endpoint",
    ]
    assert cfg.learner.n_samples == 8


@pytest.mark.parametrize(
    "text,old,new",
    [
        (
            "actor: {n_samples: 8}\nlearner: {n_samples: 4}\n",
            "actor.n_samples",
            "learner.n_samples",
        ),
        (
            "learner: {hub: {endpoint: 'tcp://a:1'}}\nhub_link: {endpoint: 'tcp://b:1'}\n",
            "learner.hub.endpoint",
            "hub_link.endpoint",
        ),
    ],
)
def test_a_file_setting_an_old_key_and_its_new_one_differently_is_refused(tmp_path, text, old, new):
    """Two values for one fact in one file: which one the roles follow is not guessable."""
    p = tmp_path / "both.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError) as exc:
        load(p, [], RunConfig)
    msg = str(exc.value)
    assert str(p) in msg and old in msg and new in msg and f"remove {old}" in msg
    assert "Traceback" not in msg and "<root>" not in msg


def test_the_same_value_under_both_names_loads():
    with pytest.warns(ConfigDeprecationWarning):
        cfg = RunConfig.model_validate({"actor": {"max_turns": 2}, "learner": {"max_turns": 2}})
    assert cfg.learner.max_turns == 2


def test_an_old_keyed_mapping_validated_directly_is_carried_or_refused():
    """Tools and tests build RunConfig from a dict without `load`: the same rules hold."""
    with pytest.warns(ConfigDeprecationWarning):
        cfg = RunConfig.model_validate({"learner": {"hub": {"relay_fanout": 3}}})
    assert cfg.hub_link.relay_fanout == 3
    with pytest.raises(ValueError, match=r"actor\.max_turns \(5\) and learner\.max_turns \(4\)"):
        RunConfig.model_validate({"actor": {"max_turns": 5}, "learner": {"max_turns": 4}})


def test_a_moved_key_is_no_longer_a_field_of_its_old_section():
    for old, new in RUN_MOVED.items():
        *section, field = old.split(".")
        model = RunConfig
        for name in section:
            model = model.model_fields[name].annotation
        assert field not in model.model_fields, old
        model = RunConfig
        *section, field = new.split(".")
        for name in section:
            model = model.model_fields[name].annotation
        assert field in model.model_fields, new


def test_a_bad_value_under_an_old_key_names_the_new_field():
    with pytest.raises(ConfigError, match=r"learner\.n_samples.*greater than or equal to 1"):
        with pytest.warns(ConfigDeprecationWarning):
            load(None, ["actor.n_samples=0"], RunConfig)


def test_the_temperature_is_set_once_and_each_role_reads_it_in_its_own_section():
    """The actor samples at actor.sampling.temperature, the learner scores at
    learner.trainer.temperature: RunConfig fills both from the one `temperature`."""
    cfg = load(None, ["temperature=0.7"], RunConfig)
    assert cfg.actor.sampling.temperature == cfg.learner.trainer.temperature == 0.7
    assert load(None, [], RunConfig).learner.trainer.temperature == 1.0


def test_an_old_config_setting_both_temperatures_alike_loads(tmp_path):
    p = tmp_path / "old.yaml"
    p.write_text("actor: {sampling: {temperature: 0.7}}\nlearner: {trainer: {temperature: 0.7}}\n")
    with pytest.warns(ConfigDeprecationWarning, match="`temperature` sets it for every role"):
        cfg = load(p, [], RunConfig)
    assert cfg.temperature == cfg.actor.sampling.temperature == cfg.learner.trainer.temperature
    assert cfg.temperature == 0.7
    with pytest.warns(ConfigDeprecationWarning):  # one copy given: the other role follows it
        only = load(None, ["actor.sampling.temperature=0.6"], RunConfig)
    assert only.learner.trainer.temperature == 0.6


@pytest.mark.parametrize(
    "overrides,needle",
    [
        (
            ["temperature=0.7", "learner.trainer.temperature=1.0"],
            "temperature (0.7) differs from learner.trainer.temperature (1.0)",
        ),
        (
            ["actor.sampling.temperature=0.7", "learner.trainer.temperature=0.9"],
            "actor.sampling.temperature (0.7) differs from learner.trainer.temperature (0.9)",
        ),
        (
            ["temperature=1.0", "actor.sampling.temperature=0.8"],
            "temperature (1.0) differs from actor.sampling.temperature (0.8)",
        ),
    ],
)
def test_a_config_where_actor_and_learner_temperatures_disagree_is_refused(overrides, needle):
    """Mismatch rejection sampling would silently drop nearly every trajectory."""
    with pytest.raises(ConfigError) as exc:
        load(None, overrides, RunConfig)
    msg = str(exc.value)
    assert needle in msg and "set temperature once" in msg and "mismatch rejection" in msg


def test_the_speedup_cap_is_set_once_for_the_reward_and_the_plan_signal():
    """The evaluator's reward and the learner's hierarchical plan signal cap speed alike."""
    cfg = load(None, ["speedup_cap=2.5"], RunConfig)
    assert cfg.evaluator.reward.speedup_cap == cfg.learner.algorithm.hierarchical.speedup_cap == 2.5
    with pytest.warns(ConfigDeprecationWarning, match="evaluator.reward.speedup_cap is deprecated"):
        old = load(None, ["evaluator.reward.speedup_cap=4"], RunConfig)
    assert old.speedup_cap == old.learner.algorithm.hierarchical.speedup_cap == 4
    with pytest.raises(
        ConfigError,
        match=r"evaluator\.reward\.speedup_cap \(4\) differs from "
        r"learner\.algorithm\.hierarchical\.speedup_cap \(2\)"
        r".*cap speed differently; set speedup_cap once",
    ):
        load(
            None,
            ["evaluator.reward.speedup_cap=4", "learner.algorithm.hierarchical.speedup_cap=2"],
            RunConfig,
        )


def test_a_resolved_config_reloads_without_a_warning(tmp_path):
    """Every role process loads the run directory's config.yaml: it holds the copies too,
    which agree, so nothing is deprecated there."""
    import warnings

    p = tmp_path / "config.yaml"
    p.write_text(dump(load(None, ["temperature=0.7", "hub_link.relay_fanout=2"], RunConfig)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cfg = load(p, [], RunConfig)
    assert cfg.temperature == cfg.learner.trainer.temperature == 0.7


def _cross_reads(role: str) -> list[str]:
    """`cfg.<section>` reads in a role's package of a section that is another role's."""
    others = {
        "actor": ("learner", "evaluator", "broker"),
        "learner": ("actor", "evaluator", "broker"),
        "evaluator": ("actor", "learner"),
    }[role]
    found = []
    for path in sorted((ROOT / role).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        handed = {
            id(call.args[0])
            for call in ast.walk(tree)
            if isinstance(call, ast.Call)
            and getattr(call.func, "id", "") == "EvalClient"
            and call.args
        }
        for node in ast.walk(tree):
            if id(node) in handed:  # the evaluator's client stub takes its own section
                continue
            if (
                isinstance(node, ast.Attribute)
                and node.attr in others
                and _is_run_config(node.value)
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} cfg.{node.attr}")
    return found


def _is_run_config(node: ast.expr) -> bool:
    """`cfg`, `config` or `self.cfg`: the names a role gives its RunConfig."""
    name = (
        node.id
        if isinstance(node, ast.Name)
        else node.attr
        if isinstance(node, ast.Attribute)
        else ""
    )
    return re.fullmatch(r"cfg|config|run_cfg", name) is not None


# The actor's benchmark starts a broker and a worker of its own (it is their launcher).
ALLOWED = {"actor/benchmark.py": {"cfg.broker", "cfg.evaluator"}}


@pytest.mark.parametrize("role", ["actor", "learner", "evaluator"])
def test_no_role_reads_another_roles_section(role):
    reads = [
        r for r in _cross_reads(role) if r.split()[1] not in ALLOWED.get(r.split(":")[0], set())
    ]
    assert not reads, reads
