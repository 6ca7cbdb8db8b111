"""The message catalogues against the code (issue 26): every message the code makes has a French and a
Spanish translation, each translation keeps the original's placeholders, and no catalogue holds a message
the code no longer makes. `scripts/update-messages` brings the catalogues in step after a change."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.i18n import Catalogue, placeholders
from service.i18n import ENGLISH, Translator, accepted, choose
from tests.support.catalogues import LANGUAGES, catalogue_dirs, translated, used_messages

PACKAGES = catalogue_dirs()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("package", PACKAGES, ids=lambda path: path.name)
def test_every_message_the_code_makes_is_translated_with_its_placeholders(package: Path, language: str) -> None:
    held = translated(package, language)
    used = used_messages(package)
    missing = sorted(str(key) for key in used if not all(held.get(key, ("",))))
    assert missing == [], f"{package.name}/{language}: untranslated {missing[:10]}"
    for key, plural in used.items():
        wanted = placeholders(key[1]) | (placeholders(plural) if plural else frozenset())
        for text in held[key]:
            assert placeholders(text) <= wanted and (plural is not None or placeholders(text) == wanted), (
                f"{package.name}/{language}: {key[1]!r} -> {text!r} changes the placeholders"
            )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("package", PACKAGES, ids=lambda path: path.name)
def test_no_catalogue_holds_a_message_the_code_no_longer_makes(package: Path, language: str) -> None:
    assert sorted(map(str, set(translated(package, language)) - set(used_messages(package)))) == []


def test_a_message_is_told_in_french_and_spanish_with_numbers_by_the_locale_and_english_as_written() -> None:
    _ = Catalogue("domain")
    line = _("{first} {then}", first=_("{first} {then}", first="Alain", then="26.5"), then="Bea")
    assert ENGLISH(line) == line.english() == "Alain 26.5 Bea"
    assert Translator("fr")(line) == "Alain 26.5 Bea"
    number = Catalogue("domain")("{first} {then}", first=26.5, then=1000)
    assert ENGLISH(number) == "26.5 1000"
    assert Translator("fr").words(26.5) == "26,5" and Translator("es").words(26.5) == "26,5"
    assert Translator("de")(number) == "26.5 1000"  # a language we do not speak is English


def test_the_readers_language_is_the_chosen_one_then_the_browsers_then_the_clubs_then_english() -> None:
    assert accepted("de-DE, es;q=0.8, fr-FR;q=0.9, en;q=0.1") == ["fr", "es", "en"]
    assert accepted("fr;q=0, es") == ["es"]
    assert choose(chosen="es", accept_language="fr-FR") == "es"
    assert choose(chosen="xx", accept_language="fr-FR,fr;q=0.9", club_default="es") == "fr"
    assert choose(accept_language="de", club_default="es") == "es"
    assert choose(accept_language="de") == "en"
