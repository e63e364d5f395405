"""The Dockerfile, docker-compose.yml and .env.example agree with the settings and each other."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from server.cluster.dev import main
from server.config import Settings

ROOT = Path(__file__).resolve().parent.parent
INTERNAL = {"TEMPLATES_DIR", "STATIC_DIR", "TEST_FIXED_SEED", "STAGE_TIMING"}  # not for hosts


def dockerfile() -> dict[str, list[str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.setdefault(word.upper(), []).append(rest.strip())
    return out


def docker_env() -> dict[str, str]:
    env = {}
    for entry in dockerfile()["ENV"]:
        env.update(dict(re.findall(r"(\w+)=(\S+)", entry)))
    return env


def test_image_runs_the_same_command_as_make_run_as_a_non_root_user() -> None:
    d = dockerfile()
    assert json.loads(d["CMD"][-1]) == ["python", "-m", "server"]
    assert "python -m server" in (ROOT / "Makefile").read_text().replace("$(PY)", "python")
    assert d["USER"] == ["10001"] and "--uid 10001" in " ".join(d["RUN"])
    assert d["ARG"] == ["BASE=python:3.11-slim"]  # scripts/ensure-base-image.sh: another
    assert d["FROM"] == ["${BASE} AS build", "${BASE}"]
    assert any("/healthz" in h for h in d["HEALTHCHECK"])


def test_image_keeps_the_built_venv_alone() -> None:
    """Multi-stage: the package is built and installed in the first stage (its dependencies
    first, from pyproject.toml alone, in a layer a code change does not redo); the image
    copies its /venv and nothing else (no sources, no build tools, no pip)."""
    d = dockerfile()
    assert [f.split()[-1] for f in d["FROM"]] == ["build", "${BASE}"]
    assert [c for c in d["COPY"] if c.startswith("--from")] == ["--from=build /venv /venv"]
    assert d["COPY"][0] == "pyproject.toml ./" and "['dependencies']" in d["RUN"][0]
    assert len(d["COPY"]) == 8  # the build stage's seven, the image's one
    assert "--no-deps ." in d["RUN"][1] and "pip uninstall --yes pip" in d["RUN"][1]


def test_image_and_compose_agree_on_the_port_and_settings() -> None:
    env = docker_env()
    port = env["PORT"]
    assert d_expose() == port
    assert env["HOST"] == "0.0.0.0"
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    app = compose["services"]["app"]
    assert app["ports"] == [f"{port}:{port}"]
    assert str(app["environment"]["PORT"]) == port
    assert app["environment"]["DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert set(app["environment"]) <= set(Settings.model_fields)
    python = {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PATH", "PIP_NO_CACHE_DIR",
              "PIP_DISABLE_PIP_VERSION_CHECK"}
    assert set(env) - python <= set(Settings.model_fields)
    db = compose["services"]["db"]
    assert any("/var/lib/postgresql/data" in v for v in db["volumes"])


def d_expose() -> str:
    return dockerfile()["EXPOSE"][0]


def test_env_example_documents_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    keys = set(re.findall(r"^#? ?([A-Z_]+)=", example, re.M))
    public = set(Settings.model_fields) - INTERNAL
    assert public <= keys, f"undocumented in .env.example: {public - keys}"
    assert keys <= set(Settings.model_fields)


def documented_defaults() -> dict[str, str | None]:
    """docs/SETTINGS.md's rows: each variable's default as written, None when it is told in
    words rather than given (an empty default: "(none)", "host name and port")."""
    found: dict[str, str | None] = {}
    for line in (ROOT / "docs" / "SETTINGS.md").read_text().splitlines():
        if not line.startswith("| `"):
            continue
        variables, default = (cell.strip() for cell in line.strip("|").split("|")[:2])
        names, given = re.findall(r"`([A-Z_0-9]+)`", variables), re.findall(r"`([^`]*)`", default)
        for i, name in enumerate(names):
            found[name] = given[i] if len(given) == len(names) else None
    return found


def test_docs_settings_holds_every_setting_with_its_default() -> None:
    """One place for every setting: docs/SETTINGS.md, checked against the owner's fields."""
    documented = documented_defaults()
    assert set(Settings.model_fields) - set(documented) == set(), "add them to docs/SETTINGS.md"
    assert set(documented) - set(Settings.model_fields) <= UVICORN_OWN | PROCESS_OWN
    for name, field in Settings.model_fields.items():
        default, shown = field.default, documented[name]
        if default == "":
            assert shown is None, f"{name}: an empty default is told in words"
        elif isinstance(default, bool):
            assert shown == str(default).lower(), name
        elif isinstance(default, int | float):
            assert shown is not None and float(shown) == default, name
        elif isinstance(default, str):
            assert shown == default, name


def test_the_readme_shows_hosts_no_test_or_benchmark_setting() -> None:
    readme = (ROOT / "README.md").read_text()
    assert not {k for k in INTERNAL if f"`{k}`" in readme}


def test_defaults_serve_on_localhost_8000_with_sqlite() -> None:
    s = Settings(_env_file=None)
    assert (s.HOST, s.PORT) == ("127.0.0.1", 8000)
    assert s.DATABASE_URL.startswith("sqlite")


# --- the cluster profile ---------------------------------------------------------------------

CLUSTER = {"haproxy", "haproxy-config", "app1", "app2", "redis", "cluster-db"}
UVICORN_OWN = {"FORWARDED_ALLOW_IPS"}  # read by uvicorn itself, not by our Settings
PROCESS_OWN = {"MALLOC_ARENA_MAX"}  # read by glibc (the server sets it before it starts)


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_plain_compose_up_still_starts_only_the_app_and_its_database() -> None:
    services = compose()["services"]
    always = {name for name, s in services.items() if not s.get("profiles")}
    assert always == {"app", "db"}
    assert {name for name, s in services.items() if s.get("profiles") == ["cluster"]} == CLUSTER


def test_cluster_instances_share_redis_and_postgres_under_their_own_names() -> None:
    services = compose()["services"]
    envs = [services[name]["environment"] for name in ("app1", "app2")]
    assert [e["INSTANCE_ID"] for e in envs] == ["app1", "app2"]
    for env in envs:
        assert set(env) - UVICORN_OWN <= set(Settings.model_fields)
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert env["DATABASE_URL"].startswith("postgresql+asyncpg://")
        assert "@cluster-db:5432/" in env["DATABASE_URL"]
        assert env["PORT"] == d_expose()
    assert envs[0]["DATABASE_URL"] == envs[1]["DATABASE_URL"]
    assert "JOURNAL_FALLBACK_PATH" not in envs[0]  # cluster mode journals to PostgreSQL only
    assert "ports" not in services["app1"] and "ports" not in services["app2"]


def test_cluster_haproxy_runs_the_repo_config_rendered_for_the_instances(tmp_path: Path) -> None:
    services = compose()["services"]
    command = services["haproxy-config"]["command"]
    assert command[:4] == ["python", "-m", "server.cluster.dev", "render"]
    args = command[4:]
    servers = [args[i + 1] for i, a in enumerate(args) if a == "--server"]
    assert servers == [f"{name}:{d_expose()}" for name in ("app1", "app2")]
    out = args[args.index("--out") + 1]
    port = args[args.index("--port") + 1]
    proxy = services["haproxy"]
    assert proxy["command"][-1] == out and "-f" in proxy["command"]
    assert proxy["ports"] == [f"{port}:{port}"]
    volume = str(Path(out).parent)
    assert any(v.split(":")[1] == volume for v in proxy["volumes"])
    assert any(v.split(":")[1] == volume for v in services["haproxy-config"]["volumes"])
    assert proxy["depends_on"]["haproxy-config"]["condition"] == "service_completed_successfully"
    assert "COPY deploy ./deploy" in (ROOT / "Dockerfile").read_text()
    rendered = tmp_path / "haproxy.cfg"
    main(["render", *args[: args.index("--out")], "--out", str(rendered)])
    text = rendered.read_text()
    assert f"bind :{port}\n" in text
    assert all(text.count(f" {s}\n") == 2 for s in servers)
