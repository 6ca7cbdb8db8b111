"""The games this server records, as data: each ruleset's events (JSON Schema), resource kinds,
variants and options, and its rules reference (`domain/RULES.md`, `domain/<game>/RULES.md`).

No key needed: none of it belongs to a club. The service never names a game; everything comes from
the rulesets the app serves (the `rulesets` dependency) and the ruleset contract.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, get
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.enums import MediaType
from litestar.params import FromPath
from litestar.response import Template

from domain import rules_reference
from domain.i18n import Catalogue
from domain.registry import Rulesets
from domain.rules_reference import RuleEntry
from domain.ruleset import Ruleset
from service.http.event_schemas import event_tags, ruleset_event_schema
from service.http.language import request_language
from service.http.links import rule_url
from service.usecases.games import NotFound

_ = Catalogue("service.http")


class ResourceKindOut(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    media_types: tuple[str, ...]
    shipped: list[str]
    """The ids of the resources of this kind the project ships (usable without an import)."""
    description: str = ""


class RulesetOut(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    version: str
    title: str
    event_types: list[str]
    resource_kinds: list[ResourceKindOut]


class RulesetDetailOut(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset as a client needs it to record a game."""

    name: str
    version: str
    title: str
    event_types: list[str]
    events: dict[str, Any]
    """JSON Schema of the events (a tagged union on `type`, its parts under `$defs`)."""
    resource_kinds: list[ResourceKindOut]
    variants: list[str]
    """The values a game's `variant` may take."""
    options: dict[str, Any]
    """JSON Schema of a game's `options`."""
    rules_url: str


class RuleOut(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the rules reference: what the rule says, the reading chosen, and its source."""

    rule_id: str
    title: str
    text: str
    source: str
    general: bool
    """True for the rules every game shares (G-n)."""
    url: str


class RulesOut(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    title: str
    rules: list[RuleOut]


def _kinds(ruleset: Ruleset) -> list[ResourceKindOut]:
    return [
        ResourceKindOut(
            name=name,
            media_types=tuple(kind.media_types),
            shipped=sorted(kind.builtin()),
            description=" ".join((type(kind).__doc__ or "").split()),
        )
        for name, kind in sorted(ruleset.resource_kinds.items())
    ]


def _rule_out(ruleset: Ruleset, entry: RuleEntry) -> RuleOut:
    return RuleOut(
        rule_id=entry.rule_id,
        title=entry.title,
        text=entry.text,
        source=entry.source,
        general=rules_reference.general().get(entry.rule_id) is not None,
        url=rule_url(ruleset.name, entry.rule_id),
    )


# Built once per ruleset object (its schemas take a few milliseconds); the object is kept with its
# detail so that a replaced ruleset never meets a stale entry.
_details: dict[int, tuple[Ruleset, RulesetDetailOut]] = {}


def _detail(ruleset: Ruleset) -> RulesetDetailOut:
    cached = _details.get(id(ruleset))
    if cached is None or cached[0] is not ruleset:
        cached = _details[id(ruleset)] = (ruleset, _build_detail(ruleset))
    return cached[1]


def _options_schema(options_type: type | None) -> dict[str, Any]:
    """The JSON Schema of a game's options struct, inline (the structs it uses under `$defs`)."""
    if options_type is None:
        return {"type": "object"}
    (top,), defs = msgspec.json.schema_components([options_type], ref_template="#/$defs/{name}")
    own = defs.pop(top["$ref"].removeprefix("#/$defs/"))
    return own | ({"$defs": defs} if defs else {})


def _build_detail(ruleset: Ruleset) -> RulesetDetailOut:
    return RulesetDetailOut(
        name=ruleset.name,
        version=ruleset.version,
        title=ruleset.title,
        event_types=sorted(event_tags(ruleset)),
        events=ruleset_event_schema(ruleset),
        resource_kinds=_kinds(ruleset),
        variants=list(ruleset.variants),
        options=_options_schema(ruleset.options_type),
        rules_url=f"/rulesets/{ruleset.name}/rules",
    )


@get("/rulesets", tags=["rulesets"], summary="The games this server records", sync_to_thread=False)
def list_rulesets(rulesets: NamedDependency[Rulesets]) -> list[RulesetOut]:
    return [
        RulesetOut(
            name=ruleset.name,
            version=ruleset.version,
            title=ruleset.title,
            event_types=sorted(event_tags(ruleset)),
            resource_kinds=_kinds(ruleset),
        )
        for ruleset in rulesets
    ]


@get(
    "/rulesets/{name:str}",
    tags=["rulesets"],
    summary="A ruleset: its events (JSON Schema), resource kinds, variants and options",
    sync_to_thread=False,
)
def get_ruleset(name: FromPath[str], rulesets: NamedDependency[Rulesets]) -> RulesetDetailOut:
    return _detail(rulesets.get(name))


@get(
    "/rulesets/{name:str}/rules",
    tags=["rulesets"],
    summary="The rules reference of a ruleset: the general rules (G-n), then the game's own",
    sync_to_thread=False,
)
def list_rules(name: FromPath[str], rulesets: NamedDependency[Rulesets]) -> RulesOut:
    ruleset = rulesets.get(name)
    return RulesOut(
        ruleset=ruleset.name,
        title=ruleset.title,
        rules=[_rule_out(ruleset, entry) for entry in rules_reference.entries_for(ruleset)],
    )


def rule_page(request: Request[Any, Any, Any]) -> Template | None:
    """A rule as a page, for a browser (its Accept prefers HTML): the entry in the reader's language. A
    client that asks for JSON, or for anything (`*/*`), gets the JSON entry from the handler."""
    if request.accept.best_match([MediaType.JSON, MediaType.HTML], default=MediaType.JSON) != MediaType.HTML:
        return None
    rulesets: Rulesets = request.app.state.rulesets
    name, rule_id = request.path_params["name"], request.path_params["rule_id"]
    ruleset = rulesets.get(name) if name in rulesets else None
    language = request_language(request)
    entry = rules_reference.entry_for(ruleset, rule_id, language) if ruleset is not None else None
    if ruleset is None or entry is None:
        return Template(
            template_name="error.html",
            context={"title": _("Not found"), "detail": _("There is no rule {rule_id} here.", rule_id=rule_id)},
            status_code=404,
            headers={"Vary": "Accept"},
            media_type=MediaType.HTML,
        )
    return Template(
        template_name="rule.html",
        context={"ruleset": ruleset, "entry": entry, "general": rules_reference.general().get(rule_id) is not None},
        headers={"Vary": "Accept"},
        media_type=MediaType.HTML,
    )


@get(
    "/rulesets/{name:str}/rules/{rule_id:str}",
    tags=["rulesets"],
    summary="One rule: what it says, the reading chosen, its source (a refusal's `rule_url`)",
    description="A browser (Accept preferring `text/html`) gets the rule as a page in the reader's language.",
    sync_to_thread=False,
    before_request=rule_page,
    response_headers=[ResponseHeader(name="Vary", value="Accept", description="JSON or a page, by Accept")],
)
def get_rule(name: FromPath[str], rule_id: FromPath[str], rulesets: NamedDependency[Rulesets]) -> RuleOut:
    ruleset = rulesets.get(name)
    entry = rules_reference.entry_for(ruleset, rule_id)
    if entry is None:
        raise NotFound("rule", rule_id)
    return _rule_out(ruleset, entry)


HANDLERS = [list_rulesets, get_ruleset, list_rules, get_rule]
