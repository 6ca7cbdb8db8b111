"""The one bounded cache (`service.cache.Recent`): the least recently used entry goes first, and an
entry older than its time to live is gone."""

from __future__ import annotations

import pytest

from service import cache
from service.cache import Recent


def test_the_entry_used_least_recently_is_the_one_pushed_out() -> None:
    recent: Recent[str, int] = Recent(2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert recent.get("a") == 1  # "a" is now the more recent of the two
    recent.put("c", 3)
    assert (recent.get("a"), recent.get("b"), recent.get("c")) == (1, None, 3)


def test_an_entry_past_its_time_to_live_is_gone_and_clear_forgets_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(cache.time, "monotonic", lambda: now[0])
    recent: Recent[str, int] = Recent(8, ttl=5.0)
    recent.put("key", 1)
    now[0] = 104.9
    assert recent.get("key") == 1
    now[0] = 105.0
    assert recent.get("key") is None
    recent.put("other", 2)
    recent.clear()
    assert recent.get("other") is None
