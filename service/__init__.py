"""All of tablelog's I/O, in layers: `http` (the JSON API's controllers, guards, problem details,
dependencies, OpenAPI extras) and `pages` (the club's HTML pages) turn requests into calls on `usecases`
(recording games, live play, export and import, ratings, access), which keep their records through
`store` (the event store, read models and club records behind small Protocols).

At the top stay the composition root (`app`), the process's plumbing every layer may use (`settings`,
`logs`, `notify`, `cache` (the one bounded cache), and `limits`, the bounds on what a request carries,
checked by controllers and use cases alike), the projector that keeps the read models, the CLI and
`openapi` (the documented `python -m service.openapi`). `tests/test_boundaries.py` holds the directions
that already hold."""

from importlib.metadata import version

# The version is written once, in pyproject.toml; /health and the OpenAPI document's info read it here.
__version__ = version("tablelog")
