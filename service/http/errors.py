"""The one map from domain and storage errors to RFC 9457 problem details.

Every error body is `application/problem+json` with `type`, `title`, `status`, `detail` and the
extension members that let a client act on it (the event's index in the batch, the field, the rule id,
the current version). 5xx bodies never carry exception text.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import (
    HTTPException,
    NotAuthorizedException,
    NotFoundException,
    PermissionDeniedException,
    ValidationException,
)
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR

from domain.i18n import Catalogue
from domain.registry import UnknownRuleset
from domain.ruleset import ResourceError
from projections.errors import ProjectionError
from service.http.language import refusal, translator
from service.http.links import rule_url
from service.http.ratelimit import RateLimited
from service.limits import Limits, TooLarge
from service.logs import get_logger
from service.usecases.clubs import PlayerError
from service.usecases.games import BadEvent, BatchRuleError, NoSuchSeat, NotFound, SetupError
from service.usecases.types import (
    AlreadyExists,
    IdempotencyMismatch,
    MissingReference,
    StoreUnavailable,
    UnstorableValue,
    VersionConflict,
)

_ = Catalogue("service.http")
PROBLEM_JSON = "application/problem+json"


class Problem(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem details body (extension members are listed in the API description)."""

    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None
    event_index: int | None = None
    event_type: str | None = None
    field: str | None = None
    rule_id: str | None = None
    rule_url: str | None = None
    code: str | None = None
    details: dict[str, Any] | None = None
    current_version: int | None = None
    expected_version: int | None = None
    errors: list[dict[str, Any]] | None = None
    errors_omitted: int | None = None
    """How many more errors there were past the ones listed (`max_import_errors`)."""
    limit: int | None = None
    """The bound a request went past."""


def problem(
    status: int, name: str, title: str, detail: str, request: Request[Any, Any, Any] | None = None, **extensions: Any
) -> Response[Problem]:
    """A problem response; `name` becomes the type URI `/problems/<name>`."""
    body = Problem(
        type=f"/problems/{name}",
        title=title,
        status=status,
        detail=detail,
        instance=str(request.url.path) if request is not None else None,
        **extensions,
    )
    return Response(content=body, status_code=status, media_type=PROBLEM_JSON)


Handler = Callable[[Request[Any, Any, Any], Any], Response[Problem]]
# The one map from an exception type to its problem; litestar picks the entry of the most specific class
# in the exception's MRO, so the order below does not matter.
PROBLEMS: dict[type[Exception], Handler] = {}


def _maps(*types: type[Exception]) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        PROBLEMS.update(dict.fromkeys(types, handler))
        return handler

    return register


@_maps(BatchRuleError)
def _batch_rule_error(request: Request[Any, Any, Any], exc: BatchRuleError) -> Response[Problem]:
    rule = exc.error
    title, detail = refusal(request, exc.index, exc.event_type, rule.rule_id, rule.said)
    return problem(
        422,
        "rule-violation",
        title,
        detail,
        request,
        event_index=exc.index,
        event_type=exc.event_type,
        rule_id=rule.rule_id,
        rule_url=rule_url(exc.ruleset, rule.rule_id) if exc.ruleset else None,
        code=rule.code,
        details=_jsonable(rule.details),
    )


@_maps(BadEvent)
def _bad_event(request: Request[Any, Any, Any], exc: BadEvent) -> Response[Problem]:
    where = f" (field {exc.field})" if exc.field else ""
    return problem(
        400,
        "malformed-event",
        "An event does not decode",
        f"Event {exc.index}{where}: {exc.message}",
        request,
        event_index=exc.index,
        field=exc.field,
    )


@_maps(VersionConflict)
def _version_conflict(request: Request[Any, Any, Any], exc: VersionConflict) -> Response[Problem]:
    return problem(
        409,
        "version-conflict",
        "The game has moved on",
        f"The game is at version {exc.current}, not {exc.expected}: read it again and retry.",
        request,
        current_version=exc.current,
        expected_version=exc.expected,
    )


@_maps(IdempotencyMismatch)
def _idempotency_mismatch(request: Request[Any, Any, Any], exc: IdempotencyMismatch) -> Response[Problem]:
    return problem(422, "idempotency-key-reused", "Idempotency key reused with another body", str(exc), request)


@_maps(AlreadyExists)
def _already_exists(request: Request[Any, Any, Any], exc: AlreadyExists) -> Response[Problem]:
    return problem(409, "already-exists", f"That {exc.what} exists already", str(exc), request)


@_maps(NotFound)
def _not_found(request: Request[Any, Any, Any], exc: NotFound) -> Response[Problem]:
    return problem(404, "not-found", f"No such {exc.what}", str(exc), request)


@_maps(UnknownRuleset)
def _unknown_ruleset(request: Request[Any, Any, Any], exc: UnknownRuleset) -> Response[Problem]:
    return problem(404, "unknown-ruleset", "No such ruleset", str(exc), request)


@_maps(SetupError)
def _setup_error(request: Request[Any, Any, Any], exc: SetupError) -> Response[Problem]:
    return problem(
        422,
        "invalid-setup",
        "The game cannot be set up so",
        exc.message,
        request,
        details=_jsonable(exc.details) or None,
    )


@_maps(ProjectionError)
def _projection_error(request: Request[Any, Any, Any], exc: ProjectionError) -> Response[Problem]:
    # A step past the end of a replay is a resource that does not exist; anything else the
    # projections refuse (a league that cannot be ranked, a game with the wrong players) is a 422.
    missing = exc.code == "no_such_step"
    told = translator(request)
    return problem(
        404 if missing else 422,
        "not-found" if missing else "projection-refused",
        told(_("No such step") if missing else _("This cannot be done as asked")),
        told(exc.said),
        request,
        code=exc.code,
        details=_jsonable(exc.details) or None,
    )


@_maps(PlayerError)
def _player_error(request: Request[Any, Any, Any], exc: PlayerError) -> Response[Problem]:
    told = translator(request)
    title = told(_("The club's players cannot be changed so"))
    return problem(422, "invalid-player", title, told(exc.message), request, field=exc.field, code=exc.code)


@_maps(ResourceError)
def _resource_error(request: Request[Any, Any, Any], exc: ResourceError) -> Response[Problem]:
    # The first errors only: a file whose every row is bad must not make an answer larger than itself.
    shown = _limits(request).max_import_errors
    omitted = exc.omitted + max(0, len(exc.errors) - shown)  # the parser counted past the ones it kept
    told = translator(request)
    detail = told(exc.said)
    if omitted:
        detail = told(_("{detail} ({omitted} more errors not listed.)", detail=detail, omitted=omitted))
    # Each row's message in the reader's language; its row, hexagon and field names stay as they are.
    rows = [
        {**row, "message": told(said)} if "message" in row else row
        for row, said in zip(exc.errors[:shown], exc.rows_said, strict=False)
    ]
    return problem(
        422,
        "invalid-resource",
        told(_("The file does not validate")),
        detail,
        request,
        errors=_jsonable(rows),
        errors_omitted=omitted or None,
    )


@_maps(TooLarge)
def _too_large(request: Request[Any, Any, Any], exc: TooLarge) -> Response[Problem]:
    return problem(
        413,
        "too-large",
        f"Too many {exc.what}" if exc.what in ("events", "rows") else f"The {exc.what} is too large",
        exc.message,
        request,
        field=exc.field,
        event_index=exc.index,
        limit=exc.limit,
    )


@_maps(RequestEntityTooLarge)
def _request_entity_too_large(request: Request[Any, Any, Any], exc: RequestEntityTooLarge) -> Response[Problem]:
    limit = _limits(request).max_body_bytes
    return problem(
        413,
        "too-large",
        "The body is too large",
        f"A request body takes at most {limit} bytes.",
        request,
        limit=limit,
    )


@_maps(NoSuchSeat)
def _no_such_seat(request: Request[Any, Any, Any], exc: NoSuchSeat) -> Response[Problem]:
    return problem(422, "no-such-seat", "No such seat", str(exc), request, field="seat", details={"seats": exc.seats})


@_maps(UnstorableValue)
def _unstorable_value(request: Request[Any, Any, Any], exc: UnstorableValue) -> Response[Problem]:
    return problem(422, "unstorable-value", "A value cannot be stored", str(exc), request)


@_maps(StoreUnavailable)
def _store_unavailable(request: Request[Any, Any, Any], exc: StoreUnavailable) -> Response[Problem]:
    unavailable = problem(503, "unavailable", "The database cannot be reached", str(exc), request)
    unavailable.headers["Retry-After"] = "1"
    return unavailable


@_maps(MissingReference)
def _missing_reference(request: Request[Any, Any, Any], exc: MissingReference) -> Response[Problem]:
    return problem(404, "not-found", f"No such {exc.what}", str(exc), request)


@_maps(NotFoundException)
def _not_found_exception(request: Request[Any, Any, Any], exc: NotFoundException) -> Response[Problem]:
    return problem(404, "not-found", "Not found", exc.detail, request)


@_maps(RateLimited)
def _rate_limited(request: Request[Any, Any, Any], exc: RateLimited) -> Response[Problem]:
    limited = problem(429, "rate-limited", "Too many requests", exc.message, request)
    limited.headers["Retry-After"] = str(exc.retry_after)
    return limited


@_maps(NotAuthorizedException)
def _not_authorized_exception(request: Request[Any, Any, Any], exc: NotAuthorizedException) -> Response[Problem]:
    # The app says why when it can (a server without an operator key); litestar's default says nothing.
    said = exc.detail if exc.detail != HTTPStatus.UNAUTHORIZED.phrase else None
    detail = said or "Send 'Authorization: Bearer <key>' with a valid key."
    return problem(401, "unauthorized", "An API key is needed", detail, request)


@_maps(PermissionDeniedException)
def _permission_denied_exception(request: Request[Any, Any, Any], exc: PermissionDeniedException) -> Response[Problem]:
    return problem(403, "forbidden", "This key may not do that", exc.detail or "Forbidden.", request)


@_maps(ValidationException)
def _validation_exception(request: Request[Any, Any, Any], exc: ValidationException) -> Response[Problem]:
    errors = exc.extra if isinstance(exc.extra, list) else None
    field = None
    if errors and isinstance(errors[0], dict):
        field = str(errors[0].get("key") or "") or None
    return problem(
        400,
        "malformed-request",
        "The request does not decode",
        exc.detail,
        request,
        field=field,
        errors=_jsonable(errors) if errors else None,
    )


@_maps(HTTPException)
def _http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Problem]:
    if exc.status_code == 400:
        return problem(400, "malformed-request", "The request does not decode", exc.detail, request)
    if exc.status_code == 415:  # service.limits.BoundedRequest: a JSON body sent as another media type
        return problem(
            415, "unsupported-media-type", "The body is not sent as JSON", exc.detail, request, field="content-type"
        )
    return problem(exc.status_code, "http-error", exc.detail, exc.detail, request)


@_maps(Exception)
def _internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    # Never the exception's text: it may carry SQL, paths or values from another club.
    get_logger().exception("request.failed", error_type=type(exc).__name__)
    return problem(
        HTTP_500_INTERNAL_SERVER_ERROR,
        "internal-error",
        "Internal error",
        "Something went wrong on our side; it has been logged.",
        request,
    )


def _limits(request: Request[Any, Any, Any]) -> Limits:
    limits = getattr(request.app.state, "limits", None)
    return limits if isinstance(limits, Limits) else Limits.of()


def _jsonable(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value, enc_hook=str))


def exception_handlers() -> dict[int | type[Exception], Any]:
    """Litestar exception handlers: the problem table above."""
    return {kind: handler for kind, handler in PROBLEMS.items()}
