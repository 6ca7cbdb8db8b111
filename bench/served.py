"""`python -m bench.served SETTING [ROUNDS] [--database=sqlite] [--baseline=CHECKOUT]`: what one setting
(`metrics`, `tracing`; `nothing` for the same server twice) costs a served request, side by side (issue 30:
metrics under 5 % of server CPU per append). With `--baseline=CHECKOUT` (and `nothing`), the "off" server
runs that other checkout (`git worktree add /tmp/base <commit>`; its own `.venv` if it has one, else this
one's packages): a change's cost or saving, before / after in one run (issue 32).

Two real `tablelog serve` (one worker each, the projector as its own process, as deployed) run at once, the
setting off on one and on on the other, each on a database of its own. Each round sends a short batch of
single-event appends, then of public state reads, to one server and then the other (the order swapped each
round), from 16 keep-alive connections; the server's CPU time per request is read from /proc around each
batch. What the machine's load does in a moment falls on both, so the medians' ratio resolves a few percent
where the HTTP section, each level measured once in turn, reads -10 % to +17 % for the same code.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from statistics import median
from typing import Any

import msgspec

from bench.common import FULL, cpu_seconds, database_url, process_tree, scratch_schema
from bench.web import THIS_CHECKOUT, Code, Server, load, prepare, running_server

CLIENTS = 16
BATCH = 1000
"""Requests a batch: about half a second of one worker, short enough for many alternations, long enough
that /proc's 10 ms CPU ticks are 10 µs a request."""

ON = {
    "nothing": {},  # the same server twice: what the bench reads for no difference
    "metrics": {"TABLELOG_METRICS": "true", "TABLELOG_METRICS_PUBLIC": "false"},
    "tracing": {"TABLELOG_TRACING": "true", "OTEL_TRACES_EXPORTER": "none"},
}


@contextmanager
def _database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tempfile.mkdtemp(prefix='tablelog-served-')}/db.sqlite"
        return
    with scratch_schema(database_url(), "served") as (_, url):
        yield url


def run(setting: str, rounds: int, kind: str = "postgresql", baseline: Code | None = None) -> dict[str, Any]:
    """Per-request server CPU (µs) of each batch, setting off and on, and the ratio of their medians."""
    sizes = msgspec.structs.replace(FULL, http_seconds=60.0, http_max_requests=BATCH)
    figures: dict[str, dict[str, list[float]]] = {kind_: {"off": [], "on": []} for kind_ in ("append", "state")}
    totals: dict[str, dict[str, list[float]]] = {kind_: {"off": [0.0, 0], "on": [0.0, 0]} for kind_ in figures}
    with ExitStack() as stack:
        servers: dict[str, Server] = {}
        for side in ("off", "on"):
            url = stack.enter_context(_database(kind))
            code = baseline if baseline is not None and side == "off" else THIS_CHECKOUT
            servers[side] = stack.enter_context(
                running_server(url, 1, "process", code, settings=ON[setting] if side == "on" else None)
            )
        prepared = {side: prepare(server.base, CLIENTS) for side, server in servers.items()}
        versions = {side: dict.fromkeys(games, 1) for side, (_, games) in prepared.items()}
        for round_ in range(rounds + 1):  # the first round warms both up and is not counted
            for side in ("off", "on") if round_ % 2 == 0 else ("on", "off"):
                server, (token, games) = servers[side], prepared[side]
                for request in ("append", "state"):
                    before = cpu_seconds(process_tree(server.process.pid))
                    row = load(server.port, token, games, versions[side], request, CLIENTS, sizes)
                    used = cpu_seconds(process_tree(server.process.pid)) - before
                    if round_:
                        figures[request][side].append(used / row["requests"] * 1e6)
                        totals[request][side][0] += used
                        totals[request][side][1] += row["requests"]
    out: dict[str, Any] = {"setting": setting, "database": kind, "rounds": rounds, "batch": BATCH}
    if baseline is not None:
        out["off"] = str(baseline.tree)
    for request, by in figures.items():
        # The mean (all CPU over all requests) beside the median: each batch's figure is whole ticks.
        off, on = (totals[request][side][0] / totals[request][side][1] * 1e6 for side in ("off", "on"))
        paired = median(b / a for a, b in zip(by["off"], by["on"], strict=True))
        out[request] = {
            "off_us": round(off),
            "on_us": round(on),
            "on_over_off": round(on / off, 3),
            "median_of_round_ratios": round(paired, 3),
        }
    return out


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    kind = "sqlite" if "--database=sqlite" in argv else "postgresql"
    trees = [a.split("=", 1)[1] for a in argv if a.startswith("--baseline=")]
    baseline = Code.of(f"baseline {trees[0]}", Path(trees[0]).resolve()) if trees else None
    if not args or args[0] not in ON:
        raise SystemExit(
            f"usage: python -m bench.served {{{','.join(ON)}}} [ROUNDS] [--database=sqlite] [--baseline=CHECKOUT]"
        )
    result = run(args[0], int(args[1]) if len(args) > 1 else 20, kind, baseline)
    print(msgspec.json.encode(result).decode())
    for request in ("append", "state"):
        r = result[request]
        print(
            f"{request}: {args[0]} off {r['off_us']} us, on {r['on_us']} us of server CPU "
            f"(over {result['rounds']} rounds), on/off {r['on_over_off']} (median of each round's "
            f"{r['median_of_round_ratios']})"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
