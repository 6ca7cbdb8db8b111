"""JSON Schemas of every ruleset's events, built from the rulesets given (the service never names a game).

Each ruleset's events form a tagged union: `oneOf` its event structs, with a discriminator on `type`.
Event components are named by their never-renamed tag (`milles_nautiques.warship_played`), the structs
inside them by their ruleset (`milles-nautiques.RevealedConvoy`), the events every stream shares by
`tablelog.` (`tablelog.game_started`). Each event carries field descriptions (the sentences of its
docstring that name the field), the allowed names where the game has fixed ones (`field_values`: card
names, die faces) and an example built from its schema. The same schemas go into the OpenAPI document
(`#/components/schemas/...`) and into `GET /rulesets/{name}` (`#/$defs/...`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from domain.record import Correction, GameStarted, ResultReported
from domain.ruleset import Ruleset

OPENAPI_REFS = "#/components/schemas/{name}"
DEFS_REFS = "#/$defs/{name}"
SHARED_PREFIX = "tablelog"
# Fields every game's events share, described once.
COMMON_FIELDS = {
    "type": "The event's type: a stable, namespaced name that is never renamed.",
    "seat": "The seat that acts (0-based, in the set-up's order).",
}
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(])")


def union_name(ruleset: Ruleset) -> str:
    """The component name of a ruleset's event union."""
    return f"{ruleset.name}.event"


def _tag(schema: Mapping[str, Any]) -> str | None:
    values = schema.get("properties", {}).get("type", {}).get("enum")
    return values[0] if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str) else None


def _rewrite_refs(node: Any, names: Mapping[str, str], template: str) -> Any:
    if isinstance(node, dict):
        return {
            key: template.format(name=names[value]) if key == "$ref" else _rewrite_refs(value, names, template)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_rewrite_refs(value, names, template) for value in node]
    return node


def _with_values(schema: dict[str, Any], values: tuple[str, ...]) -> dict[str, Any]:
    """The schema of a field with its strings limited to `values` (through arrays and nullables)."""
    out = dict(schema)
    if out.get("type") == "string":
        out["enum"] = list(values)
    for key in ("anyOf", "oneOf", "prefixItems"):
        if key in out:
            out[key] = [_with_values(option, values) for option in out[key]]
    if isinstance(out.get("items"), dict):
        out["items"] = _with_values(out["items"], values)
    return out


def _described(
    schema: dict[str, Any], field_values: Mapping[str, tuple[str, ...]], field_descriptions: Mapping[str, str]
) -> dict[str, Any]:
    """A struct's schema with a readable description, each field's description and allowed values: the
    docstring's sentences that name the field, else the game's word on the field, else the common one."""
    out = dict(schema)
    doc = " ".join(str(out.get("description", "")).split())
    if doc:
        out["description"] = doc
    sentences = _SENTENCE.split(doc) if doc else []
    properties = {}
    for name, prop in out.get("properties", {}).items():
        prop = dict(prop)
        if name in field_values:
            prop = _with_values(prop, field_values[name])
        mentions = [s for s in sentences if f"`{name}`" in s]
        if mentions:
            prop["description"] = " ".join(mentions)
        elif name in field_descriptions or name in COMMON_FIELDS:
            prop["description"] = field_descriptions.get(name) or COMMON_FIELDS[name]
        properties[name] = prop
    if properties:
        out["properties"] = properties
    return out


def _components(
    types: Iterable[Any],
    prefix: str,
    template: str,
    field_values: Mapping[str, tuple[str, ...]] | None = None,
    field_descriptions: Mapping[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    _, raw = msgspec.json.schema_components(list(types), ref_template="{name}")
    names = {name: _tag(schema) or f"{prefix}.{name}" for name, schema in raw.items()}
    return {
        names[name]: _rewrite_refs(_described(schema, field_values or {}, field_descriptions or {}), names, template)
        for name, schema in raw.items()
    }


def example(schema: Mapping[str, Any], components: Mapping[str, Any], template: str) -> Any:
    """A value that fits `schema`: its required fields only, each at its first allowed value."""
    if "$ref" in schema:
        prefix, _, suffix = template.partition("{name}")
        return example(components[schema["$ref"].removeprefix(prefix).removesuffix(suffix)], components, template)
    if "examples" in schema:
        return schema["examples"][0]
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for key in ("oneOf", "anyOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"] or schema[key]
            return example(options[0], components, template)
    kind = schema.get("type")
    if kind == "object":
        required = schema.get("required", [])
        return {k: example(v, components, template) for k, v in schema.get("properties", {}).items() if k in required}
    if kind == "array":
        if "prefixItems" in schema:
            return [example(item, components, template) for item in schema["prefixItems"]]
        return [example(schema["items"], components, template)] * schema.get("minItems", 0)
    if kind == "integer":
        return int(schema.get("minimum", 0))
    if kind == "number":
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1)) if "pattern" not in schema else "a1"
    return None


def event_components(rulesets: Iterable[Ruleset], template: str = OPENAPI_REFS) -> dict[str, dict[str, Any]]:
    """Every event schema of `rulesets` and the union of each, by component name, refs in `template`."""
    components = _components([GameStarted, Correction, ResultReported], SHARED_PREFIX, template)
    unions: dict[str, dict[str, Any]] = {}
    for ruleset in rulesets:
        components |= _components(
            [ruleset.event_type],
            ruleset.name,
            template,
            ruleset.field_values,
            ruleset.field_descriptions,
        )
        unions[union_name(ruleset)] = tagged_union(ruleset, template)
    for schema in components.values():
        if _tag(schema):
            schema["examples"] = [example(schema, components, template)]
    return components | unions


def event_tags(ruleset: Ruleset) -> list[str]:
    """The tags of every event a ruleset's streams may hold, the shared ones first."""
    shared = (GameStarted, Correction, ResultReported)
    return [str(t.__struct_config__.tag) for t in shared] + [
        str(t.__struct_config__.tag) for t in getattr(ruleset.event_type, "__args__", (ruleset.event_type,))
    ]


def tagged_union(ruleset: Ruleset, template: str = OPENAPI_REFS) -> dict[str, Any]:
    """A ruleset's event union as `oneOf` with a discriminator on `type` (refs in `template`)."""
    refs = {tag: template.format(name=tag) for tag in event_tags(ruleset)}
    return {
        "title": f"{ruleset.title} event",
        "description": f"Any event a {ruleset.title} game's record may hold, told apart by its `type`.",
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }


def ruleset_event_schema(ruleset: Ruleset) -> dict[str, Any]:
    """A self-contained JSON Schema of a ruleset's events (its parts under `$defs`)."""
    defs = event_components([ruleset], DEFS_REFS)
    union = defs.pop(union_name(ruleset))
    return {"$defs": defs, **union}
