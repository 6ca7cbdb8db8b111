"""The documentation site (`docs/`, built by MkDocs into `build/guide`), served under /guide so a club
laptop reads it without a network. `scripts/serve` builds it before serving; a server started without it
answers /guide with a 404 that says how to build it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import MediaType, Response, get
from litestar.static_files import create_static_files_router

# The checkout's build output: the site is built from the clone's docs/ (the package does not carry it).
SITE = Path(__file__).resolve().parents[1] / "build" / "guide"
NOT_BUILT = (
    "The guide has not been built on this server: run `.venv/bin/mkdocs build --strict` in the checkout "
    "(scripts/serve does it before serving), or read the Markdown in docs/."
)


@get(["/guide", "/guide/{path:path}"], include_in_schema=False, media_type=MediaType.TEXT, sync_to_thread=False)
def guide_not_built() -> Response[str]:
    return Response(NOT_BUILT, status_code=404, media_type=MediaType.TEXT)


def handlers(site: Path | None = None) -> list[Any]:
    """The built site's files under /guide (an index.html for each folder), or the 404 saying how to build it."""
    site = SITE if site is None else site
    if not (site / "index.html").is_file():
        return [guide_not_built]
    return [create_static_files_router(path="/guide", directories=[site], html_mode=True, include_in_schema=False)]
