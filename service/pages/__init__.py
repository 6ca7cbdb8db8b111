"""The club's pages, served by `tablelog serve` beside the API: the page routes (`controllers`), their
Jinja2 templates (`templates/`) and static files (`static/`). `service.app` registers `handlers()` and the
template configuration. A page reads through the use cases (`service.usecases`), as the API does; it never
imports the store or a controller module of `service.http`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Router
from litestar.middleware.base import DefineMiddleware
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.static_files import create_static_files_router
from litestar.template.config import TemplateConfig
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.pages import i18n
from service.pages.admin import HANDLERS as ADMIN
from service.pages.controllers import (
    EXCEPTION_HANDLERS,
    STATIC,
    ClubPages,
    PagesCsrf,
    SharePages,
    SignInController,
    csrf_config,
)
from service.pages.line_pages import HANDLERS as LINES
from service.pages.note_pages import HANDLERS as NOTES
from service.pages.players import PlayerPages
from service.pages.ratings import HANDLERS as RATINGS
from service.pages.recording import HANDLERS as RECORDING
from service.pages.settings import ClubSettingsPage
from service.pages.tournament_links import HANDLERS as TOURNAMENT_LINKS
from service.pages.tournaments import HANDLERS as TOURNAMENTS
from service.pages.webhooks import HANDLERS as WEBHOOKS

TEMPLATES = Path(__file__).parent / "templates"


def template_config() -> TemplateConfig[JinjaTemplateEngine]:
    return TemplateConfig(directory=TEMPLATES, engine=JinjaTemplateEngine, engine_callback=i18n.install)


SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
        b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # a share link's token never leaves in a Referer
    (b"x-content-type-options", b"nosniff"),
)
"""On every page answer, errors too: scripts only from the server's own files (none inline), never framed."""


def security_headers(app: ASGIApp) -> ASGIApp:
    """The pages' middleware that adds `SECURITY_HEADERS` to each answer."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await app(scope, receive, send_with_headers)

    return middleware


def pages_router() -> Router:
    """Every page, behind the CSRF check for form posts (the API, which takes bearer keys and no
    cookies, is outside it)."""
    return Router(
        path="/",
        route_handlers=[
            SignInController,
            ClubPages,
            SharePages,
            *RECORDING,
            *RATINGS,
            *ADMIN,
            *LINES,
            *WEBHOOKS,
            *NOTES,
            *TOURNAMENTS,
            *TOURNAMENT_LINKS,
            ClubSettingsPage,
            PlayerPages,
            i18n.choose_language,
        ],
        middleware=[security_headers, DefineMiddleware(PagesCsrf, config=csrf_config())],
        exception_handlers=EXCEPTION_HANDLERS,
        include_in_schema=False,
    )


def handlers() -> list[Any]:
    return [pages_router(), create_static_files_router(path="/static", directories=[STATIC], include_in_schema=False)]
