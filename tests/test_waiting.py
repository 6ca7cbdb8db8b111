"""The one wait for a server a test or bench started (testkit.waiting): scaled to the machine, bounded,
and quick to give up on a server that has already ended."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from testkit import waiting
from testkit.waiting import MAX_SCALE, SCALE_SETTING, NotReady, scaled, wait_scale, wait_until


def test_the_setting_scales_every_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SCALE_SETTING, "3")
    assert wait_scale() == 3 and scaled(60) == 180


def test_without_the_setting_the_load_per_cpu_scales_the_wait_between_one_and_the_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SCALE_SETTING, raising=False)
    monkeypatch.setattr(waiting.os, "cpu_count", lambda: 2)
    for load, factor in ((0.5, 1.0), (6.0, 3.0), (20.0, MAX_SCALE)):
        monkeypatch.setattr(waiting.os, "getloadavg", lambda load=load: (load, load, load))
        assert wait_scale() == factor


def test_a_server_process_that_has_ended_is_reported_at_once_with_its_log(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SCALE_SETTING, "1")
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    process.wait()
    started = time.monotonic()
    with pytest.raises(NotReady, match=r"ended before it was ready\. port taken"):
        wait_until(lambda: False, "the server", 60, runner=process, log=lambda: "port taken")
    assert time.monotonic() - started < 5


def test_a_wait_gives_up_at_its_scaled_bound_naming_what_it_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SCALE_SETTING, "0.5")
    thread = threading.Thread(target=time.sleep, args=(5,), daemon=True)
    thread.start()
    started = time.monotonic()
    with pytest.raises(NotReady, match=r"the projector: not ready in 0 s"):
        wait_until(lambda: False, "the projector", 0.4, runner=thread, interval=0.05)
    assert 0.2 <= time.monotonic() - started < 3


def test_a_wait_ends_as_soon_as_its_condition_holds() -> None:
    answers = iter([False, False, True])
    wait_until(lambda: next(answers), "the third answer", 10, interval=0.01)
    assert next(answers, "done") == "done"
