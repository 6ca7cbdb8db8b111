"""MkDocs hook: the reference pages written from the code at build time, so they cannot drift from it.

- `reference/api.md` from the committed OpenAPI document (`openapi/openapi.json`),
- `reference/settings.md` from `service/settings.py` (each field, its variable, default and docstring),
- `reference/cli.md`'s command list from the argparse parser in `service/cli.py`,
- `reference/rules/*.md` from `domain/RULES.md` and each game's `RULES.md`.

Nothing here reads the network: the site is built on a club laptop as well as in CI.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
METHODS = ("get", "post", "put", "patch", "delete")


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # The offline plugin adds a shim fetched from a CDN, for search opened from the file system; the site is
    # served by `tablelog serve` over HTTP, where search works without it, and a club laptop has no network.
    config.extra["polyfills"] = [url for url in config.extra.get("polyfills", []) if "://" not in url]
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    pages = {
        "reference/api.md": api_page(json.loads(_read("openapi/openapi.json"))),
        "reference/settings.md": settings_page(_written("settings"), _read("service/settings.py")),
        "reference/cli.md": cli_page(_written("cli")),
        **rules_pages(),
    }
    for uri, content in pages.items():
        existing = files.get_file_from_path(uri)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, uri, content=content))
    return files


def _read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def _written(name: str) -> str:
    """The hand-written part of a reference page the hook completes."""
    return _read(f"docs/reference/{name}.md").rstrip()


def api_page(document: dict[str, Any]) -> str:
    """Every operation of the API, grouped by its first path segments, with parameters and answers."""
    lines = [
        "# HTTP API",
        "",
        f"Generated from `openapi/openapi.json` (version {document['info']['version']}), the document the app",
        "serves at `/docs/openapi.json` (Swagger UI at `/docs`). The schemas of the bodies are in that document;",
        "each game's events are also described by `GET /rulesets/{name}`.",
        "",
    ]
    groups: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, item in document["paths"].items():
        parts = [p for p in path.split("/") if p]
        group = "/" + "/".join(parts[:3] if parts[:1] == ["clubs"] and len(parts) > 2 else parts[:1])
        for method in METHODS:
            if method in item:
                groups.setdefault(group, []).append((method.upper(), path, item[method]))
    # An error answer most operations share is told once, at the top, and named by its status below.
    counts: dict[tuple[str, str], int] = {}
    for operations in groups.values():
        for _, _, operation in operations:
            for status, response in operation.get("responses", {}).items():
                key = (status, response.get("description", ""))
                counts[key] = counts.get(key, 0) + 1
    shared = {status: text for (status, text), n in sorted(counts.items(), key=lambda kv: kv[1]) if n > 3}
    lines += ["## Errors most operations share", "", "| status | answer |", "|---|---|"]
    lines += [f"| {status} | {_cell(text)} |" for status, text in sorted(shared.items()) if status >= "400"]
    lines.append("")
    for group, operations in groups.items():
        lines += [f"## `{group}`", ""]
        for method, path, operation in operations:
            lines += [f"### `{method} {path}`", ""]
            for text in dict.fromkeys((operation.get("summary") or "", operation.get("description") or "")):
                if text:  # the summary, then the description where it says more
                    lines += [_escape(text), ""]
            parameters = operation.get("parameters", [])
            if parameters:
                lines += ["| parameter | in | required | meaning |", "|---|---|---|---|"]
                for parameter in parameters:
                    meaning = _cell(parameter.get("description", ""))
                    required = "yes" if parameter.get("required") else "no"
                    lines.append(f"| `{parameter['name']}` | {parameter['in']} | {required} | {meaning} |")
                lines.append("")
            body = operation.get("requestBody", {}).get("content", {})
            for media, content in body.items():
                lines += [f"Body (`{media}`): {_schema_name(content.get('schema', {}))}", ""]
            own, common = [], []
            for status, response in operation.get("responses", {}).items():
                text = response.get("description", "")
                if status >= "400" and shared.get(status) == text:
                    common.append(status)
                else:
                    own.append(f"| {status} | {_cell(text)} |")
            lines += ["| status | answer |", "|---|---|", *own, ""]
            if common:
                lines += [f"Also: {', '.join(common)} (above).", ""]
    return "\n".join(lines)


def _schema_name(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return f"`{schema['$ref'].rsplit('/', 1)[-1]}`"
    if "oneOf" in schema:
        return " or ".join(_schema_name(s) for s in schema["oneOf"])
    return f"`{schema.get('type', 'any')}`"


def _cell(text: str) -> str:
    return _escape(" ".join(text.split())).replace("|", "\\|")


def _escape(text: str) -> str:
    # A `<key>` in the document's prose is a placeholder, not an HTML tag.
    return text.replace("<", "&lt;").replace(">", "&gt;")


def settings_page(written: str, source: str) -> str:
    """The page written by hand, then each field of `Settings` with its variable, default and docstring."""
    (settings,) = (
        node for node in ast.parse(source).body if isinstance(node, ast.ClassDef) and node.name == "Settings"
    )
    lines = [
        written,
        "",
        "## Every setting",
        "",
        "Generated from `service/settings.py`. Settings come from environment variables `TABLELOG_<NAME>`;",
        "the flags of `tablelog serve` (`--database-url`, `--host`, `--port`, `--workers`, `--log-format`)",
        "override them.",
        "",
        "| variable | default | meaning |",
        "|---|---|---|",
    ]
    body = settings.body
    for index, node in enumerate(body):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        following = body[index + 1] if index + 1 < len(body) else None
        doc = ""
        if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
            doc = str(following.value.value)
        default = "unset" if node.value is None else ast.unparse(node.value)
        default = {"None": "unset", "''": "empty", "DEFAULT_DATABASE_URL": "`sqlite:///./tablelog.db`"}.get(
            default, f"`{default}`"
        )
        lines.append(f"| `TABLELOG_{node.target.id.upper()}` | {default} | {_cell(doc)} |")
    return "\n".join(lines) + "\n"


def cli_page(written: str) -> str:
    """The page written by hand, then every command's help as the parser prints it."""
    from domain import registry
    from service.cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal; the page must not depend on it
    lines = [written, "", "## Every command's options", "", "Generated from `service/cli.py`'s parser.", ""]
    for name, parser in _commands(build_parser(registry.load([]))):
        lines += [f"### `{name}`", "", "```text", parser.format_help().rstrip(), "```", ""]
    return "\n".join(lines)


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    found: list[tuple[str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                nested = _commands(sub)
                found += nested or [(sub.prog, sub)]
    return found


def rules_pages() -> dict[str, str]:
    """The rules reference: the general rules, then each game's, as written in the packages."""
    pages = {"reference/rules/general.md": _read("domain/RULES.md")}
    for path in sorted((ROOT / "domain").glob("*/RULES.md")):
        pages[f"reference/rules/{path.parent.name}.md"] = path.read_text(encoding="utf-8")
    return pages
