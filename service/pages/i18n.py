"""The pages in the reader's language (issue 26): Jinja2's i18n extension with gettext callables that read
the request's language (`service.http.language`), the language menu (a link that remembers the choice in a
cookie and goes back to the same page, without JavaScript), and filters that write dates and numbers by the
locale's rules (Babel). The pages' own words live in `service/pages/locale/` (their templates and Python);
a game's words are told from its own catalogue."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any
from urllib.parse import urlsplit

from babel.dates import format_date, format_datetime
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from litestar import Request, Response, get
from litestar.datastructures import Cookie
from litestar.params import FromPath, QueryParameter
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Redirect

from domain.i18n import Catalogue, Message
from service.http.language import LANGUAGE_COOKIE, request_language
from service.i18n import LANGUAGES, Translator, decimal, language_names, locale_of, translations
from service.pages.render import prose

PACKAGE = "service.pages"
_ = Catalogue(PACKAGE)
NAMES = language_names()
COOKIE_YEAR = 365 * 24 * 3600


def _language(context: Context) -> str:
    """The request's language; outside a request (a report written by the CLI) the template's `language`."""
    request = context.get("request")
    return request_language(request) if request is not None else str(context.get("language", "en"))


@pass_context
def _gettext(context: Context, message: str) -> str:
    return translations(PACKAGE, _language(context)).gettext(message)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, count: int) -> str:
    return translations(PACKAGE, _language(context)).ngettext(singular, plural, count)


@pass_context
def _pgettext(context: Context, where: str, message: str) -> str:
    return translations(PACKAGE, _language(context)).pgettext(where, message)


@pass_context
def _npgettext(context: Context, where: str, singular: str, plural: str, count: int) -> str:
    return translations(PACKAGE, _language(context)).npgettext(where, singular, plural, count)


@pass_context
def tell(context: Context, text: str | Message | None) -> str:
    """A message (the pages' or a game's) in the page's language; plain text as it is."""
    return "" if text is None else Translator(_language(context))(text)


@pass_context
def number(context: Context, value: int | float | None) -> str:
    """A number as the page's language writes it ("26,5" in French)."""
    return "—" if value is None else decimal(value, _language(context))


@pass_context
def day(context: Context, value: date | datetime | None, form: str = "medium") -> str:
    """A date as the page's language writes it ("25 nov. 2026")."""
    if value is None:
        return ""
    return format_date(value, form, locale=locale_of(_language(context)))


@pass_context
def moment(context: Context, value: datetime | None, form: str = "medium") -> str:
    """A date and time as the page's language writes it."""
    return "" if value is None else format_datetime(value, form, locale=locale_of(_language(context)))


@pass_context
def page_language(context: Context) -> str:
    return _language(context)


@pass_context
def language_menu(context: Context) -> list[dict[str, Any]]:
    """The menu's entries: each language named in itself, the link that chooses it and goes back here."""
    request = context.get("request")
    here = "/" if request is None else request.url.path + (f"?{request.url.query}" if request.url.query else "")
    current = _language(context)
    return [
        {"language": language, "name": NAMES[language], "current": language == current, "next": here}
        for language in LANGUAGES
    ]


RECORDER_WORDS = {
    "wait_one": _("event waits to be sent"),
    "wait_many": _("events wait to be sent"),
    "online": _("online"),
    "offline": _("offline"),
    "record_these": _("Record these {count}"),
    "checked_when_sent": _(" (checked when sent)"),
    "ahead_unknown": _(
        "What may happen after the waiting events is checked when they are sent: use the form below, or wait "
        "for the connection."
    ),
    "picked": _("Picked in the picture: {picks} "),
    "clear": _("Clear"),
    "may": _("{seat} may"),
    "cannot_list": _("{seat}: the game cannot list this step, use the form"),
    "name_the": _("…name the {fields}"),
    "open_form": _("Open the form"),
    "nothing_picked": _("Nothing the rules allow names all of what was picked: clear it and pick again."),
    "game_over": _("The game is over."),
    "nobody": _("Nobody may report anything here."),
    "refused": _("Refused"),
    "tap_each_die": _("tap each die as it shows"),
    "take_back": _("← take back"),
    "record": _("Record"),
    "not_complete": _("Not complete"),
    "tap_each": _("Tap each of the {field} as the table shows them."),
    "choose_every": _("Choose every {field} as the table shows it."),
    "rules_refuse": _("The rules refuse this event"),
    "not_allowed": _("{seat} may not report “{event}” now: it is not among what the rules allow at this step."),
    "server_answered": _("The server answered {status}"),
    "drop_refused": _("Take the refused events out of the queue"),
    "someone_else": _("Someone else recorded first"),
    "moved_on": _("The game moved on from step {since} to step {version} on another device. They recorded:"),
    "yours": _("Yours, not recorded ({count}):"),
    "mine_after": _("Record mine after theirs"),
    "leave_mine": _("Leave mine out"),
    "add_event": _("Add this event"),
    "correction": _("Correction: the last step is voided ({reason})"),
    "add_more": _("+ add a card"),
    "more_of": _("The same play with one card more, one tap:"),
    "more_none": _("No card may be added to this play."),
    "more_offline": _("Adding to a play needs the connection: record it as it is, or wait."),
    "seat_n": _("Seat {n} ({name})"),
    "filter": _("Find a card or a target"),
    "filter_hint": _("a card's or a convoy's name, a hex…"),
    "group_count": _("{group} ({count})"),
    "choose": _("choose…"),
    "face_down": _("(face down, not seen)"),
}
"""The recorder's words that its script writes (`static/record.js` fills their `{placeholders}`)."""


@pass_context
def recorder_words(context: Context) -> dict[str, str]:
    """The recorder's words in the page's language with their placeholders, for its script (JSON in the page)."""
    told = Translator(_language(context))
    return {key: told.template(message) for key, message in RECORDER_WORDS.items()}


def install(engine: JinjaTemplateEngine) -> None:
    """The template engine's callback: the pages' environment made ready for the reader's language."""
    prepare(engine.engine)


def prepare(environment: Environment) -> Environment:
    """The i18n extension (newstyle gettext: `{{ _("Step %(n)s", n=3) }}` fills `%(n)s` after translating,
    and escapes), the filters and the menu above. A template rendered without a request reads English."""
    environment.add_extension("jinja2.ext.i18n")
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True, pgettext=_pgettext, npgettext=_npgettext
    )
    environment.filters.update({"tell": tell, "number": number, "day": day, "moment": moment, "prose": prose})
    environment.globals.update(
        {"page_language": page_language, "language_menu": language_menu, "recorder_words": recorder_words}
    )
    return environment


def _local(path: str) -> str:
    """Where the menu may send the reader back to: a path of this site, never another site."""
    parts = urlsplit(path)
    foreign = parts.scheme or parts.netloc or path.startswith("//") or "\\" in path
    if foreign or not path.startswith("/") or any(ord(c) < 32 or ord(c) == 127 for c in path):
        return "/"
    return path


@get("/language/{language:str}", sync_to_thread=False, include_in_schema=False)
def choose_language(
    request: Request[Any, Any, Any],
    language: FromPath[str],
    next_path: Annotated[str, QueryParameter(name="next")] = "/",
) -> Response[Any]:
    """The language menu: remember the choice (a cookie for a year) and go back to the page it was made on."""
    response: Response[Any] = Redirect(path=_local(next_path), status_code=303)
    if language in LANGUAGES:
        response.set_cookie(
            Cookie(
                key=LANGUAGE_COOKIE,
                value=language,
                path="/",
                samesite="lax",
                httponly=True,
                secure=request.url.scheme == "https",
                max_age=COOKIE_YEAR,
            )
        )
    return response
