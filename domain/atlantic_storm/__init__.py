"""Atlantic Storm (Avalon Hill, 1997): the rules core.

Sources: seed 002_849554c9cd2d9e36.txt (the Spanish rulebook, which wins, AS-1) and seed
000_9c26c0cb8d2e2bb3.txt (the French summary); readings AS-1..AS-17 in shared/rules/decisions.md.
The cards come from a club's catalogue (`catalogue` resource kind, see catalogues/README.md).

Gap readings (decisions.md is silent; each has a test in tests/domain/atlantic_storm/):
- Set-up option `pile_size` (default 20) lets a club agree a shorter game; the pile must fit the catalogue.
- A play announces its fate victims exactly (`victims`); a wrong or missing announcement is refused (AS-6).
- In the two-player game a fate card reaches a victim played in the first round of the same battle (the
  cards stay on the table), and an admiral's combined zone lasts the battle's two rounds.
- A storm may be played alone (no side); a 1-3 may be used on nobody; a storm that misses after the last
  player blows out with the round (two players: it passes into the second round, AS-14).
- Black Gap (effect not printed in the texts): no Allied air-frame normal card after it this round.
- Intelligence: the card itself obeys Raid / Happy Time; a storm can cancel it and the delayed turn.
- A tie (AS-10) puts normal, bonus and supply cards under the convoy; specials go to the discard.
- A supply card of the losing side is destroyed into the trick (0 VP, shared like any spoil).
- Spoils (AS-15): a winner shares if one of his own surviving normal (or stand-alone bonus) cards is worth
  1 or more in the zone, bonuses excluded; the trick winner always shares; hand size counts convoys held.
- With the deck and the discard pile both empty, a refill stops.
- Series (AS-16): equal highest totals at 75+ play another game; equal totals deal in seat order.
- Seed 002 §11 says U38 and U501 "are discarded"; §4, §14 and AS-9 have them captured: they are.
"""

from __future__ import annotations

from domain.atlantic_storm import legal, narration, rules, scoring, series, views
from domain.atlantic_storm.catalogue import CatalogueKind
from domain.atlantic_storm.events import AtlanticStormEvent
from domain.atlantic_storm.state import State
from domain.ruleset import GameRuleset

RULESET = GameRuleset(
    name="atlantic-storm",
    version="1.0.0",
    title="Atlantic Storm",
    event_type=AtlanticStormEvent,
    state_type=State,
    resource_kinds={"catalogue": CatalogueKind()},
    initial=rules.initial,  # the table before the dealer's cut (AS-2)
    validate=rules.check,  # raises RuleError naming the AS-n reading
    evolve=rules.evolve,
    view=views.view,
    result=scoring.result,  # VP split into convoy and card VP, placements by AS-13
    legal_events=legal.legal_events,
    narrate=narration.narrate,
    series_status=series.series_status,  # the 75 VP series (AS-16)
    player_counts=(2, 3, 4, 5, 6),  # AS-2
    series_next=series.series_next,  # one variant and pile for the whole series (AS-16)
)

__all__ = ["RULESET"]
