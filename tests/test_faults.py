"""The record survives its server being killed: `python -m bench.faults --smoke` runs writers against a
real `tablelog serve` on the test PostgreSQL while the server's process tree is killed (SIGKILL) and
started again and its database connections are cut; every acknowledged event is stored once, as sent.
The same run sends issue 13's hostile inputs, each answered with a 4xx. (The memory figures of that run
are the bench's to report, not a test's.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_bench_smoke import bench_smoke

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def test_no_acknowledged_event_is_lost_or_duplicated_when_the_server_is_killed_and_bad_input_gets_4xx(
    postgres_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "faults.json"
    done = bench_smoke("bench.faults", postgres_url, out)
    report = json.loads(out.read_text()) if out.exists() else {}
    assert report, done.stdout[-3000:] + done.stderr[-3000:]
    faults, bad = report["faults"], report["bad_input"]
    # The faults happened and bit: the server was killed, connections were cut, requests went unanswered.
    assert faults["server_kills"] >= 1 and faults["connection_cuts"] >= 1
    assert faults["answers"].get("no answer", 0) > 0 and faults["retries"] > 0
    assert faults["acknowledged"] >= 150  # the smoke run goes on until that many, however slow the machine
    assert (faults["lost"], faults["duplicated"], faults["wrong"]) == (0, 0, 0)
    # A cut connection is a 503 to send again, never a 500.
    assert not [status for status in faults["answers"] if status.startswith("5") and status != "503"], faults
    assert bad["requests"] > 0 and bad["server_errors"] == 0
    assert all(400 <= int(status) < 500 for status in bad["answers"]), bad["answers"]
    assert done.returncode == 0
