"""The project's rules reference: what each rule id a refusal names says, in the project's own words.

The general rules (G-1 ... G-5) live in `domain/RULES.md`, each game's in its package's `RULES.md`.
A file is Markdown: a first line `# <Title> rules reference`, an intro, then one entry per rule, a
level-2 heading `## <ID>: <short title>` followed by paragraphs and a last paragraph `Source: ...`.
This module parses such a file into frozen structs; it reads only the packages' own files
(importlib.resources), as the catalogues do.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from importlib import resources

import msgspec

from domain.ruleset import Ruleset

FILE_NAME = "RULES.md"
GENERAL_PACKAGE = "domain"
RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
_TITLE = re.compile(r"^# (?P<title>.+) rules reference\s*$")
_ENTRY = re.compile(rf"^## (?P<id>{RULE_ID.pattern}): (?P<title>\S.*?)\s*$")
_SOURCE = "Source: "


class RulesReferenceError(ValueError):
    """A rules reference file that does not follow the format (the line number says where)."""


class RuleEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One rule: its id (`MN-6`), a short title, what it says and the reading chosen (Markdown
    paragraphs), and its source in the published rules."""

    rule_id: str
    title: str
    text: str
    source: str


class RulesReference(msgspec.Struct, frozen=True, kw_only=True):
    """A parsed rules reference file: its title, intro and entries in file order."""

    title: str
    intro: str
    entries: tuple[RuleEntry, ...]

    def get(self, rule_id: str) -> RuleEntry | None:
        """The entry for `rule_id`, if this reference has one."""
        for entry in self.entries:
            if entry.rule_id == rule_id:
                return entry
        return None

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(entry.rule_id for entry in self.entries)


EMPTY = RulesReference(title="", intro="", entries=())


def parse(text: str) -> RulesReference:
    """Parse a rules reference; raise RulesReferenceError where it strays from the format."""
    lines = text.splitlines()
    if not lines or not (title := _TITLE.match(lines[0])):
        raise RulesReferenceError("line 1: the first line must be '# <Title> rules reference'")
    intro: list[str] = []
    entries: list[RuleEntry] = []
    heading: tuple[int, re.Match[str]] | None = None
    body: list[str] = []

    def close() -> None:
        if heading is None:
            return
        number, match = heading
        # The entry ends with its source: a line `Source: ...`, which Markdown may wrap over several lines.
        lines = "\n".join(body).strip().splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith(_SOURCE)]
        at = starts[-1] if starts else len(lines)
        text, last = "\n".join(lines[:at]), " ".join(lines[at:])
        if not starts or "" in lines[at:]:
            raise RulesReferenceError(f"line {number}: entry {match['id']} must end with a 'Source: ...' paragraph")
        if any(e.rule_id == match["id"] for e in entries):
            raise RulesReferenceError(f"line {number}: entry {match['id']} appears twice")
        entries.append(
            RuleEntry(
                rule_id=match["id"],
                title=match["title"],
                text=text.strip(),
                source=" ".join(last[len(_SOURCE) :].split()),
            )
        )

    for number, line in enumerate(lines[1:], start=2):
        if line.startswith("## "):
            match = _ENTRY.match(line)
            if match is None:
                raise RulesReferenceError(f"line {number}: a level-2 heading must be '## <ID>: <short title>'")
            close()
            heading, body = (number, match), []
        elif heading is None:
            intro.append(line)
        else:
            body.append(line)
    close()
    return RulesReference(title=title["title"].strip(), intro="\n".join(intro).strip(), entries=tuple(entries))


@cache
def load(package: str) -> RulesReference:
    """The rules reference a package ships (its `RULES.md`), or an empty one when it has none."""
    try:
        text = resources.files(package).joinpath(FILE_NAME).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return EMPTY
    return parse(text)


def general() -> RulesReference:
    """The general rules (G-1 ...) every ruleset shares."""
    return load(GENERAL_PACKAGE)


def package_of(ruleset: Ruleset) -> str:
    """The package a ruleset's rules reference lives in: its `rules_package`, else the package its state
    type is defined in (every game package defines its state there)."""
    if ruleset.rules_package:
        return ruleset.rules_package
    module = importlib.import_module(ruleset.state_type.__module__)
    return str(module.__package__ or module.__name__)


def of_ruleset(ruleset: Ruleset) -> RulesReference:
    """A game's own rules reference (without the general rules)."""
    package = package_of(ruleset)
    return EMPTY if package == GENERAL_PACKAGE else load(package)


def entries_for(ruleset: Ruleset) -> tuple[RuleEntry, ...]:
    """Every rule a ruleset's refusals may name: the general rules, then the game's own."""
    return general().entries + of_ruleset(ruleset).entries


def entry_for(ruleset: Ruleset, rule_id: str) -> RuleEntry | None:
    """The entry for `rule_id` under a ruleset (general or the game's own), if there is one."""
    return general().get(rule_id) or of_ruleset(ruleset).get(rule_id)
