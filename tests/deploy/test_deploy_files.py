"""The deploy/ files, checked offline (no container engine or cluster runs here).

* Every Kubernetes manifest, and the TLS overlay applied to it, validates strictly
  against the Kubernetes API schemas bundled by ``kubernetes-validate``, for the
  oldest and newest Kubernetes versions the manifests claim to support; every
  kustomization a document's command names renders with a real kustomize (the
  standalone one or kubectl's) where the machine has one.
* The compose file passes ``docker-compose config`` (Compose's own schema check
  and interpolation), and what it says agrees with the Envoy and Prometheus files.
* Every ``SENET_*`` knob the files set is a real setting, so a typo cannot pass
  silently; the Dockerfile is multi-stage, non-root, health-checked and installs
  exactly the hash-pinned dependencies of ``pyproject.toml``.
"""

from __future__ import annotations

import copy
import importlib.metadata
import os
import re
import shutil
import subprocess
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import jsonpatch
import kubernetes_validate
import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from senet.service.server import LIVENESS_SERVICE
from senet.service.settings import Settings

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"
#: Built-in gRPC probes are GA since 1.27; the newest schemas bundled are checked too.
KUBERNETES_VERSIONS = ["1.27.0", kubernetes_validate.latest_version()]
#: SENET_* variables read by the clients (bot worker, health probe), not by Settings.
CLIENT_VARIABLES = {"SENET_SERVER", "SENET_TLS_CA", "SENET_TLS_SERVER_NAME"}
SETTINGS_VARIABLES = {f"SENET_{f.name.upper()}" for f in fields(Settings)}

Doc = dict[str, Any]


def load_documents(path: Path) -> list[Doc]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d is not None]


def kustomize_resources(folder: Path) -> list[Doc]:
    """The documents a kustomization renders (resources, then JSON patches).

    Only the features these manifests use: ``resources`` (files or folders) and
    ``patches`` holding RFC 6902 patches with a kind/name target.
    """
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    docs: list[Doc] = []
    for resource in kustomization["resources"]:
        path = (folder / resource).resolve()
        docs += kustomize_resources(path) if path.is_dir() else load_documents(path)
    for patch in kustomization.get("patches", []):
        operations = yaml.safe_load((folder / patch["path"]).read_text())
        target = patch["target"]
        matches = [
            i
            for i, d in enumerate(docs)
            if d["kind"] == target["kind"] and d["metadata"]["name"] == target["name"]
        ]
        assert len(matches) == 1, f"patch {patch['path']} matches {len(matches)} documents"
        docs[matches[0]] = jsonpatch.apply_patch(docs[matches[0]], operations)
    return docs


def find(docs: list[Doc], kind: str, name: str) -> Doc:
    (doc,) = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    return doc


def container(doc: Doc) -> Doc:
    containers: list[Doc] = doc["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def env_of(doc: Doc) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container(doc).get("env", [])}


BASE = kustomize_resources(K8S / "base")
WITH_TLS = kustomize_resources(K8S / "tls")
ENVOY = yaml.safe_load((DEPLOY / "envoy.yaml").read_text())


# ----------------------------------------------------------------- kubernetes
@pytest.mark.slow
@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("variant", ["base", "tls"])
def test_every_manifest_validates_against_the_kubernetes_schemas(
    variant: str, version: str
) -> None:
    docs = BASE if variant == "base" else WITH_TLS
    kinds = sorted({d["kind"] for d in docs})
    assert kinds == [
        "ConfigMap",
        "Deployment",
        "HorizontalPodAutoscaler",
        "Namespace",
        "PodDisruptionBudget",
        "Secret",
        "Service",
        "StatefulSet",
    ]
    for doc in docs:
        kubernetes_validate.validate(doc, version, strict=True)


def test_the_validator_rejects_a_broken_manifest() -> None:
    """The schemas are really applied: a misspelt field fails validation."""
    deployment = copy.deepcopy(find(BASE, "Deployment", "senet-server"))
    container(deployment)["readinessProbe"]["grpcc"] = container(deployment)["readinessProbe"].pop(
        "grpc"
    )
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSIONS[-1], strict=True)


def test_kustomization_lists_every_manifest() -> None:
    base = K8S / "base"
    listed = yaml.safe_load((base / "kustomization.yaml").read_text())["resources"]
    on_disk = sorted(p.name for p in base.glob("*.yaml") if p.name != "kustomization.yaml")
    assert sorted(listed) == on_disk


#: Documents whose shell commands name kustomizations.
DOCUMENTED_IN = [REPO / "README.md", DEPLOY / "README.md", *K8S.glob("*/kustomization.yaml")]
_RENDER = re.compile(
    r"(?:kubectl (?:apply|delete) -k|kubectl kustomize|kustomize build) ([\w./-]+)"
)
_EDIT = re.compile(r"cd ([\w./-]+) && kustomize edit")


def documented(pattern: re.Pattern[str]) -> list[str]:
    found = {m for doc in DOCUMENTED_IN for m in pattern.findall(doc.read_text())}
    return sorted(found)


def real_kustomize() -> list[str] | None:
    """A real kustomize: the standalone binary, or the one built into kubectl."""
    if shutil.which("kustomize"):
        return ["kustomize", "build"]
    if shutil.which("kubectl"):
        return ["kubectl", "kustomize"]
    return None


def test_the_documents_name_both_variants() -> None:
    assert documented(_RENDER) == ["deploy/k8s/base", "deploy/k8s/tls"]
    assert documented(_EDIT) == ["deploy/k8s/base"]


@pytest.mark.parametrize("folder", documented(_RENDER) + documented(_EDIT))
def test_every_documented_kustomization_renders(folder: str) -> None:
    """Each folder a documented command names holds a kustomization, and a real
    kustomize renders it as written from the repository root (an overlay inside
    its base's folder, for one, is refused as a cycle)."""
    assert (REPO / folder / "kustomization.yaml").is_file()
    command = real_kustomize()
    if command is None:
        pytest.skip("neither kustomize nor kubectl on this machine")
    rendered = subprocess.run(
        [*command, folder], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert rendered.returncode == 0, rendered.stderr
    docs = [d for d in yaml.safe_load_all(rendered.stdout) if d is not None]
    emulated = WITH_TLS if folder.endswith("tls") else BASE
    assert sorted((d["kind"], d["metadata"]["name"]) for d in docs) == sorted(
        (d["kind"], d["metadata"]["name"]) for d in emulated
    )


def test_server_probes_health_and_drains_within_its_grace_period() -> None:
    server = find(BASE, "Deployment", "senet-server")
    main = container(server)
    port = next(p["containerPort"] for p in main["ports"] if p["name"] == "grpc")
    assert main["readinessProbe"]["grpc"] == {"port": port}  # whole server: store health
    for probe in ("livenessProbe", "startupProbe"):
        assert main[probe]["grpc"] == {"port": port, "service": LIVENESS_SERVICE}
    config = find(BASE, "ConfigMap", "senet-config")["data"]
    pause = int(main["lifecycle"]["preStop"]["exec"]["command"][1])
    grace = server["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    notice = float(config.get("SENET_DRAIN_NOTICE_S", Settings.drain_notice_s))
    assert pause + notice + float(config["SENET_DRAIN_GRACE_S"]) < grace
    assert {"requests", "limits"} <= set(main["resources"])
    pdb = find(BASE, "PodDisruptionBudget", "senet-server")
    hpa = find(BASE, "HorizontalPodAutoscaler", "senet-server")
    labels = server["spec"]["selector"]["matchLabels"]
    assert pdb["spec"]["selector"]["matchLabels"] == labels
    assert hpa["spec"]["scaleTargetRef"]["name"] == "senet-server"
    assert hpa["spec"]["minReplicas"] > pdb["spec"]["maxUnavailable"]
    headless = find(BASE, "Service", "senet-server-headless")
    assert headless["spec"]["clusterIP"] == "None" and headless["spec"]["selector"] == labels
    assert f"senet-server-headless.senet.svc.cluster.local:{port}" in config["SENET_SERVER"]


@pytest.mark.parametrize(
    "name", ["senet-server", "senet-bots", "redis", "senet-envoy", "senet-web"]
)
def test_pods_run_unprivileged(name: str) -> None:
    doc = next(d for d in BASE if d["metadata"]["name"] == name and "template" in d.get("spec", {}))
    pod = doc["spec"]["template"]["spec"]["securityContext"]
    assert pod["runAsNonRoot"] and pod["runAsUser"] != 0
    assert pod["seccompProfile"] == {"type": "RuntimeDefault"}
    security = container(doc)["securityContext"]
    assert security["allowPrivilegeEscalation"] is False
    assert security["readOnlyRootFilesystem"] is True
    assert security["capabilities"] == {"drop": ["ALL"]}


def test_secrets_come_from_secrets_not_config() -> None:
    config = find(BASE, "ConfigMap", "senet-config")["data"]
    assert not any(re.search("KEY$|PASSWORD", name) for name in config)
    server_env = env_of(find(BASE, "Deployment", "senet-server"))
    for name in ("SENET_ADMIN_KEY", "REDIS_PASSWORD"):
        assert server_env[name]["secretKeyRef"]["name"] == "senet-secrets"
    assert env_of(find(BASE, "Deployment", "senet-bots"))["SENET_ADMIN_KEY"]["secretKeyRef"]


def test_every_knob_set_is_a_real_setting() -> None:
    config = find(BASE, "ConfigMap", "senet-config")["data"]
    knobs = {n for n in config if n.startswith("SENET_")}
    for doc in WITH_TLS:
        if doc["kind"] == "Deployment":
            knobs |= {n for n in env_of(doc) if n.startswith("SENET_")}
    assert knobs - SETTINGS_VARIABLES - CLIENT_VARIABLES == set()


def envoy_config(docs: list[Doc], name: str) -> Doc:
    config: Doc = yaml.safe_load(find(docs, "ConfigMap", name)["data"]["envoy.yaml"])
    return config


def test_kubernetes_envoy_is_the_compose_one_on_the_headless_service() -> None:
    """senet-envoy runs deploy/envoy.yaml's configuration, but for its upstream (the
    headless Service) and its admin interface (localhost only)."""
    config = envoy_config(BASE, "senet-envoy")
    expected = copy.deepcopy(ENVOY)
    expected["admin"]["address"]["socket_address"]["address"] = "127.0.0.1"
    (endpoint,) = expected["static_resources"]["clusters"][0]["load_assignment"]["endpoints"][0][
        "lb_endpoints"
    ]
    headless = find(BASE, "Service", "senet-server-headless")
    endpoint["endpoint"]["address"]["socket_address"]["address"] = (
        f"{headless['metadata']['name']}.senet.svc.cluster.local"
    )
    assert config == expected
    deployment = find(BASE, "Deployment", "senet-envoy")
    (volume,) = deployment["spec"]["template"]["spec"]["volumes"]
    assert volume["configMap"]["name"] == "senet-envoy"
    assert container(deployment)["volumeMounts"][0]["mountPath"] == "/etc/envoy"


def test_kubernetes_quota_header_is_set_by_envoy_and_read_by_the_servers() -> None:
    config = find(BASE, "ConfigMap", "senet-config")["data"]
    header = config["SENET_CLIENT_HEADER"]
    for listener in listeners_of(envoy_config(BASE, "senet-envoy")).values():
        added = manager_of(listener)["route_config"]["request_headers_to_add"]
        assert [h["header"]["key"] for h in added] == [header]
    ports = {
        c["name"]: c["containerPort"]
        for c in container(find(BASE, "Deployment", "senet-envoy"))["ports"]
    }
    listeners = listeners_of(envoy_config(BASE, "senet-envoy"))
    assert ports == {name: port_of(listener) for name, listener in listeners.items()}
    public = find(BASE, "Service", "senet-envoy")
    # Local: Envoy sees the clients' own addresses, not a node's.
    assert public["spec"]["type"] == "LoadBalancer"
    assert public["spec"]["externalTrafficPolicy"] == "Local"
    assert [p["targetPort"] for p in public["spec"]["ports"]] == ["grpc"]
    internal = find(BASE, "Service", "senet-envoy-internal")
    assert internal["spec"]["type"] == "ClusterIP"
    (internal_port,) = internal["spec"]["ports"]
    assert internal_port["targetPort"] == "grpc-internal"
    web = container(find(BASE, "Deployment", "senet-web"))
    args = web["args"]
    assert args[0] == "web" and args[args.index("--host") + 1] == "0.0.0.0"
    assert args[args.index("--server") + 1] == (
        f"senet-envoy-internal.senet.svc.cluster.local:{internal_port['port']}"
    )
    # The key from the environment (a flag's value shows in the process list).
    assert "--admin-key" not in args
    assert env_of(find(BASE, "Deployment", "senet-web"))["SENET_ADMIN_KEY"]["secretKeyRef"]
    assert web["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert web["livenessProbe"]["httpGet"]["path"] == "/healthz"
    web_port = int(args[args.index("--port") + 1])
    assert {p["containerPort"] for p in web["ports"]} == {web_port}


def test_tls_overlay_envoy_speaks_tls_to_the_servers() -> None:
    """The TLS variant's Envoy runs the base configuration plus upstream TLS
    trusting the mounted CA, under the name the servers' probe checks."""
    deployment = find(WITH_TLS, "Deployment", "senet-envoy")
    spec = deployment["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in spec["volumes"]}
    assert volumes["config"]["configMap"]["name"] == "senet-envoy-tls"
    assert volumes["tls"]["secret"]["secretName"] == "senet-tls"
    mounts = {m["name"]: m["mountPath"] for m in container(deployment)["volumeMounts"]}
    config = envoy_config(WITH_TLS, "senet-envoy-tls")
    (cluster,) = config["static_resources"]["clusters"]
    socket = cluster.pop("transport_socket")["typed_config"]
    assert config == envoy_config(BASE, "senet-envoy")
    ca = socket["common_tls_context"]["validation_context"]["trusted_ca"]["filename"]
    assert ca == f"{mounts['tls']}/ca.crt"
    server_name = env_of(find(WITH_TLS, "Deployment", "senet-server"))["SENET_TLS_SERVER_NAME"]
    assert socket["sni"] == server_name
    assert socket["common_tls_context"]["alpn_protocols"] == ["h2"]


def test_the_kubernetes_redis_keeps_an_append_only_file() -> None:
    """Without persistence a Redis restart loses every match (the server warns)."""
    args = container(find(BASE, "StatefulSet", "redis"))["args"]
    assert args[args.index("--appendonly") + 1] == "yes"


def test_tls_overlay_serves_tls_and_probes_with_the_ca() -> None:
    server = find(WITH_TLS, "Deployment", "senet-server")
    env = env_of(server)
    assert {env["SENET_TLS_CERT"], env["SENET_TLS_KEY"], env["SENET_TLS_CA"]} == {
        "/etc/senet/tls/tls.crt",
        "/etc/senet/tls/tls.key",
        "/etc/senet/tls/ca.crt",
    }
    main = container(server)
    assert main["volumeMounts"][0]["mountPath"] == "/etc/senet/tls"
    assert main["readinessProbe"]["exec"]["command"] == ["python", "-m", "senet.service.probe"]
    assert main["livenessProbe"]["exec"]["command"][-2:] == ["--service", LIVENESS_SERVICE]
    assert env_of(find(WITH_TLS, "Deployment", "senet-bots"))["SENET_TLS_CA"].endswith("ca.crt")


# -------------------------------------------------------------------- compose
def compose_command() -> list[str] | None:
    """``docker compose`` when the plugin is there, else ``docker-compose``."""
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


@pytest.fixture(scope="module")
def compose_config() -> Doc:
    """The compose file as ``docker-compose config`` resolves it (needs no engine)."""
    command = compose_command()
    if command is None:
        message = "docker-compose is not installed (.ci/run installs Debian's docker-compose)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SENET_", "REDIS_"))}
    result = subprocess.run(
        [*command, "-f", str(DEPLOY / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    resolved: Doc = yaml.safe_load(result.stdout)
    return resolved


@pytest.mark.slow
def test_compose_runs_the_stack_the_issue_asks_for(compose_config: Doc) -> None:
    services = compose_config["services"]
    assert {"redis", "server", "envoy", "bots", "prometheus", "arena"} <= set(services)
    redis_command = services["redis"]["command"]
    assert redis_command[redis_command.index("--appendonly") + 1] == "yes"
    assert services["server"]["deploy"]["replicas"] == 3
    password = redis_command[redis_command.index("--requirepass") + 1]
    assert services["server"]["environment"]["SENET_REDIS_URL"] == (
        f"redis://:{password}@redis:6379/0"
    )
    admin_key = services["server"]["environment"]["SENET_ADMIN_KEY"]
    assert services["bots"]["environment"]["SENET_ADMIN_KEY"] == admin_key
    for service in ("server", "bots"):
        knobs = {n for n in services[service]["environment"] if n.startswith("SENET_")}
        assert knobs - SETTINGS_VARIABLES - CLIENT_VARIABLES == set()


def published_ports(service: Doc) -> dict[int, int]:
    """A compose service's published ports, host port by container port (docker-compose
    v1 prints a port with a host address in the short "ip:host:container/tcp" form)."""
    ports: dict[int, int] = {}
    for port in service.get("ports", []):
        if isinstance(port, str):
            host, container_port = port.split("/")[0].split(":")[-2:]
            ports[int(container_port)] = int(host)
        else:
            ports[int(port["target"])] = int(port["published"])
    return ports


def listeners_of(envoy: Doc) -> dict[str, Doc]:
    return {listener["name"]: listener for listener in envoy["static_resources"]["listeners"]}


def manager_of(listener: Doc) -> Doc:
    manager: Doc = listener["filter_chains"][0]["filters"][0]["typed_config"]
    return manager


def port_of(listener: Doc) -> int:
    port: int = listener["address"]["socket_address"]["port_value"]
    return port


def test_envoy_balances_requests_over_the_compose_replicas(compose_config: Doc) -> None:
    services = compose_config["services"]
    listeners = listeners_of(ENVOY)
    assert set(listeners) == {"grpc", "grpc-internal"}
    public, internal = port_of(listeners["grpc"]), port_of(listeners["grpc-internal"])
    assert services["bots"]["environment"]["SENET_SERVER"] == f"envoy:{public}"
    published = published_ports(services["envoy"])
    assert public in published and internal not in published  # only the web client's
    (cluster,) = ENVOY["static_resources"]["clusters"]
    assert cluster["type"] == "STRICT_DNS"  # one upstream host per replica address
    (endpoint,) = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"]
    upstream = endpoint["endpoint"]["address"]["socket_address"]
    assert (
        upstream["address"] == "server"
        and str(upstream["port_value"]) in (services["server"]["expose"])
    )
    assert "http2_protocol_options" in str(cluster["typed_extension_protocol_options"])
    assert "grpc_health_check" in cluster["health_checks"][0]
    for listener in listeners.values():
        manager = manager_of(listener)
        (route,) = manager["route_config"]["virtual_hosts"][0]["routes"]
        assert route["route"]["timeout"] == "0s"  # streams last a whole match
        assert route["route"]["cluster"] == cluster["name"]


def test_envoy_names_each_caller_in_the_servers_quota_header(compose_config: Doc) -> None:
    """Every listener overwrites the header the replicas count quotas against with
    the client's address, so no client can pick its own (nor share Envoy's): the
    public one trusts no x-forwarded-for, the internal one (the web client's) one hop."""
    services = compose_config["services"]
    header = services["server"]["environment"]["SENET_CLIENT_HEADER"]
    assert header == header.lower()  # gRPC metadata keys arrive in lower case
    trusted_hops = {"grpc": 0, "grpc-internal": 1}
    for name, listener in listeners_of(ENVOY).items():
        manager = manager_of(listener)
        assert manager["use_remote_address"] is True
        assert manager.get("xff_num_trusted_hops", 0) == trusted_hops[name]
        routes = manager["route_config"]
        assert header in routes["request_headers_to_remove"]
        (added,) = [h for h in routes["request_headers_to_add"] if h["header"]["key"] == header]
        assert added["header"]["value"] == "%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%"
        assert added["append_action"] == "OVERWRITE_IF_EXISTS_OR_ADD"
    internal = port_of(listeners_of(ENVOY)["grpc-internal"])
    command = services["web"]["command"]
    assert command[command.index("--server") + 1] == f"envoy:{internal}"


def test_compose_host_ports_can_be_remapped(compose_config: Doc) -> None:
    """Every published port takes a variable (with the documented default)."""
    text = (DEPLOY / "docker-compose.yml").read_text()
    readme = (DEPLOY / "README.md").read_text()
    for variable, default in [
        ("SENET_PORT", 50051),
        ("SENET_WEB_PORT", 8080),
        ("PROMETHEUS_PORT", 9090),
        ("ENVOY_ADMIN_PORT", 9901),
    ]:
        assert f"${{{variable}:-{default}}}:" in text
        assert f"`{variable}`" in readme
    published = [
        port for s in compose_config["services"].values() for port in published_ports(s).values()
    ]
    assert sorted(published) == [8080, 9090, 9901, 50051]


def test_prometheus_scrapes_every_replica(compose_config: Doc) -> None:
    prometheus = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in prometheus["scrape_configs"]}
    (discovery,) = jobs["senet-server"]["dns_sd_configs"]
    assert discovery["names"] == ["server"]
    assert str(discovery["port"]) in compose_config["services"]["server"]["expose"]
    (mount,) = compose_config["services"]["prometheus"]["volumes"]
    # docker-compose v1 prints the short "src:target:ro" form, v2 a mapping.
    assert "/etc/prometheus/prometheus.yml" in str(mount)


# ----------------------------------------------------------------- dockerfile
def test_dockerfile_is_multi_stage_non_root_and_health_checked() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM \S+ AS (\w+)", text, re.MULTILINE)
    assert stages == ["build", "runtime"]
    runtime = text.split("AS runtime", 1)[1]
    (user,) = re.findall(r"^USER (\S+)", runtime, re.MULTILINE)
    assert not user.startswith("0") and user.split(":")[0].isdigit()
    assert "--require-hashes" in text and "grpc_tools.protoc" in text
    assert re.search(r'^HEALTHCHECK .*\n?.*"senet\.service\.probe"\]', runtime, re.MULTILINE)
    assert re.search(r'^ENTRYPOINT \["python", "-m", "senet\.cli"\]', runtime, re.MULTILINE)
    assert re.search(r"^STOPSIGNAL SIGTERM", runtime, re.MULTILINE)


def test_image_requirements_pin_every_runtime_dependency() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = {re.split(r"[<>=\[ ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    text = (DEPLOY / "requirements.txt").read_text()
    pinned = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", text, re.MULTILINE))
    assert wanted <= {name.lower() for name in pinned}
    blocks = re.split(r"\n(?=[A-Za-z])", text.split("\n", 2)[2])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)
    # pip --require-hashes refuses a lock missing any dependency of a pinned package
    # (setuptools, needed by grpcio-tools, once was): walk the installed closure.
    missing = _runtime_closure(wanted) - {canonicalize_name(n) for n in pinned}
    assert missing == set(), f"add to the lock (make deploy-lock): {sorted(missing)}"


def _runtime_closure(names: set[str]) -> set[str]:
    """Every distribution ``names`` need at run time, as installed in this environment."""
    seen: set[str] = set()
    todo = [canonicalize_name(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for line in importlib.metadata.requires(name) or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(canonicalize_name(requirement.name))
    return seen


# --------------------------------------------------------------------- readme
def test_readme_documents_every_knob_and_file() -> None:
    readme = (DEPLOY / "README.md").read_text()
    undocumented = {v for v in SETTINGS_VARIABLES | CLIENT_VARIABLES if f"`{v}`" not in readme}
    assert undocumented == set()
    files = {p.name for p in DEPLOY.iterdir() if p.is_file() and p.name != "README.md"}
    assert {name for name in files if f"`{name}`" not in readme} == set()


def test_readme_lists_every_metric() -> None:
    """Each metric the server exports is in the README's table, as Prometheus sees it."""
    from prometheus_client.metrics import MetricWrapperBase

    from senet.service import metrics

    readme = (DEPLOY / "README.md").read_text()
    exported = {
        next(iter(metric.describe())).name + ("_total" if metric._type == "counter" else "")
        for metric in vars(metrics).values()
        if isinstance(metric, MetricWrapperBase)
    }
    assert len(exported) >= 10
    assert {name for name in exported if f"| `{name}` |" not in readme} == set()


def test_every_third_party_image_is_pinned(compose_config: Doc) -> None:
    """Images name a version, never ``latest``: a redeploy runs what was tested."""
    images = {s["image"] for s in compose_config["services"].values() if "image" in s}
    images |= {container(d)["image"] for d in BASE if "template" in d.get("spec", {})}
    images |= set(re.findall(r"^ARG PYTHON_IMAGE=(\S+)", (DEPLOY / "Dockerfile").read_text(), re.M))
    third_party = {i for i in images if not i.startswith("senet:")}
    assert {"redis", "envoyproxy/envoy", "prom/prometheus", "python"} <= {
        i.split(":")[0] for i in third_party
    }
    for image in third_party:
        tag = image.partition(":")[2]
        assert re.match(r"v?\d+\.\d+\.\d+", tag), image
