"""Tables the rules summary names without printing them (the Overlord initiative table, the combat deck):
each a JSON resource a club imports, checked row by row; the project ships none it cannot cite."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from domain.ruleset import ResourceError

T = TypeVar("T")


def read_table(content: Any, kind: type[T], what: str) -> tuple[T, list[dict[str, Any]]]:
    """The table from its JSON form (ResourceError if it does not have the table's shape) and the errors
    found so far: every table names its `source`, where its values come from."""
    try:
        table = msgspec.convert(content, kind)
    except msgspec.ValidationError as error:
        raise ResourceError(f"{what.capitalize()} cannot be read: {error}.") from None
    errors = [] if str(getattr(table, "source", "")).strip() else [{"field": "source", "message": "name the source"}]
    return table, errors


class JsonTableKind:
    """A resource kind read from a JSON file; subclasses name it and check its content."""

    name: str
    what: str  # "the initiative table", for the errors a club reads
    media_types: tuple[str, ...] = ("application/json",)

    def check(self, content: Any) -> msgspec.Struct:
        """The table from its JSON form; ResourceError naming each bad row."""
        raise NotImplementedError

    def parse(self, data: bytes) -> Any:
        try:
            content = msgspec.json.decode(data)
        except msgspec.DecodeError as error:
            raise ResourceError(f"{self.what.capitalize()} is not JSON: {error}.") from None
        return msgspec.to_builtins(self.check(content))

    def builtin(self) -> Mapping[str, bytes]:
        return {}
