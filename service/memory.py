"""Giving freed memory back to the system after a large, short piece of work (a resource import).

CPython frees an import's objects when it ends, but glibc's allocator keeps freed pages in its heaps (one
per thread that allocated: imports are parsed in a pool of threads) for later use, so a server that
imported a few 5 MB files stayed tens of MiB larger, and the next import grew another thread's heap
(issue 25, `python -m bench.faults --imports-only`). `malloc_trim` hands those pages back. Where the C
library has no such call (musl, macOS), nothing is done.
"""

from __future__ import annotations

import ctypes
import traceback
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # the C library the process runs on
    except (OSError, AttributeError):
        return None
    return trim


_TRIM = _malloc_trim()


def release_freed_memory() -> None:
    """Return the allocator's free pages to the system (blocks for a few milliseconds: call it off the
    event loop)."""
    if _TRIM is not None:
        _TRIM(0)


@asynccontextmanager
async def one_import(gate: anyio.Semaphore) -> AsyncIterator[None]:
    """One resource import at a time in this process (`gate`, the app's `imports`), what it freed handed
    back after: what it holds inside (the file's bytes, its parse) is let go before the next one starts. A
    refusal that leaves it has its traceback cleared of the parser's frames (they hold the file's text and
    rows until the answer is sent; the answer needs only the error)."""
    async with gate:
        try:
            yield
        except Exception as error:
            traceback.clear_frames(error.__traceback__)
            raise
        finally:
            await anyio.to_thread.run_sync(release_freed_memory)
