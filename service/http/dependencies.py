"""What the API's handlers are given (litestar dependencies): the caller, the records to read (a replica
when the client's read-your-writes token allows), the games served, the club a key may reach, the viewer a
request names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from litestar import Request
from litestar.datastructures import State
from litestar.exceptions import ValidationException
from litestar.params import HeaderParameter, QueryParameter

from domain.registry import Rulesets
from domain.ruleset import Viewer
from service.http.guards import (
    bearer,
    check,
    unauthorized,
)
from service.http.language import ReadersWords
from service.http.positions import BadToken, PositionTokens
from service.i18n import Translator
from service.logs import bind
from service.usecases.access import Principal
from service.usecases.games import Records
from service.usecases.spectators import released_records
from service.usecases.types import Recorder

POSITION_HEADER = "Tablelog-Position"
POSITION_DOC = (
    "Read-your-writes with read replicas: the token an append answered (its `Tablelog-Position` header, or "
    "`position` in its body), sent back as it is. The read is served by a replica that has caught up with "
    "that append, else by the primary. Writes ignore it. A token is opaque and opens only for the club it "
    "was given to; anything else (such as the number older versions answered) is refused with a 400."
)


def provide_principal(request: Request[Any, Any, Any], state: State) -> Principal:
    """The caller, as the guard found it (`service.http.guards`); for a handler without the guard, from its
    bearer token (401 without) with the guard's default rule: a read key reads, a record key writes."""
    principal = request.scope["state"].get("principal")
    if principal is None:
        principal = state.authenticator(bearer(request))
        if principal is None:
            raise unauthorized(state.authenticator)
        check(
            principal,
            "read" if request.method in ("GET", "HEAD") else "write",
            request.path_params.get("club_id"),
            request.query_params.get("view"),
        )
    if principal.club_id:
        bind(key_id=principal.key_id)
    return principal


PositionHeader = Annotated[
    str | None, HeaderParameter(name=POSITION_HEADER, required=False, max_length=100, description=POSITION_DOC)
]
PositionQuery = Annotated[str | None, QueryParameter(max_length=100, description=POSITION_DOC)]


@dataclass(frozen=True, slots=True)
class RequestContext:
    """What a handler that reads or records needs of its request, resolved by one dependency (`context`):
    the caller, the records it reads and writes, who records in the club's name, the reader's words."""

    principal: Principal
    records: Records
    club_id: str
    # The reader's words here too, so a handler that tells something takes no second dependency beside
    # this one (the two would share a level); the language is chosen only when it first tells something.
    words: Translator

    @property
    def recorder(self) -> Recorder:
        """The club and the key. That the key may reach the club was decided by the guard
        (`service.http.guards.check`) before any handler ran."""
        return Recorder(club_id=self.club_id, key_id=self.principal.key_id)


async def provide_context(
    request: Request[Any, Any, Any],
    state: State,
    tablelog_position: PositionHeader = None,
    position: PositionQuery = None,
) -> RequestContext:
    """The caller, then its records (`provide_principal`, `records_for`), in one dependency: litestar
    resolves the dependencies of one level concurrently in a task group, and every level costs CPU per
    request (bench/README.md), so every handler that needs the records takes this alone."""
    principal = provide_principal(request, state)
    # A spectator's records stop where each game's spectator delay has released it (every route and page).
    records = released_records(await records_for(request, state, tablelog_position, position), principal)
    club_id = request.path_params.get("club_id", "")
    return RequestContext(principal=principal, records=records, club_id=club_id, words=ReadersWords(request))


async def records_for(
    request: Request[Any, Any, Any], state: State, tablelog_position: str | None, position: str | None
) -> Records:
    """The game records, handed out once the caller is known; a read's records read through a replica
    when the node has some (`service.store.replicas`), one that has replayed the position asked for."""
    token, source = (tablelog_position, "header") if tablelog_position is not None else (position, "query")
    # Opened whether or not this node has replicas, so a client learns of a bad token on any deployment.
    wanted = (
        None if token is None else opened_token(state.tokens, request.path_params.get("club_id", ""), token, source)
    )
    replicas = state.get("replicas")
    if replicas is None or request.method != "GET":
        return state.records
    return await state.records.reading_through(replicas, wanted)


def provide_rulesets(state: State) -> Rulesets:
    """The games this app serves, as `create_app` was given them."""
    rulesets: Rulesets = state.rulesets
    return rulesets


def opened_token(tokens: PositionTokens, club_id: str, token: str, source: str) -> int:
    try:
        return tokens.open(club_id, token)
    except BadToken:
        field = POSITION_HEADER if source == "header" else "position"
        raise ValidationException(
            detail=f"{field} is not a read-your-writes token this service gave to club {club_id!r}: send back "
            f"the `{POSITION_HEADER}` of one of its appends as it is (tokens are opaque; the numbers older "
            "versions answered are no longer taken).",
            extra=[{"key": field, "message": "not a read-your-writes token of this club", "source": source}],
        ) from None


def viewer_of(view: str, seat: int | None) -> Viewer:
    if view == "seat":
        if seat is None:
            raise ValidationException(
                detail="A seat view needs the seat number: add ?seat=N.",
                extra=[{"key": "seat", "message": "required with view=seat", "source": "query"}],
            )
        return Viewer.of_seat(seat)
    return Viewer(kind=view)  # type: ignore[arg-type]
