"""The benchmark harness (issue 7): `python -m bench` measures, in one run and on one PostgreSQL,
the store's append throughput against raw psycopg and the eventsourcing library, fold throughput per
ruleset, replay seeks, the HTTP server under load, projection rebuilds and peak memory. It prints a
table and writes JSON. `--smoke` runs a tiny version that only checks the harness still works.

Benchmarks are not tests: ratios measured side by side in one run are what the figures mean, because
the machines are shared and noisy. See bench/README.md.
"""
