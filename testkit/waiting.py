"""Waits for a server (or a condition) that a test or a bench started: one bound, scaled to the machine.

A fixed 60 s was too short on a loaded shared machine (load 12-20 on 2 cores) and passed alone. The
bound is the nominal seconds times a factor: `TABLELOG_TEST_WAIT_SCALE` when set, else the one-minute load
average per CPU, never below 1 and at most `MAX_SCALE`, so a wait stays bounded. A server whose process
(or thread) has ended is reported at once, with its log when one is given, instead of waited for.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable

import httpx

SCALE_SETTING = "TABLELOG_TEST_WAIT_SCALE"
MAX_SCALE = 5.0  # 60 s become at most 300 s, under pytest's 600 s time-out


class NotReady(RuntimeError):
    """What was waited for did not come: its process ended, or the scaled bound passed."""


def wait_scale() -> float:
    """The factor every wait's nominal seconds are multiplied by (see the module's docstring)."""
    setting = os.environ.get(SCALE_SETTING, "").strip()
    if setting:
        return max(float(setting), 0.1)
    load_per_cpu = os.getloadavg()[0] / (os.cpu_count() or 1)
    return min(max(1.0, load_per_cpu), MAX_SCALE)


def scaled(seconds: float) -> float:
    """`seconds` as this machine's bound."""
    return seconds * wait_scale()


def answers(url: str, status: int = 200, headers: dict[str, str] | None = None) -> Callable[[], bool]:
    """A readiness check: a GET of `url` answers with `status` (a refused connection is a no)."""

    def check() -> bool:
        try:
            return httpx.get(url, timeout=2, headers=headers).status_code == status
        except httpx.TransportError:
            return False

    return check


def wait_until(
    ready: Callable[[], bool],
    what: str,
    seconds: float = 60.0,
    *,
    runner: subprocess.Popen[bytes] | threading.Thread | None = None,
    log: Callable[[], str] = lambda: "",
    interval: float = 0.2,
) -> None:
    """Until `ready()` is true; `NotReady` naming `what` once `runner` (the server's process or thread)
    has ended or `scaled(seconds)` has passed, with the end of `log()`."""
    bound = scaled(seconds)
    deadline = time.monotonic() + bound
    while not ready():
        ended = runner is not None and (
            not runner.is_alive() if isinstance(runner, threading.Thread) else runner.poll() is not None
        )
        if ended:
            raise NotReady(f"{what}: ended before it was ready. {log()}".strip())
        if time.monotonic() > deadline:
            raise NotReady(f"{what}: not ready in {bound:.0f} s ({SCALE_SETTING} scales this). {log()}".strip())
        time.sleep(interval)
