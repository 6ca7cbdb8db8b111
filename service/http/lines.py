"""The HTTP API of "what if" lines (`service.usecases.lines`): a member (a record or read key) opens a line
from a step of a game, tries events in it (each checked by the rules), reads, lists and deletes lines.
A line never touches the game's record, result, standings, ratings or campaigns.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.exceptions import PermissionDeniedException
from litestar.params import FromPath, JSONBody, QueryParameter

from projections.lines import View, WhatIf
from projections.replay import Step
from service.http.dependencies import RequestContext
from service.http.guards import GUARDS
from service.limits import MAX_INT
from service.usecases.lines import LineEventsIn, Lines, NewLine, NotYourLine, Played

MEMBER: dict[str, Any] = {"needs": "read"}
"""A read key may open and try a line: a line is beside the record, never in it."""


class LineOut(msgspec.Struct, frozen=True, kw_only=True):
    """A line: from step `step` of the game, seen as `view` (`seat`), the `events` tried (the API's JSON),
    each told as a replay step (`steps`, numbered on from `step`), whether the game is over where the
    line stands (`finished`), and what its view shows there (`state`, as a replay step's view)."""

    line_id: str
    game_id: str
    step: int
    name: str
    view: View
    seat: int | None
    author: str
    opened_at: datetime
    events: tuple[dict[str, Any], ...]
    steps: list[Step]
    finished: bool
    state: Any


def line_out(played: Played) -> LineOut:
    line = played.line
    return LineOut(
        line_id=line.line_id,
        game_id=played.record.game_id,
        step=line.step,
        name=line.name,
        view=line.view,
        seat=line.seat,
        author=line.author,
        opened_at=line.opened_at,
        events=line.events,
        steps=played.steps,
        finished=played.ruleset.result(played.reached.state, played.viewer).finished,
        state=played.ruleset.view(played.reached.state, played.viewer),
    )


class LinesController(Controller):
    path = "/clubs/{club_id:str}/games/{game_id:str}/lines"
    tags = ("what if lines",)
    guards = GUARDS

    @get("/", sync_to_thread=True, summary='The game\'s "what if" lines, or those from one step', opt=MEMBER)
    def list_lines(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        step: Annotated[int | None, QueryParameter(ge=1, le=MAX_INT)] = None,
    ) -> list[WhatIf]:
        """By the step each starts from. A spectate key reads none (a line is shared by a share link)."""
        return Lines.of(context.records).lines(context.principal, club_id, game_id, step)

    @post("/", sync_to_thread=True, summary='Open a "what if" line from a step', opt=MEMBER)
    def open_line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[NewLine],
        context: NamedDependency[RequestContext],
    ) -> LineOut:
        """The line starts from the game as `view` knew it after step `step`: from the public view it knows
        only what the public knew (a card nobody had seen is unknown to its rules). Refused, with nothing
        stored: a step that is not of the game (404), a seat not at its table or a `seat` view without
        one (422), a blank name (422), a name longer than 80 characters (400)."""
        return line_out(Lines.of(context.records).open(context.principal, club_id, game_id, data, words=context.words))

    @get("/{line_id:str}", sync_to_thread=True, summary='A "what if" line, told and viewed', opt=MEMBER)
    def read_line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        line_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> LineOut:
        return line_out(
            Lines.of(context.records).line(context.principal, club_id, game_id, line_id, words=context.words)
        )

    @post("/{line_id:str}/events", sync_to_thread=True, summary='Try events in a "what if" line', opt=MEMBER)
    def extend_line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        line_id: FromPath[str],
        data: JSONBody[LineEventsIn],
        context: NamedDependency[RequestContext],
    ) -> LineOut:
        """Each event is checked by the game's rules on the line as it stands, in turn; the first refused
        is the rule's problem (422, naming its index) and nothing is kept. Only the key that opened the
        line, or a record key, may extend it (403); `expected_length` that is not the line's: 409."""
        try:
            played = Lines.of(context.records).extend(
                context.principal, club_id, game_id, line_id, data, words=context.words
            )
        except NotYourLine as refused:
            raise PermissionDeniedException(detail=str(refused)) from None
        return line_out(played)

    @delete("/{line_id:str}", sync_to_thread=True, summary='Delete a "what if" line', opt=MEMBER)
    def delete_line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        line_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> None:
        """Only the key that opened the line, or a record key, may delete it (403); the lines' stream keeps
        that it was deleted, and the game's record is never touched."""
        try:
            Lines.of(context.records).delete(context.principal, club_id, game_id, line_id)
        except NotYourLine as refused:
            raise PermissionDeniedException(detail=str(refused)) from None


HANDLERS = [LinesController]
