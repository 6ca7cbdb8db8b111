"""The club's pages: sign-in, club home, the replay viewer, the live table, league, campaign and player
pages, and share links. Plain HTML from Jinja2 templates (litestar's template engine), CSS and a little
JavaScript from `static/`; everything is readable without JavaScript.

Who sees what: a signed-in browser carries an HttpOnly, SameSite cookie naming a page session (stored
hashed, expiring, ended with its key); it acts with its key's scope. A share link's token is in its
URL and opens its one game, league or campaign, as a spectator (public view, spectator delay). One
guard per controller resolves the principal; form posts carry litestar's CSRF token.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from secrets import compare_digest
from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.config.csrf import CSRFConfig
from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie, State
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType, ScopeType
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException, ValidationException
from litestar.handlers.base import BaseRouteHandler
from litestar.middleware._utils import should_bypass_middleware
from litestar.middleware.csrf import CSRF_SECRET_LENGTH, CSRFMiddleware, generate_csrf_hash, generate_csrf_token
from litestar.params import Body, FromPath, FromQuery, HeaderParameter, QueryParameter
from litestar.response import Redirect, ServerSentEvent, Template
from litestar.types import Receive, Scope, Send
from litestar.utils.scope.state import ScopeState

from domain.i18n import Catalogue, Message
from projections.errors import ProjectionError
from service.http.dependencies import RequestContext
from service.http.guards import club_exists
from service.http.live import LiveGame
from service.http.ratelimit import LIVE_STREAM, SESSION_COOKIE
from service.i18n import Translator
from service.pages import reads
from service.pages.naming import game_choices
from service.pages.report import ViewRefused, report_html, report_name
from service.usecases.access import Principal
from service.usecases.games import NoSuchSeat, NotFound, Records
from service.usecases.keys import Keys
from service.usecases.replays import Replays
from service.usecases.types import ShareKind

_ = Catalogue("service.pages")
STATIC = Path(__file__).parent / "static"
CSRF_COOKIE = "tablelog_csrf"
SESSION_HOURS = 12
"""A page session lasts an evening at the club (or less, when its key expires sooner)."""


def csrf_config() -> CSRFConfig:
    """The form posts' CSRF check: a token in an HttpOnly, SameSite=Strict cookie and the same in each
    form (the secret is filled in on the first request, see PagesCsrf)."""
    return CSRFConfig(secret="", cookie_name=CSRF_COOKIE, cookie_httponly=True, cookie_samesite="strict")


class Links(msgspec.Struct, frozen=True, kw_only=True):
    """Where a page's links go: under `/club/{club}` for a signed-in member, under `/share/{token}` for
    a share link (which links only to its one thing: the other links are None)."""

    base: str
    club_id: str
    shared: bool = False

    def step(self, game_id: str, step: int, query: str = "") -> str:
        where = f"{self.base}/replay/{step}" if self.shared else f"{self.base}/games/{game_id}/replay/{step}"
        return f"{where}?{query}" if query else where

    def jump(self, game_id: str) -> str:
        return f"{self.base}/replay" if self.shared else f"{self.base}/games/{game_id}/replay"

    def live(self, game_id: str) -> str:
        return f"{self.base}/live" if self.shared else f"{self.base}/games/{game_id}/live"

    def live_events(self, game_id: str) -> str:
        return f"{self.live(game_id)}/events"

    def report(self, game_id: str, query: str = "") -> str:
        where = f"{self.base}/report" if self.shared else f"{self.base}/games/{game_id}/report"
        return f"{where}?{query}" if query else where

    def game(self, game_id: str) -> str | None:
        return None if self.shared else f"{self.base}/games/{game_id}"

    def player(self, player_id: str) -> str | None:
        return None if self.shared else f"{self.base}/players/{player_id}"

    def league(self, league_id: str) -> str | None:
        return self.base if self.shared else f"{self.base}/leagues/{league_id}"

    def campaign(self, campaign_id: str) -> str | None:
        return self.base if self.shared else f"{self.base}/campaigns/{campaign_id}"

    def home(self) -> str | None:
        return None if self.shared else self.base


# -- guards ---------------------------------------------------------------------------------------------
def _principal(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    principal: Principal = connection.scope["state"]["principal"]
    return principal


async def member_guard(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """A signed-in club member (their session's key), of this club; `record` for what changes things.
    The operator's calls on a club that does not exist are a 404 first (`club_exists`). One guard, as the
    API's `authorize`: litestar copies the handler for each guard it runs. A coroutine: a worker-thread
    hop cost a recorder's tap more than the API append's whole request handling (bench.recording)."""
    await club_exists(connection, handler)
    principal = await connection.app.state.authenticator.found(connection.cookies.get(SESSION_COOKIE), "session")
    if principal is None:
        raise NotAuthorizedException()
    club_id = connection.path_params.get("club_id")
    if club_id is not None and principal.club_id != club_id:
        raise PermissionDeniedException(detail="You are signed in for another club.")
    if handler.opt.get("needs") == "record" and principal.access != "record":
        raise PermissionDeniedException(detail="Only a record key's session may do this.")
    connection.scope["state"]["principal"] = principal


MEMBER_GUARDS = (member_guard,)
"""The guard of a club's pages."""


class LinkRevoked(Exception):
    """A share link that was revoked (or never existed)."""


async def share_guard(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """A share link's token, from the URL; remembered on the loop as a session is (`member_guard`): a flood
    of streams on one link hopped to a worker thread each, and the threads held the loop's `/health`."""
    principal = await connection.app.state.authenticator.found(connection.path_params.get("token"), "share")
    if principal is None:
        raise LinkRevoked()
    connection.scope["state"]["principal"] = principal


# -- errors as pages --------------------------------------------------------------------------------------
def _page_error(request: Request[Any, Any, Any], status: int, title: Message, detail: str | Message) -> Template:
    return Template(template_name="error.html", context={"title": title, "detail": detail}, status_code=status)


def _to_sign_in(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    response: Response[Any] = Redirect(path=f"/sign-in?next={request.url.path}")
    if SESSION_TAG_COOKIE in request.cookies:  # the session ended (expired, revoked, closed elsewhere)
        _forget_session(response)
    return response


SESSION_TAG_COOKIE = "tablelog_tag"
"""A tag of the browser's session that its scripts can read (the session cookie is HttpOnly): the recording
page's offline copies (its service worker's cache, its queue in localStorage) are kept under it, and only
served to the session that stored them (issue 25)."""


def _session_tag(session_token: str) -> str:
    return hashlib.sha256(session_token.encode()).hexdigest()[:24]


def _forget_session(response: Response[Any]) -> None:
    """What the browser kept of a session that ended, dropped: its tag, and (where the browser honours
    Clear-Site-Data, any secure or local origin) the recording page's cache and offline queue with it; the
    sign-in page's script and the service worker drop them elsewhere."""
    response.delete_cookie(SESSION_TAG_COOKIE, path="/")
    response.headers["Clear-Site-Data"] = '"cache", "storage"'


def _forbidden(request: Request[Any, Any, Any], exc: Exception) -> Template:
    detail = getattr(exc, "detail", "") or _("You may not see this page.")
    return _page_error(request, 403, _("Not for this key"), detail)


def _revoked(request: Request[Any, Any, Any], exc: Exception) -> Template:
    return _page_error(
        request,
        403,
        _("This link no longer works"),
        _("The club revoked this link, or it never existed. Ask the club for a new one."),
    )


def _not_found(request: Request[Any, Any, Any], exc: Exception) -> Template:
    return _page_error(request, 404, _("Not found"), str(exc))


def _bad_request(request: Request[Any, Any, Any], exc: Exception) -> Template:
    # A ProjectionError's words as a message (told in the page's language), else the exception's text.
    detail = (
        getattr(exc, "said", None)
        or getattr(exc, "message", None)
        or getattr(exc, "detail", None)
        or _("That request cannot be read.")
    )
    return _page_error(request, 400, _("That does not work"), detail if isinstance(detail, Message) else str(detail))


EXCEPTION_HANDLERS: dict[Any, Any] = {
    NotAuthorizedException: _to_sign_in,
    PermissionDeniedException: _forbidden,
    LinkRevoked: _revoked,
    NotFound: _not_found,
    NoSuchSeat: _not_found,
    ViewRefused: _forbidden,
    ProjectionError: _bad_request,
    ValidationException: _bad_request,
}


# -- sign-in --------------------------------------------------------------------------------------------
class SignIn(msgspec.Struct, frozen=True, kw_only=True):
    key: str = ""
    next: str = ""


def _safe_next(path: str, club_id: str) -> str:
    """Where to go after signing in: a path of this club's pages, else its home."""
    prefix = f"/club/{club_id}"
    return path if path == prefix or path.startswith(prefix + "/") else prefix


class SignInController(Controller):
    @get("/", sync_to_thread=False, include_in_schema=False)
    def root(self) -> Redirect:
        return Redirect(path="/sign-in")

    @get("/sign-in", sync_to_thread=False, include_in_schema=False)
    def sign_in_form(self, next_path: Annotated[str, QueryParameter(name="next")] = "") -> Template:
        return Template(template_name="sign_in.html", context={"next": next_path, "error": ""})

    @post("/sign-in", sync_to_thread=True, include_in_schema=False, status_code=303)
    def sign_in(
        self,
        request: Request[Any, Any, Any],
        state: State,
        data: Annotated[SignIn, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Response[Any]:
        principal = state.authenticator(data.key.strip())
        if principal is None or principal.operator or principal.key_id is None:
            return Template(
                template_name="sign_in.html",
                status_code=401,
                context={
                    "next": data.next,
                    "error": _("That key is not valid (or was revoked). Paste a club key: tl_…"),
                },
            )
        expires = datetime.now(UTC) + timedelta(hours=SESSION_HOURS)
        if principal.expires_at is not None:
            expires = min(expires, principal.expires_at)
        keys = Keys.of(state.records)
        earlier = state.authenticator.session(request.cookies.get(SESSION_COOKIE))
        if earlier is not None and earlier.session_id is not None:  # one browser, one session: the new key's
            keys.close_session(earlier.session_id)
            state.authenticator.settle()
        token = keys.open_session(principal.key_id, expires)
        assert principal.club_id is not None
        response: Response[Any] = Redirect(path=_safe_next(data.next, principal.club_id), status_code=303)
        response.set_cookie(
            Cookie(
                key=SESSION_COOKIE,
                value=token,
                httponly=True,
                samesite="lax",
                path="/",
                secure=request.url.scheme == "https",
                max_age=max(0, int((expires - datetime.now(UTC)).total_seconds())),
            )
        )
        response.set_cookie(
            Cookie(
                key=SESSION_TAG_COOKIE,
                value=_session_tag(token),
                httponly=False,
                samesite="lax",
                path="/",
                secure=request.url.scheme == "https",
                max_age=max(0, int((expires - datetime.now(UTC)).total_seconds())),
            )
        )
        # A new CSRF token for the new session: the next page issues it (a token seen before sign-in, by
        # whoever could read that page, signs no form of the session).
        response.delete_cookie(CSRF_COOKIE, path="/")
        return response

    @post("/sign-out", sync_to_thread=True, include_in_schema=False, status_code=303)
    def sign_out(self, request: Request[Any, Any, Any], state: State) -> Response[Any]:
        principal = state.authenticator.session(request.cookies.get(SESSION_COOKIE))
        if principal is not None and principal.session_id is not None:
            Keys.of(state.records).close_session(principal.session_id)
            state.authenticator.settle()
        response: Response[Any] = Redirect(path="/sign-in", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        _forget_session(response)
        return response


# -- a club's pages -------------------------------------------------------------------------------------------
View = Literal["public", "seat", "full"]


def club_links(club_id: str) -> Links:
    """The links of a signed-in member's pages of the club."""
    return Links(base=f"/club/{club_id}", club_id=club_id)


def page_template(name: str, principal: Principal, links: Links, **context: Any) -> Template:
    """A club page for `principal`, with what every page's template reads (its links, the scores' words)."""
    return Template(
        template_name=name,
        context={
            "links": links,
            "principal": principal,
            "points": reads.points,
            "unit_word": reads.unit_word,
            **context,
        },
    )


class ClubPages(Controller):
    path = "/club/{club_id:str}"
    guards = MEMBER_GUARDS
    include_in_schema = False

    @get("/", sync_to_thread=True)
    def home(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        return page_template(
            "club.html", context.principal, club_links(club_id), **reads.club_home(context.records, club_id)
        )

    @get("/games/{game_id:str}", sync_to_thread=True)
    def game(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Template:
        page = reads.game_step(
            context.records, context.principal, club_id, game_id, None, "public", None, words=context.words
        )
        return page_template("game.html", context.principal, club_links(club_id), **page)

    @get("/games/{game_id:str}/replay", sync_to_thread=False)
    def jump(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        step: FromQuery[int],
        view: FromQuery[View] = "public",
        seat: FromQuery[int | None] = None,
    ) -> Redirect:
        """The slider's and chapter list's form (without JavaScript) lands here."""
        query = f"view={view}" + (f"&seat={seat}" if seat is not None else "")
        return Redirect(path=club_links(club_id).step(game_id, max(step, 1), query))

    @get("/games/{game_id:str}/replay/{step:int}", sync_to_thread=True)
    def replay_step(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        step: FromPath[int],
        context: NamedDependency[RequestContext],
        state: State,
        view: FromQuery[View] = "public",
        seat: FromQuery[int | None] = None,
    ) -> Template:
        page = reads.game_step(
            context.records, context.principal, club_id, game_id, step, view, seat, words=context.words
        )
        return page_template("game.html", context.principal, club_links(club_id), **page)

    @get("/games/{game_id:str}/report", sync_to_thread=True)
    def report(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        view: FromQuery[View] = "public",
        seat: FromQuery[int | None] = None,
    ) -> Response[bytes]:
        """The replay as one HTML file to keep (a download): a view the key may not see is a 403."""
        return _report(context, club_id, game_id, view, seat)

    @get("/games/{game_id:str}/live", sync_to_thread=True)
    def live(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Template:
        page = reads.live_table(context.records, club_id, game_id, words=context.words)
        return page_template("live.html", context.principal, club_links(club_id), **page)

    @get("/games/{game_id:str}/live/events", sync_to_thread=True, opt=LIVE_STREAM)
    def live_events(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
        last_event_id: Annotated[int | None, HeaderParameter(name="Last-Event-ID", required=False)] = None,
        after: FromQuery[int | None] = None,
    ) -> ServerSentEvent:
        return _live_stream(
            context.records, context.principal, club_id, game_id, state, last_event_id, after, context.words
        )

    @get("/leagues/{league_id:str}", sync_to_thread=True)
    def league(
        self,
        club_id: FromPath[str],
        league_id: FromPath[str],
        context: NamedDependency[RequestContext],
        as_of: FromQuery[date | None] = None,
    ) -> Template:
        return page_template(
            "league.html",
            context.principal,
            club_links(club_id),
            **reads.league_page(context.records, club_id, league_id, as_of),
        )

    @get("/campaigns/{campaign_id:str}", sync_to_thread=True)
    def campaign(
        self,
        club_id: FromPath[str],
        campaign_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> Template:
        return page_template(
            "campaign.html",
            context.principal,
            club_links(club_id),
            **reads.campaign_page(context.records, club_id, campaign_id, context.words),
        )

    @get("/players/{player_id:str}", sync_to_thread=True)
    def player(
        self,
        club_id: FromPath[str],
        player_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> Template:
        return page_template(
            "player.html",
            context.principal,
            club_links(club_id),
            **reads.player_page(context.records, club_id, player_id),
        )

    @get("/shares", sync_to_thread=True, opt={"needs": "record"})
    def shares(
        self,
        club_id: FromPath[str],
        principal: NamedDependency[Principal],
        state: State,
        made: FromQuery[str | None] = None,
    ) -> Template:
        links = Keys.of(state.records).shares(club_id)
        home = reads.club_home(state.records, club_id)
        choices = game_choices(state.records, club_id, home["live"] + home["finished"])
        return page_template(
            "shares.html", principal, club_links(club_id), shares=links, made=made, choices=choices, **home
        )

    @post("/shares", sync_to_thread=True, opt={"needs": "record"}, status_code=200)
    def make_share(
        self,
        club_id: FromPath[str],
        context: NamedDependency[RequestContext],
        request: Request[Any, Any, Any],
        state: State,
        data: Annotated[ShareForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Template:
        target = data.target.partition(":")
        kind: ShareKind = target[0]  # type: ignore[assignment]
        if kind not in ("game", "league", "campaign", "tournament"):
            raise ValidationException(detail="Choose a game, league, campaign or tournament to share.")
        keys = Keys.of(context.records)
        _, token = keys.create_share(club_id, kind, target[2], data.name, context.principal.key_id)
        url = f"{request.base_url}".rstrip("/") + f"/share/{token}"
        links = keys.shares(club_id)
        home = reads.club_home(context.records, club_id)
        choices = game_choices(context.records, club_id, home["live"] + home["finished"])
        return page_template(
            "shares.html", context.principal, club_links(club_id), shares=links, made=url, choices=choices, **home
        )

    @post("/shares/{share_id:str}/revoke", sync_to_thread=True, opt={"needs": "record"}, status_code=303)
    def revoke_share(
        self, club_id: FromPath[str], share_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> Redirect:
        Keys.of(context.records).revoke_share(club_id, share_id)
        state.authenticator.settle()
        return Redirect(path=f"/club/{club_id}/shares", status_code=303)


class ShareForm(msgspec.Struct, frozen=True, kw_only=True):
    target: str = ""
    name: str = ""


def _live_stream(
    records: Records,
    principal: Principal,
    club_id: str,
    game_id: str,
    state: State,
    last_event_id: int | None,
    after: int | None,
    words: Translator,
) -> ServerSentEvent:
    """The live stream the API serves (public view, spectator delay), for a page's EventSource."""
    replays = Replays.of(records)
    record, ruleset = replays.game(club_id, game_id)
    resume = max(0, last_event_id if last_event_id is not None else (after or 0))
    live = LiveGame(state.live, replays, ruleset, record.stream_id, resume, words.language)
    settings = state.settings
    return ServerSentEvent(
        live.messages(settings.live_poll_seconds, settings.live_keepalive_seconds, state.authenticator.watch(principal))
    )


# -- share links ----------------------------------------------------------------------------------------------
SHARED_PAGES: dict[str, Callable[[Request[Any, Any, Any], RequestContext, str], Template]] = {}
"""A share link's page made by another module, by the link's kind (a tournament's screen:
`service.pages.tournaments`, which builds on this module and so registers itself here)."""


def _report(context: RequestContext, club_id: str, game_id: str, view: str, seat: int | None) -> Response[bytes]:
    html = report_html(
        context.records, context.principal, club_id, game_id, view, seat, language=context.words.language
    )
    return Response(
        content=html.encode(),
        media_type="text/html; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{report_name(game_id, view, seat)}"'},
    )


def _share_links(token: str, principal: Principal) -> Links:
    assert principal.club_id is not None
    return Links(base=f"/share/{token}", club_id=principal.club_id, shared=True)


def _target(principal: Principal, kind: ShareKind) -> str:
    """The one thing a share link shows; any other kind of page is not found."""
    share = principal.share
    if share is None or share.kind != kind:
        raise NotFound("page", kind)
    return share.target_id


class SharePages(Controller):
    path = "/share/{token:str}"
    guards = (share_guard,)
    include_in_schema = False

    @get("/", sync_to_thread=True)
    def shared(
        self,
        token: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Response[Any]:
        assert context.principal.share is not None and context.principal.club_id is not None
        links, club_id, target = (
            _share_links(token, context.principal),
            context.principal.club_id,
            context.principal.share.target_id,
        )
        if context.principal.share.kind == "player":  # a player link's page is the entry's own
            return Redirect(path=f"/share/{token}/me")
        if context.principal.share.kind == "line":  # its page is the line pages' (`line_pages.SharedLine`)
            return Redirect(path=f"/share/{token}/line", status_code=303)
        elsewhere = SHARED_PAGES.get(context.principal.share.kind)
        if elsewhere is not None:
            return elsewhere(request, context, token)
        if context.principal.share.kind == "league":
            return page_template(
                "league.html", context.principal, links, **reads.league_page(context.records, club_id, target, None)
            )
        if context.principal.share.kind == "campaign":
            return page_template(
                "campaign.html",
                context.principal,
                links,
                **reads.campaign_page(context.records, club_id, target, context.words),
            )
        page = reads.game_step(
            context.records, context.principal, club_id, target, None, "public", None, words=context.words
        )
        return page_template("game.html", context.principal, links, **page)

    @get("/replay", sync_to_thread=False)
    def jump(self, token: FromPath[str], step: FromQuery[int]) -> Redirect:
        return Redirect(path=f"/share/{token}/replay/{max(step, 1)}")

    @get("/replay/{step:int}", sync_to_thread=True)
    def replay_step(
        self,
        token: FromPath[str],
        step: FromPath[int],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Template:
        assert context.principal.club_id is not None
        game_id = _target(context.principal, "game")
        page = reads.game_step(
            context.records,
            context.principal,
            context.principal.club_id,
            game_id,
            step,
            "public",
            None,
            words=context.words,
        )
        return page_template("game.html", context.principal, _share_links(token, context.principal), **page)

    @get("/report", sync_to_thread=True)
    def report(self, token: FromPath[str], context: NamedDependency[RequestContext]) -> Response[bytes]:
        """The shared game's report: the public view, up to the spectator delay's horizon."""
        assert context.principal.club_id is not None
        return _report(context, context.principal.club_id, _target(context.principal, "game"), "public", None)

    @get("/live", sync_to_thread=True)
    def live(
        self,
        token: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Template:
        assert context.principal.club_id is not None
        page = reads.live_table(
            context.records, context.principal.club_id, _target(context.principal, "game"), words=context.words
        )
        return page_template("live.html", context.principal, _share_links(token, context.principal), **page)

    @get("/live/events", sync_to_thread=True, opt=LIVE_STREAM)
    def live_events(
        self,
        token: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
        last_event_id: Annotated[int | None, HeaderParameter(name="Last-Event-ID", required=False)] = None,
        after: FromQuery[int | None] = None,
    ) -> ServerSentEvent:
        """The live stream of the shared game: the token in the URL stands in for the header an
        EventSource cannot send."""
        assert context.principal.club_id is not None
        return _live_stream(
            context.records,
            context.principal,
            context.principal.club_id,
            _target(context.principal, "game"),
            state,
            last_event_id,
            after,
            context.words,
        )


class PagesCsrf(CSRFMiddleware):
    """litestar's CSRF middleware (a token in a cookie and the same in each form), with its token bound to the
    browser's session: the HMAC that signs a token is keyed by the server's secret (in its database, every
    worker shares it) and the session cookie, so a token issued to one session, or before sign-in, signs no
    form of another. A page of a session whose cookie holds another session's token gets a new one."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or should_bypass_middleware(
            scope=scope,
            scopes=self.scopes,
            exclude_opt_key=self.config.exclude_from_csrf_key,
            exclude_path_pattern=self.exclude,
        ):
            await self.app(scope, receive, send)
            return
        if not self._server_secret:
            self._server_secret = Keys.of(scope["litestar_app"].state.records).server_secret("pages_csrf")
        request: Request[Any, Any, Any] = scope["litestar_app"].request_class(scope=scope, receive=receive)
        secret = self._bound_secret(request.cookies.get(SESSION_COOKIE))
        cookie = request.cookies.get(self.config.cookie_name)
        state = ScopeState.from_scope(scope)
        if request.method in self.config.safe_methods:
            kept = cookie if cookie is not None and self._decode(cookie, secret) is not None else None
            token = state.csrf_token = kept or generate_csrf_token(secret=secret)
            await self.app(scope, receive, self.create_send_wrapper(send=send, csrf_cookie=kept, token=token))
            return
        sent = request.headers.get(self.config.header_name)
        if not sent and request.content_type[0] in {RequestEncodingType.URL_ENCODED, RequestEncodingType.MULTI_PART}:
            sent = (await request.form()).get("_csrf_token")
        if not isinstance(sent, str) or cookie is None:
            raise PermissionDeniedException("CSRF token verification failed")
        ours, theirs = self._decode(sent, secret), self._decode(cookie, secret)
        if ours is None or theirs is None or not compare_digest(ours, theirs):
            raise PermissionDeniedException("CSRF token verification failed")
        state.csrf_token = sent
        await self.app(scope, receive, send)

    _server_secret = ""

    def _bound_secret(self, session: str | None) -> str:
        bound = hmac.new(self._server_secret.encode(), (session or "").encode(), hashlib.sha256)
        return bound.hexdigest()

    @staticmethod
    def _decode(token: str, secret: str) -> str | None:
        """A token's random part when its HMAC holds under `secret`."""
        if len(token) <= CSRF_SECRET_LENGTH:
            return None
        random_part, signature = token[:CSRF_SECRET_LENGTH], token[CSRF_SECRET_LENGTH:]
        expected = generate_csrf_hash(token=random_part, secret=secret)
        return random_part if compare_digest(signature, expected) else None
