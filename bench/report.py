"""The printed table and the targets of issue 7, checked against one run's figures."""

from __future__ import annotations

from typing import Any

CARD_GAMES = ("milles-nautiques", "atlantic-storm")
FLAT_FACTOR = 2.0
"""'Flat in game length': a seek with snapshots in a game 100x longer takes at most this many times as long."""
LANGUAGE_FACTOR = 1.1
"""A translated page's server time within this factor of the English one's (the pages section, issue 26)."""


def _target(name: str, measured: Any, met: bool | None) -> dict[str, Any]:
    return {"target": name, "measured": measured, "met": met}


def floor_ratios(rows: list[dict[str, Any]], server: str) -> list[dict[str, Any]]:
    """`server`'s figures over its floor's (the bare handler with the same statement on the same database,
    for the same kind of request), round by round."""
    out = []
    for row in rows:
        if row["server"] != server:
            continue
        floor = next(
            (
                f
                for f in rows
                if f["floor"] and (f["database"], f["kind"], f["round"]) == (row["database"], row["kind"], row["round"])
            ),
            None,
        )
        if floor is None:
            continue
        out.append(
            {
                "round": row["round"],
                "kind": row["kind"],
                **{
                    metric: round(row[metric] / floor[metric], 2) if row[metric] and floor[metric] else None
                    for metric in ("server_cpu_us", "p99_ms")
                },
            }
        )
    return [r for r in out if r["server_cpu_us"] is not None and r["p99_ms"] is not None]


FLOOR_BOUNDS: dict[tuple[str, str], tuple[float, float | None]] = {
    ("postgresql", "append"): (1.5, 2.0),
    ("sqlite", "append"): (2.0, 2.0),
    ("postgresql", "read"): (1.5, None),
    ("sqlite", "read"): (1.5, None),
}
"""Issue 32's bounds over the floor, (server CPU, p99) per database and kind of request (None: no bound)."""


def served_recordings(section: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The recording section's served figures, a game at a time (under the service's own look-ahead)."""
    return [
        (game, figures)
        for game, runs in section.items()
        if isinstance(runs, dict)
        for name, figures in runs.items()
        if name.startswith("served ")
    ]


def _over_floor(rows: list[dict[str, Any]], row: dict[str, Any]) -> list[Any]:
    """A floor table row's CPU and p99 over the floor's in the same round (the floor's own: 1.0)."""
    ratio = next(
        (r for r in floor_ratios(rows, row["server"]) if (r["round"], r["kind"]) == (row["round"], row["kind"])), None
    )
    return [ratio["server_cpu_us"], ratio["p99_ms"]] if ratio else ["-", "-"]


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target of the issue with the measured figure and whether it is met (None: not measured)."""
    out: list[dict[str, Any]] = []
    for ratio in results.get("append", {}).get("ratios", []):
        where = f"batch {ratio['batch']}, {ratio['writers']} writer(s)"
        out.append(
            _target(
                f"store append >= 0.8x raw psycopg ({where})", ratio["vs_raw_psycopg"], ratio["vs_raw_psycopg"] >= 0.8
            )
        )
        es = ratio["vs_eventsourcing"]
        out.append(_target(f"store append >= 1.5x eventsourcing ({where})", es, None if es is None else es >= 1.5))
    for row in results.get("fold", {}).get("rows", []):
        if row["ruleset"] in CARD_GAMES:
            per_core = row["validate_evolve"]["events_per_cpu_s"]
            out.append(
                _target(
                    f"validate + evolve >= 50,000 events/s per core ({row['ruleset']}, CPU time)",
                    per_core,
                    per_core >= 50_000,
                )
            )
    tally = [r for r in results.get("seek", {}).get("rows", []) if r["ruleset"] == "tally"]
    if tally:
        longest, shortest = tally[-1], tally[0]
        snap = longest.get("with_snapshots")
        if snap is not None:
            out.append(
                _target(
                    f"seek with snapshots < 5 ms at a random step of a {longest['events']}-event game (median ms)",
                    snap["median_ms"],
                    snap["median_ms"] < 5,
                )
            )
            first = shortest.get("with_snapshots")
            if first is not None and len(tally) > 1:
                growth = round(snap["median_ms"] / first["median_ms"], 2)
                out.append(
                    _target(
                        f"seek with snapshots flat in length ({shortest['events']} -> "
                        f"{longest['events']} events, median growth <= {FLAT_FACTOR}x)",
                        growth,
                        growth <= FLAT_FACTOR,
                    )
                )
    http = results.get("http")
    if http:
        appends = [r for r in http["rows"] if r["kind"] == "append" and r["code"] == "this checkout"]
        if appends:
            # 16 clients in the full run; the smoke run's largest level stands in for it.
            level = next((r for r in appends if r["clients"] == 16), max(appends, key=lambda r: r["clients"]))
            out.append(
                _target(
                    f"HTTP single-event append p99 < 20 ms at {level['clients']} clients",
                    level["p99_ms"],
                    level["p99_ms"] < 20,
                )
            )
        out.append(_target("the server runs several workers", http["workers"], http["workers"] > 1))
    for game, row in served_recordings(results.get("recording", {})):  # issue 32 part 2
        ratio = row["tap_over_api_append"]
        out.append(_target(f"recorder's tap CPU <= 2x the API append ({game})", ratio, ratio <= 2))
    live = results.get("live")
    for row in live["rows"] if live else []:  # issue 32 part 5, at the counts it names
        bound = {(1000, 1): 200, (5000, 2): 500}.get((row["spectators"], row.get("workers", 1)))
        if bound is not None and row["p99_ms"] is not None:
            where = f"{row['spectators']:,} streams, {row.get('workers', 1)} worker(s), {row['code']}"
            out.append(_target(f"live step p99 < {bound} ms ({where})", row["p99_ms"], row["p99_ms"] < bound))
    if live and "flood" in live:  # issue 25 part 1
        worst = live["flood"]["health_port"]["max_ms"]
        out.append(_target("/health on the health port < 100 ms during a flood (max ms)", worst, worst < 100))
    floor = results.get("floor")
    if floor:  # issue 32 parts 1 and 3: tablelog within its bounds over the floor, in the same run
        mine = {(r["server"], r["database"]) for r in floor["rows"] if r["server"].startswith("tablelog")}
        for server, database in sorted(mine):
            if "this checkout" not in server:
                continue
            for (bound_database, kind), bounds in FLOOR_BOUNDS.items():
                if bound_database != database:
                    continue
                ratios = [r for r in floor_ratios(floor["rows"], server) if r["kind"] == kind]
                for metric, limit, what in zip(("server_cpu_us", "p99_ms"), bounds, ("server CPU", "p99"), strict=True):
                    if limit is None or not ratios:
                        continue
                    over = max(r[metric] for r in ratios)
                    out.append(
                        _target(
                            f"{what} per {kind} within {limit}x the floor on {database} (same round, worst of "
                            f"{len(ratios)})",
                            over,
                            over <= limit,
                        )
                    )
    shown = results.get("pages")
    if shown:
        short, long = shown["rows"][0], shown["rows"][-1]
        page = long["step_page"]["median_ms"]
        out.append(_target(f"replay step page < 20 ms at a {long['events']}-event game (median ms)", page, page < 20))
        growth = round(page / short["step_page"]["median_ms"], 2)
        out.append(
            _target(
                f"replay step page flat in length ({short['events']} -> {long['events']} events, "
                f"median growth <= {FLAT_FACTOR}x)",
                growth,
                growth <= FLAT_FACTOR,
            )
        )
        if "line_step" in long:  # issue 31: a "what if" line's step, an event tried and the line's page drawn
            step = long["line_step"]["median_ms"]
            out.append(_target(f"line step < 20 ms at a {long['events']}-event game (median ms)", step, step < 20))
        weight = shown["page_weight_bytes"]
        out.append(_target("step page weight (HTML + CSS + JS) < 150 KB (bytes)", weight, weight < 150_000))
        for name in ("replay_step", "recorder") if "languages" in shown else ():
            worst = max(shown["languages"][name]["ratio"].values())
            out.append(
                _target(
                    f"{name.replace('_', ' ')} page in fr and es within {LANGUAGE_FACTOR}x English "
                    "(worst median ratio)",
                    worst,
                    worst <= LANGUAGE_FACTOR,
                )
            )
    for row in results.get("report", {}).get("rows", []):
        where = f"{row['ruleset']}, {row['events']} events"
        out.append(_target(f"report to keep < 2 MB ({where}, bytes)", row["bytes"], row["bytes"] < 2_000_000))
        out.append(_target(f"report to keep built < 2 s ({where}, CPU s)", row["cpu_s"], row["cpu_s"] < 2))
    rebuilt = results.get("rebuild")
    if rebuilt:
        value = rebuilt.get("all_projections_events_per_s")
        if value is None:
            out.append(_target(f"rebuild >= 20,000 events/s ({rebuilt['status']})", None, None))
        else:
            out.append(_target("rebuild >= 20,000 events/s (all projections)", value, value >= 20_000))
            for row in rebuilt["rows"]:
                out.append(
                    _target(
                        f"rebuild >= 20,000 events/s ({row['projection']})",
                        row["events_per_s"],
                        row["events_per_s"] >= 20_000,
                    )
                )
    return out


def _table(title: str, header: list[str], rows: list[list[Any]]) -> None:
    print(f"\n## {title}")
    cells = [header, *[[_cell(v) for v in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    for number, row in enumerate(cells):
        print(
            "  ".join(
                value.rjust(width) if i else value.ljust(width)
                for i, (value, width) in enumerate(zip(row, widths, strict=True))
            )
        )
        if number == 0:
            print("  ".join("-" * width for width in widths))


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def print_report(results: dict[str, Any]) -> None:
    """The whole run as plain-text tables."""
    meta = results["meta"]
    print(
        f"tablelog bench ({meta['mode']}), commit {meta['commit']}, {meta['cores']} cores, "
        f"load average {meta['load_average_at_start'][0]:.2f} at start; {meta['note']}"
    )
    if meta["rulesets_missing"]:
        print(f"rulesets not measured: {meta['rulesets_missing']}")
    if "fold" in results:
        _table(
            "Fold (events/s, one core)",
            ["ruleset", "games", "events/game", "evolve", "evolve (CPU)", "validate+evolve", "validate+evolve (CPU)"],
            [
                [
                    r["ruleset"],
                    r["games"],
                    r["events_per_game"],
                    r["evolve"]["events_per_s"],
                    r["evolve"]["events_per_cpu_s"],
                    r["validate_evolve"]["events_per_s"],
                    r["validate_evolve"]["events_per_cpu_s"],
                ]
                for r in results["fold"]["rows"]
            ],
        )
    if "seek" in results:
        rows = []
        for r in results["seek"]["rows"]:
            snap = r["with_snapshots"] or {}
            rows.append(
                [
                    r["ruleset"],
                    r["events"],
                    r["without_snapshots"]["median_ms"],
                    r["without_snapshots"]["p99_ms"],
                    snap.get("median_ms"),
                    snap.get("p99_ms"),
                    r["snapshots"] if isinstance(r["snapshots"], int) else "none: " + r["snapshots"][:60],
                ]
            )
        _table(
            f"Seek to a random step (ms; snapshots every {results['seek']['snapshot_every']})",
            ["ruleset", "events", "plain p50", "plain p99", "snapshots p50", "snapshots p99", "snapshots"],
            rows,
        )
    if "append" in results:
        section = results["append"]
        _table(
            f"Append (events/s, median of {section['repeats']} x {section['seconds_per_sample']} s; "
            f"eventsourcing {section['eventsourcing']})",
            ["backend", "batch", "writers", "events/s"],
            [[r["backend"], r["batch"], r["writers"], r["events_per_s"]] for r in section["rows"]],
        )
        _table(
            "Append ratios (tablelog PostgreSQL / other; last column: raw psycopg / eventsourcing)",
            ["batch", "writers", "vs raw psycopg", "vs eventsourcing", "raw vs eventsourcing"],
            [
                [r["batch"], r["writers"], r["vs_raw_psycopg"], r["vs_eventsourcing"], r["raw_vs_eventsourcing"]]
                for r in section["ratios"]
            ],
        )
    if "http" in results:
        section = results["http"]
        layout = {"process": "projector as its own process", "thread": "projector in a server thread"}
        baseline = section.get("baseline")
        _table(
            f"HTTP ({section['workers']} workers, {layout[section['projector']]}, "
            f"{section['seconds_per_level']} s per level; CPU microseconds per request)",
            [
                *(["code"] if baseline else []),
                "kind",
                "clients",
                "requests",
                "requests/s",
                "p50 ms",
                "p99 ms",
                "server",
                "projector",
                "PostgreSQL",
                "load gen.",
            ],
            [
                [
                    *([r["code"]] if baseline else []),
                    r["kind"],
                    r["clients"],
                    r["requests"],
                    r["requests_per_s"],
                    r["p50_ms"],
                    r["p99_ms"],
                    *(r["cpu_us_per_request"][part] for part in ("server", "projector", "postgres", "load_generator")),
                ]
                for r in section["rows"]
            ],
        )
        if baseline:
            mine = [r for r in section["rows"] if r["code"] == "this checkout"]
            theirs = [r for r in section["rows"] if r["code"] != "this checkout"]
            _table(
                f"HTTP, this checkout / baseline {baseline} (measured in turn, level by level)",
                ["kind", "clients", "requests/s ratio", "p50 ratio", "p99 ratio"],
                [
                    [
                        a["kind"],
                        a["clients"],
                        round(a["requests_per_s"] / b["requests_per_s"], 2),
                        round(a["p50_ms"] / b["p50_ms"], 2),
                        round(a["p99_ms"] / b["p99_ms"], 2),
                    ]
                    for a, b in zip(mine, theirs, strict=True)
                ],
            )
        caught_up = section["projector_caught_up_seconds"]
        print(
            "projections caught up with the log "
            + (f"{caught_up} s after the load" if caught_up is not None else "NOT within 120 s after the load")
        )
    if "rebuild" in results:
        section = results["rebuild"]
        if section["rows"]:
            _table(
                f"Rebuild ({section['games']:,} games of {', '.join(section['rulesets'])}, "
                f"{section['events']:,} events; start-up {section['start_up_seconds']} s)",
                ["projection", "seconds", "events/s", "events/s w/o start-up", "peak RSS MiB"],
                [
                    [
                        r["projection"],
                        r["seconds"],
                        r.get("events_per_s"),
                        r.get("events_per_s_without_start_up"),
                        r["peak_rss_mib"],
                    ]
                    for r in section["rows"]
                ],
            )
        else:
            print(f"\n## Rebuild\n{section['status']}")
        for name, why in section.get("excluded_rulesets", {}).items():
            print(f"rebuild leaves out {name}: its state cannot be snapshotted ({why[:100]})")
    if "pages" in results:
        section = results["pages"]
        _table(
            f"Pages (ms per replay step page, {section['samples']} random steps; picture: {section['picture']})",
            [
                "events",
                "first page",
                "page p50",
                "page p99",
                "picture p50",
                "picture p99",
                "HTML bytes",
                "line opening p50",
                "line step p50",
                "line step p99",
            ],
            [
                [
                    r["events"],
                    r["first_page_ms"],
                    r["step_page"]["median_ms"],
                    r["step_page"]["p99_ms"],
                    r["picture"]["median_ms"],
                    r["picture"]["p99_ms"],
                    r["html_bytes_max"],
                    r.get("line_opening", {}).get("median_ms"),
                    r.get("line_step", {}).get("median_ms"),
                    r.get("line_step", {}).get("p99_ms"),
                ]
                for r in section["rows"]
            ],
        )
        print(f"page weight: {section['page_weight_bytes']:,} bytes (heaviest step page + CSS + JS)")
        languages = section.get("languages")
        if languages:
            _table(
                f"Pages in three languages (ms, a {languages['events']}-event Milles Nautiques round, "
                f"{languages['samples']} requests each, the languages in turn)",
                ["page", "en p50", "fr p50", "es p50", "fr / en", "es / en"],
                [
                    [
                        name,
                        languages[name]["en"]["median_ms"],
                        languages[name]["fr"]["median_ms"],
                        languages[name]["es"]["median_ms"],
                        languages[name]["ratio"]["fr"],
                        languages[name]["ratio"]["es"],
                    ]
                    for name in ("replay_step", "recorder")
                ],
            )
    if "report" in results:
        section = results["report"]
        _table(
            f"Report to keep (tablelog report on SQLite, public view, a {section['length']}-event game where one is "
            f"played; median of {section['samples']})",
            ["ruleset", "events", "bytes", "bytes a step", "CPU s", "wall s"],
            [
                [r["ruleset"], r["events"], r["bytes"], r["bytes_per_step"], r["cpu_s"], r["wall_s"]]
                for r in section["rows"]
            ],
        )
    if "live" in results:
        _table(
            "Live (one game; a step appended every "
            f"{results['live']['interval_s']} s; latency from sending the append to each stream receiving it)",
            [
                "code",
                "workers",
                "events",
                "spectators",
                "delivered",
                "missing",
                "p50 ms",
                "p99 ms",
                "CPU us/delivered",
                "CPU ms/step",
                "idle CPU ms/s",
            ],
            [
                [
                    r["code"],
                    r.get("workers", 1),
                    r["game_length"],
                    r["spectators"],
                    r["delivered"],
                    r["missing"],
                    r["p50_ms"],
                    r["p99_ms"],
                    r["server_cpu_us_per_delivered"],
                    r["server_cpu_ms_per_step"],
                    r["server_idle_cpu_ms_per_s"],
                ]
                for r in results["live"]["rows"]
            ],
        )
        if "flood" in results["live"]:
            flood = results["live"]["flood"]
            print(
                f"flood: {flood['attempts']:,} streams tried on one share link in {flood['seconds']} s, answered "
                f"{flood['answers']}, server CPU {flood['server_cpu_s']} s; /health p50 {flood['health_p50_ms']} ms, "
                f"p99 {flood['health_p99_ms']} ms, max {flood['health_max_ms']} ms, "
                f"{flood['health_over_100_ms']} of {flood['health_probes']} over 100 ms; on the health port p50 "
                f"{flood['health_port']['p50_ms']} ms, max {flood['health_port']['max_ms']} ms"
            )
    if "recording" in results:
        _table(
            "Recording (one worker, SQLite; server CPU per event, the recorder's tap against the API's append)",
            [
                "game",
                "taps",
                "tap p50 ms",
                "tap p99 ms",
                "CPU ms/tap",
                "CPU ms/append",
                "tap / append",
                "tap / baseline",
                "answer KB max",
            ],
            [
                [
                    game,
                    r["tap_to_acknowledged"]["n"],
                    r["tap_to_acknowledged"]["p50_ms"],
                    r["tap_to_acknowledged"]["p99_ms"],
                    r["server_cpu_ms_per_tap"],
                    r["server_cpu_ms_per_api_append"],
                    r["tap_over_api_append"],
                    r.get("tap_over_baseline", "-"),
                    round(r["answer_bytes_max"] / 1000, 1),
                ]
                for game, r in served_recordings(results["recording"])
            ],
        )
    if "health" in results:
        _table(
            f"/health under load (workers {results['health']['workers']}; probe every 50 ms)",
            ["database", "code", "writers", "batch", "events/s", "probes", "p50 ms", "p99 ms", "max ms", "over 100 ms"],
            [
                [
                    r.get("database", "postgresql"),
                    r["code"],
                    r["writers"],
                    r["batch"],
                    r["events_per_s"],
                    r["health_probes"],
                    r["health_p50_ms"],
                    r["health_p99_ms"],
                    r["health_max_ms"],
                    r["health_over_100_ms"],
                ]
                for r in results["health"]["rows"]
            ],
        )
    if "floor" in results:
        _table(
            f"The floor under an append and a state read ({results['floor']['clients']} clients, one worker, in turn)",
            [
                "server",
                "database",
                "kind",
                "round",
                "requests/s",
                "p50 ms",
                "p99 ms",
                "server CPU us/request",
                "CPU / floor",
                "p99 / floor",
            ],
            [
                [
                    r["server"],
                    r["database"],
                    r["kind"],
                    r["round"],
                    r["requests_per_s"],
                    r["p50_ms"],
                    r["p99_ms"],
                    r["server_cpu_us"],
                    *_over_floor(results["floor"]["rows"], r),
                ]
                for r in results["floor"]["rows"]
            ],
        )
    memory = results["memory"]
    server = memory["server_during_http"]
    print("\n## Memory")
    if server:
        print(
            f"server during the HTTP run: largest process {server['largest_process_peak_mib']} MiB, "
            f"sum of {server['processes']} processes' peaks {server['sum_of_process_peaks_mib']} MiB"
        )
        projector = results.get("http", {}).get("projector_memory")
        if projector:
            print(f"projector process during the HTTP run: {projector['largest_process_peak_mib']} MiB peak")
    print(f"rebuild: {memory['rebuild_peak_rss_mib'] or 'not measured'} MiB peak")
    _table(
        "Targets",
        ["target", "measured", "met"],
        [[t["target"], t["measured"], {True: "yes", False: "NO", None: "-"}[t["met"]]] for t in results["targets"]],
    )
