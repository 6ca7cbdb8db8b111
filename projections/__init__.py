"""Pure projections of game records, for every ruleset through the `Ruleset` contract alone:

- `replay`: a game told step by step, the state at any step in any view, snapshots and seeking;
- `standings`: league tables with a declarative tie-break chain that explains itself;
- `campaigns`: a series of games towards a target, through the ruleset's series rules;
- `tournaments`: a tournament's events and its pairings (round robin, Swiss, multiplayer tables);
- `ratings`: club ratings per player and game (OpenSkill, Plackett–Luce);
- `contract`: the ruleset contract's optional members with their defaults, and points from exact units;
- `changes`: what a corrected game result changed in standings and campaigns;
- `diff`: the structural JSON diff they share; `errors`: the `ProjectionError` they raise.

No I/O, clock or randomness: dates come in as values, and the same input always gives the same output.
"""
