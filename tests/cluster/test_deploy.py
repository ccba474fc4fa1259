"""deploy/: the Dockerfile, the compose file, the Caddyfile and the Kubernetes manifests agree with each other and
with the program, checked without a Docker engine or a Kubernetes cluster (neither exists where the tests run).

What is checked is what a ``docker compose config`` or a first ``kubectl apply`` would catch, and what they would
not: every file parses, every file and service named exists, the nodes reach the Redis and PostgreSQL the files
define, every ``sprtec serve`` option the files use is one ``sprtec serve`` takes (or one of the clustered mode's,
LEAD_OPTIONS), probes ask the paths the server answers, and Agones' health window fits the node's ping cadence.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from server.ops import agones, http_endpoints
from sprtec import cli

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
NODES = ("sprtec-1", "sprtec-2", "sprtec-3")
# The clustered mode's options of `sprtec serve`, written into deploy/ before `sprtec serve` takes them.
LEAD_OPTIONS = {"--redis", "--postgres", "--node-id"}
BASE_KINDS = {"Namespace", "Secret", "Deployment", "Service", "StatefulSet"}  # deploy/k8s/base: Redis, PostgreSQL


def _yaml(path: Path) -> list[Any]:
    """Every document of a YAML file."""
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def _compose() -> dict[str, Any]:
    """deploy/compose.yaml."""
    (doc,) = _yaml(DEPLOY / "compose.yaml")
    assert isinstance(doc, dict)
    return doc


def _options(args: list[str]) -> dict[str, str]:
    """``--name=value`` arguments as {--name: value} (the files write every option that way)."""
    assert all(arg.startswith("--") and "=" in arg for arg in args), args
    return dict(arg.split("=", 1) for arg in args)


def _check_serve_arguments(args: list[str]) -> None:
    """``args`` parse as ``sprtec serve``'s, apart from LEAD_OPTIONS (a wrong type or value exits the parser)."""
    serve = importlib.import_module(f"sprtec.commands.{cli.COMMANDS['serve'][0]}")  # as sprtec.cli finds it
    parser = argparse.ArgumentParser(prog="sprtec serve")
    serve.add_arguments(parser)
    _, unknown = parser.parse_known_args(args)
    assert {arg.split("=", 1)[0] for arg in unknown} <= LEAD_OPTIONS, unknown


def _dockerfile() -> list[tuple[str, str]]:
    """deploy/Dockerfile as (INSTRUCTION, arguments), continuation lines joined, comments left out."""
    joined = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    steps = []
    for line in joined.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            instruction, _, rest = line.strip().partition(" ")
            steps.append((instruction.upper(), rest.strip()))
    return steps


def _k8s_objects() -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every Kubernetes object under deploy/k8s (kustomization files aside), with its file."""
    for path in sorted(K8S.rglob("*.yaml")):
        if path.name != "kustomization.yaml":
            for doc in _yaml(path):
                yield path, doc


def _node_containers() -> dict[str, dict[str, Any]]:
    """The sprtec container of the GameServer, the Fleet's template and the Deployment, by where it is."""
    found = {}
    for path, obj in _k8s_objects():
        if obj["kind"] in ("GameServer", "Fleet", "Deployment"):
            pod = obj["spec"]["template"]
            if obj["kind"] == "Fleet":
                pod = pod["spec"]["template"]
            for container in pod["spec"]["containers"]:
                if container["name"] == "sprtec":
                    found[f"{path.relative_to(K8S)}:{obj['kind']}"] = container
    return found


def _services() -> dict[str, dict[str, Any]]:
    """The Kubernetes Services under deploy/k8s by name."""
    return {obj["metadata"]["name"]: obj for _, obj in _k8s_objects() if obj["kind"] == "Service"}


def test_every_yaml_file_under_deploy_parses_into_objects() -> None:
    """Each YAML file is valid YAML whose documents are mappings (compose, kustomizations, manifests)."""
    paths = sorted(DEPLOY.rglob("*.yaml"))
    assert len(paths) >= 10
    for path in paths:
        docs = _yaml(path)
        assert docs and all(isinstance(doc, dict) for doc in docs), path


def test_compose_runs_redis_postgres_three_nodes_and_the_proxy() -> None:
    """The services are the cluster's; each has an image or a build; only the proxy publishes a port."""
    compose = _compose()
    assert set(compose) <= {"name", "services", "volumes", "networks", "configs", "secrets"} | {
        key for key in compose if key.startswith("x-")
    }
    services = compose["services"]
    assert set(services) == {"redis", "postgres", "proxy", *NODES}
    assert all("image" in service or "build" in service for service in services.values())
    assert [name for name, service in services.items() if "ports" in service] == ["proxy"]
    used = {mount.split(":", 1)[0] for service in services.values() for mount in service.get("volumes", [])} - {
        "./Caddyfile"
    }
    assert used == set(compose["volumes"])
    for mount in services["proxy"]["volumes"]:
        source = mount.split(":", 1)[0]
        if source.startswith("./"):
            assert (DEPLOY / source).is_file(), source


def test_compose_nodes_build_the_image_and_wait_for_healthy_redis_and_postgres() -> None:
    """Every node builds deploy/Dockerfile from the repository root and starts once Redis and PostgreSQL are healthy."""
    services = _compose()["services"]
    for name in NODES:
        node = services[name]
        assert (DEPLOY / node["build"]["context"]).resolve() == ROOT
        assert (ROOT / node["build"]["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
        assert node["depends_on"] == {
            "redis": {"condition": "service_healthy"},
            "postgres": {"condition": "service_healthy"},
        }
    assert all("test" in services[name]["healthcheck"] for name in ("redis", "postgres"))


def test_compose_nodes_reach_the_services_the_file_defines() -> None:
    """--redis and --postgres name compose's Redis and PostgreSQL (user, password, database); node ids are distinct."""
    services = _compose()["services"]
    postgres_env = services["postgres"]["environment"]
    for name in NODES:
        options = _options(services[name]["command"])
        _check_serve_arguments(services[name]["command"])
        redis_url = urlsplit(options["--redis"])
        assert (redis_url.scheme, redis_url.hostname, redis_url.port) == ("redis", "redis", 6379)
        pg_url = urlsplit(options["--postgres"])
        assert (pg_url.scheme, pg_url.hostname, pg_url.port) == ("postgresql", "postgres", 5432)
        assert (pg_url.username, pg_url.password) == (postgres_env["POSTGRES_USER"], postgres_env["POSTGRES_PASSWORD"])
        assert pg_url.path == f"/{postgres_env['POSTGRES_DB']}"
        assert options["--node-id"] == name  # the proxy's route /<node-id>/ reaches it
        assert options["--log-format"] == "json" and options["--host"] == "0.0.0.0"
        assert services[name]["expose"] == [options["--port"]]


def test_caddyfile_proxies_every_node_and_hides_the_operators_endpoints() -> None:
    """Caddy balances over the three nodes by /readyz, routes /<node>/ to each, and answers 404 for the probes."""
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    services = _compose()["services"]
    upstreams = {f"{name}:{_options(services[name]['command'])['--port']}" for name in NODES}
    balanced = re.search(r"handle \{\s*reverse_proxy ([^{]+)\{", caddyfile)
    assert balanced is not None and set(balanced.group(1).split()) == upstreams
    for name in NODES:
        assert re.search(rf"handle_path /{name}/\* \{{\s*reverse_proxy {name}:8765\s*\}}", caddyfile), name
    assert f"health_uri {http_endpoints.READY_PATH}" in caddyfile
    operators = re.search(r"@operators path (.+)", caddyfile)
    assert operators is not None and set(operators.group(1).split()) == set(http_endpoints.PATHS)
    assert "tls internal" in caddyfile


def test_dockerfile_is_small_unprivileged_and_runs_sprtec_serve() -> None:
    """python:3.11-slim, a non-root user, the data volume, a HEALTHCHECK on /healthz, `sprtec serve` on 0.0.0.0."""
    steps = _dockerfile()
    froms = [rest for instruction, rest in steps if instruction == "FROM"]
    assert froms and all(rest.split()[0] == "python:3.11-slim" for rest in froms)
    final = steps[max(i for i, (instruction, _) in enumerate(steps) if instruction == "FROM") :]
    values = {instruction: rest for instruction, rest in final}
    assert values["USER"] not in ("root", "0") and "--user-group --home-dir /data" in values["RUN"]
    assert json.loads(values["VOLUME"]) == ["/data"]
    port = values["EXPOSE"]
    assert f"http://127.0.0.1:{port}{http_endpoints.HEALTH_PATH}" in values["HEALTHCHECK"]
    assert json.loads(values["ENTRYPOINT"]) == ["sprtec", "serve"]
    command = json.loads(values["CMD"])
    assert command[command.index("--host") + 1] == "0.0.0.0" and command[command.index("--port") + 1] == port
    _check_serve_arguments(command)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["sprtec"] == "sprtec.cli:main" and "serve" in cli.COMMANDS
    assert "cluster" in project["optional-dependencies"]
    assert any("pip install '.[cluster]'" in rest for instruction, rest in steps if instruction == "RUN")


def test_dockerfile_copies_what_exists_and_the_dockerignore_lets_through() -> None:
    """Every COPY source is in the repository and not excluded from the build context."""
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    allowed = {line[1:].rstrip("/") for line in ignore if line.startswith("!")}
    assert "*" in ignore
    sources = []
    for instruction, rest in _dockerfile():
        if instruction == "COPY" and not rest.startswith("--from"):
            sources.extend(rest.split()[:-1])
    assert sources
    for source in sources:
        assert (ROOT / source).exists(), source
        assert source.rstrip("/") in allowed, source


def test_kustomizations_name_files_that_exist() -> None:
    """Every resource a kustomization lists is there, and both ways of running the nodes include the base."""
    for kustomization in sorted(K8S.rglob("kustomization.yaml")):
        (doc,) = _yaml(kustomization)
        for resource in doc["resources"]:
            assert (kustomization.parent / resource).exists(), (kustomization, resource)
    for overlay in ("agones", "deployment"):
        (doc,) = _yaml(K8S / overlay / "kustomization.yaml")
        assert "../base" in doc["resources"] and doc["namespace"] == "sprtec"


def test_the_fleet_runs_the_gameserver_spec_and_the_deployment_the_same_container() -> None:
    """The Fleet's template is deploy/k8s/gameserver.yaml's spec; the Deployment's node differs only in its probes and
    in trusting the proxy in front of it (ingress-nginx) - a GameServer's players connect to it directly."""
    (gameserver,) = _yaml(K8S / "gameserver.yaml")
    (fleet,) = _yaml(K8S / "agones" / "fleet.yaml")
    assert fleet["spec"]["template"]["spec"] == gameserver["spec"]
    containers = _node_containers()
    assert len(containers) == 3
    probes = ("ports", "startupProbe", "livenessProbe", "readinessProbe")
    shapes = [{k: v for k, v in container.items() if k not in probes} for container in containers.values()]
    for shape in shapes:
        shape["args"] = [arg for arg in shape["args"] if not arg.startswith("--trusted-proxy=")]
    assert all(shape == shapes[0] for shape in shapes)
    trusting = {where for where, container in containers.items()
                if any(arg.startswith("--trusted-proxy=") for arg in container["args"])}
    assert trusting == {"deployment/sprtec.yaml:Deployment"}


def test_k8s_nodes_reach_the_base_services_with_the_base_secret() -> None:
    """--redis and --postgres name the base's Services at their ports; the password comes from the generated secret."""
    services = _services()
    (base,) = _yaml(K8S / "base" / "kustomization.yaml")
    secrets = {generator["name"] for generator in base["secretGenerator"]}
    (postgres,) = [obj for _, obj in _k8s_objects() if obj["kind"] == "StatefulSet"]
    postgres_env = {e["name"]: e.get("value") for e in postgres["spec"]["template"]["spec"]["containers"][0]["env"]}
    for where, container in _node_containers().items():
        _check_serve_arguments(container["args"])
        options = _options(container["args"])
        for option, scheme in (("--redis", "redis"), ("--postgres", "postgresql")):
            url = urlsplit(options[option].replace("$(POSTGRES_PASSWORD)", "password"))
            assert url.scheme == scheme, where
            assert url.port in {port["port"] for port in services[str(url.hostname)]["spec"]["ports"]}, where
        pg_url = urlsplit(options["--postgres"].replace("$(POSTGRES_PASSWORD)", "password"))
        assert (pg_url.username, pg_url.path) == (postgres_env["POSTGRES_USER"], f"/{postgres_env['POSTGRES_DB']}")
        env = {e["name"]: e["valueFrom"] for e in container["env"]}
        assert env["POSTGRES_PASSWORD"]["secretKeyRef"]["name"] in secrets, where
        assert env["POD_NAME"] == {"fieldRef": {"fieldPath": "metadata.name"}} and options["--node-id"] == "$(POD_NAME)"
        assert container["securityContext"]["runAsNonRoot"] is True


def test_k8s_probes_ask_what_the_server_answers_on_its_port() -> None:
    """Every httpGet probe asks one of the node's paths on the port it listens on."""
    (deployment,) = [
        obj for _, obj in _k8s_objects() if obj["kind"] == "Deployment" and obj["metadata"]["name"] == "sprtec"
    ]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    listen = int(_options(container["args"])["--port"])
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        get = container[probe]["httpGet"]
        assert get["path"] in http_endpoints.PATHS and ports[get["port"]] == listen, probe
    assert container["readinessProbe"]["httpGet"]["path"] == http_endpoints.READY_PATH


def test_prometheus_scrapes_the_metrics_listener_which_no_player_reaches() -> None:
    """Every node serves /metrics on a listener of its own (--metrics): the pods' annotations scrape that port, a
    pod port of the container; neither the Service nor the GameServer's host ports expose it, and the game port
    answers /metrics to no one but its own machine."""
    pods = {}
    for path, obj in _k8s_objects():
        if obj["kind"] in ("GameServer", "Fleet", "Deployment"):
            pod = obj["spec"]["template"] if obj["kind"] != "Fleet" else obj["spec"]["template"]["spec"]["template"]
            if any(c["name"] == "sprtec" for c in pod["spec"]["containers"]):
                pods[f"{path.relative_to(K8S)}:{obj['kind']}"] = (obj, pod)
    assert len(pods) == 3
    for where, (obj, pod) in pods.items():
        (container,) = [c for c in pod["spec"]["containers"] if c["name"] == "sprtec"]
        options = _options(container["args"])
        host, _, port = options["--metrics"].rpartition(":")
        annotations = pod["metadata"]["annotations"]
        assert annotations["prometheus.io/path"] == http_endpoints.METRICS_PATH, where
        assert int(annotations["prometheus.io/port"]) == int(port) != int(options["--port"]), where
        assert int(port) in {p["containerPort"] for p in container["ports"]} and host == "0.0.0.0", where
        spec = obj["spec"]["template"]["spec"] if obj["kind"] == "Fleet" else obj["spec"]
        assert int(port) not in {p.get("containerPort") for p in spec.get("ports", [])}, where  # Agones host ports
    (service,) = [obj for name, obj in _services().items() if name == "sprtec"]
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["ws"]


def test_agones_health_window_fits_the_nodes_ping_cadence() -> None:
    """A ping every HEALTH_INTERVAL_S lands at least twice in each of Agones' health periods; the port is TCP."""
    (gameserver,) = _yaml(K8S / "gameserver.yaml")
    spec = gameserver["spec"]
    assert spec["health"]["disabled"] is False
    assert spec["health"]["periodSeconds"] >= 2 * agones.HEALTH_INTERVAL_S
    assert spec["health"]["failureThreshold"] >= 2
    (port,) = spec["ports"]
    (container,) = spec["template"]["spec"]["containers"]
    assert spec["container"] == container["name"]
    assert (port["protocol"], port["containerPort"]) == ("TCP", int(_options(container["args"])["--port"]))
    assert spec["sdkServer"]["httpPort"] > 0


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed (it builds the kustomizations)")
@pytest.mark.parametrize(
    ("overlay", "kinds"),
    [
        ("agones", {"Namespace", "Secret", "Deployment", "Service", "StatefulSet", "Fleet", "FleetAutoscaler"}),
        (
            "deployment",
            {"Namespace", "Secret", "Deployment", "Service", "StatefulSet", "PodDisruptionBudget", "Ingress"},
        ),
    ],
)
def test_kubectl_kustomize_builds_each_way_of_running(overlay: str, kinds: set[str]) -> None:
    """`kubectl kustomize` (offline) builds the overlay into the expected kinds, all in the sprtec namespace."""
    done = subprocess.run(
        ["kubectl", "kustomize", str(K8S / overlay)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    objects = [doc for doc in yaml.safe_load_all(done.stdout) if doc]
    assert {obj["kind"] for obj in objects} == kinds
    assert all(obj["metadata"].get("namespace") == "sprtec" for obj in objects if obj["kind"] != "Namespace")
