"""The message catalogues of the code, found as `scripts/update-messages` finds them: every package with a
`locale/` folder beside its modules, and the messages its own modules make (Babel's extractor, with the
keywords of `domain.i18n.Catalogue`)."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
LANGUAGES = ("fr", "es")
CODE_ROOTS = ("domain", "projections", "service")
"""The top-level packages whose sub-packages may carry catalogues (`scripts/update-messages` lists the same)."""
MessageKey = tuple[str | None, str]
"""A message as gettext keys it: (context, English template)."""


def catalogue_dirs() -> list[Path]:
    """The packages that carry catalogues."""
    return sorted(path.parent for root in CODE_ROOTS for path in (ROOT / root).rglob("locale"))


def sources(package_dir: str | Path) -> list[Path]:
    """The files whose messages a package's catalogue holds: its modules and templates, not those of a
    sub-package with a catalogue of its own."""
    package = Path(package_dir).resolve()
    own = [other for other in catalogue_dirs() if other != package and package in other.parents]
    found = [*package.rglob("*.py"), *package.rglob("templates/**/*.html")]
    return sorted(path for path in found if not any(other in path.parents for other in own))


def used_messages(package_dir: Path) -> dict[MessageKey, str | None]:
    """The messages a package's code makes: (context, template) -> the plural template, if any."""
    used: dict[MessageKey, str | None] = {}
    for path in sources(package_dir):
        method = "jinja2" if path.suffix == ".html" else "python"
        options = {"extensions": "jinja2.ext.i18n"} if method == "jinja2" else {}
        with path.open("rb") as source:
            for _, message, _, context in extract_from_file(method, source.name, keywords=KEYWORDS, options=options):
                if isinstance(message, tuple):
                    used[(context, message[0])] = message[1]
                else:
                    used[(context, message)] = None
    return used


def translated(package_dir: Path, language: str) -> dict[MessageKey, tuple[str, ...]]:
    """What a package's catalogue in `language` holds: (context, template) -> its translations (one, or
    one per plural form; empty strings where not translated yet)."""
    path = package_dir / "locale" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    held: dict[MessageKey, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        key = (message.context, message.id[0] if isinstance(message.id, tuple) else message.id)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        held[key] = tuple(strings)
    return held


if __name__ == "__main__":
    print("\n".join(map(str, sources(sys.argv[1]))))
