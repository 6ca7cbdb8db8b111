"""The use cases: what the club does with its records, independent of how a request arrived. Recording
games (`games`), replays and what a correction changed (`replays`), leagues and campaigns
(`collections`), tournaments (`tournaments`), the spectator delay (`spectators`), live play and
spectating (`live`), a club's records (`clubs`), a club's export and import (`club_export`), ratings
(`ratings`), who may do what (`access`: credentials and principals) and the keys, share links and
page sessions that carry it (`keys`). Each takes the store's parts it needs (the Protocols of
`service.store.base`), never the whole `Store`: only `games.Records`, what the app's wiring makes and a
request holds, has it all, and each use case's `of(records)` takes from it the parts it names; `types`
names the store's records for the layers above.

A module here may import `service.store`, `domain`, `projections` and the plumbing at the top of
`service` (settings, logs, limits, notify); it never imports `service.http`, `service.pages` or
`service.app`, which call it."""
