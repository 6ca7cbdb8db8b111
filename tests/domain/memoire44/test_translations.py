"""Mémoire 44 in French and Spanish (issue 26): the replay of a recorded game told line by line and a refusal
naming the same rule in the reader's words, compared word for word with lines written by hand here. The French
names are those the French cards and crib sheet print (seed 003: Infanterie, Blindés, Axe, Alliés, Grenade,
Drapeau, Étoile); the Spanish ones are our own translation. Hexes are shown as they are."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

import domain.memoire44
from domain.memoire44 import RULESET
from domain.memoire44.catalogue import CARDS
from domain.memoire44.events import CardDrawn, CombatCardDrawn
from domain.memoire44.overlord import team_roles
from domain.memoire44.series import series_next, series_status, series_told
from domain.memoire44.words import CARD_NAMES
from domain.record import Folded, decoder, fold, start
from domain.ruleset import Narration, PlayerResult, Result, RuleError, SeriesGame, Viewer
from service.i18n import ENGLISH, Translator
from tests.domain.memoire44.harness import FIXTURES, read_record, setup_for, state_after

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "hedgerow_lane_axis_medal_victory.jsonl"

FRENCH = {
    1: "Bea (Alliés) pioche une carte.",
    9: "Alain (Axe) joue Assaut au centre, donnant un ordre à toutes les unités de la section centre.",
    10: "Alain (Axe) donne un ordre à 4 unités : unité d'infanterie en E3, unité d'infanterie en E4, "
    "unité blindée en G4, unité d'infanterie en H4.",
    11: "Alain (Axe) déplace l'unité blindée en G4 → H5 → H6 → I7.",
    12: "Alain (Axe) combat avec l'unité d'infanterie en H4 contre l'unité d'infanterie alliée en J6 : 1 dé, "
    "Grenade. 1 figurine perdue.",
    14: "Alain (Axe) combat avec l'unité blindée en I7 contre l'unité blindée alliée en I6 : 3 dés, Infanterie, "
    "Drapeau, Étoile. Elle doit reculer de 1 hexagone.",
    15: "L'unité blindée alliée en I6 recule en J7.",
    16: "Alain (Axe) fait une prise de terrain : l'unité blindée en I7 avance en I6.",
    17: "Alain (Axe) combat avec l'unité blindée en I6 (percée de blindés) contre l'unité blindée alliée en J7 : "
    "3 dés, Grenade, Drapeau, Blindés. 2 figurines perdues. Elle doit reculer de 1 hexagone.",
    22: "Bea (Alliés) joue Attaque sur l'aile gauche, donnant un ordre à 3 unités.",
    39: "Bea (Alliés) garde une carte et défausse Assaut au centre.",
    90: "Alain (Axe) combat avec l'unité d'infanterie en H5 contre l'unité d'infanterie alliée en I5 : 2 dés, "
    "Infanterie, Infanterie. L'unité d'infanterie alliée est éliminée. Axe : 4 médailles désormais. "
    "Fin de la partie : objectif de 4 médailles atteint (Axe) ; vainqueur : Axe.",
}
SPANISH = {
    1: "Bea (Aliados) roba una carta.",
    9: "Alain (Eje) juega Asalto en el centro, dando orden a todas las unidades de la sección centro.",
    10: "Alain (Eje) da orden a 4 unidades: unidad de infantería en E3, unidad de infantería en E4, "
    "unidad blindada en G4, unidad de infantería en H4.",
    11: "Alain (Eje) mueve la unidad blindada en G4 → H5 → H6 → I7.",
    12: "Alain (Eje) combate con la unidad de infantería en H4 contra la unidad de infantería aliada en J6: 1 dado, "
    "Granada. 1 figura perdida.",
    14: "Alain (Eje) combate con la unidad blindada en I7 contra la unidad blindada aliada en I6: 3 dados, "
    "Infantería, Bandera, Estrella. Debe retirarse 1 hexágono.",
    15: "La unidad blindada aliada en I6 se retira a J7.",
    16: "Alain (Eje) conquista terreno: la unidad blindada en I7 avanza a I6.",
    22: "Bea (Aliados) juega Ataque en el flanco izquierdo, dando orden a 3 unidades.",
    39: "Bea (Aliados) se queda una carta y descarta Asalto en el centro.",
    61: "Alain (Eje) combate con la unidad blindada en K8 contra la unidad blindada aliada en J8: 3 dados, "
    "Blindados, Infantería, Bandera. La unidad blindada aliada es eliminada. Eje: ahora 1 medalla.",
    90: "Alain (Eje) combate con la unidad de infantería en H5 contra la unidad de infantería aliada en I5: "
    "2 dados, Infantería, Infantería. La unidad de infantería aliada es eliminada. Eje: ahora 4 medallas. "
    "Fin de la partida: objetivo de 4 medallas alcanzado (Eje); vencedor: Eje.",
}


def _events() -> list[Any]:
    return [decoder(RULESET).decode(line) for line in FIXTURE.read_bytes().splitlines() if line.strip()]


def _public_lines(steps: set[int]) -> dict[int, Narration]:
    """The public replay line of each of `steps` (1 = the event after the set-up) of the recorded game."""
    events = _events()
    folded: Folded = fold(RULESET, events[:1])
    told = {}
    for step, event in enumerate(events[1:], start=1):
        after = folded.accept(event)
        if step in steps:
            told[step] = RULESET.narrate(folded.state, event, after.state, Viewer.public())
        folded = after
    return told


@pytest.mark.parametrize(("language", "expected"), [("fr", FRENCH), ("es", SPANISH)])
def test_the_recorded_game_is_told_in_french_and_spanish_word_for_word(language: str, expected: dict[int, str]) -> None:
    translator = Translator(language)
    told = _public_lines(set(expected))
    assert sorted(told) == sorted(expected)
    for step, narration in told.items():
        assert narration.message is not None
        assert ENGLISH(narration.message) == narration.text  # English is the line as the other tests know it
        assert translator(narration.message) == expected[step], f"step {step}"


def test_a_card_drawn_after_the_game_is_over_is_refused_in_french_and_spanish_by_the_same_rule() -> None:
    over = fold(RULESET, _events()).state
    with pytest.raises(RuleError) as refused:
        RULESET.validate(over, CardDrawn(seat=0, card=None))
    error = refused.value
    assert (error.rule_id, error.code, error.message) == ("M44-6", "game_over", "The game is over.")
    assert Translator("fr")(error.said) == "La partie est terminée."
    assert Translator("es")(error.said) == "La partida ha terminado."


def test_an_event_before_a_due_retreat_is_refused_in_french_and_spanish_naming_the_hex() -> None:
    state = fold(RULESET, _events()[:15]).state  # step 14: the Allied armour at I6 must retreat 1 hex
    with pytest.raises(RuleError) as refused:
        RULESET.validate(state, CardDrawn(seat=0, card=None))
    error = refused.value
    assert (error.rule_id, error.code, error.message) == (
        "M44-3",
        "retreat_pending",
        "The unit at I6 must retreat first.",
    )
    assert Translator("fr")(error.said) == "L'unité en I6 doit d'abord reculer."
    assert Translator("es")(error.said) == "La unidad en I6 debe retirarse primero."


def test_every_command_card_has_a_name_to_translate() -> None:
    assert set(CARD_NAMES) == set(CARDS)
    assert {card: ENGLISH(name) for card, name in CARD_NAMES.items()} == {c: spec.name for c, spec in CARDS.items()}
    assert Translator("fr")(CARD_NAMES["attack_centre"]) == "Attaque au centre"
    assert Translator("es")(CARD_NAMES["air_power"]) == "Poder aéreo"
    # The rules summary names the Recon cards "Reconnaissance 1" (seed 003), as the card prints its one unit.
    assert Translator("fr")(CARD_NAMES["recon_1_left"]) == "Reconnaissance 1 sur l'aile gauche"
    assert Translator("es")(CARD_NAMES["recon_1_centre"]) == "Reconocimiento 1 en el centro"


def _scored(sides: tuple[str, str], alain: int, bea: int) -> SeriesGame:
    players = (PlayerResult(seat=0, score=alain), PlayerResult(seat=1, score=bea))
    return SeriesGame(
        setup=setup_for("hedgerow_lane", sides=sides), result=Result(finished=True, score_unit="medal", players=players)
    )


def test_the_match_note_is_told_in_french_and_spanish_with_the_english_unchanged() -> None:
    drawn = [_scored(("AXIS", "ALLIES"), 4, 2), _scored(("AXIS", "ALLIES"), 2, 4)]
    told = series_told(drawn)
    assert told is not None and series_status(drawn).note == told.english()
    assert [Translator(language)(told) for language in ("fr", "es")] == [
        "la deuxième partie n'a pas été jouée camps inversés ; match nul",
        "la segunda partida no se jugó con los bandos intercambiados; enfrentamiento empatado",
    ]
    assert series_told([_scored(("AXIS", "ALLIES"), 4, 2), _scored(("ALLIES", "AXIS"), 1, 4)]) is None


def test_a_third_game_of_a_match_is_refused_in_french_by_the_match_rule() -> None:
    games = [_scored(("AXIS", "ALLIES"), 4, 2), _scored(("ALLIES", "AXIS"), 1, 4)]
    with pytest.raises(RuleError) as refused:
        series_next(games, games[0].setup)
    assert (refused.value.rule_id, refused.value.code) == ("M44-MT-1", "match_over")
    assert Translator("fr")(refused.value.said) == "Un match se joue en 2 parties."


# -- every refusal in the reader's words --------------------------------------------------------------------


@cache
def _refusals() -> dict[str, RuleError]:
    """Refusals the recorded games give, by their English text: at every step of every fixture, the next
    events reported too early (skipping one, two or three) and the step's own event from the other seat."""
    found: dict[str, RuleError] = {}
    for path in sorted(FIXTURES.glob("*.jsonl")):
        events = read_record(path.name)
        folded = start(RULESET, events[0])
        game = events[1:]
        for step, event in enumerate(game):
            probes = [*game[step + 1 : step + 4]]
            if getattr(event, "seat", None) in (0, 1):
                probes.append(msgspec.structs.replace(event, seat=1 - event.seat))
            for probe in probes:
                try:
                    RULESET.validate(folded.state, probe)
                except RuleError as error:
                    found.setdefault(error.message, error)
            folded = folded.accept(event)
    return found


SAME_IN_EVERY_LANGUAGE: frozenset[str] = frozenset()
"""Refusals whose words are the same in English, French and Spanish (none so far)."""


@pytest.mark.parametrize("language", ["fr", "es"])
def test_no_refusal_the_recorded_games_give_is_left_in_english(language: str) -> None:
    refusals = _refusals()
    assert len({(e.rule_id, e.code) for e in refusals.values()}) >= 60  # the probes reach every rules module
    translator = Translator(language)
    untranslated = sorted(english for english, error in refusals.items() if translator(error.said) == english)
    assert [e for e in untranslated if e not in SAME_IN_EVERY_LANGUAGE] == []
    assert all(ENGLISH(error.said) == english for english, error in refusals.items())


def test_every_refusal_the_rules_raise_is_a_message_of_the_catalogue_not_plain_text() -> None:
    """No refusal is built from a string literal or an f-string: each goes through `_` with named
    placeholders, so it has a translation (the catalogue test checks those)."""
    plain = []
    for path in sorted(Path(domain.memoire44.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args or isinstance(node.args[0], ast.Starred):
                continue
            name = ast.unparse(node.func)
            if name not in ("RuleError", "refuse", "_refuse"):
                continue
            message = node.args[2] if len(node.args) >= 3 else node.args[0]
            if isinstance(message, ast.JoinedStr | ast.BinOp) or (
                isinstance(message, ast.Constant) and isinstance(message.value, str)
            ):
                plain.append(f"{path.name}:{node.lineno}")
    assert plain == []


def test_every_row_error_of_a_resource_file_is_a_message_of_the_catalogue_not_plain_text() -> None:
    """A resource's row errors (`{"field": ..., "message": ...}`) go through `_` too, so the API and the
    upload page tell them in the reader's language."""
    plain = []
    for path in sorted(Path(domain.memoire44.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                literal = isinstance(value, ast.JoinedStr | ast.BinOp) or (
                    isinstance(value, ast.Constant) and isinstance(value.value, str)
                )
                if isinstance(key, ast.Constant) and key.value == "message" and literal:
                    plain.append(f"{path.name}:{node.lineno}")
    assert plain == []


SAMPLES = {  # one or more refusals of each rules module: English -> (French, Spanish)
    # rules/base.py
    "This battle gets 1 die, not 2: infantry at range 2: 2; target in sandbags: -1.": (
        "Ce combat se livre avec 1 dé, pas 2 : infanterie à portée 2 : 2 ; cible en sacs de sable : -1.",
        "Este combate se libra con 1 dado, no 2: infantería a distancia 2: 2; objetivo en sacos terreros: -1.",
    ),
    "Battle refused: V8 is 6 hexes away; armour reaches 3.": (
        "Combat refusé : V8 est à 6 hexagones ; portée de l'unité (blindés) : 3.",
        "Combate rechazado: V8 está a 6 hexágonos; alcance de la unidad (blindados): 3.",
    ),
    "Move refused: D4 is occupied.": ("Déplacement refusé : D4 est occupé.", "Movimiento rechazado: D4 está ocupado."),
    "Air Power targets a group of units next to each other.": (
        "Attaque aérienne cible un groupe d'unités adjacentes les unes aux autres.",
        "Poder aéreo apunta a un grupo de unidades adyacentes entre sí.",
    ),
    # rules/air.py
    "A plane's attack comes in its side's turn (now: the moves).": (
        "L'attaque d'un avion a lieu pendant le tour de son camp (en ce moment : les déplacements).",
        "El ataque de un avión se hace en el turno de su bando (ahora: los movimientos).",
    ),
    # rules/overlord.py
    "The unit at I2 is not in the right section.": (
        "L'unité en I2 n'est pas dans la section droite.",
        "La unidad en I2 no está en la sección derecha.",
    ),
    # rules/dday.py
    "D1 is not an empty entry token.": ("D1 n'est pas un pion d'entrée libre.", "D1 no es una ficha de entrada libre."),
    "Reinforcements are rolled once a turn, by the active side, after its card (and Their Finest Hour's own dice), "
    "before its orders.": (
        "Les renforts se lancent une fois par tour, par le camp actif, après sa carte (et les dés de la carte "
        "Action héroïque), avant ses ordres.",
        "Los refuerzos se tiran una vez por turno, por el bando activo, tras su carta (y los dados de la carta "
        "Su hora más gloriosa), antes de sus órdenes.",
    ),
    # rules/common.py
    "Ambush is not in that hand.": ("Embuscade n'est pas dans cette main.", "Emboscada no está en esa mano."),
    # battlefield.py
    "Only an ordered unit moves or battles.": (
        "Seule une unité qui a reçu un ordre se déplace ou combat.",
        "Solo una unidad con orden se mueve o combate.",
    ),
}


@pytest.mark.parametrize("english", SAMPLES)
def test_a_refusal_of_each_rules_module_reads_word_for_word_in_french_and_spanish(english: str) -> None:
    error = _refusals()[english]
    assert (Translator("fr")(error.said), Translator("es")(error.said)) == SAMPLES[english]


def test_the_combat_card_and_team_table_refusals_read_in_french_and_spanish() -> None:
    state = state_after(read_record("hedgerow_lane_axis_medal_victory.jsonl"), 3)
    with pytest.raises(RuleError) as no_deck:  # rules/combat_cards.py
        RULESET.validate(state, CombatCardDrawn(seat=0, card=None))
    with pytest.raises(RuleError) as two_commanders:  # overlord.py
        team_roles([0, 0, 1, 1], ["commander", "commander", "commander", "left+centre+right"], (0, 1))
    told = [(Translator("fr")(e.value.said), Translator("es")(e.value.said)) for e in (no_deck, two_commanders)]
    assert told == [
        ("Cette partie ne se joue pas avec les cartes Combat.", "Esta partida no se juega con cartas de combate."),
        ("Un camp a un seul commandant en chef.", "Un bando tiene un solo comandante en jefe."),
    ]
    assert [e.value.code for e in (no_deck, two_commanders)] == ["no_combat_cards", "team_setup"]
