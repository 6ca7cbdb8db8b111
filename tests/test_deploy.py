"""deploy/: the image installs the project as the README does, and the compose file runs real commands."""

from __future__ import annotations

import shlex
from pathlib import Path

import yaml

from service.cli import build_parser
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def test_the_image_installs_the_project_with_the_readmes_install_script() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert 'RUN bash scripts/_env.sh ""' in dockerfile
    assert 'source "$(dirname "$0")/_env.sh" ""' in (ROOT / "scripts" / "serve").read_text()
    for copied in ("pyproject.toml", "constraints.txt", "domain", "projections", "service", "scripts"):
        assert copied in dockerfile


def test_every_compose_service_runs_a_tablelog_command_with_known_settings() -> None:
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    known = {f"TABLELOG_{name.upper()}" for name in Settings.__struct_fields__}
    parser = build_parser()
    ours = {name: svc for name, svc in compose["services"].items() if "build" in svc}
    assert set(ours) == {"migrate", "api", "projector"}
    for name, service in ours.items():
        command = [part.replace("${TABLELOG_WORKERS:-2}", "2") for part in service["command"]]
        parser.parse_args(command)  # exits (fails the test) on an unknown command or flag
        unknown = {k for k in service["environment"] if k.startswith("TABLELOG_")} - known
        assert not unknown, f"{name} sets settings that do not exist: {unknown}"
    assert shlex.join(ours["api"]["command"]).startswith("serve")


def test_the_service_runs_as_a_restricted_role_and_only_migrate_knows_the_owner() -> None:
    # Issue 13 part 9: a compromised app must not be able to undo the record; PostgreSQL lets only a
    # table's owner (or a superuser, as the image's POSTGRES_USER is) disable its triggers or drop it.
    from service.store.roles import app_role

    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    services = compose["services"]
    owner = services["postgres"]["environment"]["POSTGRES_USER"]
    for name in ("api", "projector", "migrate"):
        env = services[name]["environment"]
        role = app_role(env["TABLELOG_DATABASE_URL"].replace("${", "").replace("}", ""))
        assert role not in (None, owner), f"{name} connects as {role}"
        assert ("TABLELOG_MIGRATION_DATABASE_URL" in env) == (name == "migrate"), name
    migration = services["migrate"]["environment"]["TABLELOG_MIGRATION_DATABASE_URL"]
    assert app_role(migration.replace("${", "").replace("}", "")) == owner
    init = (ROOT / "deploy" / "initdb" / "app-role.sh").read_text()
    assert f"CREATE ROLE {role} LOGIN" in init and "NOSUPERUSER" in init
    assert "./initdb:/docker-entrypoint-initdb.d:ro" in services["postgres"]["volumes"]
