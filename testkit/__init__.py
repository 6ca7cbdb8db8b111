"""What the tests and the benches share and the service never ships: waits for the servers they start,
scaled to the machine (`waiting`), each game's seeded random table (`players`), the test ruleset Tally
(`tally`) and the private PostgreSQL cluster of the replica tests (`cluster`)."""
