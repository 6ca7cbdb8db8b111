"""The use cases: what the club does with its records, independent of how a request arrived. Recording
games (`games`), live play and spectating (`live`), a club's export and import (`club_export`), ratings
(`ratings`) and who may do what (`access`: credentials, principals, keys and share links).

A module here may import `service.store`, `domain`, `projections` and the plumbing at the top of
`service` (settings, logs, limits, notify); it never imports `service.http`, `service.pages` or
`service.app`, which call it."""
