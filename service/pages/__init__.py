"""The club's pages, served by `tablelog serve` beside the API: the page routes (`controllers`), their
Jinja2 templates (`templates/`) and static files (`static/`). `service.app` registers `HANDLERS` and the
template configuration."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.static_files import create_static_files_router
from litestar.template.config import TemplateConfig

from service.pages.controllers import STATIC, pages_router

TEMPLATES = Path(__file__).parent / "templates"


def template_config() -> TemplateConfig[JinjaTemplateEngine]:
    return TemplateConfig(directory=TEMPLATES, engine=JinjaTemplateEngine)


def handlers() -> list[Any]:
    return [pages_router(), create_static_files_router(path="/static", directories=[STATIC], include_in_schema=False)]
