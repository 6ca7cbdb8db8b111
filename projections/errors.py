"""The one error the projections raise: a request they cannot answer (an unknown tie-break criterion,
a campaign game with the wrong players...). Like `domain.ruleset.RuleError` it carries a stable
machine `code`, a sentence a club member understands and the facts that led to it, so the service
maps it to a problem detail in one place."""

from __future__ import annotations

from typing import Any


class ProjectionError(Exception):
    """A projection asked of data it cannot be computed from."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details
