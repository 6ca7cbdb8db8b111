"""What the recording page is told may happen next (no browser): every legal event, labelled in the game's
words and told apart where they read alike, with a bounded look-ahead whose links lead to the right
states; the catalogue's card names an Atlantic Storm deal is offered; the new-game form's options."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import msgspec

from domain.i18n import Message, english
from domain.record import decoder, start
from service.i18n import Translator
from service.pages import recording
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]


def folded_after(fixture: str, count: int) -> Any:
    lines = (ROOT / fixture).read_bytes().splitlines()
    ruleset = RULESETS.get(json.loads(lines[0])["ruleset"])
    read = decoder(ruleset)
    folded = start(ruleset, read.decode(lines[0]))
    for line in lines[1 : count + 1]:
        folded = folded.apply(read.decode(line))
    return folded


def names_of(folded: Any) -> dict[int, str]:
    return {p.seat: p.name for p in folded.setup.players}


def in_groups(ruleset: Any, state: Any, seat: int) -> list[Any]:
    """The legal events of `seat` as the page lists them: by the game's group rank, in listing order
    within a group (issue 29)."""
    listed = ruleset.legal_events(state, seat) or []
    if ruleset.choice_group is not None:
        listed = sorted(listed, key=lambda e: ruleset.choice_group(state, e)[0])
    return [msgspec.to_builtins(e) for e in listed]


def test_the_first_table_lists_every_legal_event_of_every_seat_and_each_link_leads_to_the_state_after_it() -> None:
    folded = folded_after("tests/domain/milles_nautiques/fixtures/two_players_to_forty.jsonl", 6)
    ruleset = folded.ruleset
    tables = recording.look_ahead(ruleset, names_of(folded), folded.state)
    for seat in tables[0].seats:
        assert [c.event for c in seat.choices] == in_groups(ruleset, folded.state, seat.seat)
        assert all(c.group for c in seat.choices)  # Milles Nautiques names its groups
    linked = [c for seat in tables[0].seats for c in seat.choices if c.then is not None]
    assert linked, "the look-ahead reaches past the current state"
    union = ruleset.event_type
    for choice in linked:
        assert choice.then is not None
        after = ruleset.evolve(folded.state, msgspec.convert(choice.event, union))
        for seat in tables[choice.then].seats:
            assert [c.event for c in seat.choices] == in_groups(ruleset, after, seat.seat)


def test_the_look_ahead_stays_within_its_bounds_on_a_crowded_memoire_44_turn() -> None:
    folded = folded_after("tests/domain/memoire44/fixtures/sidi_ghazal_expansions_axis_victory.jsonl", 60)
    tables = recording.look_ahead(folded.ruleset, names_of(folded), folded.state)
    counts = [sum(len(s.choices) for s in t.seats) for t in tables]
    assert counts[0] > 20, "a turn with many moves"
    assert 1 < len(tables) <= recording.LOOK_AHEAD_TABLES
    assert sum(counts[:-1]) < recording.LOOK_AHEAD_CHOICES, "no table is added once the budget is spent"


def test_a_look_ahead_past_its_budget_narrates_nothing_more_and_reads_alike_when_remembered() -> None:
    # A Milles Nautiques play from a hand drawn face down: a choice for every kind of card it could be, each
    # leading to the next seat's draw; more than the look-ahead describes.
    folded = folded_after("tests/domain/milles_nautiques/fixtures/cards_run_out.jsonl", 2)
    narrated: list[Any] = []

    def narrate(*told: Any) -> Any:
        narrated.append(told)
        return folded.ruleset.narrate(*told)

    counting = dataclasses.replace(folded.ruleset, narrate=narrate)
    recording.DESCRIBED.clear()  # every state worked out here, none remembered from another test
    tables = recording.look_ahead(counting, names_of(folded), folded.state)
    known = [c.then is not None for s in tables[0].seats for c in s.choices]
    assert any(known) and not all(known), "the budget runs out within the first table's choices"
    # Each choice sent was narrated once; a table past the budget was only listed, never narrated.
    assert len(narrated) == sum(len(s.choices) for t in tables for s in t.seats)
    assert recording.look_ahead(folded.ruleset, names_of(folded), folded.state) == tables  # remembered alike


def test_events_that_read_alike_are_told_apart_by_the_fields_they_differ_in() -> None:
    folded = folded_after("tests/domain/milles_nautiques/fixtures/two_players_to_forty.jsonl", 6)
    tables = recording.look_ahead(folded.ruleset, names_of(folded), folded.state)
    labels = [c.label for s in tables[0].seats for c in s.choices]
    assert len(labels) == len(set(labels)), labels


def test_an_atlantic_storm_deal_is_offered_the_catalogues_force_cards_and_a_cut_its_convoys() -> None:
    folded = folded_after("tests/domain/atlantic_storm/fixtures/three_players_two_convoys.jsonl", 0)
    names = recording.resource_names(folded.ruleset, folded.state)
    cards = folded.state.cards
    assert {n for n, _ in names["hands"]} == {n for n, c in cards.items() if c.category != "convoy"}
    assert {n for n, _ in names["cuts"]} == {n for n, c in cards.items() if c.category == "convoy"}
    assert all(label.startswith(number + " ") and label != number + " " for number, label in names["cuts"])
    assert recording.resource_names(RULESETS.get("milles-nautiques"), None) == {}


def test_the_new_game_form_reads_the_options_struct_and_leaves_blank_ones_to_the_game() -> None:
    ruleset = RULESETS.get("milles-nautiques")
    assert [f["name"] for f in recording.option_fields(ruleset)] == ["dealer", "round"]
    assert all(f["description"] and not f["team_table_only"] for f in recording.option_fields(ruleset))
    m44 = {f["name"]: f for f in recording.option_fields(RULESETS.get("memoire-44"))}
    assert m44["roles"]["team_table_only"] and not m44["sides"]["team_table_only"]
    assert "M44-OV-2" in english(m44["roles"]["description"])
    # Each label and hint is the game's message (told in the reader's language), not the schema's English.
    assert isinstance(m44["roles"]["label"], Message) and isinstance(m44["roles"]["description"], Message)
    assert Translator("fr")(m44["roles"]["label"]) == "Rôles"
    form = {"ruleset": ruleset.name, "seat_0": "p1", "seat_1": "p2", "option_dealer": "1", "option_round": ""}
    game = recording.new_game_of(ruleset, form)
    assert game.options == {"dealer": 1}
    assert [(s.player_id, s.seat) for s in game.players] == [("p1", 0), ("p2", 1)]
