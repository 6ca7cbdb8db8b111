"""Words people read, in the reader's language.

The domain never translates. What it tells a person (a narration line, a rule refusal, an explanation, a
card's printed name) is a `Message`: an English template, which is also its gettext message id, with
named arguments. Each game package carries its translations beside its code
(`<package>/locale/<lang>/LC_MESSAGES/messages.po`, extracted and updated with Babel), and the service
renders a message in the reader's locale. English is the template itself, so `Message.english()` is the
sentence the domain has always told, and a language is added without touching the code that tells it.

A package makes its messages through one `Catalogue`, conventionally bound to `_`, so that Babel's
extractor finds every template with its default keywords (`_`, `ngettext`, `pgettext`):

    _ = Catalogue("domain.milles_nautiques")
    _("It is {player}'s turn.", player=name)
    _.ngettext("{count} unit lost", "{count} units lost", lost)
    _.pgettext("card", "alert")

Arguments are names and marks shown as they are (`str`), numbers written by the locale's rules (`int`,
`float`), or messages themselves (a card's name inside a sentence), rendered in the same language first.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Union

import msgspec

Arg = Union[str, int, float, "Message"]
Words = Callable[[Arg], str]
"""How a reader's language tells an argument (`english_words`, or the service's translator)."""
Teller = Callable[[Union[str, "Message"]], str]
"""How a reader's language tells a message (`english`, or the service's translator): what a projection
or a game's picture takes to write its words."""


class Message(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A sentence or a name a person reads. `catalogue` is the package whose `locale/` translates it,
    `msgid` the English template (`{name}` placeholders), `args` its arguments. A plural message has its
    English plural template in `plural` and the number that chooses the form in `count` (also available
    to the templates as `{count}`). `context` tells apart two uses of one English word (gettext's msgctxt)."""

    catalogue: str
    msgid: str
    args: dict[str, Arg] = msgspec.field(default_factory=dict)
    plural: str | None = None
    count: int | None = None
    context: str | None = None

    def english(self) -> str:
        """The message in English, as the templates say it."""
        template = self.plural if self.plural is not None and self.count != 1 else self.msgid
        # `arguments(english_words)` without its indirections: a recorder's look-ahead tells thousands of
        # nested messages a tap.
        told: dict[str, str] = {}
        for name, value in self.args.items():
            if isinstance(value, str):
                told[name] = value
            elif isinstance(value, Message):
                told[name] = value.english()
            else:
                told[name] = english_words(value)
        if self.count is not None:
            told.setdefault("count", str(self.count))
        return fill(template, told)

    def arguments(self, words: Words) -> dict[str, str]:
        """The arguments as text, each message among them told with `words` (the reader's language)."""
        told = {name: words(value) for name, value in self.args.items()}
        if self.count is not None:
            told.setdefault("count", words(self.count))
        return told


def english_words(value: Arg) -> str:
    """An argument in English: messages told in English, numbers as Python writes them (a whole float
    without its `.0`)."""
    if isinstance(value, Message):
        return value.english()
    if isinstance(value, float):
        return format(value, "g") if value != int(value) else str(int(value))
    return str(value)


def fill(template: str, arguments: dict[str, str]) -> str:
    """`template` with its `{name}` placeholders replaced; braces doubled (`{{`) stand for themselves."""
    return template.format_map(arguments)


def placeholders(template: str) -> frozenset[str]:
    """The names a template's placeholders use (what a translation must keep)."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def english(text: str | Message) -> str:
    """Plain text as it is; a message in English."""
    return text if isinstance(text, str) else text.english()


class Catalogue:
    """The messages of one package (`domain.milles_nautiques`): calling it makes a message whose
    translations live in that package's `locale/`."""

    def __init__(self, package: str) -> None:
        self.package = package

    def __call__(self, msgid: str, /, **args: Arg) -> Message:
        return Message(catalogue=self.package, msgid=msgid, args=args)

    def ngettext(self, singular: str, plural: str, count: int, /, **args: Arg) -> Message:
        """A message whose wording follows a number (`{count}` in the templates): "1 unit lost",
        "2 units lost"; in French the locale's plural rule chooses ("1 figure perdue", "2 figures perdues")."""
        return Message(catalogue=self.package, msgid=singular, plural=plural, count=count, args=args)

    def pgettext(self, context: str, msgid: str, /, **args: Arg) -> Message:
        """A message whose English words have other uses elsewhere (a card called "alert" and an alert
        in a sentence): `context` tells the translator which."""
        return Message(catalogue=self.package, msgid=msgid, context=context, args=args)


_ = Catalogue("domain")
"""The messages every game shares (the general rules G-1 to G-6, the words that join sentences)."""


def joined(parts: list[Message]) -> Message:
    """Sentences told one after the other, as one message (a narration line of several sentences)."""
    line = parts[0]
    for part in parts[1:]:
        line = _("{first} {then}", first=line, then=part)
    return line
