"""A club's record as the public may know it (G-2), event after event: the change feed integrators poll
(`GET /clubs/{club}/feed`) and the webhooks (`service.usecases.webhooks`) are both made of it.

An event of a game is told as a public replay tells its step (the public's narration never names a card
the public has not seen), with the game's public result when that event finished it or corrected it; an
event of a tournament (rounds, pairings, results) holds no hidden card and is given whole, but for a draft
round, the organiser's alone until published: its pairing and hand changes are not told, and its
publication comes with the pairings it makes public. Nothing else of a game's event leaves: its data may
name a card in a hand.

Events are read in the club's global order (`EventRecorder.read_club`). A game is told by a running fold
(`PublicGame`), kept for the latest games so the next page goes on from it; a game met part-way is folded
from its start."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any, Literal, Protocol, cast

import msgspec

from domain.record import Correction, GameStarted, decoder
from domain.registry import Rulesets, UnknownRuleset
from domain.ruleset import Result, Ruleset, Viewer
from projections.replay import Step
from projections.tournaments import (
    EVENT_DECODER,
    PlayersSwapped,
    RoundPaired,
    RoundPublished,
    TableMoved,
    fold,
)
from service.cache import Recent
from service.store.base import EventRecorder, StoredEvent, StreamId, stream_game
from service.usecases.games import Records
from service.usecases.live import Teller
from service.usecases.spectators import DelayedStreams, ReleasedStore, released_now

TOURNAMENT_PREFIX = "tournament/"
"""Tournament streams are `tournament/<club>/<tournament>` (`service.usecases.tournaments.stream_id`)."""
GAME_STARTED = GameStarted.__struct_config__.tag
PAIRED = RoundPaired.__struct_config__.tag
PUBLISHED = RoundPublished.__struct_config__.tag
DRAFTING = {PlayersSwapped.__struct_config__.tag, TableMoved.__struct_config__.tag}
"""A draft round's hand changes, never told: players see a round once it is published."""


class PublicEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event of the club as the public may know it. A game's event comes as its public replay step
    (`step`), with the public result when it finished the game (`finished`) or is a correction (the steps
    it voided in `voided`); a tournament's event comes with its data."""

    stream: Literal["game", "tournament"]
    game_id: str | None = None
    tournament_id: str | None = None
    version: int
    type: str
    recorded_at: datetime
    step: Step | None = None
    finished: bool = False
    """This event finished the game."""
    voided: tuple[int, ...] = ()
    """The steps this correction voided."""
    result: Result | None = None
    """The game's public result after this event, when it finished the game or corrected it."""
    winners: tuple[str, ...] = ()
    """The names of the players who won, when this event finished the game."""
    data: Any = None
    """A tournament event's data (null for a game's: it may name a hidden card)."""


class GameNews(msgspec.Struct, frozen=True, kw_only=True):
    """What one event of a game tells the public: its step, and whether it finished or corrected the game."""

    step: Step
    finished: bool
    voided: tuple[int, ...]
    result: Result | None
    winners: tuple[str, ...] = ()


class PublicGame:
    """A game told to the public event after event (a public `Teller`, in `language`), knowing whether it
    is over."""

    def __init__(self, ruleset: Ruleset, language: str = "en") -> None:
        self.ruleset = ruleset
        self.teller = Teller(ruleset, Viewer.public(), language)
        self.events: list[Any] = []
        self.finished = False

    @property
    def version(self) -> int:
        return len(self.events)

    def add(self, event: Any) -> GameNews:
        """Tell the game's next event (its `GameStarted` first)."""
        self.events.append(event)
        version = len(self.events)
        changed = self.teller.tell(self.events, version)
        assert self.teller.folded is not None
        result = self.ruleset.result(self.teller.folded.state, Viewer.public())
        ended = result.finished and not self.finished
        corrected = isinstance(event, Correction)
        self.finished = result.finished
        names = {player.seat: player.name for player in self.teller.folded.setup.players}
        return GameNews(
            step=self.teller.steps[-1],
            finished=ended,
            voided=tuple(sorted(changed - {version})) if corrected else (),
            result=result if ended or corrected else None,
            winners=tuple(names.get(seat, str(seat)) for seat in result.winners) if ended else (),
        )


class FeedStore(EventRecorder, Protocol):
    """What the feed reads: the event log."""


class PublicLog:
    """A club's events told to the public in `language`, with the games' running folds of the latest `size`
    games. Not shared between threads: each reader (a request, the webhook worker) has its own."""

    def __init__(self, store: FeedStore, rulesets: Rulesets, *, language: str = "en", size: int = 64) -> None:
        self.store = store
        self.rulesets = rulesets
        self.language = language
        self._games: Recent[StreamId, PublicGame] = Recent(size)
        self._skipped: set[StreamId] = set()

    @classmethod
    def of(cls, records: Records, language: str = "en") -> PublicLog:
        return cls(records.store, records.rulesets, language=language)

    def now(self) -> None:
        """Read a spectator's delays again: a long reader (a feed's stream) sees steps released as time
        passes. The games' folds are kept: each goes on from the version it has."""
        self.store = cast(FeedStore, released_now(cast(DelayedStreams, self.store)))

    def page(self, club_id: str, after: int, limit: int) -> tuple[list[tuple[int, PublicEvent]], int, bool]:
        """The club's events after global position `after` (at most `limit`), each with its position, told
        to the public; the position to go on from; whether there may be more. Events of streams that are
        neither a game served here nor a tournament are passed over. A spectator's page (its store a
        `ReleasedStore`) stops before the first event a spectator delay holds back, so it is told once
        released, in its place: the feed runs behind the delays."""
        events = self.store.read_club(club_id, after=after, limit=limit)
        more = len(events) == limit
        if isinstance(self.store, ReleasedStore):
            released = list(itertools.takewhile(self.store.released, events))
            if len(released) < len(events):
                events, more = released, False
        told = [(event.position, public) for event in events if (public := self.tell(event)) is not None]
        return told, events[-1].position if events else after, more

    def tell(self, event: StoredEvent) -> PublicEvent | None:
        """One event as the public may know it (None for a stream of neither kind)."""
        if event.stream_id.startswith(TOURNAMENT_PREFIX):
            data = msgspec.json.decode(event.data)
            if event.type in DRAFTING or (event.type == PAIRED and data.get("draft")):
                return None  # a draft is the organiser's alone: its pairings come with its publication
            if event.type == PUBLISHED:
                data = data | self._published_round(event)
            return PublicEvent(
                stream="tournament",
                tournament_id=event.stream_id.rpartition("/")[2],
                version=event.version,
                type=event.type,
                recorded_at=event.recorded_at,
                data=data,
            )
        game = self._game_before(event)
        if game is None:
            return None
        news = game.add(decoder(game.ruleset).decode(event.data))
        return PublicEvent(
            stream="game",
            game_id=stream_game(event.stream_id),
            version=event.version,
            type=event.type,
            recorded_at=event.recorded_at,
            step=news.step,
            finished=news.finished,
            voided=news.voided,
            result=news.result,
            winners=news.winners,
        )

    def _published_round(self, event: StoredEvent) -> dict[str, Any]:
        """The pairings a round's publication makes public (its draft and the hand changes to it were
        not told): the tournament folded up to the publication."""
        stored = self.store.read_stream(event.stream_id, limit=event.version)
        state = fold(EVENT_DECODER.decode(e.data) for e in stored)
        number = msgspec.json.decode(event.data, type=RoundPublished).round
        published = state.rounds[number - 1]
        return {"tables": msgspec.to_builtins(published.tables), "byes": list(published.byes)}

    def _game_before(self, event: StoredEvent) -> PublicGame | None:
        """The game's public fold just before `event`, folded from its start when not kept."""
        stream = event.stream_id
        if stream in self._skipped:
            return None
        game = self._games.get(stream)
        if game is not None and game.version == event.version - 1:
            return game
        earlier = self.store.read_stream(stream, limit=event.version - 1) if event.version > 1 else []
        first = earlier[0] if earlier else event
        if first.type != GAME_STARTED:
            self._skipped.add(stream)
            return None
        try:
            ruleset = self.rulesets.get(msgspec.json.decode(first.data, type=GameStarted).ruleset)
        except UnknownRuleset:
            self._skipped.add(stream)
            return None
        game = PublicGame(ruleset, self.language)
        decode = decoder(ruleset).decode
        for stored in earlier:
            game.add(decode(stored.data))
        self._games.put(stream, game)
        return game
