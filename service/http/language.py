"""The language a request is answered in (issue 26), decided in one place for the API and the pages.

The reader's choice (the pages' language menu, kept in the `tablelog_lang` cookie), else their
`Accept-Language`, else their club's default language (a club setting), else English
(`service.i18n.choose`). It is decided when something is first told in it (a refusal, a narration, a page)
and remembered for the rest of the request; the answer then says it in `Content-Language`. Machine fields
(`type`, `code`, `rule_id`, event types, field names) never change with it.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.datastructures import MutableScopeHeaders
from litestar.types import ASGIApp, Receive, Scope, Send
from litestar.types import Message as AsgiMessage

from domain.i18n import Catalogue, Message
from service.cache import Recent
from service.i18n import Translator, accepted, choose, supported
from service.usecases.clubs import Clubs
from service.usecases.games import NotFound

_ = Catalogue("service.http")

LANGUAGE_COOKIE = "tablelog_lang"
CLUB_LANGUAGE_SECONDS = 30.0
"""How long a process trusts the club default it read (a change made through another process shows
within this)."""
_LANGUAGE = "language"
"""Where a request keeps its language once decided (the scope's state)."""


class ClubLanguages:
    """Each club's default language, read through the clubs use case and remembered briefly: a request
    that names no language of ours would otherwise read the club once more (and an error handler runs on
    the loop). Bounded: clubs named in requests, also those that do not exist."""

    def __init__(self) -> None:
        self.known: Recent[str, tuple[str | None]] = Recent(10_000, ttl=CLUB_LANGUAGE_SECONDS)

    def __call__(self, clubs: Clubs, club_id: str) -> str | None:
        known = self.known.get(club_id)
        if known is not None:
            return known[0]
        try:
            language = clubs.club(club_id).language
        except NotFound:
            language = None
        self.known.put(club_id, (language,))
        return language

    def changed(self, club_id: str, language: str | None) -> None:
        self.known.put(club_id, (language,))


def club_languages(app_state: Any) -> ClubLanguages:
    known = app_state.get("club_languages")
    if known is None:
        known = app_state.club_languages = ClubLanguages()
    return known


def request_language(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    """The language this request is answered in (decided once, then remembered for the request)."""
    state = connection.scope.setdefault("state", {})
    language: str | None = state.get(_LANGUAGE)
    if language is not None:
        return language
    chosen = connection.cookies.get(LANGUAGE_COOKIE)
    header = connection.headers.get("accept-language")
    club_default = None
    if supported(chosen) is None and not accepted(header):
        club_id = connection.path_params.get("club_id") or getattr(state.get("principal"), "club_id", None)
        if club_id:
            club_default = club_languages(connection.app.state)(Clubs.of(connection.app.state.records), club_id)
    language = choose(chosen=chosen, accept_language=header, club_default=club_default)
    state[_LANGUAGE] = language
    return language


def translator(connection: ASGIConnection[Any, Any, Any, Any]) -> Translator:
    """What tells the domain's messages to this request's reader."""
    return Translator(request_language(connection))


class ReadersWords(Translator):
    """A request's translator whose language is decided when it first tells something (in the handler's
    thread, where the club's default may be read), not when it is handed to the handler."""

    def __init__(self, connection: ASGIConnection[Any, Any, Any, Any]) -> None:
        self.connection = connection
        self._decided: str | None = None

    @property
    def language(self) -> str:
        # Kept once decided: a recorder's tap tells a hundred and more words (bench.recording).
        if self._decided is None:
            self._decided = request_language(self.connection)
        return self._decided

    @language.setter
    def language(self, language: str) -> None:
        self.connection.scope.setdefault("state", {})[_LANGUAGE] = self._decided = language


def provide_words(request: Request[Any, Any, Any]) -> Translator:
    """The `words` dependency: this request's reader's translator."""
    return ReadersWords(request)


def refusal(
    connection: ASGIConnection[Any, Any, Any, Any], index: int, event_type: str, rule_id: str, said: str | Message
) -> tuple[str, str]:
    """A refused event's problem `title` and `detail` in the request's language (the rule's own words
    told in it where the game made them a message)."""
    told = translator(connection)
    title = told(_("The rules refuse this event"))
    detail = _(
        "Event {index} ({event_type}) is refused by rule {rule_id}: {reason}",
        index=str(index),
        event_type=event_type,
        rule_id=rule_id,
        reason=told(said),
    )
    return title, told(detail)


def content_language_middleware(app: ASGIApp) -> ASGIApp:
    """`Content-Language` on every answer that told something in the request's language."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def send_wrapper(message: AsgiMessage) -> None:
            if message["type"] == "http.response.start":
                language = scope.get("state", {}).get(_LANGUAGE)
                if language is not None:
                    MutableScopeHeaders.from_message(message)["Content-Language"] = language
            await send(message)

        await app(scope, receive, send_wrapper)

    return middleware
