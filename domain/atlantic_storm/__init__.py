"""Atlantic Storm (Avalon Hill, 1997): the rules core.

Sources: the complete rulebook in Spanish (which wins where the texts differ, AS-1) and a French summary
of the full rules. Every AS-n id the code cites, with the reading chosen where the texts are silent (the
"gap readings", each with a test in tests/domain/atlantic_storm/), is explained in this package's
RULES.md; the general G-n ids in domain/RULES.md. The cards come from a club's catalogue (`catalogue`
resource kind, see catalogues/README.md).
"""

from __future__ import annotations

from domain.atlantic_storm import changes, legal, narration, rules, scoring, series, setup, views
from domain.atlantic_storm.catalogue import CatalogueKind
from domain.atlantic_storm.events import AtlanticStormEvent
from domain.atlantic_storm.picture import picture
from domain.atlantic_storm.state import State
from domain.ruleset import Ruleset

RULESET: Ruleset[State, AtlanticStormEvent] = Ruleset(
    name="atlantic-storm",
    version="1.2.0",  # 1.1: AS-18 and AS-19; 1.2: a face-down card discarded unnamed (stored games fold as before)
    title="Atlantic Storm",
    event_type=AtlanticStormEvent,
    state_type=State,
    resource_kinds={"catalogue": CatalogueKind()},
    initial=setup.initial,  # the table before the dealer's cut (AS-2)
    validate=rules.validate,  # raises RuleError naming the AS-n reading
    evolve=rules.evolve,
    view=views.view,
    known=views.known,  # a "what if" line from a view starts from what it knew (G-2)
    result=scoring.result,
    reported_result=scoring.reported_result,  # VP split into convoy and card VP, placements by AS-13
    legal_events=legal.legal_events,
    choice_group=legal.choice_group,  # the recording page's groups: plays by zone, then discards
    field_names=legal.field_names,  # card numbers from the catalogue, for the recording page
    extensions=legal.extensions,  # a play from a hand dealt face down, a card at a time (issue 29)
    extensible=legal.extensible,
    seat_fields=("seat", "target"),  # a storm's target is a seat (AS-7)
    narrate=narration.narrate,
    series_status=series.series_status,  # the 75 VP series (AS-16)
    picture=picture,  # the table as SVG, drawn from a view
    what_changed=changes.what_changed,  # each step in the table's words, cards by their printed names
    variants=("basic", "advanced"),
    options_type=setup.Options,  # card numbers depend on the club's catalogue: no fixed field values
    player_counts=(2, 3, 4, 5, 6),  # AS-2
    series_next=series.series_next,  # one variant and pile for the whole series (AS-16)
    series_told=series.series_told,
    option_words=setup.OPTION_WORDS,
)

__all__ = ["RULESET"]
