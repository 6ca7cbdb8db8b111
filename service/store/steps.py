"""Logic written once, run synchronously or on the event loop.

A piece of logic that needs I/O on its way (a query, a store call) is a generator: it yields what it
needs done and is sent the answer (or has the error thrown in, where it may catch it), and returns its
result. `run` drives it with a blocking executor (the CLI, the projector, worker threads), `run_async`
with an awaited one (the HTTP hot path on psycopg's async pool), so the two never drift apart.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from typing import Any, TypeVar

Q = TypeVar("Q")
T = TypeVar("T")

Steps = Generator[Q, Any, T]
"""Yields requests of type Q, is sent their answers, returns T."""


def run(steps: Generator[Q, Any, T], execute: Callable[[Q], Any]) -> T:
    """Drive `steps` to their end, executing each request as it comes."""
    reply: Any = None
    error: Exception | None = None
    while True:
        try:
            request = steps.send(reply) if error is None else steps.throw(error)
        except StopIteration as stop:
            return stop.value
        try:
            reply, error = execute(request), None
        except Exception as raised:
            reply, error = None, raised


async def run_async(steps: Generator[Q, Any, T], execute: Callable[[Q], Awaitable[Any]]) -> T:
    """`run`, awaiting each request."""
    reply: Any = None
    error: Exception | None = None
    while True:
        try:
            request = steps.send(reply) if error is None else steps.throw(error)
        except StopIteration as stop:
            return stop.value
        try:
            reply, error = await execute(request), None
        except Exception as raised:
            reply, error = None, raised
