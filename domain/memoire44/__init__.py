"""Mémoire 44 (base game): scenarios as data, the base rules M44-1 to M44-6, two-game matches.

The rules and the readings chosen are listed by id (M44-n) in `RULES.md`, beside this file.
"""

from __future__ import annotations

from domain.memoire44 import changes, legal, narration, rules, scoring, series, setup, views
from domain.memoire44.air import AirPackKind
from domain.memoire44.catalogue import CARDS, FACES
from domain.memoire44.combat import CombatDeckKind
from domain.memoire44.dday import ReinforcementTableKind
from domain.memoire44.events import Memoire44Event
from domain.memoire44.overlord import InitiativeTableKind
from domain.memoire44.picture import picture
from domain.memoire44.scenario import ScenarioKind
from domain.memoire44.state import State
from domain.ruleset import Ruleset

RULESET: Ruleset[State, Memoire44Event] = Ruleset(
    name="memoire-44",
    version="1.1.0",
    title="Mémoire 44",
    event_type=Memoire44Event,
    state_type=State,
    resource_kinds={
        "scenario": ScenarioKind(),
        "initiative_table": InitiativeTableKind(),
        "combat_deck": CombatDeckKind(),
        "air_pack": AirPackKind(),
        "reinforcement_table": ReinforcementTableKind(),
    },
    initial=setup.initial,  # the scenario set up, opening hands still to draw
    validate=rules.validate,
    evolve=rules.evolve,
    view=views.view,  # hands hidden in the public view; the board is public
    known=views.known,  # a "what if" line from a view starts from what it knew (G-2)
    what_changed=changes.what_changed,  # each step in the board's words
    value_words=views.value_words,  # hexes as the board names them
    result=scoring.result,
    reported_result=scoring.reported_result,  # medals per seat; the winner once a side reaches its count
    legal_events=legal.legal_events,
    narrate=narration.narrate,
    series_status=series.series_status,  # a two-game match, sides swapped, medals summed
    picture=picture,  # the battlefield as SVG, drawn from a view
    options_type=setup.Options,
    field_values={"card": tuple(CARDS), "faces": tuple(dict.fromkeys(FACES))},
    field_descriptions={
        "unit": "A unit, by its number: its place in the scenario file's list of units, from 0.",
        "faces": "The faces the dice showed, one per die.",
        "path": "The hexes the unit goes through, in order, each as [row, column] (doubled columns, as `.m44` files).",
        "to": "The hex the unit moves into, as [row, column] (doubled columns, as `.m44` files).",
    },
    player_counts=(2, 4, 5, 6, 7, 8),  # two players, or two teams of 2 to 4 (M44-OV-2)
    team_counts=(4, 5, 6, 7, 8),  # an Overlord team table (M44-OV-2)
    series_next=series.series_next,  # the second game: same scenario, sides swapped
    series_told=series.series_told,
    option_words=setup.OPTION_WORDS,
    seat_sides=setup.seat_sides,  # seat 0 and seat 1 each command one side
)

__all__ = ["RULESET"]
