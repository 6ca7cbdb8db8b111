"""What the tests and the benches share and the service never ships: waits for the servers they start,
scaled to the machine (`waiting`), and each game's seeded random table (`players`)."""
