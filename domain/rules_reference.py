"""The project's rules reference: what each rule id a refusal names says, in the project's own words.

The general rules (G-1 ... G-6) live in `domain/RULES.md`, each game's in its package's `RULES.md`.
A file is Markdown: a first line `# <Title> rules reference`, an intro, then one entry per rule, a
level-2 heading `## <ID>: <short title>` followed by paragraphs and a last paragraph `Source: ...`.
This module parses such a file into frozen structs; it reads only the packages' own files
(importlib.resources), as the catalogues do.

The same reference in French and Spanish sits beside it (`RULES.fr.md`, `RULES.es.md`): the same ids in
the same order, the same sources, with the first line and the source label in that language (see
`LANGUAGES`). A language whose file a package lacks reads the English one.
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
DEFAULT_LANGUAGE = "en"
RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
_QUOTED = re.compile(r'"([^"]+)"')
_ENTRY = re.compile(rf"^## (?P<id>{RULE_ID.pattern}): (?P<title>\S.*?)\s*$")


class Language(msgspec.Struct, frozen=True, kw_only=True):
    """How a reference file in one language writes its fixed words: the first line (`title`, a pattern
    with a `title` group; `shape` says it to a writer) and the label of the source paragraph."""

    title: re.Pattern[str]
    shape: str
    source: str


LANGUAGES: dict[str, Language] = {
    "en": Language(
        title=re.compile(r"^# (?P<title>.+) rules reference\s*$"), shape="# <Title> rules reference", source="Source: "
    ),
    # "Règles de Milles Nautiques", "Règles d'Atlantic Storm", "Règles générales": the title after the elided
    # or plain "de".
    "fr": Language(
        title=re.compile(r"^# Règles (?:de |d'|du )?(?P<title>.+?) : référence\s*$"),
        shape="# Règles de <Titre> : référence",
        source="Source : ",
    ),
    "es": Language(
        title=re.compile(r"^# Reglas (?:de |del )?(?P<title>.+?): referencia\s*$"),
        shape="# Reglas de <Título>: referencia",
        source="Fuente: ",
    ),
}
"""The languages a rules reference is written in, English first (the reference every other follows)."""


def file_name(language: str = DEFAULT_LANGUAGE) -> str:
    """The file a package's reference in `language` is kept in: `RULES.md`, `RULES.fr.md`, ..."""
    return FILE_NAME if language == DEFAULT_LANGUAGE else f"RULES.{language}.md"


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


def parse(text: str, language: str = DEFAULT_LANGUAGE) -> RulesReference:
    """Parse a rules reference written in `language`; raise RulesReferenceError where it strays from
    the format."""
    words = LANGUAGES[language]
    source_label = words.source
    lines = text.splitlines()
    if not lines or not (title := words.title.match(lines[0])):
        raise RulesReferenceError(f"line 1: the first line must be '{words.shape}'")
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
        starts = [i for i, line in enumerate(lines) if line.startswith(source_label)]
        at = starts[-1] if starts else len(lines)
        text, last = "\n".join(lines[:at]), " ".join(lines[at:])
        if not starts or "" in lines[at:]:
            raise RulesReferenceError(
                f"line {number}: entry {match['id']} must end with a '{source_label}...' paragraph"
            )
        if any(e.rule_id == match["id"] for e in entries):
            raise RulesReferenceError(f"line {number}: entry {match['id']} appears twice")
        entries.append(
            RuleEntry(
                rule_id=match["id"],
                title=match["title"],
                text=text.strip(),
                source=" ".join(last[len(source_label) :].split()),
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


def cited_sections(source: str) -> tuple[str, ...]:
    """The sections a source quotes (`"Cartes alerte"`), in order: they are quoted as the book prints
    them whatever the reference's language, so a translation cites the same ones."""
    return tuple(_QUOTED.findall(source))


@cache
def load(package: str, language: str = DEFAULT_LANGUAGE) -> RulesReference:
    """The rules reference a package ships in `language` (its `RULES.md`, `RULES.fr.md`...): the English
    one where it has none in that language (or the language is not one of `LANGUAGES`), an empty one
    where it has none at all."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    try:
        text = resources.files(package).joinpath(file_name(language)).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return EMPTY if language == DEFAULT_LANGUAGE else load(package)
    return parse(text, language)


def general(language: str = DEFAULT_LANGUAGE) -> RulesReference:
    """The general rules (G-1 ...) every ruleset shares."""
    return load(GENERAL_PACKAGE, language)


def package_of(ruleset: Ruleset) -> str:
    """The package a ruleset's rules reference lives in: its `rules_package`, else the package its state
    type is defined in (every game package defines its state there)."""
    if ruleset.rules_package:
        return ruleset.rules_package
    module = importlib.import_module(ruleset.state_type.__module__)
    return str(module.__package__ or module.__name__)


def of_ruleset(ruleset: Ruleset, language: str = DEFAULT_LANGUAGE) -> RulesReference:
    """A game's own rules reference (without the general rules)."""
    package = package_of(ruleset)
    return EMPTY if package == GENERAL_PACKAGE else load(package, language)


def entries_for(ruleset: Ruleset, language: str = DEFAULT_LANGUAGE) -> tuple[RuleEntry, ...]:
    """Every rule a ruleset's refusals may name: the general rules, then the game's own."""
    return general(language).entries + of_ruleset(ruleset, language).entries


def entry_for(ruleset: Ruleset, rule_id: str, language: str = DEFAULT_LANGUAGE) -> RuleEntry | None:
    """The entry for `rule_id` under a ruleset (general or the game's own), if there is one."""
    return general(language).get(rule_id) or of_ruleset(ruleset, language).get(rule_id)
