"""The HTTP API of tournaments (a club event of rounds whose pairings tablelog makes, kept as its own
event stream: `service.usecases.tournaments`) and of the club's ratings (`service.usecases.ratings`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import Body, FromPath, JSONBody, QueryParameter

from projections.ratings import RatingPoint
from projections.standings import Scoring, Standings
from projections.tournaments import (
    EVENT_DECODER,
    ScoreEntry,
    System,
    Tournament,
    TournamentCreated,
    TournamentEvent,
    break_message,
    unpublished,
)
from service.http.dependencies import RequestContext
from service.http.guards import GUARDS, PLAYER, PUBLIC
from service.http.keys import ShareOut, share_out
from service.usecases.access import Principal
from service.usecases.games import Records
from service.usecases.ratings import ClubRatings
from service.usecases.tournaments import Entry, Evening, PlayerLinks, PlayerView, Read, Tournaments

_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"


class TournamentIn(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament: the game, the pairing system (`round_robin` or `swiss` for two-player games,
    `tables` for multiplayer games), how games give points and the tie-break chain (as a league's),
    table sizes for `tables` (default 3 to 5), the seed that orders equals (default 0), the points
    a bye gives (default: a win's, or first place's), the points a forfeit win gives (default: a win's,
    or first place's), the points a late entry gets for each round it missed (default none), and the
    rounds of the system's stage (default: as many as are paired; after the last, nobody enters)."""

    tournament_id: Annotated[str, msgspec.Meta(pattern=_ID)]
    ruleset: str
    system: System
    title: Annotated[str, msgspec.Meta(max_length=200)] = ""
    scoring: Scoring
    tie_breaks: tuple[str, ...] = ("points",)
    table_sizes: tuple[Annotated[int, msgspec.Meta(ge=2, le=12)], Annotated[int, msgspec.Meta(ge=2, le=12)]] = (3, 5)
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**31)] = 0
    bye_points: Annotated[int, msgspec.Meta(ge=0)] | None = None
    forfeit_points: Annotated[int, msgspec.Meta(ge=0)] | None = None
    late_entry_points: Annotated[int, msgspec.Meta(ge=0)] = 0
    rounds: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None


class PairingWarning(msgspec.Struct, frozen=True, kw_only=True):
    """A pairing rule a hand change broke: its code (`no_repeat`, `one_bye`, `sides`) and what it means."""

    rule: str
    text: str


class TournamentOut(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as its events left it, at stream version `version` (players and spectators see its
    published rounds only); `champion`, the knockout's winner once it has one; `warnings`, the pairing
    rules the change just made broke."""

    tournament: Tournament
    version: int
    champion: str | None = None
    warnings: list[PairingWarning] = msgspec.field(default_factory=list)


class SwapIn(msgspec.Struct, frozen=True, kw_only=True):
    """Two players of the draft round who change places (table and seat, or a table and the bye)."""

    players: tuple[str, str]


class MoveIn(msgspec.Struct, frozen=True, kw_only=True):
    """The table's new number (the table holding it, if any, takes the old one)."""

    to: Annotated[int, msgspec.Meta(ge=1, le=10_000)]


class ForfeitIn(msgspec.Struct, frozen=True, kw_only=True):
    """The players who forfeit the table (absent, or gone); the others at it score a forfeit win."""

    absent: Annotated[tuple[str, ...], msgspec.Meta(min_length=1, max_length=12)]
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class ResultIn(msgspec.Struct, frozen=True, kw_only=True):
    """The result of a game played at the table and not recorded event by event (G-6): each player's
    score in the game's unit (half-points where the game keeps them), and places where the table gives
    them (all or none; without them, they follow the scores)."""

    scores: Annotated[list[ScoreEntry], msgspec.Meta(min_length=1, max_length=12)]


class KnockoutIn(msgspec.Struct, frozen=True, kw_only=True):
    """The top cut: how many of the standings' best active players play the knockout."""

    cut: Annotated[int, msgspec.Meta(ge=2, le=1024)]


class RevocationIn(msgspec.Struct, frozen=True, kw_only=True):
    """The version of the event to undo (see the tournament's events) and why."""

    version: Annotated[int, msgspec.Meta(ge=1)]
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class EntryIn(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str


class ReasonIn(msgspec.Struct, frozen=True, kw_only=True):
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class GameRef(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str


# Two structs are named GameRef; litestar would name their components after the modules they live in, so
# the published names are pinned here and moving a module leaves the OpenAPI document as it is.
GameRefIn = Annotated[GameRef, Body(schema_component_key="api_competitions_GameRef")]


class RecordedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One event of a tournament's stream, with when and by which key it was recorded."""

    version: int
    recorded_at: datetime
    key_id: str | None
    event: TournamentEvent


class TournamentEventsOut(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    events: list[RecordedEvent]


class PlayerLinkIn(msgspec.Struct, frozen=True, kw_only=True):
    """The entry (its player) a player link is for."""

    player_id: str


class PlayerLinkCreated(msgspec.Struct, frozen=True, kw_only=True):
    """A new player link. `path` is the player's page (append it to the server's address; a QR code of it
    to hand out); `token` is shown once and is the bearer token of the player's routes (`.../me`);
    `replaced`, the player's earlier link, revoked (one live link per entry)."""

    link: ShareOut
    token: str
    path: str
    replaced: list[ShareOut]


class DecisionIn(msgspec.Struct, frozen=True, kw_only=True):
    """How the organiser settles a disputed table: by one player's report (`chosen`, their id) or by the
    result they enter (`scores`, as a table's result); one of the two."""

    chosen: str | None = None
    scores: Annotated[list[ScoreEntry], msgspec.Meta(min_length=1, max_length=12)] | None = None


class PlayerReportIn(msgspec.Struct, frozen=True, kw_only=True):
    """The result of the player's own table in a published round: each player's score at it in the game's
    unit, and places where the table gives them (all or none)."""

    round: Annotated[int, msgspec.Meta(ge=1)]
    table: Annotated[int, msgspec.Meta(ge=1)]
    scores: Annotated[list[ScoreEntry], msgspec.Meta(min_length=1, max_length=12)]


class PlayerAnswerIn(msgspec.Struct, frozen=True, kw_only=True):
    """The player's table (round and table) whose other report they confirm or dispute, and why (a dispute)."""

    round: Annotated[int, msgspec.Meta(ge=1)]
    table: Annotated[int, msgspec.Meta(ge=1)]
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


def entry_of(principal: Principal) -> Entry:
    """The tournament entry a player link stands for (the guard let only a player link through)."""
    share = principal.share
    assert share is not None and share.player_id is not None and principal.club_id is not None
    return Entry(
        club_id=principal.club_id,
        tournament_id=share.target_id,
        player_id=share.player_id,
        link=share.share_id,
        made_by=share.made_by,
    )


def _out(read: Read) -> TournamentOut:
    return TournamentOut(tournament=read[0], version=read[1])


def _seen(context: RequestContext, read: Read) -> TournamentOut:
    """What the caller sees of a tournament: a key that may not change the record sees published rounds."""
    state, version = read
    tournaments = Tournaments.of(context.records)
    shown = state if context.principal.writes else state.published()
    return TournamentOut(tournament=shown, version=version, champion=tournaments.champion(context.club_id, state))


class TournamentController(Controller):
    path = "/clubs/{club_id:str}/tournaments"
    tags = ("tournaments",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a tournament (refused with 422 when its game cannot be paired so)")
    def create(
        self,
        club_id: FromPath[str],
        data: JSONBody[TournamentIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).create(context.recorder, **msgspec.structs.asdict(data)))

    @get("/", sync_to_thread=True, summary="The club's tournaments", opt=PUBLIC)
    def list_tournaments(
        self, club_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> list[TournamentCreated]:
        return Tournaments.of(context.records).listed(club_id)

    @get(
        "/{tournament_id:str}", sync_to_thread=True, summary="A tournament: entrants, rounds, tables, games", opt=PUBLIC
    )
    def read(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the context's
        return _seen(context, Tournaments.of(context.records).load(context.club_id, tournament_id))

    @get("/{tournament_id:str}/events", sync_to_thread=True, summary="The tournament's events, who recorded each")
    def events(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> TournamentEventsOut:
        stored = Tournaments.of(context.records).events(club_id, tournament_id)
        events = [EVENT_DECODER.decode(e.data) for e in stored]
        hidden = set() if context.principal.writes else unpublished(events)
        return TournamentEventsOut(
            tournament_id=tournament_id,
            events=[
                RecordedEvent(version=e.version, recorded_at=e.recorded_at, key_id=e.key_id, event=event)
                for e, event in zip(stored, events, strict=True)
                if e.version not in hidden
            ],
        )

    @post(
        "/{tournament_id:str}/players",
        sync_to_thread=True,
        summary="Enter a club player (late entries are paired from the next round)",
    )
    def enter(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        data: JSONBody[EntryIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).enter(context.recorder, tournament_id, data.player_id))

    @post(
        "/{tournament_id:str}/players/{player_id:str}/withdrawal",
        sync_to_thread=True,
        summary="Withdraw a player: not paired again; games played still count",
    )
    def withdraw(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        player_id: FromPath[str],
        data: JSONBody[ReasonIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).withdraw(context.recorder, tournament_id, player_id, data.reason))

    @post(
        "/{tournament_id:str}/rounds",
        sync_to_thread=True,
        summary="Pair the next round from the standings (or the knockout's bracket), as a draft if asked",
    )
    def pair_next(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
        draft: Annotated[
            bool, QueryParameter(description="a draft, changed by hand and published before players see it")
        ] = False,
    ) -> TournamentOut:
        """Refused (422 `round_not_finished`) while a table of the latest round has neither a finished
        game nor a forfeit, and (422 `round_not_published`) while the latest round is a draft."""
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).pair_next(context.recorder, tournament_id, draft=draft))

    @post(
        "/{tournament_id:str}/rounds/{number:int}/swap",
        sync_to_thread=True,
        summary="In a draft round, swap two players; warns of the pairing rules the change breaks",
    )
    def swap(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        data: JSONBody[SwapIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        (state, version), breaks = Tournaments.of(context.records).swap(
            context.recorder, tournament_id, number, data.players
        )
        return TournamentOut(
            tournament=state,
            version=version,
            warnings=[PairingWarning(rule=rule, text=context.words(break_message(rule))) for rule in breaks],
        )

    @post(
        "/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/move",
        sync_to_thread=True,
        summary="In a draft round, give a table another number",
    )
    def move_table(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        data: JSONBody[MoveIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).move_table(context.recorder, tournament_id, number, table, data.to))

    @post(
        "/{tournament_id:str}/rounds/{number:int}/publication",
        sync_to_thread=True,
        summary="Publish a draft round: players see it, and results and forfeits may be entered",
    )
    def publish(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).publish(context.recorder, tournament_id, number))

    @post(
        "/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/forfeit",
        sync_to_thread=True,
        summary="Forfeit a table: the absent players score a loss, the others a forfeit win; never rated",
    )
    def forfeit(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        data: JSONBody[ForfeitIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """Refused (422 `table_closed`) for a table whose game is finished or that was forfeited already,
        and (422 `not_at_table`) for a player who is not at the table."""
        del club_id  # the recorder's
        return _out(
            Tournaments.of(context.records).forfeit(
                context.recorder, tournament_id, number, table, data.absent, data.reason
            )
        )

    @post(
        "/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/result",
        sync_to_thread=True,
        summary="Enter the result of a game played at a table but not recorded event by event",
    )
    def report(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        data: JSONBody[ResultIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """A result-only game (G-6) of the table's players in its seats is created, checked by the game's
        rules (422 for scores out of bounds or places that do not follow them), and attached to the table;
        422 `not_at_table` for a player who is not at it. It counts like any game."""
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).report(context.recorder, tournament_id, number, table, data.scores))

    @post(
        "/{tournament_id:str}/knockout",
        sync_to_thread=True,
        summary="Start a knockout of the standings' top cut (single elimination, byes to the best seeds)",
    )
    def start_knockout(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        data: JSONBody[KnockoutIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """Refused (422 `field_smaller_than_cut`) when fewer players are playing than the cut; its rounds
        are then paired by `POST .../rounds`, each from the winners of the one before."""
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).start_knockout(context.recorder, tournament_id, data.cut))

    @post(
        "/{tournament_id:str}/revocations",
        sync_to_thread=True,
        summary="Undo an event (a forfeit, a withdrawal, an entry, an attached game, a hand change)",
    )
    def revoke(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        data: JSONBody[RevocationIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """The event stays in the record and is left out of the tournament from then on; refused (422)
        when the record without it would not hold (an entry of a player paired since)."""
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).revoke(context.recorder, tournament_id, data.version, data.reason))

    @post(
        "/{tournament_id:str}/rounds/{number:int}/repairing",
        sync_to_thread=True,
        summary="Pair the latest round again (after a correction changed an earlier result)",
    )
    def pair_again(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        data: JSONBody[ReasonIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """Its games are detached; the round is paired from the standings as they are now."""
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).pair_again(context.recorder, tournament_id, number, data.reason))

    @post(
        "/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/game",
        sync_to_thread=True,
        summary="Attach the game played at a table",
    )
    def attach(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        data: GameRefIn,
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """The game is of the tournament's ruleset and played by the table's players; in a two-sided
        game, in the seats the pairing gave (422 `wrong_seats` otherwise)."""
        del club_id  # the recorder's
        return _out(
            Tournaments.of(context.records).attach(context.recorder, tournament_id, number, table, data.game_id)
        )

    @post(
        "/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/decision",
        sync_to_thread=True,
        summary="Settle a table its players dispute: by one player's report, or by the result entered",
    )
    def decide(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        data: JSONBody[DecisionIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """The table's result-only game is recorded and attached with the decision; 422 `not_disputed`
        when its players agree, `no_such_report` for a player who made no report, `choose_or_enter`
        without (or with both) a choice and scores. The organiser may also enter a result at any time
        (`.../result`), or revoke an attached game and enter another."""
        del club_id  # the recorder's
        return _out(
            Tournaments.of(context.records).decide(
                context.recorder, tournament_id, number, table, data.chosen, data.scores
            )
        )

    @get(
        "/{tournament_id:str}/evening",
        sync_to_thread=True,
        summary="Who is checked in for the round to come, and the disputes to decide",
    )
    def evening(
        self, club_id: FromPath[str], tournament_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> Evening:
        tournaments = Tournaments.of(context.records)
        return tournaments.evening(tournaments.load(club_id, tournament_id)[0])

    @post(
        "/{tournament_id:str}/links",
        sync_to_thread=True,
        summary="Make a player link for an entry (its earlier link is revoked)",
    )
    def make_link(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        data: JSONBody[PlayerLinkIn],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> PlayerLinkCreated:
        """A share link of kind `player`: its holder, and nobody else, checks in, sees their published
        pairing, reports their table's result and confirms or disputes the other's (`.../me`); 422
        `not_entered` for a player without an active entry."""
        link, token, replaced = PlayerLinks.of(context.records).make(
            club_id, tournament_id, data.player_id, context.principal.key_id
        )
        if replaced:  # the earlier link is refused from the next request on, on every worker
            state.authenticator.settle()
        return PlayerLinkCreated(
            link=share_out(link), token=token, path=f"/share/{token}", replaced=[share_out(r) for r in replaced]
        )

    @get("/{tournament_id:str}/links", sync_to_thread=True, summary="The tournament's player links (never tokens)")
    def list_links(
        self, club_id: FromPath[str], tournament_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> list[ShareOut]:
        return [share_out(link) for link in PlayerLinks.of(context.records).listed(club_id, tournament_id)]

    @post(
        "/{tournament_id:str}/links/{share_id:str}/revoke",
        sync_to_thread=True,
        status_code=200,
        summary="Revoke a player link",
    )
    def revoke_link(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        share_id: FromPath[str],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> ShareOut:
        revoked = PlayerLinks.of(context.records).revoke(club_id, tournament_id, share_id)
        state.authenticator.settle()
        return share_out(revoked)

    # -- a player's own routes: the bearer token is their player link's -----------------------------------
    @get("/{tournament_id:str}/me", sync_to_thread=True, summary="The player's entry, pairing and table", opt=PLAYER)
    def me(
        self, club_id: FromPath[str], tournament_id: FromPath[str], principal: NamedDependency[Principal], state: State
    ) -> PlayerView:
        """What the player sees by their link: check-in, their table in the latest published round, its
        reports. Only the player link of an entry of this tournament may call this (and `.../me/...`)."""
        entry = entry_of(principal)
        tournaments = Tournaments.of(state.records)
        return tournaments.seen_by(tournaments.load(club_id, tournament_id)[0], entry.player_id)

    @post("/{tournament_id:str}/me/check-in", sync_to_thread=True, summary="Check in for the round to come", opt=PLAYER)
    def check_in(self, tournament_id: FromPath[str], principal: NamedDependency[Principal], state: State) -> PlayerView:
        """422 `withdrawn` for a player who has withdrawn, `already_checked_in` the second time."""
        entry = entry_of(principal)
        tournaments = Tournaments.of(state.records)
        return tournaments.seen_by(tournaments.check_in(entry)[0], entry.player_id)

    @post(
        "/{tournament_id:str}/me/report",
        sync_to_thread=True,
        summary="Report the result of one's own table",
        opt=PLAYER,
    )
    def report_mine(
        self,
        tournament_id: FromPath[str],
        data: JSONBody[PlayerReportIn],
        principal: NamedDependency[Principal],
        state: State,
    ) -> PlayerView:
        """Checked by the game's rules at once; the second matching report closes the table (its
        result-only game attached), one that differs is a dispute for the organiser. 422 `not_at_table`
        for a table one is not at, `already_reported` for a second answer, `table_closed` for a table
        whose result is in or that was forfeited."""
        entry = entry_of(principal)
        tournaments = Tournaments.of(state.records)
        read = tournaments.player_report(entry, data.round, data.table, data.scores)
        return tournaments.seen_by(read[0], entry.player_id)

    @post(
        "/{tournament_id:str}/me/confirmation",
        sync_to_thread=True,
        summary="Confirm the other player's report of one's table (it closes the table)",
        opt=PLAYER,
    )
    def confirm(
        self,
        tournament_id: FromPath[str],
        data: JSONBody[PlayerAnswerIn],
        principal: NamedDependency[Principal],
        state: State,
    ) -> PlayerView:
        """422 `no_report` while nobody else has reported the table."""
        entry = entry_of(principal)
        tournaments = Tournaments.of(state.records)
        return tournaments.seen_by(tournaments.confirm(entry, data.round, data.table)[0], entry.player_id)

    @post(
        "/{tournament_id:str}/me/dispute",
        sync_to_thread=True,
        summary="Dispute the other player's report of one's table (the organiser decides)",
        opt=PLAYER,
    )
    def dispute(
        self,
        tournament_id: FromPath[str],
        data: JSONBody[PlayerAnswerIn],
        principal: NamedDependency[Principal],
        state: State,
    ) -> PlayerView:
        entry = entry_of(principal)
        tournaments = Tournaments.of(state.records)
        read = tournaments.dispute(entry, data.round, data.table, data.reason)
        return tournaments.seen_by(read[0], entry.player_id)

    @get(
        "/{tournament_id:str}/standings",
        sync_to_thread=True,
        summary="The standings after a round, explained",
        opt=PUBLIC,
    )
    def read_standings(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
        round: Annotated[int | None, QueryParameter(ge=0, description="after this round (default: the latest)")] = None,
    ) -> Standings:
        tournaments = Tournaments.of(context.records)
        state, _ = tournaments.load(club_id, tournament_id)
        return tournaments.standings(club_id, state, round)


class RatingRow(msgspec.Struct, frozen=True, kw_only=True):
    """A player's club rating for one game: `rating` (mu - 3 sigma) is the number to read."""

    rank: int
    player_id: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    last_game: str


class RatingsOut(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    players: list[RatingRow]


class RatingHistoryOut(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating after every rated game of one ruleset, oldest first."""

    ruleset: str
    player_id: str
    name: str
    current: RatingRow | None
    history: list[RatingPoint]


class RatingsController(Controller):
    path = "/clubs/{club_id:str}/ratings"
    tags = ("ratings",)
    guards = GUARDS

    @get("/{ruleset:str}", sync_to_thread=True, summary="The club's ratings for a game, best first", opt=PUBLIC)
    def read(
        self,
        club_id: FromPath[str],
        ruleset: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> RatingsOut:
        """OpenSkill (Plackett–Luce) ratings from every finished game of the club, kept by the projector
        and derived again when a correction changes a rated game."""
        context.records.rulesets.get(ruleset)
        return RatingsOut(ruleset=ruleset, players=self._rows(context.records, club_id, ruleset))

    @get(
        "/{ruleset:str}/{player_id:str}",
        sync_to_thread=True,
        summary="A player's rating history for a game",
        opt=PUBLIC,
    )
    def history(
        self,
        club_id: FromPath[str],
        ruleset: FromPath[str],
        player_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> RatingHistoryOut:
        context.records.rulesets.get(ruleset)
        ratings = ClubRatings.of(context.records)
        name = ratings.player_name(club_id, player_id)
        current = next((r for r in self._rows(context.records, club_id, ruleset) if r.player_id == player_id), None)
        return RatingHistoryOut(
            ruleset=ruleset,
            player_id=player_id,
            name=name,
            current=current,
            history=ratings.history(club_id, ruleset, player_id),
        )

    @staticmethod
    def _rows(records: Records, club_id: str, ruleset: str) -> list[RatingRow]:
        return [
            RatingRow(
                rank=n,
                player_id=r.player_id,
                name=name,
                rating=r.skill.rating,
                mu=r.skill.mu,
                sigma=r.skill.sigma,
                games=r.games,
                last_game=r.last_game,
            )
            for n, (r, name) in enumerate(ClubRatings.of(records).table(club_id, ruleset), start=1)
        ]


HANDLERS: list[Any] = [TournamentController, RatingsController]
