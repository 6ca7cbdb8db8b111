"""A submitted HTML form as the pages read it: every field as text, a field given several times (check
boxes) as a list. Shared by the pages that take forms (`admin`, `tournaments`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from litestar import Request

Form = dict[str, Any]


async def read_form(request: Request[Any, Any, Any]) -> Form:
    """The form's fields: a field given several times (check boxes) as a list, others as text."""
    data = await request.form()
    form: Form = {}
    for key in data:
        values = data.getall(key)
        form[key] = values if len(values) > 1 else values[0]
    return form


def many_of(form: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """A field that may be given several times (check boxes), as a tuple however often it was."""
    value = form.get(name, ())
    return (value,) if isinstance(value, str) else tuple(value)


def text_of(form: Mapping[str, Any], name: str) -> str:
    """A text field, trimmed (empty when it is missing or was given several times)."""
    value = form.get(name, "")
    return value.strip() if isinstance(value, str) else ""
