"""deploy/kubernetes: valid against the Kubernetes schemas (offline), and consistent with the
run config it ships: every role's command line loads as a RunConfig, probes and scrape
annotations use the port the role serves metrics on, Services select real pods and
ports, GPU roles ask for GPUs, servers and clients get the CurveZMQ keys they need."""

from __future__ import annotations

import copy
from pathlib import Path

import deploy_files as D
import pytest
import yaml

from common.config import RunConfig, load
from launcher.cli import COMMANDS

K8S = D.DEPLOY / "kubernetes"
SCHEMA_VERSIONS = ("1.30",)  # plus the newest the package knows; 1.30: appArmorProfile is GA
SECTION = {"learner": "learner", "broker": "broker", "evaluator": "evaluator", "actor": "actor"}
SERVERS, CLIENTS = {"learner", "broker"}, {"actor", "evaluator"}


def _kustomization() -> dict:
    return yaml.safe_load((K8S / "kustomization.yaml").read_text())


def _docs() -> list[tuple[str, dict]]:
    return [
        (name, doc)
        for name in _kustomization()["resources"]
        for doc in yaml.safe_load_all((K8S / name).read_text())
        if doc
    ]


def _kind(kind: str) -> list[dict]:
    return [doc for _, doc in _docs() if doc["kind"] == kind]


def _workloads() -> dict[str, dict]:
    """role -> pod template of its Job or Deployment."""
    out = {}
    for _, doc in _docs():
        if doc["kind"] in ("Job", "Deployment"):
            template = doc["spec"]["template"]
            out[template["metadata"]["labels"]["app.kubernetes.io/component"]] = template
    return out


def _container(template: dict) -> dict:
    (container,) = template["spec"]["containers"]
    return container


def _command_line(role: str, container: dict) -> tuple[str, str, list[str]]:
    """(krl subcommand, config path, overrides) of a container."""
    if container.get("command") == ["/opt/krl/deploy/learner-launch.sh"]:
        config, *overrides = container["args"]
        return "learner", config, overrides
    assert "command" not in container, f"{role}: the image's entrypoint is `krl`"
    command, config, *overrides = container["args"]
    return command, config, overrides


def _run_yaml() -> str:
    (cm,) = [c for c in _kind("ConfigMap") if c["metadata"]["name"] == "krl-config"]
    return cm["data"]["run.yaml"]


def _role_config(role: str, tmp_path: Path) -> RunConfig:
    path = tmp_path / "run.yaml"
    path.write_text(_run_yaml())
    _, _, overrides = _command_line(role, _container(_workloads()[role]))
    return load(path, overrides, RunConfig)


def test_manifests_match_the_kubernetes_schemas():
    kv = pytest.importorskip(
        "kubernetes_validate",
        reason="kubernetes-validate (the `dev` extra) is not installed: `pip install -e '.[dev]'`",
    )
    versions = (*SCHEMA_VERSIONS, kv.utils.latest_version())
    docs = _docs()
    assert {d["kind"] for _, d in docs} >= {
        "Namespace",
        "ConfigMap",
        "PersistentVolumeClaim",
        "Service",
        "Job",
        "Deployment",
    }
    for _, doc in docs:
        for version in versions:
            kv.validate(doc, version, strict=True)  # raises with the path of the bad field


def test_schema_validation_catches_a_misspelt_field_and_a_wrong_type():
    kv = pytest.importorskip("kubernetes_validate", reason="kubernetes-validate is not installed")
    (broker,) = [d for d in _kind("Deployment") if d["metadata"]["name"] == "krl-broker"]
    typo = copy.deepcopy(broker)
    typo["spec"]["replica"] = typo["spec"].pop("replicas")
    wrong = copy.deepcopy(broker)
    _container(wrong["spec"]["template"])["ports"][0]["containerPort"] = "5555"
    for bad in (typo, wrong):
        with pytest.raises(kv.ValidationError):
            kv.validate(bad, SCHEMA_VERSIONS[0], strict=True)


def test_the_kustomization_lists_every_manifest():
    files = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(_kustomization()["resources"]) == files
    assert set(_workloads()) == set(SECTION)


def test_every_role_command_loads_as_a_run_config(tmp_path):
    for role, template in _workloads().items():
        command, config, overrides = _command_line(role, _container(template))
        assert command == role
        assert command in COMMANDS, command
        assert Path(config).parent.as_posix() == "/config"
        cfg = _role_config(role, tmp_path)  # raises ConfigError naming a bad field
        assert cfg.transport.curve_keys_dir is not None, "CurveZMQ must be on in the cluster"


def test_probes_and_scrape_annotations_use_the_roles_metrics_port(tmp_path):
    for role, template in _workloads().items():
        metrics = getattr(_role_config(role, tmp_path), SECTION[role]).metrics
        container = _container(template)
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        annotations = template["metadata"]["annotations"]
        assert metrics.host == "0.0.0.0", role
        assert ports["metrics"] == metrics.port == int(annotations["prometheus.io/port"]), role
        assert annotations["prometheus.io/scrape"] == "true"
        for probe in ("readinessProbe", "livenessProbe"):
            assert container[probe]["httpGet"] == {"path": "/health", "port": "metrics"}, (
                role,
                probe,
            )


def test_services_select_pods_and_ports_that_exist():
    pods = _workloads()
    for svc in _kind("Service"):
        selector = {
            k: v
            for k, v in svc["spec"]["selector"].items()
            if not k.startswith("batch.kubernetes.io/")
        }  # set on Job pods at run time
        matches = [
            r for r, t in pods.items() if selector.items() <= t["metadata"]["labels"].items()
        ]
        assert len(matches) == 1, (svc["metadata"]["name"], matches)
        names = {p["name"] for p in _container(pods[matches[0]])["ports"]}
        assert {p["targetPort"] for p in svc["spec"]["ports"]} <= names, svc["metadata"]["name"]


def test_the_addresses_in_the_config_are_services(tmp_path):
    services = {
        s["metadata"]["name"]: {p["port"] for p in s["spec"]["ports"]} for s in _kind("Service")
    }
    cfg = yaml.safe_load(_run_yaml())
    for endpoint in (
        cfg["hub_link"]["endpoint"],
        cfg["hub_link"]["publish_endpoint"],
        cfg["broker"]["frontend"],
        cfg["broker"]["backend"],
    ):
        host, port = endpoint.removeprefix("tcp://").split(":")
        assert int(port) in services.get(host, set()), endpoint
    # Servers bind every interface on the same ports.
    learner = _role_config("learner", tmp_path).hub_link
    broker = _role_config("broker", tmp_path).broker
    assert (learner.endpoint, learner.publish_endpoint) == ("tcp://*:5560", "tcp://*:5561")
    assert (broker.frontend, broker.backend) == ("tcp://*:5555", "tcp://*:5556")


def test_gpu_roles_request_gpus_and_the_learner_job_matches_its_hosts():
    for role, template in _workloads().items():
        res = _container(template)["resources"]
        gpus = res["requests"].get("nvidia.com/gpu")
        assert (gpus is not None) == (role != "broker"), role
        assert res["limits"].get("nvidia.com/gpu") == gpus, role
    (job,) = _kind("Job")
    learner = _container(job["spec"]["template"])
    env = {e["name"]: e.get("value") for e in learner["env"]}
    hosts = env["KRL_LEARNER_HOSTS"].split()
    subdomain = job["spec"]["template"]["spec"]["subdomain"]
    assert job["spec"]["completionMode"] == "Indexed"
    assert len(hosts) == job["spec"]["completions"] == job["spec"]["parallelism"]
    assert hosts == [f"{job['metadata']['name']}-{i}.{subdomain}" for i in range(len(hosts))]
    assert env["KRL_GPUS_PER_NODE"] == learner["resources"]["requests"]["nvidia.com/gpu"]


def test_volumes_exist_and_each_role_gets_the_keys_it_needs(tmp_path):
    defined = {("configMap", c["metadata"]["name"]) for c in _kind("ConfigMap")}
    defined |= {
        ("persistentVolumeClaim", p["metadata"]["name"]) for p in _kind("PersistentVolumeClaim")
    }
    defined |= {("secret", s["name"]) for s in _kustomization()["secretGenerator"]}
    for role, template in _workloads().items():
        volumes = {v["name"]: v for v in template["spec"]["volumes"]}
        mounts = {m["name"]: m["mountPath"] for m in _container(template)["volumeMounts"]}
        assert set(mounts) <= set(volumes), role
        for v in volumes.values():
            ref = (
                v.get("configMap", {}).get("name")
                or v.get("secret", {}).get("secretName")
                or v.get("persistentVolumeClaim", {}).get("claimName")
            )
            kind = next(
                k for k in ("configMap", "secret", "persistentVolumeClaim", "emptyDir") if k in v
            )
            assert kind == "emptyDir" or (kind, ref) in defined, (role, v["name"])
        assert mounts["keys"] == str(_role_config(role, tmp_path).transport.curve_keys_dir)
        paths = {i["path"] for i in volumes["keys"]["secret"]["items"]}
        if role in SERVERS:
            assert {"server.key_secret", "authorized/client.key"} <= paths, role
        else:  # a client never holds the server's secret
            assert {"server.key", "clients/client.key_secret"} <= paths, role
            assert "server.key_secret" not in paths, role


def test_the_secret_generator_reads_what_krl_keys_writes(tmp_path):
    from common import curve

    curve.generate(tmp_path / "keys", ["client"])
    for entry in _kustomization()["secretGenerator"][0]["files"]:
        key, source = entry.split("=")
        assert (tmp_path / source).is_file(), source
        assert key in {"server.key", "server.key_secret", "client.key", "client.key_secret"}
