"""The package's rules reference (RULES.md): one entry per MN id the code raises or cites, each with its
source, and each cited by a test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "domain" / "milles_nautiques"
HEADING = re.compile(r"^## ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+): \S.*$")


def entries() -> dict[str, list[str]]:
    """Rule id -> the lines of its entry."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for line in (PACKAGE / "RULES.md").read_text(encoding="utf-8").splitlines():
        match = HEADING.match(line)
        if match:
            current = found.setdefault(match.group(1), [])
        elif line.startswith("## "):
            raise AssertionError(f"malformed heading: {line!r}")
        else:
            current.append(line)
    return found


def test_the_reference_has_its_title_and_an_entry_ending_with_a_source_for_each_rule():
    text = (PACKAGE / "RULES.md").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# Milles Nautiques rules reference"
    for rule_id, lines in entries().items():
        body = [line for line in lines if line.strip()]
        assert body and body[-1].startswith("Source: Milles Nautiques rulebook"), rule_id


def test_every_rule_id_the_package_raises_or_cites_has_an_entry():
    cited = set()
    for path in PACKAGE.glob("*.py"):
        cited.update(re.findall(r"\bMN-\d+\b", path.read_text(encoding="utf-8")))
    assert cited, "the package cites its rules"
    assert sorted(cited - set(entries())) == []


def test_every_entry_is_cited_by_a_test():
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.resolve() != Path(__file__).resolve()]
    text = "\n".join(p.read_text(encoding="utf-8") for p in tests)
    uncited = [rule_id for rule_id in entries() if not re.search(rf"\b{re.escape(rule_id)}\b", text)]
    assert uncited == []
