"""structlog set-up: JSON lines in production, readable lines on a terminal.

Request id, club and game are bound per request (`request_context`, one dict in a context variable),
so every line a request writes carries them, and its one summary line also carries what it did.
Secrets (API keys, the operator key) are never passed to a logger.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import msgspec
import structlog


def configure_logging(log_format: str = "auto", level: str = "info", trace_ids: bool = False) -> None:
    """Configure structlog and the standard library's loggers (uvicorn's among them); with `trace_ids`
    (setting `tracing`), each line written inside a trace carries its id."""
    as_json = log_format == "json" or (log_format == "auto" and not sys.stderr.isatty())
    shared: list[Any] = [
        _merge_request_context,
        *([_add_trace_id] if trace_ids else []),
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: Any = structlog.processors.JSONRenderer(serializer=_json) if as_json else structlog.dev.ConsoleRenderer()
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


_encoder = msgspec.json.Encoder(enc_hook=repr)


def _json(event: dict[str, Any], **_: Any) -> str:
    # msgspec renders a line in about a third of the standard library's time (bench/: logging was a
    # tenth of an HTTP append's CPU); a value it cannot encode is written as its repr.
    return _encoder.encode(event).decode()


_request: ContextVar[dict[str, Any] | None] = ContextVar("tablelog_request", default=None)


@contextmanager
def request_context(**fields: Any) -> Iterator[dict[str, Any]]:
    """Bind `fields` to every line logged while a request runs (see `bind`)."""
    # One dict per request in one context variable: structlog's contextvars helpers keep a variable
    # per key and clear them by walking the whole context, which cost a fifth of an HTTP append's
    # logging (bench/).
    context = dict(fields)
    token = _request.set(context)
    try:
        yield context
    finally:
        _request.reset(token)


def bind(**fields: Any) -> None:
    """Add `fields` to the current request's lines from here on, its summary line among them: one line
    per request tells what it did (events appended, version reached). Handlers running in a worker
    thread see a copy of the request's context but the same dict, so what they bind reaches the line."""
    context = _request.get()
    if context is not None:
        context.update(fields)


def _merge_request_context(_logger: Any, _method: str, event: dict[str, Any]) -> dict[str, Any]:
    context = _request.get()
    if context:
        return {**context, **event}
    return event


def _add_trace_id(_logger: Any, _method: str, event: dict[str, Any]) -> dict[str, Any]:
    from opentelemetry import trace  # the `ops` extra, there when tracing is on

    context = trace.get_current_span().get_span_context()
    if context.is_valid:
        event["trace_id"] = format(context.trace_id, "032x")
    return event


def get_logger(**bound: Any) -> Any:
    """A structlog logger with `bound` key-values."""
    return structlog.get_logger("tablelog").bind(**bound)


_SHARE_TOKEN = re.compile(r"^/share/sh_([^_/]+)_[^/]*")


def loggable_path(path: str) -> str:
    """`path` as a log line may hold it: a share link's secret (the token in its URL) replaced by the
    link's id, so the logs never hold a working link."""
    return _SHARE_TOKEN.sub(r"/share/sh_\1_…", path)
