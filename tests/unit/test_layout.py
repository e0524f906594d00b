"""Roles never import each other (the evaluator's client, which the actor and benchmarks use, is
common/eval_client.py); common never imports a role or the launcher; no role imports the
launcher (its CLI names role modules as strings), and the launcher imports of a role only the
learner's ledger reader."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROLES = ("actor", "learner", "evaluator")
# The one role module the launcher imports (it reads the hub's ledger for summary.json).
LAUNCHER_READS = ("learner.ledger",)


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def _violations(package: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()):
    for path in sorted((ROOT / package).rglob("*.py")):
        for lineno, name in _imports(path):
            top = name.split(".")[0]
            if top in forbidden and name not in allowed:
                yield f"{path.relative_to(ROOT)}:{lineno} imports {name}"


def test_roles_do_not_import_each_other():
    bad = [v for role in ROLES for v in _violations(role, tuple(r for r in ROLES if r != role))]
    assert not bad, "roles must share code through common/:\n" + "\n".join(bad)


def test_the_launcher_imports_no_role_but_the_ledger_reader():
    bad = list(_violations("launcher", ROLES, LAUNCHER_READS))
    assert not bad, "the launcher starts roles, it does not import them:\n" + "\n".join(bad)


def test_a_stub_other_roles_import_stays_thin():
    """A role module imported from outside its role loads nothing else of it (sandbox,
    DeepSpeed)."""
    for stub in LAUNCHER_READS:
        path = ROOT / (stub.replace(".", "/") + ".py")
        heavy = [
            f"{path.relative_to(ROOT)}:{lineno} imports {name}"
            for lineno, name in _imports(path)
            if name.split(".")[0] not in (*sys.stdlib_module_names, "common")
        ]
        assert not heavy, "a stub imports only common/ and the standard library:\n" + "\n".join(
            heavy
        )


def test_common_does_not_import_roles():
    bad = list(_violations("common", (*ROLES, "launcher")))
    assert not bad, "common/ must not depend on a role:\n" + "\n".join(bad)


def test_roles_do_not_import_the_launcher():
    bad = [v for role in ROLES for v in _violations(role, ("launcher",))]
    assert not bad, "roles must not depend on the launcher:\n" + "\n".join(bad)


def test_the_checker_itself_catches_a_cross_import(tmp_path, monkeypatch):
    pkg = tmp_path / "actor"
    pkg.mkdir()
    (pkg / "x.py").write_text("from learner.trainer import Trainer\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert list(_violations("actor", ("learner",))) == ["actor/x.py:1 imports learner.trainer"]


def test_a_candidate_kernel_may_import_no_package_of_krl():
    """Every top-level package of the repository is harness: the evaluator's static checks
    refuse a candidate that imports it (a hack, not an unavailable module)."""
    from evaluator.static_allowlist import DANGEROUS_MODULES

    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert {"common", "launcher", *ROLES} <= packages
    assert not packages - set(DANGEROUS_MODULES), packages - set(DANGEROUS_MODULES)
