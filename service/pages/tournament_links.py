"""A tournament's player links on the pages (issue 28 part 4): the organiser's page of them (one per entry,
made and revoked, each new one shown once with its QR code to hand out, beside the evening's check-ins and
disputes, `_tournament_reports.html`), and the player's phone page the link opens (`/share/{token}/me`):
their name, a check-in button, their published pairing and table, a report form, and the other's report to
confirm or dispute. The forms go through the use cases the API does (`service.usecases.tournaments`); a
refusal is shown in words above the form, the values typed kept, and nothing is stored."""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.response import Redirect, Response, Template

from domain.i18n import Catalogue, Message
from projections.errors import ProjectionError
from projections.tournaments import ScoreEntry
from service.http.dependencies import RequestContext
from service.pages.controllers import MEMBER_GUARDS, Links, club_links, page_template, share_guard
from service.pages.forms import read_form
from service.pages.qr import qr_svg
from service.pages.recording import problem_words
from service.usecases.access import Principal
from service.usecases.games import BatchRuleError, NotFound, SetupError
from service.usecases.tournaments import Entry, PlayerLinks, Tournaments

_ = Catalogue("service.pages")

REFUSED: dict[str, Message] = {
    "already_checked_in": _("You are checked in for this round already."),
    "withdrawn": _("You have withdrawn from the tournament: there is no round to check in for."),
    "not_at_table": _("That is not your table: you can report only the game you played."),
    "already_reported": _("You have answered for this table already."),
    "table_closed": _("This table is closed: its result is in, or it was forfeited."),
    "no_report": _("Nobody else has reported this table yet."),
    "round_not_published": _("This round is not published yet."),
    "not_disputed": _("The players of this table agree: there is nothing to decide."),
    "choose_or_enter": _("Choose one player's report."),
    "not_entered": _("This player has no entry in the tournament."),
    "not_a_number": _("Scores are whole numbers."),
}
"""What a refusal of the players' phones (and the organiser's decision) says, by its code."""


def refusal(request: Request[Any, Any, Any], error: Exception) -> Message | str:
    """A refusal in the reader's words: ours for the tournament's codes, else the problem the API tells."""
    code = getattr(error, "code", None)
    if isinstance(code, str) and code in REFUSED:
        return REFUSED[code]
    return str(problem_words(request, error).get("detail", ""))


def _entry(principal: Principal) -> Entry:
    share = principal.share
    if share is None or share.kind != "player" or share.player_id is None or principal.club_id is None:
        raise NotFound("page", "player")  # another kind of link: its own pages, not this one
    return Entry(
        club_id=principal.club_id,
        tournament_id=share.target_id,
        player_id=share.player_id,
        link=share.share_id,
        made_by=share.made_by,
    )


def _phone(
    state: State, principal: Principal, token: str, *, error: Message | str = "", form: dict[str, Any] | None = None
) -> Template:
    entry = _entry(principal)
    tournaments = Tournaments.of(state.records)
    tournament, _version = tournaments.load(entry.club_id, entry.tournament_id)
    view = tournaments.seen_by(tournament, entry.player_id)
    links = Links(base=f"/share/{token}", club_id=entry.club_id, shared=True)
    template = page_template(
        "player_link.html", principal, links, view=view, error=error, form=form or {}, base=links.base
    )
    template.status_code = 422 if error else 200
    return template


class EntryPages(Controller):
    """The player's phone page, opened by their player link (its token in the URL signs the phone in as
    that entry, as a share link does for its page)."""

    path = "/share/{token:str}"
    guards = (share_guard,)
    include_in_schema = False

    @get("/me", sync_to_thread=True)
    def me(self, token: FromPath[str], principal: NamedDependency[Principal], state: State) -> Template:
        return _phone(state, principal, token)

    @post("/check-in", status_code=303)
    async def check_in(
        self, token: FromPath[str], request: Request[Any, Any, Any], principal: NamedDependency[Principal], state: State
    ) -> Response[Any]:
        return await self._act(request, state, principal, token, lambda t, e, f: t.check_in(e))

    @post("/report", status_code=303)
    async def report(
        self, token: FromPath[str], request: Request[Any, Any, Any], principal: NamedDependency[Principal], state: State
    ) -> Response[Any]:
        def act(tournaments: Tournaments, entry: Entry, form: dict[str, Any]) -> Any:
            number, table = _whole(form.get("round")), _whole(form.get("table"))
            seats = [key.removeprefix("score:") for key in form if key.startswith("score:")]
            scores = [ScoreEntry(player_id=p, score=_whole(form.get(f"score:{p}"), "score")) for p in seats]
            return tournaments.player_report(entry, number, table, scores)

        return await self._act(request, state, principal, token, act)

    @post("/confirm", status_code=303)
    async def confirm(
        self, token: FromPath[str], request: Request[Any, Any, Any], principal: NamedDependency[Principal], state: State
    ) -> Response[Any]:
        return await self._act(
            request,
            state,
            principal,
            token,
            lambda t, e, f: t.confirm(e, _whole(f.get("round")), _whole(f.get("table"))),
        )

    @post("/dispute", status_code=303)
    async def dispute(
        self, token: FromPath[str], request: Request[Any, Any, Any], principal: NamedDependency[Principal], state: State
    ) -> Response[Any]:
        return await self._act(
            request,
            state,
            principal,
            token,
            lambda t, e, f: t.dispute(
                e, _whole(f.get("round")), _whole(f.get("table")), str(f.get("reason", ""))[:500]
            ),
        )

    @staticmethod
    async def _act(
        request: Request[Any, Any, Any], state: State, principal: Principal, token: str, act: Any
    ) -> Response[Any]:
        """Do what the form asks by the use case, then back to the page; a refusal is the page again with
        the problem in words and the values typed (status 422), nothing stored."""
        form = await read_form(request)
        entry = _entry(principal)
        tournaments = Tournaments.of(state.records)
        try:
            await anyio.to_thread.run_sync(act, tournaments, entry, form)
        except (ProjectionError, BatchRuleError, SetupError) as error:
            words = refusal(request, error)
            return await anyio.to_thread.run_sync(lambda: _phone(state, principal, token, error=words, form=form))
        return Redirect(path=f"/share/{token}/me", status_code=303)


def _whole(value: Any, field: str = "round") -> int:
    """A whole number from a form field (a ProjectionError naming the field otherwise: only a score is typed
    by the player, the round and table are the page's own)."""
    try:
        return int(str(value).strip())
    except ValueError:
        raise ProjectionError("not_a_number", _("{field} is a whole number.", field=field), field=field) from None


# -- the organiser's page of the tournament's player links -------------------------------------------------
def links_page(
    context: RequestContext,
    club_id: str,
    tournament_id: str,
    made: list[dict[str, Any]] | None = None,
    error: Message | str = "",
) -> Template:
    """The entries with their live links, the links just made (each once, with its QR code), and the
    evening's check-ins and disputes (`_tournament_reports.html`)."""
    tournaments = Tournaments.of(context.records)
    state, _version = tournaments.load(club_id, tournament_id)
    listed = PlayerLinks.of(context.records).listed(club_id, tournament_id)
    live = {link.player_id: link for link in listed if link.revoked_at is None}
    base = f"/club/{club_id}/tournaments/{tournament_id}"
    template = page_template(
        "tournament_links.html",
        context.principal,
        club_links(club_id),
        tournament=state,
        entrants=[e for e in state.entrants if e.active],
        live=live,
        made=made or [],
        error=error,
        evening=tournaments.evening(state),
        tournament_base=base,
        back=f"{base}/links",
    )
    template.status_code = 422 if error else 200
    return template


class TournamentLinkPages(Controller):
    """The organiser's player links of a tournament, and the decisions of its disputes (a record key's
    session)."""

    path = "/club/{club_id:str}/tournaments/{tournament_id:str}"
    guards = MEMBER_GUARDS
    include_in_schema = False

    @get("/links", sync_to_thread=True, opt={"needs": "record"})
    def links(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> Template:
        return links_page(context, club_id, tournament_id)

    @post("/links", opt={"needs": "record"}, status_code=200)
    async def make(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Template:
        """A new link for the player named, or for every active entry without a live link: each shown
        once, with its QR code."""
        form = await read_form(request)
        wanted = str(form.get("player_id", ""))

        def make() -> list[dict[str, Any]]:
            links = PlayerLinks.of(context.records)
            state_, _version = Tournaments.of(context.records).load(club_id, tournament_id)
            live = {x.player_id for x in links.listed(club_id, tournament_id) if x.revoked_at is None}
            players = (
                [wanted] if wanted else [e.player_id for e in state_.entrants if e.active and e.player_id not in live]
            )
            made = []
            for player in players:
                link, token, _replaced = links.make(club_id, tournament_id, player, context.principal.key_id)
                address = f"{request.base_url}".rstrip("/") + f"/share/{token}/me"
                made.append(
                    {"name": link.name, "player_id": player, "url": address, "qr": qr_svg(address, title=link.name)}
                )
            return made

        try:
            made = await anyio.to_thread.run_sync(make)
        except ProjectionError as error:
            words = refusal(request, error)
            return await anyio.to_thread.run_sync(lambda: links_page(context, club_id, tournament_id, error=words))
        await anyio.to_thread.run_sync(state.authenticator.settle)  # blocking: waits to hear the revocation
        return await anyio.to_thread.run_sync(lambda: links_page(context, club_id, tournament_id, made=made))

    @post("/links/{share_id:str}/revoke", sync_to_thread=True, opt={"needs": "record"}, status_code=303)
    def revoke(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        share_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Redirect:
        PlayerLinks.of(context.records).revoke(club_id, tournament_id, share_id)
        state.authenticator.settle()
        return Redirect(path=f"/club/{club_id}/tournaments/{tournament_id}/links", status_code=303)

    @post("/rounds/{number:int}/tables/{table:int}/decision", opt={"needs": "record"}, status_code=303)
    async def decide(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        """The organiser settles a disputed table by one player's report (the partial's buttons); back to
        the page the form came from (one of this club's)."""
        form = await read_form(request)
        chosen = str(form.get("chosen", "")) or None
        back = str(form.get("back", ""))
        prefix = f"/club/{club_id}/"
        if not back.startswith(prefix):
            back = f"/club/{club_id}/tournaments/{tournament_id}/links"
        try:
            await anyio.to_thread.run_sync(
                lambda: Tournaments.of(context.records).decide(
                    context.recorder, tournament_id, number, table, chosen, None
                )
            )
        except ProjectionError as error:
            words = refusal(request, error)
            return await anyio.to_thread.run_sync(lambda: links_page(context, club_id, tournament_id, error=words))
        return Redirect(path=back, status_code=303)


HANDLERS = [EntryPages, TournamentLinkPages]
