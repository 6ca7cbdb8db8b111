""" "What if" lines (`projections.lines`): a member opens one from a step of a game, as a view of it, and
tries other events there, each checked by the rules; a line is named, listed under its step, shared by a
link, deleted. The game's record, result, standings, ratings and campaigns never see it.

A game's lines are their own event stream, `lines:{club}/{game}` (':' is in no club or game id), appended
at the version it was read at, as its notes are. A line starts from the game as its view knew it at the
step (`projections.lines.as_known`): from the public view it knows what the public knew and nothing more.
A line read through its share link is read as a spectator reads the game: in the public view, and only
once the spectator delay has passed its step.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

from domain.i18n import Catalogue, english
from domain.record import Folded
from domain.ruleset import Ruleset, Viewer
from projections.errors import ProjectionError
from projections.lines import (
    EVENT_DECODER,
    AnyLineEvent,
    LineDeleted,
    LineExtended,
    LineName,
    LineOpened,
    View,
    WhatIf,
    as_known,
    fold,
    playable,
    told,
)
from projections.replay import Step, no_such_step
from projections.words import Teller
from service.cache import Recent, of_games
from service.store.access import AccessStore
from service.store.base import EventRecorder, ReadModels, StreamId
from service.usecases.access import Principal
from service.usecases.games import GameRecords, NotFound, Records, accept_batch, check_seat
from service.usecases.notes import append_beside, author_of
from service.usecases.replays import Replays
from service.usecases.types import GameRecord, VersionConflict

_OPENINGS: Recent[tuple[StreamId, str, str, int, Viewer], Folded] = of_games(64)
"""The game as a viewer knew it at a step, where lines start: a record only grows (a correction is a later
step), so its first N events, and this, never change; a line's next step folds only its own events."""

_ = Catalogue("service.usecases")


class LinesStore(EventRecorder, ReadModels, AccessStore, Protocol):
    """What lines read and write: their stream, the game's stream, snapshots and delay, the author's key."""


class NewLine(msgspec.Struct, frozen=True, kw_only=True):
    """A line to open: from step `step`, seen as `view` (`seat`: the seat of a `seat` view, and only of one)."""

    step: int
    name: LineName
    view: View = "public"
    seat: int | None = None


class LineEventsIn(msgspec.Struct, frozen=True, kw_only=True):
    """Events to try next in a line, in order, as the API's append takes a game's (checked in turn; none is
    kept unless all are accepted). `expected_length`: how many events the line had when read (a 409 if it
    moved on since); None to add after whatever it holds."""

    events: list[dict[str, Any]]
    expected_length: int | None = None


class Played(msgspec.Struct, kw_only=True):
    """A line as one reader sees it: the line, its events told for `viewer`, and the folds it starts from
    and reaches (not sent: the pages draw and offer choices from them)."""

    line: WhatIf
    viewer: Viewer
    steps: list[Step]
    opening: Folded
    reached: Folded
    ruleset: Ruleset
    record: GameRecord


class NotYourLine(Exception):
    """A line opened, changed or deleted by a caller that may not: a spectator or a share link (who read
    lines), or a key other than its opener's that is not a record key."""


def stream_id(club_id: str, game_id: str) -> StreamId:
    return StreamId(f"lines:{club_id}/{game_id}")


def share_target(game_id: str, line_id: str) -> str:
    """A line's share link names its game and itself (no game id holds a '/')."""
    return f"{game_id}/{line_id}"


def member(principal: Principal) -> None:
    """Only the club's members open and extend lines (a share link or a spectate key reads a shared one)."""
    if not principal.sees_hidden or principal.share is not None:
        raise NotYourLine("Lines are opened and tried by the club's members: this needs a read or record key.")


def may_change(principal: Principal, line: WhatIf) -> bool:
    """The key that opened a line changes it; a record key changes any."""
    return principal.share is None and (principal.writes or (principal.sees_hidden and line.key_id == principal.key_id))


class Lines:
    """The lines use cases, over the club's games (`games`) and the store."""

    def __init__(self, games: GameRecords, store: LinesStore) -> None:
        self.games = games
        self.store = store

    @classmethod
    def of(cls, records: Records) -> Lines:
        return cls(records, records.store)

    def _stored(self, club_id: str, game_id: str) -> tuple[list[WhatIf], int]:
        stored = self.store.read_stream(stream_id(club_id, game_id))
        return fold((EVENT_DECODER.decode(e.data), e.recorded_at) for e in stored), len(stored)

    def lines(self, principal: Principal, club_id: str, game_id: str, step: int | None = None) -> list[WhatIf]:
        """The game's lines (those from step `step` only, when given), by step: the club's members read them."""
        member(principal)
        self.games.game(club_id, game_id)
        lines, _version = self._stored(club_id, game_id)
        return [line for line in lines if step is None or line.step == step]

    def find(self, club_id: str, game_id: str, line_id: str) -> WhatIf:
        """A line of a game of the club, whoever asks (NotFound otherwise): a share link is made for one."""
        self.games.game(club_id, game_id)
        found = next((line for line in self._stored(club_id, game_id)[0] if line.line_id == line_id), None)
        if found is None:
            raise NotFound("line", line_id)
        return found

    def _line(self, principal: Principal, club_id: str, game_id: str, line_id: str) -> tuple[WhatIf, int]:
        lines, version = self._stored(club_id, game_id)
        found = next((line for line in lines if line.line_id == line_id), None)
        shared = principal.share
        if shared is not None and (shared.kind != "line" or shared.target_id != share_target(game_id, line_id)):
            found = None  # a share link reads its one line
        elif shared is None and not principal.sees_hidden:
            found = None
        if found is None:
            raise NotFound("line", line_id)
        return found, version

    def line(
        self, principal: Principal, club_id: str, game_id: str, line_id: str, *, words: Teller = english
    ) -> Played:
        """A line as `principal` may read it: a member in the line's own view, a share link as a spectator
        (the public view, once the spectator delay has passed the line's step; NotFound before)."""
        record = self.games.game(club_id, game_id)
        line, _version = self._line(principal, club_id, game_id, line_id)
        viewer = line.viewer
        if not principal.sees_hidden:
            horizon = Replays(self.games, self.store).horizon(principal, record.stream_id)
            if horizon is not None and line.step > horizon:
                raise NotFound("line", line_id)
            viewer = Viewer.public()
        return self._played(record, line, viewer, words)

    def _played(self, record: GameRecord, line: WhatIf, viewer: Viewer, words: Teller) -> Played:
        ruleset = self.games.rulesets.get(record.ruleset)
        opening = self._opening(record, ruleset, line.step, line.viewer)
        events = self.games.decode_batch(ruleset, line.events) if line.events else []
        reached, steps = told(ruleset, opening, events, viewer, words=words)
        return Played(
            line=line, viewer=viewer, steps=steps, opening=opening, reached=reached, ruleset=ruleset, record=record
        )

    def _opening(self, record: GameRecord, ruleset: Ruleset, step: int, viewer: Viewer) -> Folded:
        key = (record.stream_id, ruleset.name, ruleset.version, step, viewer)
        opening = _OPENINGS.get(key)
        if opening is None:
            replays = Replays(self.games, self.store)
            events = replays.events(ruleset, record.stream_id, up_to=step)
            opening = as_known(ruleset, events, step, viewer, replays.snapshots(ruleset, record.stream_id, step))
            _OPENINGS.put(key, opening)
        return opening

    def open(
        self, principal: Principal, club_id: str, game_id: str, new: NewLine, *, words: Teller = english
    ) -> Played:
        """Refused, with nothing stored: a step that is not of the game (404 `no_such_step`), a seat not at
        its table, a `seat` view without its seat or another view with one, a blank name (422)."""
        member(principal)
        record = self.games.game(club_id, game_id)
        if not 1 <= new.step <= record.version:
            raise no_such_step(new.step, record.version)
        name = new.name.strip()
        if not name:
            raise ProjectionError("blank_name", _("A line needs a name."), field="name")
        if new.view == "seat":
            if new.seat is None:
                raise ProjectionError("seat_needed", _("A seat's view needs the seat it is."), field="seat")
            check_seat(record, new.seat)
        elif new.seat is not None:
            raise ProjectionError(
                "seat_without_seat_view",
                _("Only a seat view names a seat; this one is {view}.", view=new.view),
                field="seat",
            )
        author = author_of(self.store, principal)
        for attempt in range(3):
            # Named by the stream version that opens it: never reused, even once deleted.
            version = self.store.stream_version(stream_id(club_id, game_id))
            opened = LineOpened(
                line_id=str(version + 1),
                step=new.step,
                name=name,
                view=new.view,
                seat=new.seat,
                author=author,
                key_id=principal.key_id,
            )
            try:
                self._append(principal, club_id, game_id, version, opened)
            except VersionConflict:
                if attempt == 2:  # another line or event meanwhile: a new line depends on none
                    raise
                continue
            return self.line(principal, club_id, game_id, opened.line_id, words=words)
        raise AssertionError("unreachable")

    def extend(
        self,
        principal: Principal,
        club_id: str,
        game_id: str,
        line_id: str,
        tried: LineEventsIn,
        *,
        words: Teller = english,
    ) -> Played:
        """Try `tried.events` after the line's: each checked by the rules on the line as it stands (the
        first refused is the rule's 422, naming its index; nothing is kept then)."""
        record = self.games.game(club_id, game_id)
        line, version = self._mine(principal, club_id, game_id, line_id)
        if tried.expected_length is not None and tried.expected_length != len(line.events):
            raise VersionConflict(f"line {line_id}", tried.expected_length, len(line.events))
        played = self._played(record, line, line.viewer, english)
        events = self.games.decode_batch(played.ruleset, tried.events)
        for event in events:
            playable(event)
        accept_batch(played.reached, events)
        encoded = tuple(msgspec.to_builtins(event) for event in events)
        self._append(principal, club_id, game_id, version, LineExtended(line_id=line_id, events=encoded))
        return self.line(principal, club_id, game_id, line_id, words=words)

    def delete(self, principal: Principal, club_id: str, game_id: str, line_id: str) -> None:
        self.games.game(club_id, game_id)
        _line, version = self._mine(principal, club_id, game_id, line_id)
        self._append(principal, club_id, game_id, version, LineDeleted(line_id=line_id))

    def _mine(self, principal: Principal, club_id: str, game_id: str, line_id: str) -> tuple[WhatIf, int]:
        member(principal)
        line, version = self._line(principal, club_id, game_id, line_id)
        if not may_change(principal, line):
            raise NotYourLine(f"Line {line_id} was opened by {line.author}: only they or a record key may change it.")
        return line, version

    def _append(self, principal: Principal, club_id: str, game_id: str, version: int, event: AnyLineEvent) -> None:
        append_beside(self.store, principal, club_id, stream_id(club_id, game_id), version, event)
