"""Each game's seeded random table: players that make only legal moves (chosen from the ruleset's
`legal_events`) and the set-ups they play. The property tests play them and the benches record their
games; kept out of tests/ so that bench/ need not import the tests, and out of domain/, which stays free
of randomness."""
