"""A submitted HTML form as the pages read it: every field as text, a field given several times (check
boxes) as a list; what was wrong with it, field by field; and the page that shows it again. Shared by the
pages that take forms (`admin`, `tournaments`, `webhooks`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from litestar import Request
from litestar.response import Template

from domain.i18n import Catalogue, Message
from service.limits import ID_PATTERN
from service.pages.controllers import club_links
from service.usecases.access import Principal

_ = Catalogue("service.pages")

Form = dict[str, Any]
Errors = dict[str, Message]
"""What is wrong with a form, by field."""


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


def id_of(form: Mapping[str, Any], name: str, errors: Errors) -> str:
    """A field naming a new thing by the id in its address (a league, a webhook), said wrong in `errors`."""
    value = text_of(form, name)
    if not value:
        errors[name] = _("Give it a short name, used in its address.")
    elif not re.match(ID_PATTERN, value) or len(value) > 63:
        errors[name] = _(
            "Use letters, digits and - _ . only, starting with a letter or digit (63 at most): autumn-2026."
        )
    return value


def form_page(name: str, principal: Principal, club_id: str, status: int = 200, **context: Any) -> Template:
    """A club's page that takes a form: empty, or given again with its `form` and `errors` in `context`."""
    return Template(
        template_name=name,
        context={"links": club_links(club_id), "principal": principal, "form": {}, "errors": {}, **context},
        status_code=status,
    )
