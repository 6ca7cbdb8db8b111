"""The one error the projections raise: a request they cannot answer (an unknown tie-break criterion,
a campaign game with the wrong players...). Like `domain.ruleset.RuleError` it carries a stable
machine `code`, a sentence a club member understands and the facts that led to it, so the service
maps it to a problem detail in one place."""

from __future__ import annotations

from typing import Any

from domain.i18n import Message


class ProjectionError(Exception):
    """A projection asked of data it cannot be computed from. `said` is the sentence as a `Message` (the
    service tells it in the reader's language), `message` the same in English; `code` and `details` are
    for machines and never change with the language."""

    def __init__(self, code: str, said: Message, **details: Any) -> None:
        self.message = said.english()
        super().__init__(self.message)
        self.code = code
        self.said = said
        self.details = details
