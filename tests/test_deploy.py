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
