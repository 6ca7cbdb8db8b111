"""The benchmark harness still works: `python -m bench --smoke` runs every section on the test
PostgreSQL and writes JSON with positive figures. Never a timing: benchmarks are not tests.

One run (about 15 s) is checked by one test, so pytest-xdist never runs it twice on two workers; each
section has its own check below."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def bench_smoke(module: str, postgres_url: str, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    """`python -m MODULE --smoke --out OUT` on the test PostgreSQL, as a process of its own (no setting of
    this process's leaks into it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env |= {"PYTHONPATH": str(ROOT), "TABLELOG_BENCH_DATABASE_URL": postgres_url}
    return subprocess.run(
        [sys.executable, "-m", module, "--smoke", "--out", str(out), *more],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def section_smoke(postgres_url: str, tmp_path: Path, section: str, *more: str) -> tuple[dict[str, Any], str]:
    """`python -m bench --smoke --sections SECTION [MORE...]`: its JSON and what it printed."""
    out = tmp_path / f"{section}.json"
    done = bench_smoke("bench", postgres_url, out, "--sections", section, *more)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(out.read_text()), done.stdout


def smoke_run(postgres_url: str, tmp_path: Path) -> tuple[dict[str, Any], str]:
    out = tmp_path / "smoke.json"
    done = bench_smoke("bench", postgres_url, out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(out.read_text()), done.stdout


def check_every_section_is_written_and_printed(run: tuple[dict[str, Any], str]) -> None:
    results, printed = run
    assert set(results) == {"meta", "fold", "seek", "append", "http", "rebuild", "pages", "report", "memory", "targets"}
    assert results["meta"]["mode"] == "smoke"
    for title in (
        "## Fold",
        "## Seek",
        "## Append",
        "## HTTP",
        "## Rebuild",
        "## Pages",
        "## Report to keep",
        "## Memory",
        "## Targets",
    ):
        assert title in printed


def check_every_ruleset_folds_at_a_positive_rate(run: tuple[dict[str, Any], str]) -> None:
    rows = run[0]["fold"]["rows"]
    assert {row["ruleset"] for row in rows} == set(run[0]["meta"]["rulesets"])
    assert rows, "no ruleset was measured"
    for row in rows:
        for path in ("evolve", "validate_evolve"):
            assert row[path]["events"] > 0 and row[path]["events_per_s"] > 0 and row[path]["events_per_cpu_s"] > 0


def check_seeks_are_timed_at_each_length_with_and_without_snapshots(run: tuple[dict[str, Any], str]) -> None:
    rows = run[0]["seek"]["rows"]
    tally = [row for row in rows if row["ruleset"] == "tally"]
    assert [row["events"] for row in tally] == [100, 1000]
    for row in rows:
        assert 0 < row["without_snapshots"]["median_ms"] <= row["without_snapshots"]["max_ms"]
    for row in tally:
        assert row["snapshots"] == row["events"] // 100
        assert 0 < row["with_snapshots"]["median_ms"] <= row["with_snapshots"]["max_ms"]


def check_every_append_backend_appends_at_a_positive_rate(run: tuple[dict[str, Any], str]) -> None:
    section = run[0]["append"]
    backends = {"tablelog-postgres", "raw-psycopg", "tablelog-sqlite"}
    if section["eventsourcing"] == "measured":
        backends.add("eventsourcing")
    else:  # the bench extra is not installed here: the output says so
        assert section["eventsourcing"].startswith("skipped: not installed")
    rows = section["rows"]
    assert {row["backend"] for row in rows} == backends
    assert {(row["batch"], row["writers"]) for row in rows} == {(1, 1), (50, 1), (1, 4), (50, 4)}
    assert all(row["events_per_s"] > 0 for row in rows)
    assert len(section["ratios"]) == 4
    assert all(ratio["vs_raw_psycopg"] > 0 for ratio in section["ratios"])


def check_the_real_server_answers_appends_and_reads_at_each_level(run: tuple[dict[str, Any], str]) -> None:
    section = run[0]["http"]
    assert section["workers"] >= 1
    assert {(row["kind"], row["clients"]) for row in section["rows"]} == {
        (kind, clients) for kind in ("append", "state") for clients in (1, 4)
    }
    for row in section["rows"]:
        assert row["requests"] > 0 and row["requests_per_s"] > 0
        assert 0 < row["p50_ms"] <= row["p99_ms"]
    memory = run[0]["memory"]["server_during_http"]
    assert memory["processes"] >= 2 and memory["largest_process_peak_mib"] > 0


def check_the_rebuild_is_measured_once_the_projector_exists(run: tuple[dict[str, Any], str]) -> None:
    section = run[0]["rebuild"]
    if importlib.util.find_spec("service.projector") is None:
        assert section["status"].startswith("not yet available")
        return
    assert section["status"] == "measured", section
    assert section["games"] == 20 and section["events"] > 0
    assert section["rows"] and all(row["events_per_s"] > 0 and row["peak_rss_mib"] > 0 for row in section["rows"])
    assert run[0]["memory"]["rebuild_peak_rss_mib"] > 0


def check_each_target_carries_its_measured_figure(run: tuple[dict[str, Any], str]) -> None:
    found = run[0]["targets"]
    names = " | ".join(t["target"] for t in found)
    for part in ("raw psycopg", "validate + evolve", "seek with snapshots", "HTTP", "rebuild", "replay step page"):
        assert part in names
    assert all(t["met"] in (True, False, None) for t in found)
    # A target goes unjudged only when its figure is missing (eventsourcing without the bench extra).
    assert all((t["measured"] is None) == (t["met"] is None) for t in found)


def check_step_pages_are_timed_at_each_length(run: tuple[dict[str, Any], str]) -> None:
    section = run[0]["pages"]
    assert [row["events"] for row in section["rows"]] == [100, 1000]
    for row in section["rows"]:
        assert 0 < row["step_page"]["median_ms"] <= row["step_page"]["max_ms"] and row["html_bytes_max"] > 1000
    assert section["page_weight_bytes"] > section["static_bytes"] > 0
    languages = section["languages"]
    for name in ("replay_step", "recorder"):
        assert all(languages[name][language]["median_ms"] > 0 for language in ("en", "fr", "es"))
        assert set(languages[name]["ratio"]) == {"fr", "es"} and all(r > 0 for r in languages[name]["ratio"].values())


def check_a_report_is_built_for_each_game(run: tuple[dict[str, Any], str]) -> None:
    rows = run[0]["report"]["rows"]
    assert {row["ruleset"] for row in rows} == set(run[0]["meta"]["rulesets"])
    for row in rows:
        assert row["events"] == 40 and row["bytes"] > 10_000 and row["cpu_s"] > 0 and row["wall_s"] > 0


def test_a_smoke_run_writes_every_section_with_positive_figures(postgres_url: str, tmp_path: Path) -> None:
    run = smoke_run(postgres_url, tmp_path)
    check_every_section_is_written_and_printed(run)
    check_every_ruleset_folds_at_a_positive_rate(run)
    check_seeks_are_timed_at_each_length_with_and_without_snapshots(run)
    check_every_append_backend_appends_at_a_positive_rate(run)
    check_the_real_server_answers_appends_and_reads_at_each_level(run)
    check_the_rebuild_is_measured_once_the_projector_exists(run)
    check_step_pages_are_timed_at_each_length(run)
    check_a_report_is_built_for_each_game(run)
    check_each_target_carries_its_measured_figure(run)


def test_the_floor_section_loads_the_floor_apps_and_tablelog_in_turn_on_both_databases(
    postgres_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "floor.json"
    done = bench_smoke("bench", postgres_url, out, "--sections", "floor")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    section = json.loads(out.read_text())["floor"]
    servers = [
        ("litestar alone", "-"),
        ("litestar + async INSERT", "postgresql"),
        ("litestar + INSERT in a thread (SQLite)", "sqlite"),
        ("tablelog, this checkout", "postgresql"),
        ("tablelog on SQLite, this checkout", "sqlite"),
    ]
    # Appends then state reads on every server that stores (nothing to read without a database), twice.
    expected = [
        (server, database, kind, n)
        for n in (1, 2)
        for kind in ("append", "read")
        for server, database in servers
        if kind == "append" or database != "-"
    ]
    assert [(r["server"], r["database"], r["kind"], r["round"]) for r in section["rows"]] == expected
    for row in section["rows"]:
        assert row["requests"] > 0 and row["requests_per_s"] > 0 and row["server_cpu_us"] > 0, row
    assert "## The floor under an append and a state read" in done.stdout
    # Each of tablelog's figures as a ratio to its own database's floor for the same kind in the same round,
    # and the targets it meets or not: 1.5x on PostgreSQL, 2x on SQLite, 1.5x for a read.
    goals = {t["target"].split(" (same round")[0]: t for t in json.loads(out.read_text())["targets"]}
    for server, database in servers[3:]:
        floor_label = next(label for label, db in servers[1:3] if db == database)
        for kind, metric, bound, what in (
            ("append", "server_cpu_us", 1.5 if database == "postgresql" else 2.0, "server CPU"),
            ("append", "p99_ms", 2.0, "p99"),
            ("read", "server_cpu_us", 1.5, "server CPU"),
        ):
            rows = [r for r in section["rows"] if r["kind"] == kind]
            floor = {r["round"]: r for r in rows if r["server"] == floor_label}
            worst = max(round(r[metric] / floor[r["round"]][metric], 2) for r in rows if r["server"] == server)
            goal = goals[f"{what} per {kind} within {bound}x the floor on {database}"]
            assert goal["measured"] == worst and goal["met"] == (worst <= bound), goal


def test_the_live_section_follows_streams_on_one_and_two_workers_and_floods_a_share_link(
    postgres_url: str, tmp_path: Path
) -> None:
    results, printed = section_smoke(postgres_url, tmp_path, "live")
    section = results["live"]
    assert [(r["spectators"], r["workers"]) for r in section["rows"]] == [(3, 1), (4, 2)]
    for row in section["rows"]:  # every appended step reached every stream, on either worker
        assert row["delivered"] == row["spectators"] * row["steps"] and row["missing"] == 0, row
    flood = section["flood"]
    assert flood["answers"].get("429", 0) > 0 and flood["answers"].get("200", 0) > 0, flood
    assert flood["health_probes"] > 0 and flood["health_port"]["probes"] > 0, flood
    goals = [t["target"] for t in results["targets"]]
    assert "/health on the health port < 100 ms during a flood (max ms)" in goals
    assert "## Live" in printed and "on the health port" in printed


def test_the_recording_section_records_each_game_by_taps_and_by_the_api_and_compares_their_cpu(
    postgres_url: str, tmp_path: Path
) -> None:
    # This checkout served as its own baseline: the section's ratio to the previous release, in one run.
    results, printed = section_smoke(postgres_url, tmp_path, "recording", "--http-baseline", str(ROOT))
    served = {game: runs for game, runs in results["recording"].items() if isinstance(runs, dict)}
    assert {"cards_run_out", "hedgerow_lane_axis_medal_victory"} <= set(served)
    for game in ("cards_run_out", "hedgerow_lane_axis_medal_victory"):
        (figures,) = [f for name, f in served[game].items() if name.startswith("served ")]
        (before,) = [f for name, f in served[game].items() if name.startswith("baseline served ")]
        assert figures["server_cpu_ms_per_tap"] > 0 and figures["server_cpu_ms_per_api_append"] > 0, figures
        assert before["server_cpu_ms_per_tap"] > 0 and before["code"].startswith("baseline "), before
        over = figures["server_cpu_ms_per_tap"] / before["server_cpu_ms_per_tap"]
        assert abs(figures["tap_over_baseline"] / over - 1) < 0.05, (figures, before)
        ratio = round(figures["server_cpu_ms_per_tap"] / figures["server_cpu_ms_per_api_append"], 2)
        goal = next(t for t in results["targets"] if t["target"].endswith(f"({game})"))
        assert goal["measured"] == figures["tap_over_api_append"]
        assert abs(goal["measured"] / ratio - 1) < 0.05  # the same ratio (of the figures before rounding)
    assert "## Recording" in printed and "tap / baseline" in printed
