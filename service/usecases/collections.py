"""A club's collections of games: leagues (a table of points, tie-breaks and explanations) and campaigns
(a series of games with the same players towards the ruleset's target), one use case for both.

Both are a definition and the games assigned to it in order, less those taken out (and not put back),
folded by a pure projection (`projections.standings`, `projections.campaigns`) over the game summaries
the projector keeps: they follow a correction as soon as the projector has applied it (`/ready` shows
the lag). What differs between the two is said once, in `KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date, datetime
from typing import Literal, Protocol

import msgspec

from domain.i18n import Catalogue, Message, Teller, english
from domain.record import GameStarted
from domain.ruleset import Result, Ruleset, Setup
from projections.campaigns import Campaign, CampaignGame, CampaignStatus, admit, campaign_status
from projections.contract import check_player_count, score_scale
from projections.errors import ProjectionError
from projections.standings import League, LeagueGame, Removal, Standings, check_league, standings
from service.store.base import (
    ClubRecords,
    CollectionKind,
    Collections,
    EventRecorder,
    GameRecord,
    GameSummary,
    Outcome,
    PlayerRecords,
    ReadModels,
    Recorder,
)
from service.usecases.clubs import Clubs
from service.usecases.games import GameRecords, NotFound, Records

_ = Catalogue("service.usecases")

Definition = League | Campaign
Action = Literal["removed", "restored"]


class CollectionStore(Collections, ReadModels, ClubRecords, PlayerRecords, EventRecorder, Protocol):
    """What a collection reads: its rows, the games' summaries, the members' names and merges, a game's
    set-up."""


class Kind(msgspec.Struct, frozen=True):
    """What a league and a campaign do differently: the definition's type and id, who plays in it, how
    it is checked when created, and what a game must be to join it."""

    type: type[League] | type[Campaign]
    ident: Callable[[Definition], str]
    players: Callable[[Definition], tuple[str, ...]]


KINDS: dict[CollectionKind, Kind] = {
    "league": Kind(League, lambda d: d.league_id, lambda d: d.members),  # type: ignore[union-attr]
    "campaign": Kind(Campaign, lambda d: d.campaign_id, lambda d: d.players),  # type: ignore[union-attr]
}


def league_games(game_ids: Sequence[str], summaries: dict[str, GameSummary]) -> list[LeagueGame]:
    """A league's games as the standings read them (games the projector has not reached yet are left
    out until it does)."""
    return [
        LeagueGame(
            game_id=s.game_id,
            finished_at=s.outcome.finished_at or s.started_at,
            players=s.players,
            result=s.outcome.result,
        )
        for s in (summaries[g] for g in game_ids if g in summaries)
    ]


def in_period(league: League, finished_at: datetime) -> bool:
    """A game finished then is within the league's period (by its date, as the standings count it)."""
    return league.starts <= finished_at.date() <= league.ends


def taken_by_itself(league: League, summaries: Iterable[GameSummary]) -> list[str]:
    """The games an automatic league takes by itself: every finished game of its ruleset within its
    period, in the order they finished. A correction that un-finishes a game takes it out again."""
    taken = [
        s
        for s in summaries
        if s.ruleset == league.ruleset
        and s.outcome.finished
        and s.outcome.finished_at is not None
        and in_period(league, s.outcome.finished_at)
    ]
    return _in_finishing_order(taken)


def played_by_itself(campaign: Campaign, summaries: Iterable[GameSummary]) -> list[str]:
    """The games an automatic campaign takes by itself: every finished game of its ruleset played by
    exactly its players (in any seats), in the order they finished."""
    players = set(campaign.players)
    taken = [
        s
        for s in summaries
        if s.ruleset == campaign.ruleset and s.outcome.finished and {p.player_id for p in s.players} == players
    ]
    return _in_finishing_order(taken)


def _in_finishing_order(summaries: Iterable[GameSummary]) -> list[str]:
    """The games' ids in the order they finished (ties by id)."""
    return [s.game_id for s in sorted(summaries, key=lambda s: (s.outcome.finished_at or s.started_at, s.game_id))]


def with_outcome(summaries: dict[str, GameSummary], game_id: str, outcome: Outcome) -> dict[str, GameSummary]:
    """The summaries with one game's outcome replaced (to compute a table as it was)."""
    if game_id not in summaries:
        return summaries
    return summaries | {game_id: msgspec.structs.replace(summaries[game_id], outcome=outcome)}


class ClubCollections:
    """The league and campaign use cases, over the club's games (`games`) and the store's parts."""

    def __init__(self, games: GameRecords, store: CollectionStore) -> None:
        self.games = games
        self.store = store

    @classmethod
    def of(cls, records: Records) -> ClubCollections:
        return cls(records, records.store)

    # -- definitions ------------------------------------------------------------------------------------
    def _found(
        self, kind: CollectionKind, club_id: str, collection_id: str, outcome: tuple[str, Outcome] | None = None
    ) -> tuple[Definition, tuple[str, ...]]:
        found = self.store.get_collection(kind, club_id, collection_id)
        if found is None:
            raise NotFound(kind, collection_id)
        definition = msgspec.json.decode(found.definition, type=KINDS[kind].type)
        return definition, self._games(club_id, definition, found.game_ids, outcome)

    def _games(
        self, club_id: str, definition: Definition, assigned: tuple[str, ...], outcome: tuple[str, Outcome] | None
    ) -> tuple[str, ...]:
        """The games assigned, and an automatic league's or campaign's taken by itself after them
        (`outcome`: one game's outcome as it was)."""
        if not isinstance(definition, League | Campaign) or not definition.automatic:
            return assigned
        summaries = {s.game_id: s for s in self.store.finished_summaries(club_id, definition.ruleset)}
        if outcome is not None:
            game_id, as_it_was = outcome
            summaries.pop(game_id, None)
            earlier = self.store.game_summaries(club_id, [game_id]).get(game_id)
            if earlier is not None and earlier.ruleset == definition.ruleset and as_it_was.finished:
                summaries[game_id] = msgspec.structs.replace(earlier, outcome=as_it_was)
        if isinstance(definition, League):
            taken = taken_by_itself(definition, summaries.values())
        else:
            taken = played_by_itself(definition, summaries.values())
        return (*assigned, *(g for g in taken if g not in assigned))

    def found(self, kind: CollectionKind, club_id: str, collection_id: str) -> tuple[Definition, tuple[str, ...]]:
        """A league or campaign and its games (NotFound when the club has none of that id)."""
        return self._found(kind, club_id, collection_id)

    def league(self, club_id: str, league_id: str) -> tuple[League, tuple[str, ...]]:
        league, game_ids = self._found("league", club_id, league_id)
        assert isinstance(league, League)
        return league, game_ids

    def campaign(self, club_id: str, campaign_id: str) -> tuple[Campaign, tuple[str, ...]]:
        """A campaign, its players read as people (merged records as the person they were merged into)."""
        campaign, game_ids = self._found("campaign", club_id, campaign_id)
        assert isinstance(campaign, Campaign)
        players = Clubs(self.store).people(club_id).ids(campaign.players)
        return msgspec.structs.replace(campaign, players=players), game_ids

    def listed(self, kind: CollectionKind, club_id: str) -> list[tuple[Definition, tuple[str, ...]]]:
        """The club's leagues or campaigns, with their games."""
        listed = []
        for collection in self.store.list_collections(kind, club_id):
            definition = msgspec.json.decode(collection.definition, type=KINDS[kind].type)
            listed.append((definition, self._games(club_id, definition, collection.game_ids, None)))
        return listed

    def leagues(self, club_id: str) -> list[tuple[League, tuple[str, ...]]]:
        return [(league, ids) for league, ids in self.listed("league", club_id) if isinstance(league, League)]

    def campaigns(self, club_id: str) -> list[tuple[Campaign, tuple[str, ...]]]:
        return [(c, ids) for c, ids in self.listed("campaign", club_id) if isinstance(c, Campaign)]

    def ids(self, kind: CollectionKind, club_id: str) -> list[str]:
        return [c.collection_id for c in self.store.list_collections(kind, club_id)]

    def exists(self, kind: CollectionKind, club_id: str, collection_id: str) -> bool:
        return self.store.get_collection(kind, club_id, collection_id) is not None

    def create(self, club_id: str, definition: Definition) -> Definition:
        """Store a league or campaign once it is checked: a league that can be ranked, a campaign of as
        many players as its game takes; either of the club's players, each listed once."""
        kind: CollectionKind = "league" if isinstance(definition, League) else "campaign"
        ruleset = self.games.rulesets.get(definition.ruleset)
        players = KINDS[kind].players(definition)
        if isinstance(definition, League):
            check_league(definition)
        else:
            check_player_count(ruleset, len(players))
        known = {p.player_id for p in self.store.get_players(club_id, players)}
        unknown = [m for m in players if m not in known]
        if isinstance(definition, League) and unknown:
            raise ProjectionError(
                "unknown_member", _("Every member must be one of the club's players."), unknown=unknown
            )
        if isinstance(definition, Campaign) and (unknown or not players or len(set(players)) != len(players)):
            raise ProjectionError(
                "bad_players", _("A campaign's players are club players, each listed once."), unknown=unknown
            )
        self.store.create_collection(kind, club_id, KINDS[kind].ident(definition), msgspec.json.encode(definition))
        return definition

    # -- games ----------------------------------------------------------------------------------------
    def assign(self, kind: CollectionKind, club_id: str, collection_id: str, game_id: str) -> tuple[str, ...]:
        """Add a game of the collection's ruleset: to a league a finished one, to a campaign the next one
        its series rules allow (refused now rather than when the status is read). Its games after."""
        definition, assigned = self._found(kind, club_id, collection_id)
        record = self._of_ruleset(club_id, definition.ruleset, game_id)
        if isinstance(definition, League) and not record.finished:
            raise ProjectionError(
                "game_not_finished",
                _("Game {game_id} is not finished: only finished games are assigned to a league.", game_id=game_id),
                game_id=game_id,
            )
        if isinstance(definition, Campaign):
            definition = self.campaign(club_id, collection_id)[0]  # its players as people, as its games'
            counted = self.counted(kind, club_id, collection_id, assigned)[0]
            both = [*counted, game_id]
            *earlier, game = self.campaign_games(club_id, both, self.store.game_summaries(club_id, both))
            admit(self.games.rulesets.get(definition.ruleset), definition, earlier, game)
        self.store.add_collection_game(kind, club_id, collection_id, game_id)
        return self._found(kind, club_id, collection_id)[1]

    def _of_ruleset(self, club_id: str, ruleset: str, game_id: str) -> GameRecord:
        """A club's game that may join a league or campaign of `ruleset`."""
        record = self.games.game(club_id, game_id)
        if record.ruleset != ruleset:
            raise ProjectionError(
                "wrong_ruleset",
                _(
                    "Game {game_id} is of {ruleset}, not {expected}.",
                    game_id=game_id,
                    ruleset=record.ruleset,
                    expected=ruleset,
                ),
                game_id=game_id,
                ruleset=record.ruleset,
                expected=ruleset,
            )
        return record

    def counted(
        self, kind: CollectionKind, club_id: str, collection_id: str, game_ids: Sequence[str]
    ) -> tuple[tuple[str, ...], tuple[Removal, ...]]:
        """A collection's games less those taken out (and not put back), and that history."""
        history = tuple(self.store.removals(kind, club_id, collection_id))
        out: set[str] = set()
        for removal in history:
            (out.add if removal.action == "removed" else out.discard)(removal.game_id)
        return tuple(g for g in game_ids if g not in out), history

    def change(
        self, recorder: Recorder, kind: CollectionKind, collection_id: str, game_id: str, action: Action, reason: str
    ) -> tuple[tuple[Removal, ...], tuple[str, ...]]:
        """Take a game out of a league or campaign (`removed`) or put it back (`restored`), recorded with
        the key and the reason; the history after it, and the games counted."""
        club_id = recorder.club_id
        game_ids = self._found(kind, club_id, collection_id)[1]
        if game_id not in game_ids:
            raise NotFound(f"game of this {kind}", game_id)
        counted = self.counted(kind, club_id, collection_id, game_ids)[0]
        if (game_id in counted) != (action == "removed"):
            raise ProjectionError(
                f"already_{'restored' if game_id in counted else 'removed'}",
                _already(game_id, game_id in counted, kind),
                game_id=game_id,
            )
        removal = Removal(
            game_id=game_id, action=action, reason=reason, key_id=recorder.key_id, recorded_at=datetime.now(UTC)
        )
        self.store.record_removal(kind, club_id, collection_id, removal)
        counted, history = self.counted(kind, club_id, collection_id, game_ids)
        return history, counted

    def of_game(self, club_id: str, game_id: str, outcomes: Sequence[Outcome] = ()) -> list[tuple[CollectionKind, str]]:
        """The leagues and campaigns a game is in: assigned, or taken by an automatic league or campaign
        (now, or with one of `outcomes`, the game's outcome before or after a correction)."""
        found = self.store.collections_of_game(club_id, game_id)
        record = self.games.game(club_id, game_id)
        for league, game_ids in self.leagues(club_id):
            if ("league", league.league_id) in found or not league.automatic or league.ruleset != record.ruleset:
                continue
            if game_id in game_ids or any(
                o.finished and o.finished_at is not None and in_period(league, o.finished_at) for o in outcomes
            ):
                found.append(("league", league.league_id))
        players = set(record.player_ids)
        for campaign, game_ids in self.campaigns(club_id):
            if ("campaign", campaign.campaign_id) in found or not campaign.automatic:
                continue
            if campaign.ruleset != record.ruleset or set(campaign.players) != players:
                continue
            if game_id in game_ids or any(o.finished for o in outcomes):
                found.append(("campaign", campaign.campaign_id))
        return found

    def summaries(self, club_id: str, game_ids: Sequence[str]) -> dict[str, GameSummary]:
        return self.store.game_summaries(club_id, game_ids)

    def names(self, club_id: str, player_ids: Sequence[str]) -> dict[str, str]:
        return Clubs(self.store).names(club_id, player_ids)

    # -- leagues ------------------------------------------------------------------------------------------
    def league_table(
        self, club_id: str, league: League, games: Sequence[LeagueGame], as_of: date | None = None
    ) -> Standings:
        """The standings in the league's own points (the ruleset's score scale), with the members' names."""
        scale = score_scale(self.games.rulesets.get(league.ruleset))
        return standings(league, games, as_of, scale=scale, names=self.names(club_id, league.members))

    def standings(
        self, club_id: str, league_id: str, as_of: date | None = None, outcome: tuple[str, Outcome] | None = None
    ) -> Standings:
        """The league table as of a date, with its removals (`outcome`: one game's outcome as it was)."""
        league, assigned = self._found("league", club_id, league_id, outcome)
        assert isinstance(league, League)
        game_ids, removals = self.counted("league", club_id, league_id, assigned)
        summaries = self.summaries(club_id, game_ids)
        if outcome is not None:
            summaries = with_outcome(summaries, *outcome)
        # Merged records count as their person: members and seats read through the club's merges.
        people = Clubs(self.store).people(club_id)
        league = msgspec.structs.replace(league, members=people.ids(league.members))
        games = [
            msgspec.structs.replace(g, players=people.seated(g.players)) for g in league_games(game_ids, summaries)
        ]
        table = self.league_table(club_id, league, games, as_of)
        return msgspec.structs.replace(table, removals=removals)

    # -- campaigns ----------------------------------------------------------------------------------------
    def campaign_games(
        self, club_id: str, game_ids: Sequence[str], summaries: dict[str, GameSummary]
    ) -> list[CampaignGame]:
        """A campaign's games in order, with their set-ups (a game the projector has not reached yet reads
        as unfinished: the campaign waits for it)."""
        unplayed = Result(finished=False, score_unit="", players=())
        people = Clubs(self.store).people(club_id)  # merged records seated as their person
        return [
            CampaignGame(
                game_id=g,
                setup=msgspec.structs.replace(setup := self._setup(club_id, g), players=people.seated(setup.players)),
                result=summaries[g].outcome.result if g in summaries else unplayed,
            )
            for g in game_ids
        ]

    def _setup(self, club_id: str, game_id: str) -> Setup:
        first = self.store.read_stream(self.games.stream(club_id, game_id), limit=1)
        return msgspec.json.decode(first[0].data, type=GameStarted).setup

    def status(
        self,
        club_id: str,
        campaign_id: str,
        outcome: tuple[str, Outcome] | None = None,
        words: Teller = english,
    ) -> tuple[Campaign, Ruleset, list[CampaignGame], CampaignStatus]:
        """The campaign's status after every counted game, with its removals (`outcome`: one game's
        outcome as it was, which an automatic campaign's games follow too); its definition, ruleset and
        games too; its notes told with `words` (the reader's language)."""
        campaign, assigned = self._found("campaign", club_id, campaign_id, outcome)
        assert isinstance(campaign, Campaign)
        game_ids, removals = self.counted("campaign", club_id, campaign_id, assigned)
        ruleset = self.games.rulesets.get(campaign.ruleset)
        summaries = self.summaries(club_id, game_ids)
        if outcome is not None:
            summaries = with_outcome(summaries, *outcome)
        games = self.campaign_games(club_id, game_ids, summaries)
        status = msgspec.structs.replace(campaign_status(ruleset, campaign, games, words=words), removals=removals)
        return campaign, ruleset, games, status


def _already(game_id: str, counted: bool, kind: CollectionKind) -> Message:
    """Why a game cannot be taken out of a league or campaign (or put back) again."""
    if kind == "league":
        return (
            _("Game {game_id} is already counted in this league.", game_id=game_id)
            if counted
            else _("Game {game_id} is already taken out of this league.", game_id=game_id)
        )
    return (
        _("Game {game_id} is already counted in this campaign.", game_id=game_id)
        if counted
        else _("Game {game_id} is already taken out of this campaign.", game_id=game_id)
    )
