"""The layers' import rules (STYLE.md): domain/ is pure, projections/ is a pure fold over domain/,
nothing but service/ (and tests) imports service/."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# No I/O, clock, randomness, logging, framework or storage in the rules core.
IMPURE = {
    "service",
    "projections",
    "psycopg",
    "psycopg_pool",
    "litestar",
    "structlog",
    "sqlite3",
    "random",
    "logging",
    "os",
    "pathlib",
    "socket",
    "subprocess",
    "threading",
    "asyncio",
    "time",
    "urllib",
    "http",
    "uvicorn",
    "shutil",
    "tempfile",
    "secrets",
    "uuid",
}
# `datetime` is allowed for date values and `io` for in-memory text (CSV parsing), but never the clock:
CLOCK_CALLS = {"now", "today", "utcnow", "time", "monotonic", "perf_counter"}
PURE_FOLD_ALLOWED_EXTRA = {"domain"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def offenders(package: str, forbidden: set[str]) -> dict[str, set[str]]:
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_roots(path) & forbidden
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def test_the_domain_imports_no_io_framework_storage_or_other_layer() -> None:
    assert offenders("domain", IMPURE) == {}


def test_projections_import_only_the_domain_and_pure_libraries() -> None:
    assert offenders("projections", IMPURE - PURE_FOLD_ALLOWED_EXTRA - {"projections"}) == {}


def test_the_domain_and_projections_never_read_the_clock() -> None:
    for package in ("domain", "projections"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    assert node.func.attr not in CLOCK_CALLS, f"{path}:{node.lineno} reads the clock"


def test_nothing_outside_the_service_imports_it() -> None:
    assert offenders("domain", {"service"}) == {} and offenders("projections", {"service"}) == {}


def test_service_and_projections_never_name_a_game_package() -> None:
    games = {p.name for p in (ROOT / "domain").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for package in ("service", "projections"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for game in games:
                assert f"domain.{game}" not in text, f"{path} reaches {game} directly, not through the registry"


def test_the_boundary_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import random\nfrom service.app import create_app\nfrom domain import ruleset\n")
    assert imported_roots(sample) & IMPURE == {"random", "service"}
