"""The Dockerfile, docker-compose.yml and .env.example agree with the settings and each other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from server.config import Settings

ROOT = Path(__file__).resolve().parent.parent
INTERNAL = {"TEMPLATES_DIR", "STATIC_DIR", "TEST_FIXED_SEED"}  # not for hosts to set


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
    assert d["USER"] == ["app"]
    assert d["FROM"][0].startswith("python:3.11-slim")
    assert any("/healthz" in h for h in d["HEALTHCHECK"])


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
    assert set(env) - {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"} <= set(Settings.model_fields)
    db = compose["services"]["db"]
    assert any("/var/lib/postgresql/data" in v for v in db["volumes"])


def d_expose() -> str:
    return dockerfile()["EXPOSE"][0]


def test_env_example_and_readme_document_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    keys = set(re.findall(r"^#? ?([A-Z_]+)=", example, re.M))
    public = set(Settings.model_fields) - INTERNAL
    assert public <= keys, f"undocumented in .env.example: {public - keys}"
    assert keys <= set(Settings.model_fields)
    readme = (ROOT / "README.md").read_text()
    missing = {k for k in public if f"`{k}`" not in readme}
    assert not missing, f"undocumented in README.md: {missing}"


def test_defaults_serve_on_localhost_8000_with_sqlite() -> None:
    s = Settings(_env_file=None)
    assert (s.HOST, s.PORT) == ("127.0.0.1", 8000)
    assert s.DATABASE_URL.startswith("sqlite")
