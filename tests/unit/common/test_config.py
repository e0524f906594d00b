"""Config: YAML + dotted overrides; errors name the file, the field and what was expected."""

import pytest

from common.config import ConfigError, RunConfig, Section, dump, explain, load


def test_yaml_and_overrides(tmp_path):
    p = tmp_path / "run.yaml"
    p.write_text("learner:\n  lr: 0.001\n  groups_per_step: 8\ntransport:\n  request_retries: 5\n")
    cfg = load(p, ["learner.lr=1e-6", "learner.n_samples=2"], RunConfig)
    assert cfg.learner.lr == 1e-6 and cfg.learner.groups_per_step == 8
    assert cfg.transport.request_retries == 5 and cfg.learner.n_samples == 2


def test_resolved_config_reloads_identically(tmp_path):
    cfg = load(None, ["learner.max_staleness=3", "transport.curve_keys_dir=/tmp/k"], RunConfig)
    p = tmp_path / "resolved.yaml"
    p.write_text(dump(cfg))
    assert load(p, [], RunConfig) == cfg


def test_bad_value_names_file_field_and_expectation(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("learner:\n  lr: fast\n")
    with pytest.raises(ConfigError) as exc:
        load(p, [], RunConfig)
    msg = str(exc.value)
    assert str(p) in msg and "learner.lr" in msg and "valid number" in msg


def test_unknown_field_is_an_error_not_ignored(tmp_path):
    with pytest.raises(ConfigError, match=r"learner\.lrr: unknown field"):
        load(None, ["learner.lrr=1"], RunConfig)


def test_bound_violations_are_reported():
    with pytest.raises(ConfigError, match=r"transport\.send_hwm.*greater than or equal to 1"):
        load(None, ["transport.send_hwm=0"], RunConfig)
    with pytest.raises(ConfigError, match="reconnect_max_s must be >= reconnect_min_s"):
        load(None, ["transport.reconnect_max_s=0.01"], RunConfig)


@pytest.mark.parametrize(
    "text,needle",
    [
        ("learner: [1, 2", "not valid YAML"),
        ("- a\n- b\n", "expected a mapping"),
    ],
)
def test_unreadable_files(tmp_path, text, needle):
    p = tmp_path / "c.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load(p, [], RunConfig)
    with pytest.raises(ConfigError, match="not found"):
        load(tmp_path / "missing.yaml", [], RunConfig)


def test_malformed_override(tmp_path):
    with pytest.raises(ConfigError, match="expected KEY=VALUE"):
        load(None, ["learner.lr"], RunConfig)
    p = tmp_path / "c.yaml"
    p.write_text("seed: 3\n")
    with pytest.raises(ConfigError, match="cannot set 'seed.x': 'seed' is not a section"):
        load(p, ["seed.x=1"], RunConfig)
    with pytest.raises(ConfigError, match=r"seed: Input should be a valid integer"):
        load(None, ["seed.x=1"], RunConfig)


def _sections(model):
    yield model
    for f in model.model_fields.values():
        if isinstance(f.annotation, type) and issubclass(f.annotation, Section):
            yield from _sections(f.annotation)


def test_every_field_has_help_text():
    missing = [
        f"{s.__name__}.{n}"
        for s in _sections(RunConfig)
        for n, f in s.model_fields.items()
        if not (f.description or "").strip()
    ]
    assert not missing, f"fields without a docstring (their help text): {missing}"
    assert all(": " in line and not line.endswith(": ") for line in explain(RunConfig))


def test_shipped_configs_load():
    from pathlib import Path

    configs = sorted(Path(__file__).resolve().parents[3].joinpath("configs").glob("*.yaml"))
    for p in configs:
        load(p, [], RunConfig)


def test_a_hang_deadline_shorter_than_two_health_reads_is_refused():
    """krl run would kill a busy, healthy role for one late /health answer."""
    with pytest.raises(ConfigError, match="hang_after_s.*twice health_interval_s"):
        load(None, ["supervisor.hang_after_s=5", "supervisor.health_interval_s=5"], RunConfig)
    assert (
        load(
            None, ["supervisor.hang_after_s=0", "supervisor.health_interval_s=5"], RunConfig
        ).supervisor.hang_after_s
        == 0
    )  # off
    assert (
        load(
            None, ["supervisor.hang_after_s=10", "supervisor.health_interval_s=5"], RunConfig
        ).supervisor.hang_after_s
        == 10
    )


def test_the_verdict_deadline_covers_a_cpu_evaluators_depth_trials():
    """A CPU evaluator's depth trials run after the evaluation's own limit (evaluator.depth_phase):
    a deadline that leaves them no room drops a file that stalls there as unevaluated."""
    from common.config.run import training_disagreements

    base = ["evaluator.device=cpu", "actor.eval.timeout_s=60", "evaluator.timeout_s=60"]
    # 2 x 60 s plus 4 variants' first trials of 30 s and one retry of at most 300 s = 540 s
    late = training_disagreements(load(None, [*base, "actor.eval.deadline_s=539"], RunConfig))
    assert any("depth trials at their longest (420 s)" in m for m in late), late
    assert training_disagreements(load(None, [*base, "actor.eval.deadline_s=540"], RunConfig)) == []
    off = [*base, "actor.eval.deadline_s=400", "evaluator.correctness.depth.enabled=false"]
    assert training_disagreements(load(None, off, RunConfig)) == []


def test_krl_run_refuses_roles_that_disagree_before_touching_the_run_dir(tmp_path, capsys):
    """The actor's sampling and the learner's scoring must be the same distribution, or
    mismatch rejection sampling silently drops nearly all data: `krl run` says so at once."""
    import argparse
    from pathlib import Path

    from common.config.run import training_disagreements
    from launcher import run_cli

    configs = Path(__file__).resolve().parents[3] / "configs"
    run_dir = tmp_path / "run"
    for overrides, needle in (
        (["learner.trainer.temperature=0.7"], "temperature (1.0) differs"),
        (["actor.sampling.top_p=0.9"], "cut vocabulary"),
        (["actor.eval.deadline_s=150"], "slow is wrong"),
    ):
        code = run_cli.main(
            argparse.Namespace(
                config=str(configs / "drkernel-recipe.yaml"),
                overrides=[f"run_dir={run_dir}", *overrides],
            )
        )
        err = capsys.readouterr().err
        assert code == 2 and needle in err and "Traceback" not in err
        assert not run_dir.exists()
    for path in configs.glob("*.yaml"):
        assert training_disagreements(load(path, [], RunConfig)) == [], path.name
