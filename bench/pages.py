"""The club's pages: server time per replay step page and per picture (the game's SVG, or the readable
list a game without a picture gets) at random steps of a 100- and a 10,000-event game, and the weight of
a step page with its CSS and JavaScript; and a step of a "what if" line opened at random depths (issue 31):
an event tried through the API, then the line's page drawn. Targets: under 20 ms per page and per line step,
flat in the game's length; page weight under 150 KB. Then a Milles Nautiques game's replay step page and
recorder page in English, French and Spanish side by side (`Accept-Language`, the same steps in turn): a
translated page within 1.1x the English one's server time (issue 26).

The app runs in this process (litestar's test client, SQLite in a temporary folder), with its projector,
as `tablelog serve` runs: the projector keeps a snapshot every `snapshot_every` events, which a step page
seeks from; the pages are timed once it has caught up (a page never writes snapshots: without the
projector a step page folds from the start, 50 ms at 10,000 events). The time is the request's, measured
around it, so it includes the client's small share. The first request of a game (its narration, then remembered) is left
out and reported apart, as is a line's opening (the game folded to its step as its view knew it, then
remembered)."""

from __future__ import annotations

import random
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from bench.common import Sizes, median, percentile
from bench.games import bench_rulesets, tally_game, tally_ruleset
from domain.ruleset import Viewer
from projections.replay import snapshots_for, view_at
from service.pages.controllers import STATIC
from service.pages.reads import picture_of
from testkit.waiting import wait_until

OPERATOR = "bench-operator"
LANGUAGES = ("en", "fr", "es")
LANGUAGE_SAMPLES = 5
"""Requests per page and language, as a multiple of the length rows' steps: a ratio of medians a few
percent apart needs more than their 40 (40 read 1.01 and 1.11 in two runs a minute apart, machine quiet)."""


def _import(app: Any, client: Any, token: str, game_id: str, length: int) -> list[Any]:
    from service.store.base import Recorder

    game = tally_game(length, seed=length)
    records, recorder = app.state.records, Recorder(club_id="bench")
    head = [msgspec.json.encode(event) for event in game[:1000]]  # an import holds one batch at most
    records.import_stream("bench", head, recorder, game_id=game_id)
    for start in range(1000, length, 1000):
        batch = [msgspec.to_builtins(event) for event in game[start : start + 1000]]
        records.append("bench", game_id, batch, start, recorder, None)
    return game


def _sign_in(client: Any, token: str) -> None:
    form = client.get("/sign-in").text
    csrf = re.search(r'name="_csrf_token" value="([^"]+)"', form)
    assert csrf is not None
    signed = client.post(
        "/sign-in", data={"key": token, "next": "", "_csrf_token": csrf.group(1)}, follow_redirects=False
    )
    assert signed.status_code == 303, signed.text


def _caught_up(client: Any) -> None:
    """Until every projection has applied every event (its snapshots made), as a served club's would."""

    def no_lag() -> bool:
        ready = client.get("/ready", headers={"Authorization": f"Bearer {OPERATOR}"}).json()
        return all(p["lag"] == 0 for p in ready["checks"]["projections"].values())

    wait_until(no_lag, "the projector's catching up", 300, interval=0.2)


def _times(samples: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(median(samples), 3),
        "p99_ms": round(percentile(samples, 0.99), 3),
        "max_ms": round(max(samples), 3),
    }


def _line_steps(client: Any, token: str, game_id: str, steps: list[int]) -> tuple[list[float], list[float]]:
    """Open a line at each step (alternately from the public view and the full record), then time a step of
    it: a roll tried through the API and the line's page drawn; (opening times, line step times)."""
    auth = {"Authorization": f"Bearer {token}"}
    lines = f"/clubs/bench/games/{game_id}/lines"
    opening_ms, step_ms = [], []
    for number, step in enumerate(steps):
        started = time.perf_counter()
        body = {"step": step, "name": f"line {number}", "view": "public" if number % 2 else "full"}
        opened = client.post(lines, json=body, headers=auth)
        opening_ms.append((time.perf_counter() - started) * 1000)
        assert opened.status_code == 201, opened.text
        line_id = opened.json()["line_id"]
        for tried in range(3):  # each a step deeper in the line
            roll = {"type": "tally.rolled", "seat": (step - 1 + tried) % 2, "face": 1 + (number + tried) % 6}
            started = time.perf_counter()
            extended = client.post(f"{lines}/{line_id}/events", json={"events": [roll]}, headers=auth)
            page = client.get(f"/club/bench/games/{game_id}/lines/{line_id}")
            step_ms.append((time.perf_counter() - started) * 1000)
            assert extended.status_code == 201 and page.status_code == 200, (extended.text, page.status_code)
    return opening_ms, step_ms


def run(sizes: Sizes, lengths: tuple[int, ...] = (100, 10_000), samples: int = 40) -> dict[str, Any]:
    from litestar.testing import TestClient

    from service.app import create_app
    from service.settings import Settings

    ruleset = tally_ruleset()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=f"sqlite:///{Path(folder) / 'pages.db'}",
            operator_key=OPERATOR,
            log_format="json",
            log_level="warning",
            snapshot_every=sizes.snapshot_every,
        )
        app = create_app(settings, rulesets=bench_rulesets())
        with TestClient(app) as client:
            auth = {"Authorization": f"Bearer {OPERATOR}"}
            client.post("/clubs", json={"club_id": "bench", "name": "Bench"}, headers=auth)
            token = client.post("/clubs/bench/keys", json={"name": "b"}, headers=auth).json()["token"]
            for player in ("p0", "p1", "p2"):
                client.post(
                    "/clubs/bench/players",
                    json={"player_id": player, "name": player},
                    headers={"Authorization": f"Bearer {token}"},
                )
            _sign_in(client, token)
            for length in lengths:
                game_id = f"tally-{length}"
                game = _import(app, client, token, game_id, length)
                _caught_up(client)
                rng = random.Random(length)
                steps = [rng.randint(2, length) for _ in range(samples)]
                started = time.perf_counter()
                first = client.get(f"/club/bench/games/{game_id}/replay/1")
                first_ms = (time.perf_counter() - started) * 1000
                assert first.status_code == 200, first.text
                page_ms, weights = [], []
                for step in steps:
                    started = time.perf_counter()
                    page = client.get(f"/club/bench/games/{game_id}/replay/{step}?view=full")
                    page_ms.append((time.perf_counter() - started) * 1000)
                    assert page.status_code == 200
                    weights.append(len(page.content))
                snaps = snapshots_for(ruleset, game, every=sizes.snapshot_every)
                picture_ms = []
                for step in steps:
                    shown = view_at(ruleset, game, step, Viewer.full(), snaps)
                    started = time.perf_counter()
                    picture_of(ruleset, shown)
                    picture_ms.append((time.perf_counter() - started) * 1000)
                opening_ms, line_ms = _line_steps(client, token, game_id, steps[: samples // 2])
                rows.append(
                    {
                        "events": length,
                        "first_page_ms": round(first_ms, 3),
                        "step_page": _times(page_ms),
                        "picture": _times(picture_ms),
                        "html_bytes_max": max(weights),
                        "line_opening": _times(opening_ms),
                        "line_step": _times(line_ms),
                    }
                )
            languages = _languages(app, client, samples * LANGUAGE_SAMPLES)
    assets = sum(f.stat().st_size for f in STATIC.iterdir() if f.suffix in (".css", ".js"))
    heaviest = max(row["html_bytes_max"] for row in rows)
    return {
        "rows": rows,
        "static_bytes": assets,
        "page_weight_bytes": heaviest + assets,
        "samples": samples,
        "snapshot_every": sizes.snapshot_every,
        "picture": "readable list (no ruleset draws a picture yet)",
        "languages": languages,
    }


def _languages(app: Any, client: Any, samples: int) -> dict[str, Any]:
    """A whole Milles Nautiques round's replay step page (random steps) and the recording page of a round
    under way, each asked in English, French and Spanish in turn (`Accept-Language`), timed around the
    request; each page's first request per language is left out (the narration is then remembered)."""
    from service.store.base import Recorder
    from testkit.players.milles_nautiques import Table, make_setup

    table = Table(random.Random(26), make_setup(2), known=1.0, hidden=0.0)
    table.play()
    game = [msgspec.json.encode(event) for event in table.events]
    records, recorder = app.state.records, Recorder(club_id="bench")
    records.import_stream("bench", game, recorder, game_id="mn-languages")
    records.import_stream("bench", game[: len(game) // 2], recorder, game_id="mn-recording")
    rng = random.Random(len(game))
    steps = [rng.randint(2, len(game)) for _ in range(samples)]
    pages = {
        "replay_step": [f"/club/bench/games/mn-languages/replay/{step}?view=full" for step in steps],
        "recorder": ["/club/bench/games/mn-recording/record"] * samples,
    }
    timed: dict[str, dict[str, Any]] = {}
    for name, paths in pages.items():
        ms: dict[str, list[float]] = {language: [] for language in LANGUAGES}
        for language in LANGUAGES:  # the first request of each language, apart
            assert client.get(paths[0], headers={"Accept-Language": language}).status_code == 200
        for path in paths:
            for language in LANGUAGES:  # in turn, so a slower moment of the machine falls on all three
                started = time.perf_counter()
                page = client.get(path, headers={"Accept-Language": language})
                ms[language].append((time.perf_counter() - started) * 1000)
                assert page.status_code == 200 and page.headers["content-language"] == language, page.text[:500]
        english = median(ms["en"])
        timed[name] = {
            **{language: _times(ms[language]) for language in LANGUAGES},
            "ratio": {language: round(median(ms[language]) / english, 3) for language in LANGUAGES[1:]},
        }
    return {"events": len(game), "samples": samples, **timed}
