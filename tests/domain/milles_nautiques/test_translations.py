"""Milles Nautiques in French and Spanish (issue 26): replay lines of recorded rounds and rule refusals told
in the reader's language, compared word for word with lines written by hand here. The French names are
those printed on the French cards (the French rulebook's "COMPOSITION DU JEU": alerte, porte-avions,
chalutier, mer belle...); the Spanish ones are our own translation. Numbers are written as each language
writes them: "2 000 milles" with a narrow no-break space in French, "2.000 millas" in Spanish, "2,5" points."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.events import ConvoyPlaced, Drew, MilesPlayed
from domain.record import Folded, decoder, fold
from domain.ruleset import Narration, Viewer
from service.i18n import ENGLISH, Translator
from tests.domain.milles_nautiques.harness import Scene, laid_and_sailed_in

FIXTURES = Path(__file__).resolve().parent / "fixtures"
N = "\u202f"  # the French thousands separator

TEAMS = "four_players_in_teams"  # Alain and Claire against Bea and Damien, Damien deals
RUN_OUT = "cards_run_out"  # Alain against Bea until the cards run out

FRENCH = {
    (TEAMS, 1): "Damien distribue six cartes à chaque joueur ; Alain joue en premier.",
    (TEAMS, 2): "Alain pioche une carte.",
    (TEAMS, 3): "Alain pose un convoi face cachée pour ouvrir la rangée : le premier convoi posé par Alain.",
    (TEAMS, 7): f"Claire pose 2{N}000 milles sur le premier convoi posé par Alain (2{N}000 milles parcourus).",
    (TEAMS, 9): "Damien pose une alerte contre le premier convoi posé par Alain.",
    (TEAMS, 11): "Alain pose une mine contre le premier convoi posé par Bea.",
    (TEAMS, 13): "Bea engage un croiseur contre le premier convoi posé par Alain.",
    (TEAMS, 15): "Claire défend le premier convoi posé par Alain avec un porte-avions.",
    (TEAMS, 17): f"Damien pose 1{N}000 milles sur le premier convoi posé par Bea (1{N}000 milles parcourus). "
    "Alain commence son tour : sa mine explose, le premier convoi posé par Bea est coulé et capturé par Alain.",
    (TEAMS, 21): "Bea pose un convoi face cachée pour ouvrir la rangée : le deuxième convoi posé par Bea. "
    "Claire commence son tour : son navire a tenu, le premier convoi posé par Alain est sauvé et poursuit sa route.",
    (TEAMS, 23): f"Claire pose 2{N}000 milles sur le premier convoi posé par Alain (4{N}000 milles parcourus). "
    "Le premier convoi posé par Alain arrive à bon port. "
    "Fin de la manche : Alain et Claire atteignent 40 points et gagnent la manche.",
    (
        RUN_OUT,
        7,
    ): "Alain pose un convoi face cachée à l'extrémité tribord de la rangée : le deuxième convoi posé par Alain.",
    (RUN_OUT, 21): "Bea envoie un second avion contre le troisième convoi posé par Alain. "
    "Le troisième convoi posé par Alain est détruit et capturé par Bea.",
    (RUN_OUT, 33): f"Bea défausse un convoi de 2{N}500 tonneaux.",
    (RUN_OUT, 201): "Bea défausse le pavillon neutre. Fin de la manche, les cartes sont épuisées : "
    "les convois face cachée sont montrés avant de compter la manche.",
    (RUN_OUT, 202): "La table dévoile des convois : le troisième convoi posé par Bea est le chalutier. "
    "Tous les convois sont face visible : Bea gagne la manche avec 12 points, "
    "meilleur score parmi les joueurs ayant un convoi au port.",
}

SPANISH = {
    (TEAMS, 1): "Damien reparte seis cartas a cada jugador; Alain juega primero.",
    (TEAMS, 2): "Alain roba una carta.",
    (TEAMS, 3): "Alain coloca un convoy boca abajo para abrir la fila: el primer convoy de Alain.",
    (TEAMS, 7): "Claire coloca 2.000 millas en el primer convoy de Alain (2.000 millas recorridas).",
    (TEAMS, 9): "Damien coloca una alerta contra el primer convoy de Alain.",
    (TEAMS, 11): "Alain coloca una mina contra el primer convoy de Bea.",
    (TEAMS, 13): "Bea lanza un crucero contra el primer convoy de Alain.",
    (TEAMS, 15): "Claire defiende el primer convoy de Alain con un portaaviones.",
    (TEAMS, 17): "Damien coloca 1.000 millas en el primer convoy de Bea (1.000 millas recorridas). "
    "Alain empieza su turno: su mina explota, el primer convoy de Bea es hundido y capturado por Alain.",
    (TEAMS, 21): "Bea coloca un convoy boca abajo para abrir la fila: el segundo convoy de Bea. "
    "Claire empieza su turno: su barco ha resistido, el primer convoy de Alain se salva y sigue su rumbo.",
    (TEAMS, 23): "Claire coloca 2.000 millas en el primer convoy de Alain (4.000 millas recorridas). "
    "El primer convoy de Alain llega a puerto. Fin de la ronda: Alain y Claire llegan a 40 puntos y ganan la ronda.",
    (RUN_OUT, 7): "Alain coloca un convoy boca abajo en el extremo de estribor de la fila: el segundo convoy de Alain.",
    (RUN_OUT, 21): "Bea envía un segundo avión contra el tercer convoy de Alain. "
    "El tercer convoy de Alain es destruido y capturado por Bea.",
    (RUN_OUT, 33): "Bea descarta un convoy de 2.500 toneladas.",
    (RUN_OUT, 201): "Bea descarta la bandera neutral. Fin de la ronda, se han acabado las cartas: "
    "los convoyes boca abajo se muestran antes de puntuar la ronda.",
    (RUN_OUT, 202): "La mesa descubre convoyes: el tercer convoy de Bea es el arrastrero. "
    "Todos los convoyes están boca arriba: Bea gana la ronda con 12 puntos, "
    "la mejor puntuación entre los jugadores con un convoy en puerto.",
}


def _public_lines(name: str, steps: set[int]) -> dict[int, Narration]:
    """The public replay line of each of `steps` (1 = the event after the set-up) of a recorded round."""
    lines = (FIXTURES / f"{name}.jsonl").read_bytes().splitlines()
    events = [decoder(RULESET).decode(line) for line in lines if line.strip()]
    folded: Folded = fold(RULESET, events[:1])
    told = {}
    for step, event in enumerate(events[1:], start=1):
        after = folded.accept(event)
        if step in steps:
            told[step] = RULESET.narrate(folded.state, event, after.state, Viewer.public())
        folded = after
    return told


@pytest.mark.parametrize(("language", "expected"), [("fr", FRENCH), ("es", SPANISH)])
def test_recorded_rounds_are_told_in_french_and_spanish_word_for_word(
    language: str, expected: dict[tuple[str, int], str]
) -> None:
    translator = Translator(language)
    for name in (TEAMS, RUN_OUT):
        wanted = {step: line for (fixture, step), line in expected.items() if fixture == name}
        told = _public_lines(name, set(wanted))
        assert sorted(told) == sorted(wanted)
        for step, narration in told.items():
            assert narration.message is not None
            assert ENGLISH(narration.message) == narration.text  # English is the line as the tests know it
            assert translator(narration.message) == wanted[step], f"{name} step {step}"


def test_half_points_are_written_with_a_decimal_comma_in_french_and_spanish() -> None:
    scene = Scene().run_out(
        {0: laid_and_sailed_in(0, 1, "convoy_2500"), 1: [ConvoyPlaced(seat=1, position=0, card="convoy_20000")]}
    )
    line = RULESET.narrate(scene.before, scene.latest, scene.state, Viewer.public()).message
    assert line is not None
    assert Translator("fr")(line).endswith(
        "Fin de la manche, les cartes sont épuisées : Alain gagne la manche avec 2,5 points, "
        "seul joueur à avoir un convoi au port."
    )
    assert Translator("es")(line).endswith(
        "Fin de la ronda, se han acabado las cartas: Alain gana la ronda con 2,5 puntos, "
        "único jugador con un convoy en puerto."
    )


def test_a_player_out_of_turn_is_refused_in_french_and_spanish_by_the_same_rule() -> None:
    error = Scene().refuse(Drew(seat=1))
    assert (error.rule_id, error.code, error.message) == ("MN-2", "not_your_turn", "It is Alain's turn.")
    assert Translator("fr")(error.said) == "C'est à Alain de jouer."
    assert Translator("es")(error.said) == "Es el turno de Alain."


def test_a_refusal_names_the_card_as_the_french_cards_print_it() -> None:
    error = Scene().draw().refuse(MilesPlayed(seat=0, convoy=1, card="carrier"))
    assert (error.rule_id, error.code, error.message) == (
        "MN-4",
        "not_miles",
        "an aircraft carrier is not a miles card.",
    )
    assert Translator("fr")(error.said) == "Cette carte n'est pas une carte milles : un porte-avions."
    assert Translator("es")(error.said) == "Esa carta no es una carta de millas: un portaaviones."
