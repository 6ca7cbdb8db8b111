"""structlog set-up: JSON lines in production, readable lines on a terminal.

Request id, club and game are bound per request (`structlog.contextvars`), so every line a request
writes carries them. Secrets (API keys, the operator key) are never passed to a logger.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog


def configure_logging(log_format: str = "auto", level: str = "info") -> None:
    """Configure structlog and the standard library's loggers (uvicorn's among them)."""
    as_json = log_format == "json" or (log_format == "auto" and not sys.stderr.isatty())
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: Any = structlog.processors.JSONRenderer() if as_json else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(processor=renderer, foreign_pre_chain=shared))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    # One summary line per request comes from our middleware; uvicorn's access line would repeat it.
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)


def _stderr_logger(*args: Any) -> structlog.PrintLogger:
    # Look sys.stderr up for each logger, not once: it may be replaced after set-up (tests do).
    return structlog.PrintLogger(file=sys.stderr)


def get_logger(**bound: Any) -> Any:
    """A structlog logger with `bound` key-values."""
    return structlog.get_logger("tablelog").bind(**bound)
