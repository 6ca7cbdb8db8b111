"""The append's wire structs, shared by the games API and the recording page (which answers an append as
the API does): here, in no controller, so a page imports no controller."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import msgspec
from litestar._openapi.schema_generation import SchemaCreator
from litestar.dto import AbstractDTO, DTOFieldDefinition
from litestar.openapi.spec import Reference, Schema
from litestar.typing import FieldDefinition

from service.http.positions import PositionTokens
from service.limits import BoundedRequest, Count, check_strict
from service.usecases.types import AppendResult


class AppendIn(msgspec.Struct, frozen=True, kw_only=True):
    """A batch of events, appended only if the game is at `expected_version`. Each event is an object
    whose `type` names it (see `GET /rulesets` for each ruleset's event types)."""

    expected_version: Count
    events: list[dict[str, Any]]


class AppendBody(msgspec.Struct, frozen=True, kw_only=True):
    """An `AppendIn` as the append decodes it: each event still its JSON text, decoded once by the game's
    own cached decoder (`GameRecords.decode_batch`) when the game's ruleset is known."""

    expected_version: int
    events: list[bytes]


class _Sent(msgspec.Struct, frozen=True, kw_only=True):
    expected_version: Count
    events: list[msgspec.Raw]


_SENT = msgspec.json.Decoder(_Sent)


def append_body(request: BoundedRequest, body: bytes) -> AppendBody:
    """An append's body, decoded once by a cached typed decoder, each event kept as its JSON text. Every
    check a JSON body passes is made first (`BoundedRequest.checked_json`: media type, UTF-8, depth,
    texts, keys named twice), and a body that does not fit `AppendIn` is refused as `check_strict` refuses
    it. Litestar's own route (a dict per event, then `msgspec.convert` into the game's union) cost 50 times
    the decoding (bench.inprocess)."""
    body = body or b"null"
    checked = request.checked_json(body)
    try:
        sent = _SENT.decode(body)
    except msgspec.DecodeError:
        sent = None
    if sent is None or any(type(event) is not dict for event in checked["events"]):
        check_strict(body, AppendIn)  # raises, naming the field and the rule
        raise AssertionError("a body refused by its typed decoder passed check_strict")
    if body.isascii() and b"\\u" not in body:
        events = [bytes(event) for event in sent.events]
    else:  # a text `check_text` may have put in NFC: the events as checked
        events = [msgspec.json.encode(event) for event in checked["events"]]
    return AppendBody(expected_version=sent.expected_version, events=events)


class AppendDTO(AbstractDTO[AppendBody]):
    """The append's body for litestar: decoded from the request's bytes by `append_body` (litestar hands a
    DTO the raw body), documented as `AppendIn`."""

    @classmethod
    def create_for_field_definition(
        cls, field_definition: FieldDefinition, handler_id: str, backend_cls: Any = None
    ) -> None:
        """Nothing to build: `decode_bytes` is the whole of it."""

    @classmethod
    def create_openapi_schema(
        cls, field_definition: FieldDefinition, handler_id: str, schema_creator: SchemaCreator
    ) -> Reference | Schema:
        return schema_creator.for_field_definition(
            FieldDefinition.from_annotation(AppendIn, kwarg_definition=field_definition.kwarg_definition)
        )

    @classmethod
    def generate_field_definitions(cls, model_type: type[Any]) -> Generator[DTOFieldDefinition, None, None]:
        yield from ()

    @classmethod
    def detect_nested_field(cls, field_definition: FieldDefinition) -> bool:
        return False

    def decode_bytes(self, value: bytes) -> AppendBody:
        assert isinstance(self.asgi_connection, BoundedRequest)
        return append_body(self.asgi_connection, value)


class AppendOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    first_version: int
    last_version: int
    position: str
    """Read-your-writes token (also the `Tablelog-Position` header): opaque, see `service.http.positions`."""
    replayed: bool

    @classmethod
    def of(cls, tokens: PositionTokens, club_id: str, game_id: str, result: AppendResult) -> AppendOut:
        """The answer to an append of `game_id` (the API's, and the recording page's). Its global positions
        stay sealed in the token: their gaps would tell how much other clubs write (issue 13 part 10)."""
        return cls(
            game_id=game_id,
            first_version=result.first_version,
            last_version=result.last_version,
            position=tokens.seal(club_id, max(result.positions, default=0)),
            replayed=result.replayed,
        )
