"""A tournament's pages (issue 28): the organiser's page, the screen for a projector, the match slips.

The organiser's page (a `record` session) runs the evening through the tournament use cases
(`service.usecases.tournaments`), as the API does: entries added and withdrawn, a round paired as a draft,
changed by hand (each broken pairing rule named in a warning) and published, a table forfeited, its result
entered as a result-only game or its game started in the recorder, the knockout started. A refused form
comes back with the problem beside its field in words, the values typed kept, and nothing stored. A
`read` or `spectate` session sees the same page without a form, published rounds only.

The screen shows the latest published round by table and by player name, then the standings, rotating
(`static/tournament_screen.js`), and fetches itself again when its live stream (`service.http.live.
LiveTournament`) says what it shows changed: a round published, a result entered, a game finished. A
share link to the tournament opens the screen. Each table has a QR code that opens it on a phone: its
game's recorder, else its result form on the organiser's page. The slips print one table a page
(`static/tournament-print.css`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, HeaderParameter
from litestar.response import Redirect, ServerSentEvent, Template

from domain.i18n import Catalogue, Message, english
from domain.ruleset import RuleError
from projections.errors import ProjectionError
from projections.standings import Standings
from projections.tournaments import Round, Tournament, break_message, relaxed_message
from projections.words import Teller
from service.http.dependencies import RequestContext
from service.http.live import LiveTournament
from service.http.ratelimit import LIVE_STREAM
from service.i18n import Translator
from service.pages.admin import CRITERION_WORDS
from service.pages.controllers import MEMBER_GUARDS, SHARED_PAGES, Links, club_links, share_guard
from service.pages.forms import Form, many_of, read_form, text_of
from service.pages.qr import qr_svg
from service.pages.reads import explained_rows
from service.pages.recording import RECORD, problem_words
from service.usecases.access import Principal
from service.usecases.clubs import Clubs
from service.usecases.games import BatchRuleError, NotFound, Records, SetupError
from service.usecases.spectators import released_again
from service.usecases.tournaments import ScoreEntry, Tournaments, stream_id
from service.usecases.types import StreamId, VersionConflict

_ = Catalogue("service.pages")

Errors = dict[str, Message | str]
"""A refused form's problems by field: in words, or as the API's problem tells them."""
SYSTEM_NAMES: dict[str, Message] = {
    "swiss": _("Swiss"),
    "round_robin": _("Round robin"),
    "tables": _("Tables of several"),
}
"""A tournament's system as the organiser's page names it (the admin form says what each one does)."""
SCREEN_ROTATE_SECONDS = 15
"""How long the screen shows each of its panels (pairings by table, by name, standings)."""

# A refusal of the tournament use cases is shown beside the form that asked in the use case's own words
# (`ProjectionError.said`, in the reader's language); only what a page alone can mean has words here.
REFUSALS: dict[str, Message] = {
    # The form was of a page shown before another round was paired.
    "wrong_round": _("This round is no longer the one being played: reload the page."),
}


def _base_url(request: Request[Any, Any, Any]) -> str:
    return str(request.base_url).rstrip("/")


def table_address(base: str, club_id: str, tournament_id: str, number: int, table: int, game_id: str | None) -> str:
    """Where a table's QR code leads a phone: its game's recorder, else its result form on the organiser's page."""
    if game_id is not None:
        return f"{base}/club/{club_id}/games/{game_id}/record"
    return f"{base}/club/{club_id}/tournaments/{tournament_id}#table-{number}-{table}"


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """A table of a round as the pages show it."""

    table: int
    seats: tuple[str, ...]
    names: tuple[str, ...]
    game_id: str | None
    forfeited: tuple[str, ...]
    state: str
    """`waiting` (no result yet), `playing` (its game is being recorded), `done` (finished or forfeited)."""


def _tables(tournaments: Tournaments, club_id: str, paired: Round, names: Mapping[str, str]) -> list[TableView]:
    waiting = set(tournaments.unfinished_tables(club_id, paired)) if not paired.draft else set()
    out = []
    for t in sorted(paired.tables, key=lambda t: t.table):
        state = "done" if t.table not in waiting and not paired.draft else "playing" if t.game_id else "waiting"
        out.append(
            TableView(
                table=t.table,
                seats=t.seats,
                names=tuple(names.get(p, p) for p in t.seats),
                game_id=t.game_id,
                forfeited=t.forfeited,
                state=state,
            )
        )
    return out


def _standings(tournaments: Tournaments, club_id: str, state: Tournament, words: Teller = english) -> Standings:
    return tournaments.standings(club_id, state, None, words=words)


def _mark(shown: Tournament, tables: list[TableView], table: Standings) -> str:
    """What a screen shows, as a short digest: a change of it is news for the screen. Neither the reader's
    language nor the page's address is in it (every screen of the tournament shares one follower)."""
    rows = [(r.player_id, r.rank, r.points, r.played) for r in table.rows]
    return hashlib.sha256(msgspec.json.encode((shown, tables, rows))).hexdigest()[:20]


def _screen_parts(
    tournaments: Tournaments, club_id: str, tournament_id: str, words: Teller = english
) -> tuple[Tournament, Tournament, list[TableView], Standings]:
    """The tournament, what a screen shows of it (published rounds only), its latest round's tables and
    the standings."""
    state, _version = tournaments.load(club_id, tournament_id)
    shown = state.published()
    latest = shown.latest
    tables = _tables(tournaments, club_id, latest, shown.names()) if latest else []
    return state, shown, tables, _standings(tournaments, club_id, state, words)


def screen_mark(records: Records, club_id: str, tournament_id: str) -> tuple[str, list[StreamId]]:
    """The screen's mark and the game streams it depends on, without the rest of the page (its QR codes)."""
    tournaments = Tournaments.of(records)
    _state, shown, tables, table = _screen_parts(tournaments, club_id, tournament_id)
    return _mark(shown, tables, table), tournaments.game_streams(club_id, shown)


def screen_view(
    records: Records, club_id: str, tournament_id: str, base: str, words: Translator
) -> tuple[dict[str, Any], str]:
    """The screen's context (published rounds only) and its mark."""
    tournaments = Tournaments.of(records)
    state, shown, tables, table = _screen_parts(tournaments, club_id, tournament_id, words)
    names = shown.names()
    latest = shown.latest
    # Each player's name, table (None: the bye) and opponents, alphabetically: a player finds their name.
    seated: list[tuple[str, int | None, list[str]]] = [
        (n, t.table, [o for o in t.names if o != n]) for t in tables for n in t.names
    ]
    seated += [(names.get(p, p), None, []) for p in (latest.byes if latest else ())]
    by_name = sorted(seated, key=lambda entry: (entry[0].casefold(), entry[1] or 0))
    qrs = {
        t.table: qr_svg(
            table_address(base, club_id, tournament_id, latest.number, t.table, t.game_id) if latest else base,
            title=words(_("Table {table}", table=t.table)),
            fit=True,
        )
        for t in tables
    }
    context = {
        "tournament": shown,
        "definition": state.definition,
        "round": latest,
        "tables": tables,
        "by_name": by_name,
        "byes": [names.get(p, p) for p in (latest.byes if latest else ())],
        "table": table,
        "rows": explained_rows(table),
        "qrs": qrs,
        "rotate": SCREEN_ROTATE_SECONDS,
    }
    return context, _mark(shown, tables, table)


def _check_scores(form: Form, number: int, paired: Round, table: int, places: bool, errors: Errors) -> list[ScoreEntry]:
    seats = next((t.seats for t in paired.tables if t.table == table), ())
    scores = []
    field = f"result_{number}_{table}"
    for i, player in enumerate(seats):
        raw = text_of(form, f"score_{number}_{table}_{i}")
        place_raw = text_of(form, f"place_{number}_{table}_{i}") if places else ""
        if not raw.lstrip("-").isdigit():
            errors[field] = _("Give each player's score as a whole number.")
            continue
        if place_raw and not place_raw.isdigit():
            errors[field] = _("Give each place as a whole number: 1 for the first.")
            continue
        scores.append(ScoreEntry(player_id=player, score=int(raw), placement=int(place_raw) if place_raw else None))
    return scores


def _whole(form: Form, name: str, errors: Errors, field: str, low: int = 1) -> int:
    raw = text_of(form, name)
    if not raw.isdigit() or int(raw) < low:
        errors[field] = _("Give a whole number, {low} or more.", low=low)
        return 0
    return int(raw)


class TournamentPages(Controller):
    """The organiser's page and its forms, the screen and its stream, the slips."""

    path = "/club/{club_id:str}/tournaments/{tournament_id:str}"
    guards = MEMBER_GUARDS
    include_in_schema = False

    def _page(
        self,
        request: Request[Any, Any, Any],
        context: RequestContext,
        club_id: str,
        tournament_id: str,
        form: Form | None = None,
        errors: Errors | None = None,
        status: int = 200,
    ) -> Template:
        tournaments = Tournaments.of(context.records)
        state, version = tournaments.load(club_id, tournament_id)
        writes = context.principal.access == "record"
        shown = state if writes else state.published()
        names = shown.names()
        latest = shown.latest
        table = _standings(tournaments, club_id, state, context.words)
        entered = {e.player_id for e in state.entrants}
        champion = tournaments.champion(club_id, state)
        return Template(
            template_name="tournament.html",
            status_code=status,
            context={
                "links": club_links(club_id),
                "principal": context.principal,
                "writes": writes,
                "tournament": shown,
                "definition": state.definition,
                "version": version,
                "names": names,
                "round": latest,
                "tables": _tables(tournaments, club_id, latest, names) if latest else [],
                "waiting": bool(latest and not latest.draft and tournaments.unfinished_tables(club_id, latest)),
                "relaxed": [relaxed_message(c) for c in (latest.relaxed if latest else ())],
                "warnings": [break_message(w) for w in (latest.warnings if latest else ())],
                "table": table,
                "rows": explained_rows(table),
                "criteria": [CRITERION_WORDS.get(c, c) for c in table.criteria],
                "champion": names.get(champion or "", ""),
                "newcomers": [p for p in Clubs.of(context.records).players(club_id) if p.player_id not in entered],
                "places": state.definition.system == "tables",
                "system": SYSTEM_NAMES.get(state.definition.system, state.definition.system),
                # the knockout's rounds are paired until it has its champion (the Swiss's last round is past)
                "last_round": bool(champion) if state.knockout else state.last_round_played(),
                "base": f"/club/{club_id}/tournaments/{tournament_id}",
                "tournament_base": f"/club/{club_id}/tournaments/{tournament_id}",
                "back": f"/club/{club_id}/tournaments/{tournament_id}",
                # check-ins and disputes, the organiser's only (players' reports are not the public's)
                "evening": tournaments.evening(state) if writes else None,
                "form": form or {},
                "errors": errors or {},
            },
        )

    @get("/", sync_to_thread=True)
    def organiser(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Template:
        return self._page(request, context, club_id, tournament_id)

    async def _act(
        self,
        request: Request[Any, Any, Any],
        context: RequestContext,
        club_id: str,
        tournament_id: str,
        field: str,
        act: Callable[[Form, Errors], str | None],
    ) -> Response[Any]:
        """Read the form, let `act` check it and call the use case (it may name where to go next); a
        refusal goes beside `field` (or the field `act` named), the page again with the values kept."""
        form = await read_form(request)
        errors: Errors = {}
        where: str | None = None
        try:
            where = act(form, errors)
        except ProjectionError as error:
            errors[field] = REFUSALS.get(error.code) or error.said
        except (NotFound, VersionConflict, SetupError, BatchRuleError, RuleError) as error:
            errors[field] = str(problem_words(request, error).get("detail", error))
        if errors:
            return self._page(request, context, club_id, tournament_id, form, errors, status=422)
        return Redirect(path=where or f"/club/{club_id}/tournaments/{tournament_id}", status_code=303)

    @post("/entries", status_code=303, opt=RECORD)
    async def enter(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> None:
            player = text_of(form, "player_id")
            if not player:
                errors["entry"] = _("Choose the player to enter.")
                return
            Tournaments.of(context.records).enter(context.recorder, tournament_id, player)

        return await self._act(request, context, club_id, tournament_id, "entry", act)

    @post("/entries/{player_id:str}/withdrawal", status_code=303, opt=RECORD)
    async def withdraw(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        player_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> None:
            Tournaments.of(context.records).withdraw(
                context.recorder, tournament_id, player_id, text_of(form, "reason")
            )

        return await self._act(request, context, club_id, tournament_id, f"withdraw_{player_id}", act)

    @post("/rounds", status_code=303, opt=RECORD)
    async def pair(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> None:
            Tournaments.of(context.records).pair_next(context.recorder, tournament_id, draft=bool(form.get("draft")))

        return await self._act(request, context, club_id, tournament_id, "pair", act)

    @post("/rounds/{number:int}/swap", status_code=303, opt=RECORD)
    async def swap(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> None:
            a, b = text_of(form, "swap_a"), text_of(form, "swap_b")
            if not a or not b or a == b:
                errors["swap"] = _("Choose two different players.")
                return
            Tournaments.of(context.records).swap(context.recorder, tournament_id, number, (a, b))

        return await self._act(request, context, club_id, tournament_id, "swap", act)

    @post("/rounds/{number:int}/move", status_code=303, opt=RECORD)
    async def move(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> None:
            table = _whole(form, "move_table", errors, "move")
            to = _whole(form, "move_to", errors, "move")
            if not errors:
                Tournaments.of(context.records).move_table(context.recorder, tournament_id, number, table, to)

        return await self._act(request, context, club_id, tournament_id, "move", act)

    @post("/rounds/{number:int}/publication", status_code=303, opt=RECORD)
    async def publish(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> None:
            Tournaments.of(context.records).publish(context.recorder, tournament_id, number)

        return await self._act(request, context, club_id, tournament_id, "publish", act)

    @post("/rounds/{number:int}/tables/{table:int}/forfeit", status_code=303, opt=RECORD)
    async def forfeit(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        field = f"forfeit_{number}_{table}"

        def act(form: Form, errors: Errors) -> None:
            absent = many_of(form, "absent")
            if not absent:
                errors[field] = _("Tick the players who are absent.")
                return
            Tournaments.of(context.records).forfeit(
                context.recorder, tournament_id, number, table, absent, text_of(form, "reason")
            )

        return await self._act(request, context, club_id, tournament_id, field, act)

    @post("/rounds/{number:int}/tables/{table:int}/result", status_code=303, opt=RECORD)
    async def result(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        field = f"result_{number}_{table}"

        def act(form: Form, errors: Errors) -> None:
            tournaments = Tournaments.of(context.records)
            state, _version = tournaments.load(club_id, tournament_id)
            if not 1 <= number <= len(state.rounds):
                errors[field] = REFUSALS["wrong_round"]
                return
            places = state.definition.system == "tables"
            scores = _check_scores(form, number, state.rounds[number - 1], table, places, errors)
            if not errors:
                tournaments.report(context.recorder, tournament_id, number, table, scores)

        return await self._act(request, context, club_id, tournament_id, field, act)

    @post("/rounds/{number:int}/tables/{table:int}/game", status_code=303, opt=RECORD)
    async def start_game(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> str:
            _read, game_id = Tournaments.of(context.records).start_game(context.recorder, tournament_id, number, table)
            return f"/club/{club_id}/games/{game_id}/record"

        return await self._act(request, context, club_id, tournament_id, f"result_{number}_{table}", act)

    @post("/knockout", status_code=303, opt=RECORD)
    async def knockout(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        def act(form: Form, errors: Errors) -> None:
            cut = _whole(form, "cut", errors, "cut", low=2)
            if not errors:
                Tournaments.of(context.records).start_knockout(context.recorder, tournament_id, cut)

        return await self._act(request, context, club_id, tournament_id, "cut", act)

    # -- the screen and the slips ---------------------------------------------------------------------------
    @get("/screen", sync_to_thread=True)
    def screen(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Template:
        base = f"/club/{club_id}/tournaments/{tournament_id}/screen"
        return _screen(request, context, club_id, tournament_id, club_links(club_id), base, f"{base}/events")

    @get("/screen/events", sync_to_thread=True, opt=LIVE_STREAM)
    def screen_events(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
        last_event_id: Annotated[str | None, HeaderParameter(name="Last-Event-ID", required=False)] = None,
        mark: FromQuery[str | None] = None,
    ) -> ServerSentEvent:
        return _screen_stream(context, state, club_id, tournament_id, last_event_id or mark)

    @get("/slips", sync_to_thread=True, opt=RECORD)
    def slips(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Template:
        """One slip a table of the latest round (a draft too: the organiser prints before publishing)."""
        tournaments = Tournaments.of(context.records)
        state, _version = tournaments.load(club_id, tournament_id)
        latest = state.latest
        names = state.names()
        tables = _tables(tournaments, club_id, latest, names) if latest else []
        base = _base_url(request)
        qrs = {
            t.table: qr_svg(
                table_address(base, club_id, tournament_id, latest.number, t.table, t.game_id),
                title=context.words(_("Table {table}", table=t.table)),
                fit=True,
            )
            for t in tables
            if latest
        }
        return Template(
            template_name="tournament_slips.html",
            context={
                "links": club_links(club_id),
                "principal": context.principal,
                "definition": state.definition,
                "round": latest,
                "tables": tables,
                "qrs": qrs,
                "places": state.definition.system == "tables",
            },
        )


def _screen(
    request: Request[Any, Any, Any],
    context: RequestContext,
    club_id: str,
    tournament_id: str,
    links: Links,
    page: str,
    events: str,
) -> Template:
    view, mark = screen_view(context.records, club_id, tournament_id, _base_url(request), context.words)
    return Template(
        template_name="tournament_screen.html",
        context={"links": links, "principal": context.principal, "mark": mark, "page": page, "events": events, **view},
    )


def _screen_stream(
    context: RequestContext,
    state: State,
    club_id: str,
    tournament_id: str,
    shown: str | None,
) -> ServerSentEvent:
    """The screen's stream: an `update` each time what it shows changed (`LiveTournament`), looked at once
    for every screen of the tournament in this process whose reader sees what this one sees."""
    records = context.records
    Tournaments.of(records).events(club_id, tournament_id)  # a tournament that does not exist is a 404

    def look() -> tuple[str, list[StreamId]]:
        # The records again each time: a spectator's see the delayed games as released now.
        return screen_mark(released_again(records), club_id, tournament_id)

    key = (stream_id(club_id, tournament_id), context.principal.sees_hidden)
    live = LiveTournament(state.live, key, look, shown or "")
    settings = state.settings
    watch = state.authenticator.watch(context.principal)
    return ServerSentEvent(live.messages(settings.live_poll_seconds, settings.live_keepalive_seconds, watch))


class SharedScreen(Controller):
    """A share link to a tournament: its screen (published rounds only, as any spectator sees them)."""

    path = "/share/{token:str}"
    guards = (share_guard,)
    include_in_schema = False

    @get("/screen/events", sync_to_thread=True, opt=LIVE_STREAM)
    def screen_events(
        self,
        token: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
        last_event_id: Annotated[str | None, HeaderParameter(name="Last-Event-ID", required=False)] = None,
        mark: FromQuery[str | None] = None,
    ) -> ServerSentEvent:
        club_id, tournament_id = _shared(context.principal)
        return _screen_stream(context, state, club_id, tournament_id, last_event_id or mark)


def _shared(principal: Principal) -> tuple[str, str]:
    share = principal.share
    if share is None or share.kind != "tournament" or principal.club_id is None:
        raise NotFound("page", "tournament")
    return principal.club_id, share.target_id


def shared_screen(request: Request[Any, Any, Any], context: RequestContext, token: str) -> Template:
    """A tournament share link's page: the screen (`SharePages.shared` hands it over)."""
    club_id, tournament_id = _shared(context.principal)
    links = Links(base=f"/share/{token}", club_id=club_id, shared=True)
    return _screen(request, context, club_id, tournament_id, links, f"/share/{token}", f"/share/{token}/screen/events")


SHARED_PAGES["tournament"] = shared_screen
HANDLERS: list[Any] = [TournamentPages, SharedScreen]
