"""The API's documentation: the OpenAPI document completed where litestar cannot express it per route,
and the interactive docs served from an installed package (no request leaves the server).

`complete(document, app)` is the one place the generated document is post-processed:
- the events of every ruleset the app serves as components (`service.http.event_schemas`): a tagged union per ruleset
  (`milles-nautiques.event`) and `AnyEvent`, which the events of an append and of `/legal` follow;
- the problem details (`Problem`, `application/problem+json`) each endpoint can answer, in place of
  litestar's generic 400 body, which this service never sends;
- no security requirement on the endpoints that take no key.
The served `/docs/openapi.json`, the Swagger page and the committed `openapi/openapi.json` all go
through it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

from domain.registry import Rulesets
from service.http.errors import PROBLEM_JSON, Problem
from service.http.event_schemas import OPENAPI_REFS, event_components, event_tags, union_name
from service.http.guards import authorize

DOCS_PATH = "/docs"
ASSETS_PATH = "/docs/assets"
PROBLEM_REF = OPENAPI_REFS.format(name="Problem")
ANY_EVENT = "AnyEvent"
_METHODS_WITH_BODY = {"post", "put", "patch"}

# What each status means here, and an example of the problem sent with it.
PROBLEMS: dict[int, tuple[str, dict[str, Any]]] = {
    400: (
        "The request does not decode: a malformed body, parameter or event (naming the event index and field).",
        {
            "type": "/problems/malformed-event",
            "title": "An event does not decode",
            "status": 400,
            "detail": "Event 0 (field seat): Expected `int`, got `str`",
            "event_index": 0,
            "field": "seat",
        },
    ),
    401: (
        "No valid API key: send `Authorization: Bearer <key>`.",
        {"type": "/problems/unauthorized", "title": "An API key is needed", "status": 401, "detail": "..."},
    ),
    403: (
        "The key may not do this: it belongs to another club, or only the operator key may.",
        {
            "type": "/problems/forbidden",
            "title": "This key may not do that",
            "status": 403,
            "detail": "This key belongs to another club.",
        },
    ),
    404: (
        "No such club, game, player, resource, ruleset, rule or step.",
        {"type": "/problems/not-found", "title": "No such game", "status": 404, "detail": "No game 'friday-9'."},
    ),
    409: (
        "A conflict: it exists already, or the game has moved on (`current_version`).",
        {
            "type": "/problems/version-conflict",
            "title": "The game has moved on",
            "status": 409,
            "detail": "The game is at version 5, not 4: read it again and retry.",
            "current_version": 5,
            "expected_version": 4,
        },
    ),
    422: (
        "Refused: an event the rules refuse (`rule_id`, `rule_url`, `code`, `event_index`, `details`), a set-up, "
        "file or league that cannot be used, or an idempotency key reused with another body.",
        {
            "type": "/problems/rule-violation",
            "title": "The rules refuse this event",
            "status": 422,
            "detail": "Event 0 (milles_nautiques.miles_played) is refused by rule MN-2: It is Bea's turn.",
            "instance": "/clubs/brest/games/friday-1/events",
            "event_index": 0,
            "event_type": "milles_nautiques.miles_played",
            "rule_id": "MN-2",
            "rule_url": "/rulesets/milles-nautiques/rules/MN-2",
            "code": "not_your_turn",
            "details": {"seat": 0, "to_play": 1},
        },
    ),
    413: (
        "Too large: the body, a batch, one event or an imported file's rows go past a limit (`limit`).",
        {
            "type": "/problems/too-large",
            "title": "Too many events",
            "status": 413,
            "detail": "A batch takes at most 500 events.",
            "limit": 500,
        },
    ),
    429: (
        "Too many requests from this key or address: wait `Retry-After` seconds.",
        {"type": "/problems/rate-limited", "title": "Too many requests", "status": 429, "detail": "Try again in 2 s."},
    ),
    503: (
        "The database cannot be reached (a lost connection: retry after `Retry-After` seconds; an append sent "
        "again with the same `Idempotency-Key` is never stored twice), or, on `/ready`, migrations are pending.",
        {"type": "/problems/not-ready", "title": "Not ready", "status": 503, "detail": "Migrations not applied."},
    ),
}


def _takes_a_key(app: Litestar) -> dict[tuple[str, str], bool]:
    """(path, method) -> whether the handler needs the caller's key (it takes `principal` or the API guard)."""
    found = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if not handler.include_in_schema:
                continue
            takes = "principal" in handler.parsed_fn_signature.parameters or authorize in handler.resolve_guards()
            for method in handler.http_methods:
                found[(route.path_format or "/", method.lower())] = takes
    return found


def _statuses(path: str, method: str, operation: dict[str, Any], takes_a_key: bool) -> list[int]:
    """The error statuses an endpoint can answer, from what it takes."""
    statuses = []
    if operation.get("parameters") or "requestBody" in operation:
        statuses.append(400)
    if takes_a_key:
        statuses += [401, 403]
    if "{" in path:
        statuses.append(404)
    if method in _METHODS_WITH_BODY:
        statuses += [409, 413, 422]
    elif takes_a_key:
        statuses.append(422)  # a league or campaign that cannot be derived as asked
    if path != "/health":  # every other request is counted by the rate limits (service/http/ratelimit.py)
        statuses.append(429)
    if takes_a_key or path == "/ready":  # every keyed request reads the database
        statuses.append(503)
    return sorted(statuses)


PROBLEM_FIELDS = {
    "type": "The kind of problem, as a path: `/problems/rule-violation`, `/problems/malformed-event`...",
    "title": "A short summary of the kind of problem.",
    "status": "The HTTP status.",
    "detail": "What went wrong this time, in a sentence a club member understands.",
    "instance": "The request path.",
    "event_index": "The index in the batch of the event refused or malformed (nothing of the batch is stored).",
    "event_type": "The `type` of that event.",
    "field": "The field that does not decode.",
    "rule_id": "The rule that refuses the event (`MN-6`, `G-2`).",
    "rule_url": "Where the API serves that rule's entry in the rules reference.",
    "code": "A stable machine name of the refusal (`not_your_turn`).",
    "details": "The facts that led to the refusal.",
    "current_version": "The game's version now (a version conflict).",
    "expected_version": "The version the request expected.",
    "errors": "One entry per problem found (a file's bad rows, a request's bad fields).",
    "errors_omitted": "How many more errors there were past the ones listed (`max_import_errors`).",
    "limit": "The bound the request went past.",
}


def _problem_schema() -> dict[str, Any]:
    _, defs = msgspec.json.schema_components([Problem], ref_template=OPENAPI_REFS)
    schema = defs["Problem"]
    schema["description"] = (
        "An RFC 9457 problem details body (`application/problem+json`); the members after `instance` appear "
        "when they apply."
    )
    for name, prop in schema["properties"].items():
        prop["description"] = PROBLEM_FIELDS[name]
    return dict(schema)


def complete(document: dict[str, Any], app: Litestar) -> dict[str, Any]:
    """The generated document with the events of the app's rulesets, the problems and the key requirements
    filled in."""
    doc = copy.deepcopy(document)
    rulesets: Rulesets = app.state.rulesets
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schemas |= event_components(rulesets)
    tags = sorted({tag for ruleset in rulesets for tag in event_tags(ruleset)})
    schemas[ANY_EVENT] = {
        "title": "Any event",
        "description": "An event of any ruleset; the game's ruleset decides which are accepted "
        + ", ".join(f"(`{union_name(r)}`)" for r in rulesets)
        + ".",
        "oneOf": [{"$ref": OPENAPI_REFS.format(name=tag)} for tag in tags],
        "discriminator": {"propertyName": "type", "mapping": {tag: OPENAPI_REFS.format(name=tag) for tag in tags}},
    }
    for struct in ("AppendIn", "LegalOut"):  # a batch to append; the events a seat may report
        if struct in schemas:
            schemas[struct]["properties"]["events"]["items"] = {"$ref": OPENAPI_REFS.format(name=ANY_EVENT)}
    schemas["Problem"] = _problem_schema()
    keys = _takes_a_key(app)
    for path, item in doc.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            takes_a_key = keys.get((path, method), True)
            if not takes_a_key:
                operation["security"] = []
            responses = operation["responses"]
            for status in _statuses(path, method, operation, takes_a_key):
                description, example = PROBLEMS[status]
                responses[str(status)] = {
                    "description": description,
                    "content": {PROBLEM_JSON: {"schema": {"$ref": PROBLEM_REF}, "example": example}},
                }
    return doc


class _Completing:
    """A render plugin mixin: renders the completed document (completed once per source document)."""

    _source: dict[str, Any] | None = None
    _completed: dict[str, Any] | None = None

    def completed(self, request: Request[Any, Any, Any], document: dict[str, Any]) -> dict[str, Any]:
        if self._completed is None or self._source is not document:
            self._completed = complete(document, request.app)
            self._source = document
        return self._completed


class DocumentJson(_Completing, JsonRenderPlugin):
    """`/docs/openapi.json`: the completed document."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, self.completed(request, openapi_schema))


class LocalSwagger(_Completing, SwaggerRenderPlugin):
    """`/docs/swagger`: Swagger UI from the installed `swagger_ui_bundle` package, served by this app."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, self.completed(request, openapi_schema))


def _swagger_assets() -> Path:
    import swagger_ui_bundle  # the Swagger UI files, as a Python package

    return Path(str(swagger_ui_bundle.swagger_ui_path))


def render_plugins() -> list[Any]:
    # Swagger first: the default, also served at /docs itself.
    return [
        LocalSwagger(
            js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            css_url=f"{ASSETS_PATH}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
            favicon=f"<link rel='icon' type='image/png' href='{ASSETS_PATH}/favicon-32x32.png'>",
        ),
        DocumentJson(),
    ]


def assets_router() -> ControllerRouterHandler:
    """The Swagger UI files, from the installed package."""
    return create_static_files_router(
        path=ASSETS_PATH, directories=[_swagger_assets()], include_in_schema=False, name="docs-assets"
    )
