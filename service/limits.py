"""Bounds on what one request may carry and ask for, and the one check of every text a client sends.

Everything a client sends is bounded before it reaches a store or a fold: integers fit the stores'
32-bit columns, a JSON body is at most `max_body_bytes` and nested at most `MAX_DEPTH` deep, a batch
holds at most `max_events_per_batch` events of at most `max_event_bytes` each, ids and names are of
bounded length, in one Unicode normal form (NFC) and free of control characters. A request past a
bound is refused with a 4xx problem naming the field and the bound (see `service.http.errors`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, ValidationException
from litestar.serialization import decode_json
from litestar.types import Empty

from service.settings import Settings
from service.store.base import MAX_BATCH

MAX_INT = 2**31 - 1
"""The largest version, seat, count or page position a client may send: versions and seats are 32-bit
integers in both stores, and nothing real comes near it."""

Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
"""A non-negative integer a client sends (a version, a seat, an offset)."""

MAX_DEPTH = 64
"""Deepest nesting of a JSON body (the deepest real event or set-up is under 10)."""

# `$` also matches before a trailing newline (`alain\n` would pass), so an id ends at `(?![\s\S])`: not
# followed by any character at all. The same text means the same in Python and ECMAScript patterns.
_END = r"(?![\s\S])"
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*" + _END
"""A player, game, league, campaign or resource id: ASCII letters, digits, `_`, `.`, `-`."""
CLUB_ID_PATTERN = r"^[a-z0-9][a-z0-9-]{1,62}" + _END
"""A club id: lower-case letters, digits and `-`, 2 to 63 characters (it appears in every path)."""

Id = Annotated[str, msgspec.Meta(pattern=ID_PATTERN, min_length=1)]
"""An id in a request body; its length is bounded by the setting `max_id_length` (`check_text`)."""

# Keys whose string values are names or titles (bounded by `max_name_length`); a key ending in `_id`,
# or a list of ids (`members`, `players` of a campaign), holds ids (bounded by `max_id_length`).
_NAME_KEYS = frozenset({"name", "title"})
_ID_LIST_KEYS = frozenset({"members", "players"})
# Control characters (Unicode category Cc) other than tab and line breaks, refused in any text; ids and
# names refuse those too.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Bidirectional embeddings, overrides and isolates: a name holding one can show its text reversed or
# reordered on every page and export that prints it.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_JSON_TYPES = ("application/json",)


class TooLarge(Exception):
    """A request past one of the bounds: 413, naming what and the bound."""

    def __init__(
        self, what: str, limit: int, message: str, *, field: str | None = None, index: int | None = None
    ) -> None:
        super().__init__(message)
        self.what = what
        self.limit = limit
        self.message = message
        self.field = field
        self.index = index


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """The bounds in force, from the settings of the same names (`Limits.of`)."""

    max_body_bytes: int
    max_events_per_batch: int
    max_event_bytes: int
    max_id_length: int
    max_name_length: int
    max_import_errors: int
    max_resource_rows: int

    @classmethod
    def of(cls, settings: Settings | None = None) -> Limits:
        """The bounds of `settings` (the defaults when None)."""
        settings = settings or Settings()
        bounds = {f: getattr(settings, f) for f in cls.__struct_fields__}
        # The stores take at most MAX_BATCH events per append (PostgreSQL positions leave room for no more).
        bounds["max_events_per_batch"] = min(bounds["max_events_per_batch"], MAX_BATCH)
        return cls(**bounds)

    def batch(self, events: list[Any]) -> None:
        """A batch's count of events within bounds (each event's size is checked once it is encoded)."""
        if len(events) > self.max_events_per_batch:
            raise TooLarge(
                "events",
                self.max_events_per_batch,
                f"A batch holds at most {self.max_events_per_batch} events; this one holds "
                f"{len(events)}: send it in several appends.",
                field="events",
            )

    def event(self, index: int, encoded: bytes) -> None:
        if len(encoded) > self.max_event_bytes:
            raise TooLarge(
                "event",
                self.max_event_bytes,
                f"Event {index} takes {len(encoded)} bytes; an event takes at most {self.max_event_bytes}.",
                field=f"events[{index}]",
                index=index,
            )

    def resource(self, data: bytes) -> None:
        """A resource file of at most `max_resource_rows` lines (checked before it is parsed)."""
        rows = data.count(b"\n") + 1
        if rows > self.max_resource_rows:
            raise TooLarge(
                "rows",
                self.max_resource_rows,
                f"The file has {rows} lines; a resource has at most {self.max_resource_rows}.",
            )


def _bad(field: str, message: str) -> ValidationException:
    return ValidationException(
        detail=f"{field}: {message}", extra=[{"key": field, "message": message, "source": "body"}]
    )


class _Refused(Exception):
    """A text refused deep in a body; the levels it unwinds through prepend their key to `path`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str] = []


def check_text(limits: Limits, value: Any, *, depth_limit: int = MAX_DEPTH) -> Any:
    """A decoded JSON body with every string (keys too) in NFC, checked: no control characters (ids,
    names and titles not even line breaks), ids and names of bounded length, nesting at most
    `depth_limit` deep. Raises a validation error naming the field (`players[0].player_id`).

    Run on every JSON body, so the common case is kept cheap (about 2 us an event): containers are
    changed in place, an ASCII printable string needs no normalising nor a search, and the field's
    path is only spelt out when something is refused."""
    try:
        return _walk(limits, value, "", depth_limit)
    except _Refused as refused:
        path = "".join(refused.path).lstrip(".") or "body"
        raise _bad(path, refused.message) from None


def _walk(limits: Limits, node: Any, key: str, depth: int) -> Any:
    if isinstance(node, str):
        return _text(limits, node, key)
    if type(node) is int:
        if not -MAX_INT <= node <= MAX_INT:
            raise _Refused(f"at most {MAX_INT} either side of zero (this one is {node})")
        return node
    if depth <= 0 and isinstance(node, dict | list):
        raise _Refused("nested too deep")
    if isinstance(node, dict):
        for name, item in list(node.items()):
            if not (name.isascii() and name.isprintable()):
                checked_name = _text(limits, name, "")
                if checked_name != name:
                    node[checked_name] = node.pop(name)
                    name = checked_name
            if isinstance(item, str | dict | list) or type(item) is int:
                try:
                    node[name] = _walk(limits, item, name, depth - 1)
                except _Refused as refused:
                    refused.path.insert(0, f".{name}")
                    raise
    elif isinstance(node, list):
        item_key = "_id" if key in _ID_LIST_KEYS else ""
        for index, item in enumerate(node):
            if isinstance(item, str | dict | list) or type(item) is int:
                try:
                    node[index] = _walk(limits, item, item_key, depth - 1)
                except _Refused as refused:
                    refused.path.insert(0, f"[{index}]")
                    raise
    return node


def _text(limits: Limits, value: str, key: str) -> str:
    is_id = key.endswith("_id")
    strict = is_id or key in _NAME_KEYS
    if not (value.isascii() and value.isprintable()):
        value = unicodedata.normalize("NFC", value)
        if (_LINE_CONTROL if strict else _CONTROL).search(value):
            raise _Refused("control characters are not allowed")
        if strict and _BIDI.search(value):
            raise _Refused("bidirectional override characters (U+202A to U+202E, U+2066 to U+2069) are not allowed")
    bound = limits.max_id_length if is_id else limits.max_name_length if key in _NAME_KEYS else None
    if bound is not None and len(value) > bound:
        raise _Refused(f"at most {bound} characters (this one has {len(value)})")
    return value


def check_unique_keys(body: bytes, decoded: Any) -> None:
    """No object of a JSON body names a key twice (the decoder would keep the last silently). Cheap in
    the common case: each key is followed by one colon, so a body with no more colons than its decoded
    objects have keys has no duplicate; only a body with colons in its texts (a time, a URL) is decoded
    again, by the standard library, to look."""
    if body.count(b":") <= _keys(decoded):
        return

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        names = [name for name, _ in items]
        if len(set(names)) != len(names):
            twice = next(name for name in names if names.count(name) > 1)
            raise _bad(twice, "this key appears twice in one object")
        return dict(items)

    json.loads(body, object_pairs_hook=pairs)


def _keys(node: Any) -> int:
    """The keys of every object in a decoded body (plain loops: it runs on every append)."""
    count = 0
    if type(node) is dict:
        count = len(node)
        node = node.values()
    elif type(node) is not list:
        return 0
    for item in node:
        if type(item) is dict or type(item) is list:
            count += _keys(item)
    return count


def check_strict(body: bytes, kind: Any) -> None:
    """A JSON body as `kind` declares it, with no coercion: litestar converts leniently (`"1"` for an
    integer, a number of seconds for a date-time), which a client must not rely on. Read from the JSON
    itself, where an object's keys are strings: `{"1": 5}` is a map keyed by integers, as JSON writes one."""
    try:
        msgspec.json.decode(body, type=kind, strict=True)
    except msgspec.ValidationError as error:
        message, _, where = str(error).partition(" - at `$")
        raise _bad(where.rstrip("`").lstrip(".") or "body", message) from None
    except TypeError:  # a type only litestar's own decoders know: litestar checks it as it converts
        return


def check_id(limits: Limits, field: str, value: str, pattern: str = ID_PATTERN) -> str:
    """An id from a path: its pattern and length (a body's ids are checked by `check_text`)."""
    if len(value) > limits.max_id_length:
        raise _bad(field, f"at most {limits.max_id_length} characters (this one has {len(value)})")
    if not re.search(pattern, value):
        raise _bad(field, f"must match {pattern}")
    return value


def check_moment(field: str, value: datetime | None) -> datetime | None:
    """A date-time a store can keep (years 1 to 9999 in UTC), else a validation error naming it."""
    if value is None:
        return None
    try:
        value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise _bad(field, "out of range (years 1 to 9999 in UTC)") from None
    return value


class BoundedRequest(Request[Any, Any, Any]):
    """The request litestar hands the handlers: a JSON body that is not UTF-8 or nested too deep is a
    400 (not an error from the decoder's depths), and every text in it is checked by `check_text`."""

    async def json(self) -> Any:
        if self._json is Empty:
            if (known := self._connection_state.json) is not Empty:  # decoded and checked by us already
                self._json = known
            else:
                body = await self.body()
                checked = self.checked_json(body)
                if (data := self.route_handler.parsed_data_field) is not None:
                    check_strict(body or b"null", data.annotation)
                self._json = self._connection_state.json = checked
        return self._json

    def checked_json(self, body: bytes) -> Any:
        """`body` read as JSON: sent as JSON, UTF-8, nested within bounds, every text checked (`check_text`)
        and no key twice in one object (the checks every JSON body passes; a route that decodes its typed
        body itself, the append's `AppendBody`, calls this first)."""
        media_type = self.headers.get("content-type", "application/json").partition(";")[0].strip().lower()
        if not (media_type in _JSON_TYPES or media_type.endswith("+json")):
            raise ClientException(
                status_code=415,
                detail=f"The body is read as JSON; send it as application/json, not {media_type}.",
            )
        try:
            decoded = decode_json(body or b"null", type_decoders=self.route_handler.resolve_type_decoders())
        except RecursionError:
            raise ClientException(detail="The JSON body is nested too deep.") from None
        except UnicodeDecodeError:
            raise ClientException(detail="The body is not valid UTF-8.") from None
        checked = check_text(self.app.state.limits, decoded)
        check_unique_keys(body, checked)
        return checked
