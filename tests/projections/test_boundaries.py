"""`projections/` is a pure fold: it imports only `domain.ruleset`, `domain.record`, `domain.i18n` (its
words are messages), msgspec and the standard library (no I/O, clock or randomness), and never names a
game."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "projections"
FORBIDDEN = {
    "random",
    "time",
    "os",
    "pathlib",
    "logging",
    "io",
    "socket",
    "subprocess",
    "secrets",
    "uuid",
    "shutil",
    "tempfile",
    "threading",
    "asyncio",
}
ALLOWED_DOMAIN = {"domain.ruleset", "domain.record", "domain.i18n"}


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_projections_import_only_the_domain_contract_msgspec_and_the_pure_standard_library():
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "domain":
                assert name in ALLOWED_DOMAIN, f"{path.name} imports {name}"
            elif top not in {"projections", "msgspec", "__future__", "openskill"}:  # openskill: pure rating maths
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
                assert top not in FORBIDDEN, f"{path.name} imports {name}"


def test_projections_never_read_the_clock():
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"now", "today", "utcnow"}, f"{path.name} reads the clock"
