""" "What changed" in each game's own words (issue 29), through the ruleset contract: every step of every
recorded fixture, told to the public and to the full record, names no field of the game's state or view,
counts points as people do (never half-points: the same points as the game's result), names cards as
printed (never a catalogue number or a card id), and reads in French and Spanish, not in English. The
notes of a series name players, never their ids (issue 27)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.memoire44.catalogue import CARDS as M44_CARDS
from domain.milles_nautiques.catalogue import BY_NAME as MN_CARDS
from domain.record import Folded, start
from domain.ruleset import Ruleset, SeriesGame, Viewer
from projections.replay import what_changed
from service.i18n import Translator
from tests.domain.test_ruleset_contract import FIXTURES, load
from tests.support.rulesets import RULESETS

VIEWERS = (Viewer.public(), Viewer.full())


def steps(path: Path) -> Iterator[tuple[int, Ruleset, Folded, Folded]]:
    """Each step of a fixture after its set-up: its number, the ruleset, the fold before and after it."""
    ruleset, events = load(path)
    folded = start(ruleset, events[0])
    for version, event in enumerate(events[1:], start=2):
        after = folded.apply(event, version)
        yield version, ruleset, folded, after
        folded = after


def keys(value: Any) -> set[str]:
    """Every key of a value's JSON form, at any depth."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(str(key))
            found |= keys(item)
    elif isinstance(value, list):
        for item in value:
            found |= keys(item)
    return found


def fields(value: Any) -> set[str]:
    """The field names of a state's structs, at any depth."""
    found: set[str] = set()
    if isinstance(value, msgspec.Struct):
        for field in msgspec.structs.fields(value):
            found.add(field.name)
            found |= fields(getattr(value, field.name))
    elif isinstance(value, dict):
        for item in value.values():
            found |= fields(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            found |= fields(item)
    return found


def internal_names(ruleset: Ruleset, state: Any) -> set[str]:
    """The state's and the view's field names a person would not say (`hand_count`, `to_play`)."""
    view = msgspec.to_builtins(ruleset.view(state, Viewer.full()), str_keys=True)
    return {key for key in fields(state) | keys(view) if "_" in key}


def ids_of_cards(ruleset: Ruleset, state: Any) -> set[str]:
    """The ids a game keeps its cards under, which people never read: Atlantic Storm's catalogue numbers,
    Mémoire 44's and Milles Nautiques' card ids."""
    if ruleset.name == "atlantic-storm":
        return set(state.cards)
    if ruleset.name == "memoire-44":
        return {card for card in M44_CARDS if "_" in card}
    return {card for card in MN_CARDS if "_" in card}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_step_says_what_changed_in_the_games_words(path: Path) -> None:
    said = 0
    internal: set[str] = set()
    ids: set[str] = set()
    for version, ruleset, before, after in steps(path):
        if not internal:
            internal, ids = internal_names(ruleset, after.state), ids_of_cards(ruleset, after.state)
        for viewer in VIEWERS:
            lines = what_changed(ruleset, before.state, after.state, viewer)
            assert lines is not None, f"{ruleset.name} tells no change lines"
            said += len(lines)
            for line in lines:
                words = set(re.findall(r"[\w-]+", line))
                assert not words & internal, (version, line, words & internal)
                assert not words & ids, (version, line, words & ids)
                assert "→" not in line and "changed" not in line and "half" not in line, (version, line)
    assert said > 0


POINTS = {
    # A score line as each game tells it: (who, points).
    "milles-nautiques": re.compile(r"^(?P<who>[\w ]+): (?P<points>[\d.]+) points"),
    "atlantic-storm": re.compile(r"^(?P<who>\w+): (?P<points>\d+) VP"),
    "memoire-44": re.compile(r"^\w+ \((?P<who>\w+)\): (?P<points>\d+) medals? of"),
}


def scores_by_name(ruleset: Ruleset, state: Any, path: Path) -> dict[str, set[float]]:
    """Each player's score as people count it (the result's units over `score_scale`), by player name, and
    in team play by the partners' names joined ("Alain and Claire")."""
    _, events = load(path)
    players = sorted(events[0].setup.players, key=lambda p: p.seat)
    result = ruleset.result(state, Viewer.full())
    by_seat = {p.seat: p.score / ruleset.score_scale for p in result.players}
    out: dict[str, set[float]] = {}
    for player in players:
        out.setdefault(player.name, set()).add(by_seat[player.seat])
        partners = [p.name for p in players if player.team is not None and p.team == player.team]
        if partners:
            out.setdefault(" and ".join(partners), set()).add(by_seat[player.seat])
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_the_points_said_are_the_points_the_game_counts_never_half_points(path: Path) -> None:
    checked = 0
    for version, ruleset, before, after in steps(path):
        pattern = POINTS[ruleset.name]
        for line in what_changed(ruleset, before.state, after.state, Viewer.full()) or ():
            found = pattern.match(line)
            if found:
                scores = scores_by_name(ruleset, after.state, path)
                assert float(found["points"]) in scores[found["who"]], (version, line, scores)
                checked += 1
    assert checked > 0


def first_line(path: Path, wanted: str) -> str:
    """The first public line of a fixture that says `wanted`."""
    for _, ruleset, before, after in steps(path):
        for line in what_changed(ruleset, before.state, after.state, Viewer.public()) or ():
            if wanted in line:
                return line
    raise AssertionError(f"no line with {wanted!r}")


def fixture(stem: str) -> Path:
    return next(p for p in FIXTURES if p.stem == stem)


def test_cards_and_units_are_named_as_printed_and_players_by_name() -> None:
    storm = fixture("three_players_two_convoys")
    _, events = load(storm)
    printed = {row["number"]: row["name"] for row in events[0].setup.resources["catalogue"].content["cards"]}
    assert first_line(storm, "Convoy at stake") == f"Convoy at stake: {printed['C1']}"
    assert first_line(storm, "plays") == f"Bea plays {printed['G6']} and {printed['G19']}: combat value 3"
    assert first_line(fixture("hedgerow_lane_axis_medal_victory"), "Card played") == "Card played: Assault Centre"
    assert first_line(fixture("hedgerow_lane_axis_medal_victory"), "figures left") == (
        "The Allies infantry at J6: 3 figures left"
    )
    nautical = fixture("two_players_to_forty")
    assert first_line(nautical, "radar") == "Alain's first convoy: detected by radar"
    assert first_line(nautical, " is a ") == "Alain's first convoy is a 20,000-ton convoy"
    assert first_line(nautical, "points") == "Alain: 50 points (convoys 40, round bonus 10)"


@pytest.mark.parametrize("language", ["fr", "es"])
@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_french_and_spanish_readers_read_every_line_in_their_language(path: Path, language: str) -> None:
    teller = Translator(language)
    for version, ruleset, before, after in steps(path):
        for viewer in VIEWERS:
            english = what_changed(ruleset, before.state, after.state, viewer) or ()
            told = what_changed(ruleset, before.state, after.state, viewer, words=teller) or ()
            assert len(told) == len(english)
            for theirs, ours in zip(told, english, strict=True):
                assert theirs != ours, (version, language, ours)


def test_a_series_note_names_players_never_their_ids() -> None:
    storm, events = RULESETS.get("atlantic-storm"), load(fixture("three_players_two_convoys"))[1]
    folded = start(storm, events[0])
    for version, event in enumerate(events[1:], start=2):
        folded = folded.apply(event, version)
    game = SeriesGame(setup=events[0].setup, result=storm.result(folded.state, Viewer.full()))
    note = storm.series_status([game]).note
    assert "Bea" in note or "Carl" in note, note
    assert "p-" not in note, note
    tied = storm.series_status([game] * 10)  # Bea and Carl won as much: a tie past 75 VP
    assert tied.note.startswith("Bea and Carl are tied at 80 VP") and "p-" not in tied.note, tied.note
    nautical, events = RULESETS.get("milles-nautiques"), load(fixture("four_players_in_teams"))[1]
    folded = start(nautical, events[0])
    for version, event in enumerate(events[1:], start=2):
        folded = folded.apply(event, version)
    rounds = [SeriesGame(setup=events[0].setup, result=nautical.result(folded.state, Viewer.full()))] * 4
    status = nautical.series_status(rounds)
    assert status.finished and status.note.startswith("Alain and Claire win the game"), status.note
    assert "p1" not in status.note and "p3" not in status.note
