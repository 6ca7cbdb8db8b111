"""The hot lane: the two requests a scorekeeper's table makes at every step, an append and a read of the
latest state, answered without litestar's per-request handler machinery (the handler's signature model,
its dependencies resolved in a task group, the DTO, the response object): a fifth of an append's server
CPU on either database (issue 32, `bench.served --baseline`).

It is a middleware of those two routes alone, so the route stays litestar's: routed, documented in the
OpenAPI document, wrapped by the app's middleware (log line, language, rate limits) and its exception
handlers (problem details). The lane runs the route's own guards (as litestar does, without copying the
handler for each), the `context` dependency's own function, then the handler's own answer (the same
functions, `service.http.games`), and sends the same bytes. A request of any other shape (an earlier version, a
seat's view, a read-your-writes token, a header litestar would refuse) goes on to the handler untouched:
the lane takes only what it answers exactly as the handler does (tests/service/test_hot_lane.py)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from litestar import Request
from litestar._asgi.utils import wrap_in_exception_handler  # litestar's own wrap of each route's handler
from litestar.types import ASGIApp, Receive, Scope, Send

from service.http.dependencies import RequestContext, provide_context

Answered = tuple[int, bytes, list[tuple[bytes, bytes]]]
"""An answer: its status, its JSON body, and its headers beside the body's type and length."""
Answer = Callable[[Request[Any, Any, Any], RequestContext], Awaitable[Answered]]


def hot_lane(takes: Callable[[Scope], bool], answer: Answer) -> Callable[[ASGIApp], ASGIApp]:
    """A route's middleware that answers the requests `takes` accepts with `answer`, after the route's
    guards, and passes every other request on to the route's handler."""

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        litestar_app = scope["litestar_app"]
        request: Request[Any, Any, Any] = litestar_app.request_class(scope=scope, receive=receive)
        handler = scope["route_handler"]
        for guard in handler.resolve_guards():
            checked = guard(request, handler)
            if inspect.isawaitable(checked):
                await checked
        status, body, headers = await answer(request, await provide_context(request, litestar_app.state))
        length = str(len(body)).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [*headers, (b"content-type", b"application/json"), (b"content-length", length)],
            }
        )
        await send({"type": "http.response.body", "body": body, "more_body": False})

    # What the lane raises is answered as a handler's error is: by the app's exception handlers, inside the
    # app's middleware (its send wrappers add the request id, the language and the rate limit headers).
    answered = wrap_in_exception_handler(serve)

    def middleware(app: ASGIApp) -> ASGIApp:
        async def lane(scope: Scope, receive: Receive, send: Send) -> None:
            await (answered if takes(scope) else app)(scope, receive, send)

        return lane

    return middleware
