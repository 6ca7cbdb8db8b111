"""Milles Nautiques, the French naval card game; the rule readings MN-1 to MN-22 are described in
this package's RULES.md.

A recorded game is one round (manche); `series_status` carries rounds to 200 points (MN-17).
Scores are in half-points.

Readings chosen where the rule texts are silent (each has a test in tests/domain/milles_nautiques/):
- Hidden tonnages and the 40-point check: the record scores the convoys it knows; one it does not know
  counts 0 until revealed, and a face-down convoy in port gives no right to score until revealed (it
  may be the trawler, MN-20). The table may report a `ConvoysRevealed` at any time (a player showing his
  convoys to claim 40 points): the 40 check runs after it. A round that ends with convoys the record does
  not know waits in phase "reveal" for them before it is scored (a void round needs no reveal).
- The trawler sails and arrives like any convoy (it leaves the row at 4,000 miles, so the table learns
  nothing from its course), but it is never counted as arrived (MN-20).
- When the last card is played the round ends at once: battles and mines still pending are not decided.
- An arrived convoy keeps its miles and its radar; an alert, storm, neutral flag, lone plane or mine on
  it goes to the discard. A destroyed convoy goes to its captor; everything on it goes to the discard.
- One mine at a time on a convoy (MN-8).
- When the cards run out, the round winner is the best convoy + capture score among the sides with a
  convoy in port (MN-15's score, as in the 40 check); the MN-16 bonuses follow the result, they do not
  decide it. Sides level at the top share the win: each gets the +10 bonus.
- A turn passes over a player with no card once the stock is empty; his battles and mines still come due.
- The deal is recorded with the dealer and, optionally, the cards the record knows; seats and teams are
  the set-up's. The dealer of a round may be fixed in the set-up options (`dealer`), as the series
  needs it to say who deals next (MN-19); `round` numbers the round in the game.
"""

from __future__ import annotations

from domain.milles_nautiques import changes, legal, narration, rules, scoring, series, setup, views
from domain.milles_nautiques.catalogue import BY_NAME, CARDS, WARSHIP
from domain.milles_nautiques.events import MillesNautiquesEvent
from domain.milles_nautiques.picture import picture
from domain.milles_nautiques.state import State
from domain.ruleset import Ruleset

RULESET: Ruleset[State, MillesNautiquesEvent] = Ruleset(
    name="milles-nautiques",
    version="1.1.0",  # 1.1: MN-6 restarts, MN-20, MN-21, MN-22 (stored snapshots are rebuilt)
    title="Milles Nautiques",
    event_type=MillesNautiquesEvent,
    state_type=State,
    resource_kinds={},
    initial=setup.initial,
    validate=rules.validate,
    evolve=rules.evolve,
    view=views.view,
    known=views.known,  # a "what if" line from a view starts from what it knew (G-2)
    result=scoring.result,
    reported_result=scoring.reported_result,  # in half-points (MN-17), convoy / capture / bonuses apart
    legal_events=legal.legal_events,
    choice_group=legal.choice_group,  # the recording page's groups: a naval battle's defence first
    narrate=narration.narrate,
    series_status=series.series_status,  # the game of rounds to 200 points (MN-17)
    picture=picture,  # the table as SVG, drawn from a view
    what_changed=changes.what_changed,  # each step in the table's words, scores in points
    options_type=setup.Options,
    field_values={
        **dict.fromkeys(("card", "hands", "revealed"), tuple(BY_NAME)),
        "ship": tuple(card.name for card in CARDS if card.category == WARSHIP),
    },
    field_descriptions={
        "convoy": "The convoy aimed at, by its number in the round (1 = the first convoy laid); it never changes.",
    },
    player_counts=(2, 3, 4, 5, 6),  # MN-18
    team_counts=(4, 6),  # partners facing each other (MN-18)
    score_scale=2,  # scores in half-points
    series_next=series.series_next,  # same seats, next round, the deal passing left (MN-17, MN-19)
    series_told=series.series_told,
    option_words=setup.OPTION_WORDS,
)

__all__ = ["RULESET"]
