"""The HTTP layer: litestar controllers for the JSON API, their guards, dependencies, problem details,
rate limits, sealed read-your-writes tokens and the OpenAPI document's extras.

A module here parses a request, authorises it and turns it into a call on a use case (`service.usecases`),
and the answer into a response; it may import those, `domain`, `projections` and the plumbing at the top
of `service` (settings, logs, limits, notify), never `service.store` (the records it names come through
`service.usecases.types`), `service.pages` or `service.app` (the composition root imports it).
`tests/test_boundaries.py` checks it."""
