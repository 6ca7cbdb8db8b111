"""A small structural diff of two JSON values (what changed between two views of a game, or between
two standings tables).

Values are first turned into plain JSON data (`msgspec.to_builtins`, object keys as strings), so
structs, tuples and lists compare alike and a path reads the same as in the JSON the service sends.
Objects are compared key by key and arrays index by index (an array that grew or shrank shows its
tail as added or removed): a replay step changes a few fields, so the diff stays as small as the
change without the cost of a sequence alignment.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Path = tuple[str | int, ...]


class Change(msgspec.Struct, frozen=True, kw_only=True):
    """One difference: at `path` (object keys and array indexes from the root), a value was `added`
    (only `new` is meaningful), `removed` (only `old`) or `changed` (both)."""

    path: Path
    op: Literal["added", "removed", "changed"]
    old: Any = None
    new: Any = None


def diff(old: Any, new: Any) -> tuple[Change, ...]:
    """The changes that turn `old` into `new`, in document order (old keys first, then new ones)."""
    out: list[Change] = []
    _diff(msgspec.to_builtins(old, str_keys=True), msgspec.to_builtins(new, str_keys=True), (), out)
    return tuple(out)


def _diff(old: Any, new: Any, path: Path, out: list[Change]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key not in new:
                out.append(Change(path=(*path, key), op="removed", old=value))
            else:
                _diff(value, new[key], (*path, key), out)
        for key, value in new.items():
            if key not in old:
                out.append(Change(path=(*path, key), op="added", new=value))
        return
    if isinstance(old, list | tuple) and isinstance(new, list | tuple):
        for index, (before, after) in enumerate(zip(old, new, strict=False)):
            _diff(before, after, (*path, index), out)
        for index in range(len(new), len(old)):
            out.append(Change(path=(*path, index), op="removed", old=old[index]))
        for index in range(len(old), len(new)):
            out.append(Change(path=(*path, index), op="added", new=new[index]))
        return
    # `True == 1` in Python, but a JSON reader sees a boolean turn into a number: compare types too.
    if old != new or type(old) is not type(new):
        out.append(Change(path=path, op="changed", old=old, new=new))
