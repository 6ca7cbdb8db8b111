"""The HTTP layer: litestar controllers for the JSON API, their guards, dependencies, problem details,
rate limits, sealed read-your-writes tokens and the OpenAPI document's extras.

A module here turns a request into a call on a use case (`service.usecases`) or a store part
(`service.store`) and the answer into a response; it may import those, `domain`, `projections` and the
plumbing at the top of `service` (settings, logs, limits, notify, projector), never `service.pages` or
`service.app` (the composition root imports it)."""
