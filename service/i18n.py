"""What a person reads, in their language: English, French or Spanish.

The domain tells people things as `domain.i18n.Message` values (an English template and its arguments);
each package that makes messages carries its gettext catalogues beside its code
(`<package>/locale/<lang>/LC_MESSAGES/messages.po`). This module chooses the reader's locale and tells a
message in it: the catalogue's `.po` is read and compiled with Babel once per package and language, and
looked up through the standard library's gettext (plural forms, contexts). A message with no translation
is told in English rather than failing, so a missing entry shows as English, never as an error; the
catalogue test (`tests/test_catalogues.py`) keeps every entry translated.

English is told from the templates themselves (`Message.english()`), so it is exactly what the domain
says. Numbers in other languages are written by the locale's rules (Babel): "26,5" in French.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterable
from functools import cache
from importlib import resources

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from domain.i18n import Arg, Message, english_words, fill

LANGUAGES = ("en", "fr", "es")
"""The languages tablelog speaks, English first (the templates' own language and the last fallback)."""
DEFAULT_LANGUAGE = "en"
CATALOGUE_DOMAIN = "messages"


def catalogue_path(package: str, language: str) -> resources.abc.Traversable:
    """Where `package` keeps its `language` catalogue."""
    return resources.files(package) / "locale" / language / "LC_MESSAGES" / f"{CATALOGUE_DOMAIN}.po"


@cache
def translations(package: str, language: str) -> gettext.NullTranslations:
    """The compiled catalogue of `package` in `language` (NullTranslations, which answer in English,
    where the package has none)."""
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    try:
        source = catalogue_path(package, language).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError):
        return gettext.NullTranslations()
    catalog = read_po(io.BytesIO(source), locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class Translator:
    """Tells messages in one language."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE

    def __call__(self, text: str | Message) -> str:
        """Plain text as it is (names, and what has no message yet); a message in this language."""
        if isinstance(text, str):
            return text
        if self.language == DEFAULT_LANGUAGE:
            return text.english()
        return fill(self.template(text), text.arguments(self.words))

    def template(self, message: Message) -> str:
        catalogue = translations(message.catalogue, self.language)
        if message.plural is not None:
            count = message.count if message.count is not None else 0
            if message.context is not None:
                return catalogue.npgettext(message.context, message.msgid, message.plural, count)
            return catalogue.ngettext(message.msgid, message.plural, count)
        if message.context is not None:
            return catalogue.pgettext(message.context, message.msgid)
        return catalogue.gettext(message.msgid)

    def words(self, value: Arg) -> str:
        """An argument in this language: a message told in it, a number by its rules, a name as it is."""
        if isinstance(value, Message):
            return self(value)
        if isinstance(value, bool | str):
            return english_words(value)
        return decimal(value, self.language)


ENGLISH = Translator(DEFAULT_LANGUAGE)


@cache
def locale_of(language: str) -> Locale:
    """Babel's locale for one of our languages, parsed once (Babel parses a locale's name at every call
    given a string)."""
    return Locale.parse(language)


def decimal(value: int | float, language: str) -> str:
    """A number as `language` writes it ("26,5" in French). A whole number from 0 to 999 reads the same in
    every language we speak, so it skips Babel's work (a page tells hundreds of them)."""
    if type(value) is int and 0 <= value < 1000:
        return str(value)
    return format_decimal(value, locale=locale_of(language))


def supported(tag: str | None) -> str | None:
    """The language of one of ours that a tag such as `fr-FR` or `es_419` names, if any."""
    if not tag:
        return None
    try:
        language = Locale.parse(tag.strip().replace("-", "_")).language
    except (ValueError, TypeError, UnknownLocaleError):
        return None
    return language if language in LANGUAGES else None


def accepted(header: str | None) -> list[str]:
    """The languages of an `Accept-Language` header that we speak, in the order of its q-values
    (RFC 9110: equal weights keep their order; `q=0` means "not this one")."""
    if not header:
        return []
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        language = supported(tag) if tag.strip() != "*" else None
        if language is not None and weight > 0:
            weighted.append((-weight, index, language))
    seen: list[str] = []
    for _, _, language in sorted(weighted):
        if language not in seen:
            seen.append(language)
    return seen


def choose(*, chosen: str | None = None, accept_language: str | None = None, club_default: str | None = None) -> str:
    """The reader's language: the one they chose (the pages' menu, kept in a cookie), else the first of
    their browser's `Accept-Language` we speak, else their club's default, else English."""
    for candidate in (supported(chosen), *accepted(accept_language), supported(club_default)):
        if candidate is not None:
            return candidate
    return DEFAULT_LANGUAGE


def language_names(languages: Iterable[str] = LANGUAGES) -> dict[str, str]:
    """Each language named in itself, as a language menu shows it ("Français", "Español")."""
    return {
        language: (Locale.parse(language).get_display_name(language) or language).capitalize() for language in languages
    }
