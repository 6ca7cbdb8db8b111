"""Writes the OpenAPI document generated from the app: `python -m service.openapi [PATH]`.

The committed `openapi/openapi.json` is kept in step with the code by `tests/service/test_openapi.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from domain import registry
from service.app import create_app
from service.http.docs import complete
from service.settings import Settings

DEFAULT_PATH = Path(__file__).resolve().parents[1] / "openapi" / "openapi.json"


def document() -> bytes:
    """The OpenAPI document as stable, indented JSON."""
    # The games the project ships, whatever the environment adds.
    app = create_app(Settings(), rulesets=registry.load(), configure_logs=False)
    schema = complete(app.openapi_schema.to_schema(), app)
    return msgspec.json.format(msgspec.json.encode(schema, order="sorted"), indent=2) + b"\n"


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PATH
    path.write_bytes(document())
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
