"""The "what if" pages of the replay viewer: a member opens a line from the step shown, taps the recorder's
choices to try events in it (each checked by the rules), shares it by a link or deletes it. A refusal shows
the page again with the problem in the reader's words beside what was tried, and nothing is kept."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType
from litestar.exceptions import PermissionDeniedException
from litestar.params import Body, FromPath, FromQuery
from litestar.response import Redirect, Template

from domain.i18n import Catalogue, Message, english
from domain.ruleset import RuleError
from projections.errors import ProjectionError
from projections.lines import MAX_NAME
from projections.words import Teller as Words
from service.http.dependencies import RequestContext
from service.pages import reads, recording
from service.pages.controllers import MEMBER_GUARDS, Links, page_template, share_guard
from service.pages.lines import view_label
from service.usecases.access import Principal
from service.usecases.games import BadEvent, BatchRuleError, NoSuchSeat, NotFound, Records
from service.usecases.keys import Keys
from service.usecases.lines import LineEventsIn, Lines, NewLine, NotYourLine, Played, may_change, share_target
from service.usecases.types import VersionConflict

_ = Catalogue("service.pages")


class OpenForm(msgspec.Struct, frozen=True, kw_only=True):
    step: int
    name: str = ""
    line_view: str = "public"
    """`public`, `full` or `seat-N`: the view the line starts from."""
    view: Literal["public", "seat", "full"] = "public"
    seat: int | None = None
    """The view the replay was shown in (the page goes back to it on a refusal)."""


class TryForm(msgspec.Struct, frozen=True, kw_only=True):
    event: str = ""
    expected_length: int | None = None


def _new_line(form: OpenForm) -> NewLine:
    view, seat = form.line_view, None
    if view.startswith("seat-") and view[5:].isdigit():
        view, seat = "seat", int(view[5:])
    return msgspec.convert({"step": form.step, "name": form.name, "view": view, "seat": seat}, NewLine)


def _open_refusal(form: OpenForm, error: Exception) -> tuple[str, Message]:
    if isinstance(error, NoSuchSeat):
        return "line_view", _("That seat is not at this table.")
    if isinstance(error, ProjectionError) and error.code == "no_such_step":
        return "step", _("This game has no step {step}.", step=form.step)
    if len(form.name) > MAX_NAME:
        return "name", _(
            "A line's name holds at most {most} characters; this one has {count}.", most=MAX_NAME, count=len(form.name)
        )
    if not form.name.strip():
        return "name", _("Give the line a name.")
    return "line_view", _("Choose the view the line starts from in the list.")


def _try_refusal(error: Exception, words: Any) -> Message | str:
    """What was wrong with a tried event, in the reader's words (the rule's own, where it has them)."""
    if isinstance(error, BatchRuleError):
        return _("Refused by {rule}: {why}", rule=error.error.rule_id, why=words(error.error.said))
    if isinstance(error, RuleError):
        return _("Refused by {rule}: {why}", rule=error.rule_id, why=words(error.said))
    if isinstance(error, VersionConflict):
        return _("The line moved on meanwhile: here it is as it stands now.")
    if isinstance(error, ProjectionError) and error.code == "not_in_a_line":
        return _("A line tries the game's own events; open another line rather than correcting this one.")
    return _("That is not an event of this game: choose one of the choices, or write it as the API takes it.")


def line_page(
    records: Records,
    principal: Principal,
    club_id: str,
    game_id: str,
    line_id: str,
    *,
    words: Words = english,
    more: str | None = None,
) -> dict[str, Any]:
    """A line's page as `principal` may read it; `more`: a tapped choice's event (JSON) whose additions
    (`Ruleset.extensions`) are offered instead of the choices."""
    played = Lines.of(records).line(principal, club_id, game_id, line_id, words=words)
    ruleset, reached = played.ruleset, played.reached
    players = sorted(reached.setup.players, key=lambda p: p.seat)
    finished = ruleset.result(reached.state, played.viewer).finished
    trying = may_change(principal, played.line) and not finished
    return {
        "game": played.record,
        "ruleset": ruleset,
        "line": played.line,
        "played": played,
        "players": players,
        "viewer": played.viewer,
        "view_label": view_label(played.line.view, played.line.seat, players),
        "view_query": reads.view_query(played.line.viewer),
        "picture": reads.drawn(ruleset, msgspec.to_builtins(ruleset.view(reached.state, played.viewer)), [], words),
        "finished": finished,
        "may_try": trying,
        "may_delete": may_change(principal, played.line),
        "seats": choices(records, played, words, more) if trying else [],
        "more": more,
    }


def choices(records: Records, played: Played, words: Words, more: str | None) -> list[recording.SeatChoices]:
    """The recorder's choices where the line stands, seat by seat (the additions to `more` only, when a
    tapped choice may take more)."""
    ruleset, state = played.ruleset, played.reached.state
    names = {p.seat: p.name for p in played.reached.setup.players}
    if more is not None:
        [event] = records.decode_batch(ruleset, [more.encode()])
        offered = recording.more_of(ruleset, state, event, words).choices
        seat = getattr(event, "seat", None)
        return [recording.SeatChoices(seat=seat or 0, name=names.get(seat or 0, ""), enumerable=True, choices=offered)]
    return recording.choices_now(ruleset, names, state, words)


class LinePages(Controller):
    path = "/club/{club_id:str}/games/{game_id:str}/lines"
    guards = MEMBER_GUARDS
    include_in_schema = False

    @post("/", sync_to_thread=True, status_code=303)
    def open_line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        data: Annotated[OpenForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Redirect | Template:
        links = Links(base=f"/club/{club_id}", club_id=club_id)
        try:
            played = Lines.of(context.records).open(context.principal, club_id, game_id, _new_line(data))
        except NotYourLine as refused:
            raise PermissionDeniedException(detail=str(refused)) from None
        except (msgspec.ValidationError, ProjectionError, NoSuchSeat) as refused:
            problem = _open_refusal(data, refused)
            at = None if problem[0] == "step" else data.step
            page = reads.game_step(
                context.records, context.principal, club_id, game_id, at, data.view, data.seat, words=context.words
            )
            shown = page_template("game.html", context.principal, links, **page, line_form=data, line_problem=problem)
            shown.status_code = 422
            return shown
        return Redirect(path=f"/club/{club_id}/games/{game_id}/lines/{played.line.line_id}", status_code=303)

    @get("/{line_id:str}", sync_to_thread=True)
    def line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        line_id: FromPath[str],
        context: NamedDependency[RequestContext],
        more: FromQuery[str | None] = None,
    ) -> Template:
        links = Links(base=f"/club/{club_id}", club_id=club_id)
        try:
            page = line_page(
                context.records, context.principal, club_id, game_id, line_id, words=context.words, more=more
            )
        except (BadEvent, RuleError, msgspec.DecodeError, msgspec.ValidationError):  # a `more` no choice made
            page = line_page(context.records, context.principal, club_id, game_id, line_id, words=context.words)
        return page_template("line.html", context.principal, links, **page)

    @post("/{line_id:str}/events", sync_to_thread=True, status_code=303)
    def try_event(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        line_id: FromPath[str],
        context: NamedDependency[RequestContext],
        data: Annotated[TryForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Redirect | Template:
        links = Links(base=f"/club/{club_id}", club_id=club_id)
        lines = Lines.of(context.records)
        try:
            event = msgspec.json.decode(data.event.encode() or b"null")
            tried = LineEventsIn(events=[event], expected_length=data.expected_length)
            lines.extend(context.principal, club_id, game_id, line_id, tried)
        except NotYourLine as refused:
            raise PermissionDeniedException(detail=str(refused)) from None
        except (msgspec.DecodeError, BadEvent, BatchRuleError, ProjectionError, VersionConflict) as refused:
            page = line_page(context.records, context.principal, club_id, game_id, line_id, words=context.words)
            shown = page_template(
                "line.html",
                context.principal,
                links,
                **page,
                tried=data.event,
                problem=_try_refusal(refused, context.words),
            )
            shown.status_code = 409 if isinstance(refused, VersionConflict) else 422
            return shown
        return Redirect(path=f"/club/{club_id}/games/{game_id}/lines/{line_id}#told-now", status_code=303)

    @post("/{line_id:str}/delete", sync_to_thread=True, status_code=303)
    def delete_line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        line_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> Redirect:
        lines = Lines.of(context.records)
        try:
            step = lines.find(club_id, game_id, line_id).step
            lines.delete(context.principal, club_id, game_id, line_id)
        except NotYourLine as refused:
            raise PermissionDeniedException(detail=str(refused)) from None
        return Redirect(path=f"/club/{club_id}/games/{game_id}/replay/{step}#lines", status_code=303)

    @post("/{line_id:str}/share", sync_to_thread=True, status_code=200, opt={"needs": "record"})
    def share_line(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        line_id: FromPath[str],
        context: NamedDependency[RequestContext],
        request: Request[Any, Any, Any],
    ) -> Template:
        """A share link to the line (a record key's, as every share link): it reads as a spectator would."""
        line = Lines.of(context.records).find(club_id, game_id, line_id)
        _link, token = Keys.of(context.records).create_share(
            club_id, "line", share_target(game_id, line_id), line.name, context.principal.key_id
        )
        url = f"{request.base_url}".rstrip("/") + f"/share/{token}"
        page = line_page(context.records, context.principal, club_id, game_id, line_id, words=context.words)
        return page_template(
            "line.html", context.principal, Links(base=f"/club/{club_id}", club_id=club_id), **page, shared_url=url
        )


class SharedLine(Controller):
    """A line's share link: the line read as a spectator reads the game (the public view, once the
    spectator delay has passed its step), with no choices to tap."""

    path = "/share/{token:str}/line"
    guards = (share_guard,)
    include_in_schema = False

    @get("/", sync_to_thread=True)
    def shared_line(self, token: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        share = context.principal.share
        if share is None or share.kind != "line" or context.principal.club_id is None:
            raise NotFound("page", "line")
        game_id, _slash, line_id = share.target_id.partition("/")
        links = Links(base=f"/share/{token}", club_id=context.principal.club_id, shared=True)
        page = line_page(
            context.records, context.principal, context.principal.club_id, game_id, line_id, words=context.words
        )
        return page_template("line.html", context.principal, links, **page)


HANDLERS = [LinePages, SharedLine]
