"""domain/atlantic_storm/RULES.md: its format, an entry for every AS id the code cites, a test for every
entry."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = ROOT / "domain" / "atlantic_storm" / "RULES.md"
HEADING = re.compile(r"^## ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+): \S.*$")
CITED = re.compile(r"\bAS-[0-9]+\b")


def entries() -> dict[str, list[str]]:
    """Each entry's id and its lines after the heading."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in REFERENCE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            match = HEADING.match(line)
            assert match, f"not an entry heading: {line!r}"
            assert match.group(1) not in out, f"{match.group(1)} twice"
            current = out[match.group(1)] = []
        elif current is not None:
            current.append(line)
    return out


def cited_in(*folders: str) -> dict[str, set[str]]:
    """The AS ids each Python file under `folders` names."""
    out: dict[str, set[str]] = {}
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__).resolve():
                continue
            out[str(path.relative_to(ROOT))] = set(CITED.findall(path.read_text(encoding="utf-8")))
    return out


def test_the_reference_has_its_title_and_every_entry_ends_with_its_source_in_words():
    text = REFERENCE.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# Atlantic Storm rules reference"
    found = entries()
    assert len(found) >= 19
    for rule_id, lines in found.items():
        body = [line for line in lines if line.strip()]
        assert body[-1].startswith("Source: "), rule_id
        # A source is named in words, never by a path into the project's working notes.
        assert not re.search(r"shared/|decisions\.md|seeds?/|\.txt", "\n".join(body)), rule_id


def test_every_atlantic_storm_id_the_code_raises_or_cites_has_an_entry():
    found = set(entries())
    for path, ids in cited_in("domain", "projections", "service").items():
        assert ids <= found, f"{path} cites {sorted(ids - found)}, which RULES.md does not explain"


def test_every_entry_is_cited_by_a_test():
    tested = set().union(*cited_in("tests").values())
    assert set(entries()) - tested == set()
