"""deploy/: the image installs the project as the README does, and the compose file runs real commands."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from domain import registry
from service.cli import build_parser
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def _stages(dockerfile: str) -> list[list[str]]:
    """The Dockerfile's instructions (continuation lines joined, comments dropped), stage by stage."""
    joined = re.sub(r"\\\n\s*", " ", dockerfile)
    stages: list[list[str]] = []
    for line in joined.splitlines():
        line = line.strip()
        if line.startswith("FROM "):
            stages.append([])
        if line and not line.startswith("#"):
            stages[-1].append(line)
    return stages


def test_the_image_builds_a_wheel_in_one_stage_and_runs_it_slim_as_an_unprivileged_user() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    build, runtime = _stages(dockerfile)
    assert build[0].startswith("FROM python:3.11") and build[0].endswith(" AS build")
    assert runtime[0] == "FROM python:3.11-slim AS runtime"
    # The build stage makes the project's wheel and installs it with the README's pins.
    (install,) = [line for line in build if line.startswith("RUN ")]
    assert "pip wheel" in install and "-c constraints.txt /wheels/tablelog-" in install
    for copied in ("pyproject.toml", "constraints.txt", "LICENSE", "domain", "projections", "service"):
        assert any(line.startswith("COPY ") and copied in line.split() for line in build), copied
    # The runtime stage takes the installed environment only (no sources, no wheel-building tools) ...
    assert [line for line in runtime if line.startswith("COPY ")] == ["COPY --from=build /opt/tablelog /opt/tablelog"]
    # ... and runs `tablelog serve` as a user that is not root, made in that stage.
    users = [line.split()[1] for line in runtime if line.startswith("USER ")]
    assert users == ["tablelog"] and any("useradd --system" in line and " tablelog" in line for line in runtime)
    assert runtime[-2:] == ['ENTRYPOINT ["tablelog"]', 'CMD ["serve"]']
    # No secret is baked in: keys and passwords come from the environment at run time.
    settings = " ".join(line for stage in (build, runtime) for line in stage if line.startswith(("ENV", "ARG")))
    assert not re.search(r"KEY|SECRET|PASSWORD|TOKEN", settings), settings
    assert not re.search(r"postgres(ql)?://[^/\s]*:[^@\s]*@", dockerfile)


def test_every_compose_service_runs_a_tablelog_command_with_known_settings() -> None:
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    known = {f"TABLELOG_{name.upper()}" for name in Settings.__struct_fields__}
    parser = build_parser(registry.load())
    ours = {name: svc for name, svc in compose["services"].items() if "build" in svc}
    assert set(ours) == {"migrate", "api", "projector"}
    for name, service in ours.items():
        command = [part.replace("${TABLELOG_WORKERS:-2}", "2") for part in service["command"]]
        parser.parse_args(command)  # exits (fails the test) on an unknown command or flag
        unknown = {k for k in service["environment"] if k.startswith("TABLELOG_")} - known
        assert not unknown, f"{name} sets settings that do not exist: {unknown}"
    assert shlex.join(ours["api"]["command"]).startswith("serve")


@pytest.mark.parametrize(
    ("profile", "database", "services_of_ours"),
    [
        ("compose.yaml", "postgres", ("api", "projector", "migrate")),
        ("compose.scale.yaml", "primary", ("api-a", "api-b", "projector", "migrate")),
    ],
)
def test_the_service_runs_as_a_restricted_role_and_only_migrate_knows_the_owner(
    profile: str, database: str, services_of_ours: tuple[str, ...]
) -> None:
    # Issue 13 part 9: a compromised app must not be able to undo the record; PostgreSQL lets only a
    # table's owner (or a superuser, as the image's POSTGRES_USER is) disable its triggers or drop it.
    from service.store.roles import app_role

    compose = yaml.safe_load((ROOT / "deploy" / profile).read_text())
    services = compose["services"]
    owner = services[database]["environment"]["POSTGRES_USER"]
    for name in services_of_ours:
        env = services[name]["environment"]
        urls = [env["TABLELOG_DATABASE_URL"], *env.get("TABLELOG_READ_DATABASE_URLS", "").split(",")]
        for url in filter(None, urls):
            role = app_role(url.replace("${", "").replace("}", ""))
            assert role not in (None, owner), f"{name} connects as {role}"
        assert ("TABLELOG_MIGRATION_DATABASE_URL" in env) == (name == "migrate"), name
    migration = services["migrate"]["environment"]["TABLELOG_MIGRATION_DATABASE_URL"]
    assert app_role(migration.replace("${", "").replace("}", "")) == owner
    init = (ROOT / "deploy" / "initdb" / "app-role.sh").read_text()
    assert f"CREATE ROLE {role} LOGIN" in init and "NOSUPERUSER" in init
    mounts = [volume.split(":")[:2] for volume in services[database]["volumes"]]
    assert any(
        source.startswith("./initdb") and target.startswith("/docker-entrypoint-initdb.d") for source, target in mounts
    )


def test_the_scale_profile_runs_a_primary_a_replica_two_nodes_reading_it_one_projector_and_nginx_in_front() -> None:
    compose = yaml.safe_load((ROOT / "deploy" / "compose.scale.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"primary", "replica", "migrate", "api-a", "api-b", "projector", "proxy"}
    known = {f"TABLELOG_{name.upper()}" for name in Settings.__struct_fields__}
    parser = build_parser(registry.load())
    ours = {name: svc for name, svc in services.items() if "build" in svc}
    assert set(ours) == {"migrate", "api-a", "api-b", "projector"}
    for name, service in ours.items():
        command = [part.replace("${TABLELOG_WORKERS:-2}", "2") for part in service["command"]]
        args = parser.parse_args(command)  # exits (fails the test) on an unknown command or flag
        settings = service["environment"]
        unknown = {k for k in settings if k.startswith("TABLELOG_")} - known
        assert not unknown, f"{name} sets settings that do not exist: {unknown}"
        assert urlsplit(settings["TABLELOG_DATABASE_URL"]).hostname == "primary"
        assert urlsplit(settings["TABLELOG_DATABASE_URL"]).username == "tablelog_app", "the restricted role"
        assert ("TABLELOG_MIGRATION_DATABASE_URL" in settings) == (name == "migrate"), name
        if name.startswith("api-"):
            assert args.command == "serve" and args.port == 8000
            assert urlsplit(settings["TABLELOG_READ_DATABASE_URLS"]).hostname == "replica"
            assert settings["TABLELOG_RUN_PROJECTOR"] == "false", "the projector runs once, as its own service"
    assert ours["projector"]["command"] == ["project"]
    # The primary can feed a replica; the replica is made from it by pg_basebackup, as a hot standby.
    assert "wal_level=replica" in services["primary"]["command"]
    init = {volume.split(":")[0] for volume in services["primary"]["volumes"]} - {"primary-data"}
    for script in [*init, "./scale/replica-entrypoint.sh"]:
        path = ROOT / "deploy" / script
        assert subprocess.run(["bash", "-n", str(path)], capture_output=True).returncode == 0, script
    entrypoint = (ROOT / "deploy" / "scale" / "replica-entrypoint.sh").read_text()
    assert (
        "pg_basebackup" in entrypoint
        and " -R " in entrypoint
        and services["replica"]["entrypoint"][-1].endswith("replica-entrypoint.sh")
    )
    # nginx spreads clients over exactly the two nodes, on the port they listen on, and streams unbuffered.
    (mount,) = services["proxy"]["volumes"]
    nginx = (ROOT / "deploy" / mount.split(":")[0]).read_text()
    upstream = set(re.findall(r"^\s*server\s+([\w-]+):(\d+)", nginx, flags=re.MULTILINE))
    assert upstream == {("api-a", "8000"), ("api-b", "8000")}
    assert "proxy_buffering off" in nginx


def test_nginx_drops_a_half_sent_request_which_uvicorn_alone_would_wait_for() -> None:
    nginx = (ROOT / "deploy" / "scale" / "nginx.conf").read_text()
    timeouts = dict(re.findall(r"^\s*(client_header_timeout|client_body_timeout)\s+(\d+)s;", nginx, flags=re.MULTILINE))
    assert set(timeouts) == {"client_header_timeout", "client_body_timeout"}
    assert all(int(seconds) <= 30 for seconds in timeouts.values())  # nginx's default, 60 s, holds a slot long
