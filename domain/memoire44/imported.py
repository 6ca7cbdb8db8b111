"""Tables the rules summary names without printing them (the Overlord initiative table, the combat deck):
each a JSON resource a club imports, checked row by row; the project ships none it cannot cite."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from domain.i18n import Catalogue, Message
from domain.memoire44.catalogue import FACE_NAMES
from domain.ruleset import ResourceError, ResourceErrors

_ = Catalogue("domain.memoire44")

T = TypeVar("T")


MAX_JSON_VALUES = 20_000
"""Most values a JSON resource file may hold, counted as its commas and opening brackets before it is
decoded (the largest shipped scenario holds under 500): decoding takes some 200 bytes a value, so a
5 MB file of empty objects would take 100 MB before a single row could be refused."""


def read_json(data: bytes, what: Message) -> Any:
    """A resource file's JSON, or a ResourceError saying it is not JSON, holds too many values or is
    nested deeper than the decoder goes (`what`: "The scenario file", for the errors a club reads)."""
    values = data.count(b",") + data.count(b"[") + data.count(b"{")  # C-speed scans, no allocation
    if values > MAX_JSON_VALUES:
        raise ResourceError(
            _(
                "{what} holds about {values} JSON values (commas and brackets); a resource holds at most {limit}.",
                what=what,
                values=values,
                limit=MAX_JSON_VALUES,
            )
        )
    try:
        return msgspec.json.decode(data)
    except msgspec.DecodeError as error:
        raise ResourceError(_("{what} is not JSON: {error}.", what=what, error=str(error))) from None
    except RecursionError:
        raise ResourceError(_("{what} is nested too deep to be read.", what=what)) from None


def read_table(content: Any, kind: type[T], what: Message) -> tuple[T, ResourceErrors]:
    """The table from its JSON form (ResourceError if it does not have the table's shape) and the errors
    found so far: every table names its `source`, where its values come from."""
    try:
        table = msgspec.convert(content, kind)
    except msgspec.ValidationError as error:
        raise ResourceError(_("{what} cannot be read: {error}.", what=what, error=str(error))) from None
    errors = ResourceErrors()
    if not str(getattr(table, "source", "")).strip():
        errors.append({"field": "source", "message": _("name the source")})
    return table, errors


def table_errors(what: Message, errors: ResourceErrors) -> ResourceError:
    """The error of a table with bad rows: "The air pack has errors.", each row's message kept as a
    message so the service tells the whole of it in the reader's language."""
    return ResourceError(_("{what} has errors.", what=what), errors)


def not_a_face() -> Message:
    """A table's row for a face the die does not have (the initiative and reinforcement tables)."""
    return _("not a die face; faces: {faces}", faces=str(sorted(FACE_NAMES)))


class JsonTableKind:
    """A resource kind read from a JSON file; subclasses name it and check its content."""

    name: str
    what: Message  # "The initiative table", for the errors a club reads
    media_types: tuple[str, ...] = ("application/json",)

    def check(self, content: Any) -> msgspec.Struct:
        """The table from its JSON form; ResourceError naming each bad row."""
        raise NotImplementedError

    def parse(self, data: bytes) -> Any:
        return msgspec.to_builtins(self.check(read_json(data, self.what)))

    def builtin(self) -> Mapping[str, bytes]:
        return {}
