"""The rules reference ships with the project and matches the code both ways: every rule id the code
raises or cites has an entry in the right file, and every entry is cited by a test. Nothing in the
repository sends a reader to the design notes kept outside it."""

from __future__ import annotations

import dataclasses
import importlib
import re
import sys
from pathlib import Path

import pytest

from domain import registry, rules_reference
from domain.rules_reference import RulesReferenceError, parse
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
THIS_FILE = Path(__file__).resolve()
CODE_DIRS = ("domain", "projections", "service")
LANGUAGES = tuple(rules_reference.LANGUAGES)
CITED = re.compile(r"\b(G|MN|AS|M44)(-[A-Z0-9]+)+\b")
# Which ruleset's file holds the ids of each prefix (G: the general file, served under every ruleset).
RULESET_OF_PREFIX = {"MN": "milles-nautiques", "AS": "atlantic-storm", "M44": "memoire-44"}
# Tools' caches and build output, never part of the repository (hypothesis writes absolute paths).
SKIPPED_DIRS = {
    ".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "node_modules",
    "build", "dist", "test-artifacts",
}  # fmt: skip
# A reach outside the clone: the folder beside the repository (rule texts, readings, design notes,
# reference data), written out or built with pathlib, or a `..` joined onto a path. A clone must test clean
# with nothing beside it, and nothing may send a reader there: facts a test needs are carried under tests/.
OUTSIDE_POINTERS = re.compile(
    r"\.\./shared\b|/work/(shared|main|wt)\b|shared/(data|rules|seeds|notes)\b|decisions\.md"
    r"|[\"']shared[\"']\s*/|/\s*[\"']\.\.[\"']"
)
# `Path(__file__).parents[n]`: beyond the repository's root when n is more than the file's depth.
FILE_PARENT = re.compile(r"__file__\).*?\.parents\[(\d+)\]")


def _text_files(top: Path) -> list[Path]:
    found = []
    for path in sorted(top.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if path.is_file() and not SKIPPED_DIRS & set(parts) and not any(p.endswith(".egg-info") for p in parts):
            try:
                path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            found.append(path)
    return found


def cited_ids() -> dict[str, set[str]]:
    """Each rule id the code raises or cites, with the files it appears in."""
    ids: dict[str, set[str]] = {}
    for folder in CODE_DIRS:
        for path in _text_files(ROOT / folder):
            for match in CITED.finditer(path.read_text(encoding="utf-8")):
                ids.setdefault(match.group(0), set()).add(str(path.relative_to(ROOT)))
    return ids


def reference_for_prefix(prefix: str, language: str = "en") -> tuple[str, rules_reference.RulesReference]:
    """The file (package) that must hold the ids of `prefix`, and its parsed content in `language`."""
    if prefix == "G":
        return rules_reference.GENERAL_PACKAGE, rules_reference.general(language)
    ruleset = RULESETS.get(RULESET_OF_PREFIX[prefix])
    return rules_reference.package_of(ruleset), rules_reference.of_ruleset(ruleset, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_id_the_code_raises_or_cites_has_an_entry_in_its_games_reference(language: str) -> None:
    missing: dict[str, list[str]] = {}
    for rule_id, files in sorted(cited_ids().items()):
        package, reference = reference_for_prefix(rule_id.split("-")[0], language)
        if reference.get(rule_id) is None:
            where = f"{package.replace('.', '/')}/{rules_reference.file_name(language)}"
            missing.setdefault(where, []).append(f"{rule_id} (cited in {', '.join(sorted(files))})")
    assert missing == {}, "rule ids without an entry:\n" + "\n".join(
        f"{where}: {len(ids)} missing\n  " + "\n  ".join(ids) for where, ids in sorted(missing.items())
    )


def _cited_in_tests(rule_id: str, test_texts: list[str]) -> bool:
    pattern = re.compile(rf"(?<![A-Za-z0-9-]){re.escape(rule_id)}(?![A-Za-z0-9-])")
    return any(pattern.search(text) for text in test_texts)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_of_every_reference_is_cited_by_a_test(language: str) -> None:
    # This file names ids only as examples of the format: citing them here does not count.
    test_texts = [p.read_text(encoding="utf-8") for p in _text_files(ROOT / "tests") if p.resolve() != THIS_FILE]
    references = [rules_reference.general(language)] + [rules_reference.of_ruleset(r, language) for r in RULESETS]
    uncited = [e.rule_id for ref in references for e in ref.entries if not _cited_in_tests(e.rule_id, test_texts)]
    assert uncited == [], f"entries no test under tests/ cites: {', '.join(uncited)}"


def test_each_file_holds_only_the_ids_of_its_own_prefix() -> None:
    strays = []
    for prefix in ("G", *RULESET_OF_PREFIX):
        package, reference = reference_for_prefix(prefix)
        strays += [f"{package}: {e.rule_id}" for e in reference.entries if e.rule_id.split("-")[0] != prefix]
    assert strays == []


def test_every_builtin_game_ships_a_rules_reference_file() -> None:
    builtin = [importlib.import_module(module).RULESET for module in registry.BUILTIN_MODULES]
    missing = [r.name for r in builtin if not rules_reference.of_ruleset(r).entries]
    assert missing == [], f"rulesets without a RULES.md in their package: {missing}"


def test_the_general_reference_has_the_six_general_rules_with_their_sources() -> None:
    general = rules_reference.general()
    assert general.title == "General"
    assert general.rule_ids == ("G-1", "G-2", "G-3", "G-4", "G-5", "G-6")
    g3 = general.get("G-3")
    assert g3 is not None and g3.title == "Corrections are events"
    assert "tablelog.correction" in g3.text and not g3.text.endswith("Source:")
    assert all(e.source and "/" not in e.source for e in general.entries), "a source names a book, not a path"


def outside_reaches(path: Path) -> list[str]:
    """The lines of `path` that reach outside the repository, numbered."""
    depth = len(path.relative_to(ROOT).parts) - 1
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        parent = FILE_PARENT.search(line)
        if OUTSIDE_POINTERS.search(line) or (parent and int(parent.group(1)) > depth):
            found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_nothing_in_the_repository_reads_or_points_a_reader_outside_it() -> None:
    reaches = [line for path in _text_files(ROOT) if path.resolve() != THIS_FILE for line in outside_reaches(path)]
    assert reaches == [], "reaches outside the repository:\n" + "\n".join(reaches)


@pytest.mark.parametrize(
    "line",
    [
        'DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"',
        "see ../shared/data/memoire44/command_deck.csv",
        "ROOT = Path(__file__).resolve().parents[2]  # one too many for tests/x.py",
        "open('/work/shared/data/README.md')",
    ],
)
def test_a_reach_outside_the_repository_is_found(tmp_path: Path, line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "x.py").write_text(f"{line}\nROOT = Path(__file__).resolve().parents[1]\n")
    assert outside_reaches(tmp_path / "tests" / "x.py") == [f"tests/x.py:1: {line}"]


def _translations() -> list[tuple[str, str]]:
    """Every translated reference file the packages ship: (package, language)."""
    found = []
    for path in sorted((ROOT / "domain").rglob("RULES.*.md")):
        language = path.name.split(".")[1]
        found.append((".".join(path.parent.relative_to(ROOT).parts), language))
    return found


def test_every_reference_is_written_in_french_and_spanish() -> None:
    shipped = set(_translations())
    english = sorted(".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "domain").rglob("RULES.md"))
    assert len(english) >= 4
    assert [(p, lang) for p in english for lang in LANGUAGES[1:] if (p, lang) not in shipped] == []
    assert {language for _, language in shipped} <= set(LANGUAGES[1:])


@pytest.mark.parametrize(("package", "language"), _translations())
def test_a_translated_reference_has_the_english_ones_ids_in_order_and_cites_the_same_sources(
    package: str, language: str
) -> None:
    english, translated = rules_reference.load(package), rules_reference.load(package, language)
    assert translated is not english, f"{package}: its {language} file did not load"
    assert translated.rule_ids == english.rule_ids
    for ours, theirs in zip(english.entries, translated.entries, strict=True):
        assert theirs.title and theirs.text and theirs.title != ours.title, f"{theirs.rule_id}: not translated"
        assert "/" not in theirs.source or "/" in ours.source, f"{theirs.rule_id}: a source names a book, not a path"
        # A source is a book and its sections: the sections are quoted as the book prints them, in any language.
        # The English may also quote its own words ("three" read as at most three), which a translation says
        # in its language (« trois »): the translation quotes the English quotes, in order, less those.
        cited, english_cited = (
            rules_reference.cited_sections(theirs.source),
            rules_reference.cited_sections(ours.source),
        )
        assert _in_order(cited, english_cited) and bool(cited) == bool(english_cited), (
            f"{package} {language} {theirs.rule_id}: {theirs.source!r} cites other sections than {ours.source!r}"
        )


def _in_order(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    """Whether `part` is `whole` with some items left out (a subsequence)."""
    items = iter(whole)
    return all(any(item == wanted for item in items) for wanted in part)


def test_a_reference_in_a_language_without_its_file_reads_the_english_one() -> None:
    assert rules_reference.load("domain", "de") == rules_reference.load("domain")
    assert rules_reference.load("tests", "fr") == rules_reference.EMPTY
    assert rules_reference.general("fr").title == "générales"
    assert rules_reference.general("es").get("G-3") is not None


# -- the parser -------------------------------------------------------------------------------------------
EXAMPLE = """# Example rules reference

What these rules cover.

## EX-1: First rule

What it says.

The reading chosen.
Source: The example rulebook, "Setting up".

## EX-A-2: Second rule

### A sub-heading stays in the text
More.
Source: The example rulebook, "Playing".
"""


def test_a_reference_parses_into_entries_with_text_and_source() -> None:
    reference = parse(EXAMPLE)
    assert reference.title == "Example"
    assert reference.intro == "What these rules cover."
    assert reference.rule_ids == ("EX-1", "EX-A-2")
    first = reference.get("EX-1")
    assert first == rules_reference.RuleEntry(
        rule_id="EX-1",
        title="First rule",
        text="What it says.\n\nThe reading chosen.",
        source='The example rulebook, "Setting up".',
    )
    second = reference.get("EX-A-2")
    assert second is not None and second.text == "### A sub-heading stays in the text\nMore."
    assert reference.get("EX-3") is None


def test_a_french_or_spanish_reference_parses_with_its_own_first_line_and_source_label() -> None:
    french = EXAMPLE.replace("# Example rules reference", "# Règles d'Exemple : référence").replace(
        "Source: ", "Source : "
    )
    spanish = EXAMPLE.replace("# Example rules reference", "# Reglas de Ejemplo: referencia").replace(
        "Source: ", "Fuente: "
    )
    assert parse(french, "fr").title == "Exemple" and parse(spanish, "es").title == "Ejemplo"
    assert parse(spanish, "es").entries == parse(EXAMPLE).entries
    assert parse("# Règles générales : référence\n", "fr").title == "générales"
    with pytest.raises(
        RulesReferenceError, match=re.escape("line 1: the first line must be '# Reglas de <Título>: referencia'")
    ):
        parse(french, "es")
    with pytest.raises(RulesReferenceError, match=re.escape("entry EX-1 must end with a 'Source : ...' paragraph")):
        parse(french.replace("Source : ", "Source: "), "fr")


def test_a_source_cites_the_sections_it_quotes() -> None:
    source = 'Milles Nautiques rulebook (French), "Cartes alerte" and "Article 6 : la bataille navale"; a reading.'
    assert rules_reference.cited_sections(source) == ("Cartes alerte", "Article 6 : la bataille navale")
    assert rules_reference.cited_sections("the project's design; no rulebook section.") == ()


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("Example rules\n", "line 1"),
        (EXAMPLE.replace("## EX-1: First rule", "## First rule"), "line 5: a level-2 heading"),
        (EXAMPLE.replace('Source: The example rulebook, "Setting up".', ""), "entry EX-1 must end with a 'Source"),
        (EXAMPLE.replace("## EX-A-2", "## EX-1"), "entry EX-1 appears twice"),
    ],
)
def test_a_reference_that_strays_from_the_format_is_refused_with_the_line(text: str, complaint: str) -> None:
    with pytest.raises(RulesReferenceError, match=re.escape(complaint)):
        parse(text)


def test_a_package_without_a_reference_file_has_an_empty_reference() -> None:
    assert rules_reference.load("tests") == rules_reference.EMPTY


def test_a_ruleset_may_name_the_package_of_its_reference() -> None:
    game = RULESETS.get("milles-nautiques")
    assert rules_reference.package_of(dataclasses.replace(game, rules_package="domain")) == "domain"
    assert rules_reference.package_of(game) == "domain.milles_nautiques"
