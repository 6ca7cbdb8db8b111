"""Hidden information stays hidden (G-2), as a property: every public output (view, narration, result,
replay step, live message, what the change feed and webhooks send) is the same when the hidden cards of a
record are swapped for other cards consistent with what the public has seen; and so is a seat's, when the
cards swapped are other seats'. The
narration is compared as told in English, French and Spanish.

Each game says which card fields of its events the public does not see (`Secrets.mentions`: a draw, a
convoy laid face down, a hand dealt...) and which of its states show such a card without naming it (a
radar, the end of a round). From a record that knows every card, `alternative` exchanges two hidden
cards held by two seats (or the order of one seat's two draws) and carries the exchange along each
holder's later hidden mentions; the two records are then compared step by step for as long as the
swapped cards stay hidden: until an event names one of them in the open, a state shows one, or the
alternative stops being a legal record. Both the recorded fixtures and random games of all three games
are swapped. Scale the random games up with TABLELOG_HEAVY=<multiplier> (the `heavy` test).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.atlantic_storm import events as storm
from domain.memoire44 import events as m44
from domain.milles_nautiques import events as mn
from domain.record import Folded, GameStarted, decoder, effective_events_of, start
from domain.ruleset import RuleError, Ruleset, Viewer
from projections.replay import replay, what_changed
from service.i18n import Translator
from service.pages.report import report_of
from service.store.base import GameRecord
from service.usecases.club_feed import PublicGame
from service.usecases.live import LiveStep
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted((ROOT / "tests" / "domain").glob("*/fixtures/*.jsonl"))
Path_ = tuple[int, ...]
"""Where a card sits inside an event field: () for the field itself, (i,) or (seat, i) in tuples."""


@dataclass(frozen=True)
class Secrets:
    """What one game hides. `mentions(event)` lists its hidden card fields as (field, path, holder seat);
    `shows(before, event, after, cards)` is True when the step shows one of `cards` without naming it
    in the event; `partners(state, seat)` are the seats that see what `seat` holds."""

    mentions: Callable[[Any], list[tuple[str, Path_, int]]]
    shows: Callable[[Any, Any, Any, frozenset[str]], bool] = lambda before, event, after, cards: False
    partners: Callable[[Any, int], frozenset[int]] = lambda state, seat: frozenset({seat})


def _m44_mentions(event: Any) -> list[tuple[str, Path_, int]]:
    if isinstance(event, m44.CardDrawn | m44.CardCommitted | m44.AirCardDrawn):  # the air combat cards too
        return [("card", (), event.seat)]
    return []


def _mn_mentions(event: Any) -> list[tuple[str, Path_, int]]:
    if isinstance(event, mn.Drew | mn.ConvoyPlaced):
        return [("card", (), event.seat)]
    if isinstance(event, mn.Dealt):
        return [("hands", (seat, i), seat) for seat, hand in enumerate(event.hands) for i in range(len(hand))]
    return []


def _mn_shows(before: Any, event: Any, after: Any, cards: frozenset[str]) -> bool:
    """A face-down convoy is shown by a radar (MN-9), at the end of the round, and to its captor."""
    if after.phase != before.phase and after.phase in ("reveal", "over"):
        return True
    if isinstance(event, mn.RadarPlayed) and after.convoys[event.convoy - 1].card in cards:
        return True
    captured = ("bombed", "sunk", "mined")
    return any(c.kind in captured and after.convoys[c.convoy - 1].card in cards for c in after.consequences)


def _mn_partners(state: Any, seat: int) -> frozenset[int]:
    return frozenset(state.side_seats[state.side_of[seat]])  # MN-18: partners know each other's convoys


def _storm_mentions(event: Any) -> list[tuple[str, Path_, int]]:
    if isinstance(event, storm.CardsDealt):
        return [("hands", (seat, i), seat) for seat, hand in enumerate(event.hands) for i in range(len(hand))]
    if isinstance(event, storm.CardsDrawn | storm.HandDiscarded):
        return [("cards", (i,), event.seat) for i in range(len(event.cards))]
    if isinstance(event, storm.CardDiscarded):  # face down, to a pile nobody looks through (AS-3)
        return [("card", (), event.seat)]
    return []


def _m44_partners(state: Any, seat: int) -> frozenset[int]:
    return frozenset(s for s, camp in enumerate(state.seat_camp) if camp == state.seat_camp[seat])  # one hand a side


SECRETS = {
    "memoire-44": Secrets(_m44_mentions, partners=_m44_partners),
    "milles-nautiques": Secrets(_mn_mentions, _mn_shows, _mn_partners),
    "atlantic-storm": Secrets(_storm_mentions),
}


def _get(event: Any, field: str, path: Path_) -> Any:
    value = getattr(event, field)
    for index in path:
        value = value[index]
    return value


def _put(value: Any, path: Path_, card: Any) -> Any:
    if not path:
        return card
    items = list(value)
    items[path[0]] = _put(items[path[0]], path[1:], card)
    return tuple(items)


def _set(event: Any, field: str, path: Path_, card: Any) -> Any:
    return msgspec.structs.replace(event, **{field: _put(getattr(event, field), path, card)})


@dataclass(frozen=True)
class Mention:
    step: int
    field: str
    path: Path_
    seat: int
    card: str


def _mentions(secrets: Secrets, events: list[Any]) -> list[Mention]:
    return [
        Mention(step, field, path, seat, card)
        for step, event in enumerate(events)
        for field, path, seat in secrets.mentions(event)
        if isinstance(card := _get(event, field, path), str)
    ]


def alternative(secrets: Secrets, events: list[Any], rng: random.Random) -> tuple[list[Any], Mention, Mention] | None:
    """The record with two hidden cards exchanged (None when it has no two different ones). Between two
    seats, each holder's later hidden mentions of its card follow the exchange (the convoy laid is the
    card drawn); within one seat only the two draws change places."""
    mentions = _mentions(secrets, events)
    for _ in range(50):
        if len(mentions) < 2:
            return None
        a, b = sorted(rng.sample(mentions, 2), key=lambda m: m.step)
        if a.card != b.card:
            break
    else:
        return None
    alt = list(events)
    if a.seat == b.seat:
        moved = [(a, b.card), (b, a.card)]
    else:
        moved = [
            (m, other)
            for m in mentions
            for first, other in ((a, b.card), (b, a.card))
            if m.step >= first.step and m.seat == first.seat and m.card == first.card
        ]
    for mention, card in moved:
        alt[mention.step] = _set(alt[mention.step], mention.field, mention.path, card)
    return alt, a, b


def _named_in_the_open(secrets: Secrets, event: Any, cards: frozenset[str]) -> bool:
    """Whether the event names one of `cards` anywhere but in its hidden fields."""
    for field, path, _ in secrets.mentions(event):
        event = _set(event, field, path, None)

    def walk(value: Any) -> Iterator[Any]:
        if isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                yield from walk(item)
        else:
            yield value

    return any(value in cards for value in walk(msgspec.to_builtins(event)))


PICTURE_EVERY = 6


def _outputs(ruleset: Ruleset, before: Folded, event: Any, after: Folded, viewer: Viewer) -> tuple[Any, ...]:
    told = ruleset.narrate(before.state, event, after.state, viewer)
    # The line as each language tells it too: a translation must not name what the English keeps hidden.
    translated = tuple(Translator(language)(told.message or told.text) for language in ("fr", "es"))
    # And what the step changed, in the game's words, in each language.
    changed = tuple(
        what_changed(ruleset, before.state, after.state, viewer, words=Translator(language))
        for language in ("en", "fr", "es")
    )
    return (ruleset.view(after.state, viewer), told, ruleset.result(after.state, viewer), translated, changed)


def _french_picture(ruleset: Ruleset, folded: Folded) -> str:
    """The public's picture in French: its words must not name a card the public has not seen either."""
    return ruleset.picture(ruleset.view(folded.state, Viewer.public()), (), Translator("fr")) if ruleset.picture else ""


def compare(ruleset: Ruleset, secrets: Secrets, truth: list[Any], alt: list[Any], a: Mention, b: Mention) -> int:
    """Assert that every output for the public, and for each seat that holds neither swapped card, is the
    same for both records while the swapped cards stay hidden; return the number of steps compared."""
    cards = frozenset({a.card, b.card})
    told, other = start(ruleset, truth[0]), start(ruleset, alt[0])
    hidden = secrets.partners(told.state, a.seat) | secrets.partners(told.state, b.seat)
    seats = range(len(truth[0].setup.players))
    watchers = [Viewer.public(), *(Viewer.of_seat(seat) for seat in seats if seat not in hidden)]
    public = Viewer.public()
    shown: tuple[list[Any], list[Any]] = ([ruleset.view(told.state, public)], [ruleset.view(other.state, public)])
    compared = 0
    for step in range(1, len(truth)):
        event, swapped = truth[step], alt[step]
        if _named_in_the_open(secrets, event, cards) or _named_in_the_open(secrets, swapped, cards):
            break
        try:
            other_after = other.accept(swapped)
        except RuleError:  # the alternative is a record only so far
            break
        told_after = told.apply(event)
        if secrets.shows(told.state, event, told_after.state, cards) or secrets.shows(
            other.state, swapped, other_after.state, cards
        ):
            break
        for viewer in watchers:
            assert _outputs(ruleset, told, event, told_after, viewer) == _outputs(
                ruleset, other, swapped, other_after, viewer
            ), f"step {step + 1} ({type(event).__name__}) differs for {viewer} after swapping {a} and {b}"
        if step % PICTURE_EVERY == 0:  # drawn from the view compared above: a sample of steps is enough
            assert _french_picture(ruleset, told_after) == _french_picture(ruleset, other_after), f"picture {step + 1}"
        told, other = told_after, other_after
        shown[0].append(ruleset.view(told.state, public))
        shown[1].append(ruleset.view(other.state, public))
        compared += 1
    # The replay steps and the live messages are made of these; compared as the API and the stream send them.
    steps = replay(ruleset, truth[: compared + 1], public).steps
    assert steps == replay(ruleset, alt[: compared + 1], public).steps
    live = [[LiveStep(step=step, state=view) for step, view in zip(steps, views, strict=True)] for views in shown]
    assert msgspec.json.encode(live[0]) == msgspec.json.encode(live[1])
    # What the change feed and the webhooks send of each event (service.usecases.club_feed).
    assert _told_to_integrators(ruleset, truth[: compared + 1]) == _told_to_integrators(ruleset, alt[: compared + 1])
    return compared


def _told_to_integrators(ruleset: Ruleset, events: list[Any]) -> bytes:
    game = PublicGame(ruleset)
    return msgspec.json.encode([game.add(event) for event in events])


def swap_and_compare(ruleset: Ruleset, events: list[Any], rng: random.Random, times: int) -> int:
    secrets = SECRETS[ruleset.name]
    compared = 0
    for _ in range(times):
        made = alternative(secrets, events, rng)
        if made is not None:
            compared += compare(ruleset, secrets, events, *made)
    return compared


def _in_effect(events: list[Any]) -> list[Any]:
    """A record without its corrections: the events still in effect after its set-up."""
    return [events[0], *(event for _, event in effective_events_of(events))]


def _fixture(path: Path) -> tuple[Ruleset, list[Any]]:
    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    ruleset = RULESETS.get(msgspec.json.decode(lines[0], type=GameStarted).ruleset)
    return ruleset, _in_effect([decoder(ruleset).decode(line) for line in lines])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_recorded_game_tells_the_public_the_same_when_its_hidden_cards_are_swapped(path: Path) -> None:
    ruleset, events = _fixture(path)
    assert swap_and_compare(ruleset, events, random.Random(path.stem), times=6) > 0


def _memoire44_game(rng: random.Random, number: int) -> list[Any]:
    from testkit.players.memoire44 import AIR_VARIANTS, SCENARIOS, RandomTable, setup_for

    sides = ("AXIS", "ALLIES") if number % 2 else ("ALLIES", "AXIS")
    options = AIR_VARIANTS[0] if number % 3 == 2 else None  # one game in three with the air combat deck
    setup = setup_for(SCENARIOS[number % len(SCENARIOS)], sides=sides, options=options)
    table = RandomTable(rng, setup, face_down=0.0)
    table.play()
    return table.events


def _milles_nautiques_game(rng: random.Random, number: int) -> list[Any]:
    from testkit.players.milles_nautiques import Table, make_setup

    players = 2 + number % 5
    table = Table(rng, make_setup(players, teams=players in (4, 6) and number % 2 == 1), known=1.0)
    table.play()
    return table.events


def _atlantic_storm_game(rng: random.Random, number: int) -> list[Any]:
    from testkit.players.atlantic_storm import RandomGame, generated_catalogue

    players = 2 + number % 5
    variant = "advanced" if players > 2 and number % 2 else "basic"
    game = RandomGame(rng, generated_catalogue(number % 4), players, variant, hidden=0.0)
    game.play(lambda _: None)
    return [game.record_started, *(event for _, event in game.truth.effective_events())]


GAMES: dict[str, Callable[[random.Random, int], list[Any]]] = {
    "memoire-44": _memoire44_game,
    "milles-nautiques": _milles_nautiques_game,
    "atlantic-storm": _atlantic_storm_game,
}


def play_and_swap(name: str, games: int, seed: int) -> int:
    ruleset = RULESETS.get(name)
    compared = 0
    for number in range(games):
        rng = random.Random(seed + number)
        compared += swap_and_compare(ruleset, GAMES[name](rng, number), rng, times=4)
    return compared


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_games_tell_the_public_the_same_when_their_hidden_cards_are_swapped(name: str) -> None:
    assert play_and_swap(name, games=3, seed=1600) > 0


@pytest.mark.heavy
@pytest.mark.skipif(not os.environ.get("TABLELOG_HEAVY"), reason="set TABLELOG_HEAVY=<multiplier>")
@pytest.mark.parametrize("name", sorted(GAMES))
def test_many_more_random_games_keep_their_hidden_cards_hidden(name: str) -> None:
    multiplier = int(os.environ.get("TABLELOG_HEAVY", "1") or 1)
    assert play_and_swap(name, games=40 * multiplier, seed=16_000) > 0


def test_a_convoy_in_port_face_down_is_a_hidden_score_never_zero() -> None:
    """Milles Nautiques: once a convoy arrives face down (MN-15, MN-20: it may be the trawler), the public
    reads its side's score as hidden, in every language; the full record, which knows the card, reads
    the points. Swapping the hidden card changes nothing the public reads."""
    ruleset, events = _fixture(ROOT / "tests" / "domain" / "milles_nautiques" / "fixtures" / "cards_run_out.jsonl")
    folded = start(ruleset, events[0])
    for version, event in enumerate(events[1:], start=2):
        after = folded.apply(event, version)
        public = what_changed(ruleset, folded.state, after.state, Viewer.public()) or ()
        if any("in port: tonnage hidden" in line for line in public):
            break
        folded = after
    else:
        pytest.fail("no convoy arrives face down in this record")
    scores = [line for line in public if "score" in line or "points" in line]
    assert scores and all("score hidden" in line for line in scores), public
    assert not [line for line in public if re.search(r"\b0 points?\b", line)], public
    for language, hidden in (("fr", "caché"), ("es", "ocult")):
        told = what_changed(ruleset, folded.state, after.state, Viewer.public(), words=Translator(language)) or ()
        assert [line for line in told if hidden in line], (language, told)
    side = next(s for s in ruleset.view(after.state, Viewer.public())["sides"] if s["score_hidden"])
    assert side["name"] == "Bea"  # the view says so too (the API's spectators read it)
    assert not any(s["score_hidden"] for s in ruleset.view(after.state, Viewer.full())["sides"])
    full = what_changed(ruleset, folded.state, after.state, Viewer.full()) or ()
    assert not [line for line in full if "hidden" in line], full
    arrived = next(c for c in after.state.convoys if c.status == "arrived")
    assert arrived.card is not None and f"{arrived.card}" not in " ".join(public)
    # and the picture the public sees says so: no total for that side, the tonnage hidden
    assert ruleset.picture is not None
    drawn = ruleset.picture(msgspec.to_builtins(ruleset.view(after.state, Viewer.public())), [])
    assert "? pts" in drawn and "a convoy in port: tonnage hidden" in drawn
    french = ruleset.picture(
        msgspec.to_builtins(ruleset.view(after.state, Viewer.public())), [], words=Translator("fr")
    )
    assert "tonnage caché" in french


REPORT_STEPS = 30
"""The steps of a report compared after a swap: each draws a picture, and the rest is the same fold."""
REPORTED = [p for p in FIXTURES if "memoire44" not in p.parts] + [p for p in FIXTURES if "memoire44" in p.parts][:1]
"""The card games' fixtures and one battle (a battle's pictures are slow to draw, and drawn alike)."""


@pytest.mark.parametrize("path", REPORTED, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_public_report_is_the_same_when_its_hidden_cards_are_swapped(path: Path) -> None:
    """The report to keep (issue 31) of the public view, made of a record and of the same record with two
    hidden cards swapped, is the same file, in English and French, for as long as the cards stay hidden;
    the full record's report, which names them, is not."""
    ruleset, whole = _fixture(path)
    events, secrets, rng = whole[:REPORT_STEPS], SECRETS[ruleset.name], random.Random(f"report {path.stem}")
    for _ in range(10):
        made = alternative(secrets, events, rng)
        assert made is not None, "no two hidden cards to swap"
        alt, a, b = made
        steps = compare(ruleset, secrets, events, alt, a, b) + 1
        if b.step < steps:  # both swapped cards are in the part that stays hidden
            break
    else:
        pytest.fail("no swap stays hidden long enough to compare reports")
    game = GameRecord(
        game_id="g",
        club_id="c",
        ruleset=ruleset.name,
        ruleset_version=ruleset.version,
        player_ids=tuple(p.player_id for p in events[0].setup.players),
        created_at=datetime(2026, 11, 28, tzinfo=UTC),
        version=steps,
    )

    def report(record: list[Any], viewer: Viewer, language: str = "en") -> str:
        return report_of(ruleset, record[:steps], viewer, game=game, language=language)

    for language in ("en", "fr"):
        assert report(events, Viewer.public(), language) == report(alt, Viewer.public(), language), (a, b)
    assert report(events, Viewer.full()) != report(alt, Viewer.full())
