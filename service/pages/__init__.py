"""The club's pages (see `service.pages.controllers`)."""

HANDLERS: list[object] = []
