"""The projections' explanations told in French and Spanish (issue 26): a tie-break chain and the
separations beside it, campaign notes, replay's start and correction lines and a Swiss round's dropped
constraint, each compared word for word with sentences written here by hand. English stays the
default, exactly as the other tests read it."""

from __future__ import annotations

import pytest

from domain.record import Correction, GameStarted
from domain.ruleset import Player, Setup, Viewer
from projections.campaigns import campaign_status
from projections.replay import replay
from projections.standings import Scoring, standings
from projections.tournaments import relaxed_message
from service.i18n import ENGLISH, Translator
from testkit.tally import RULESET, Rolled
from tests.projections.leagues import duel, league
from tests.projections.test_campaigns import ALAIN as ALAIN_ID
from tests.projections.test_campaigns import BEA as BEA_ID
from tests.projections.test_campaigns import CAMPAIGN, GAMES, played
from tests.projections.test_standings import CYCLE, CYCLE_LEAGUE

# The cycle of the standings tests: head-to-head leaves Cleo, Dan and Eve level and Sonneborn–Berger ranks
# them (Eve 7.5, Cleo 6, Dan 4.5).
TIE = {
    "en": "Eve, Cleo and Dan have 4 points each. They beat each other once each: head-to-head does not separate "
    "them; Sonneborn–Berger does: Eve 7.5, Cleo 6, Dan 4.5.",
    "fr": "Eve, Cleo et Dan ont 4 points chacun. Chacun l'a emporté une fois face aux autres : le critère "
    "« face-à-face » ne les départage pas ; le critère « Sonneborn–Berger » les départage : Eve 7,5, Cleo 6, Dan 4,5.",
    "es": "Eve, Cleo y Dan tienen 4 puntos cada uno. Cada uno ganó una vez a los demás: el criterio "
    "«enfrentamiento directo» no los separa; el criterio «Sonneborn–Berger» los separa: Eve 7,5, Cleo 6, Dan 4,5.",
}
SEPARATION = {
    "en": "Eve is above Cleo on Sonneborn–Berger (7.5 to 6).",
    "fr": "Eve est devant Cleo au critère « Sonneborn–Berger » (7,5 à 6).",
    "es": "Eve va por delante de Cleo en el criterio «Sonneborn–Berger» (7,5 a 6).",
}


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_a_tie_break_chain_and_its_separations_are_told_in_the_readers_language(language: str) -> None:
    table = standings(CYCLE_LEAGUE, CYCLE, words=Translator(language))
    (tie,) = table.ties
    assert tie.players == ("eve", "cleo", "dan")
    assert tie.text == TIE[language]
    assert table.separations[0].text == SEPARATION[language]
    # Only the words change: the numbers and the order are the English table's.
    english = standings(CYCLE_LEAGUE, CYCLE)
    assert [(r.player_id, r.tie_breaks) for r in table.rows] == [(r.player_id, r.tie_breaks) for r in english.rows]


def test_a_chain_that_leaves_players_level_says_so_in_french_and_spanish() -> None:
    """Two players who drew once, on points then wins: nothing separates them."""
    level = league(("ana", "bob"), Scoring(win_draw_loss=(3, 1, 0)), ("points", "wins"))
    games = [duel("a", 1, "ana", "bob", "D")]
    assert standings(level, games).ties[0].text == (
        "Ana and Bob have 1 points each. Wins does not separate them; nothing in the chain separates Ana and Bob: "
        "they share a rank."
    )
    assert standings(level, games, words=Translator("fr")).ties[0].text == (
        "Ana et Bob ont 1 point chacun. Le critère « victoires » ne les départage pas ; rien dans l'ordre des "
        "critères ne départage Ana et Bob : ils partagent un rang."
    )
    assert standings(level, games, words=Translator("es")).separations[0].text == "Ana y Bob están empatados."


CAMPAIGN_NOTES = {
    "en": ["", "not finished: the campaign waits for this game", "pending: the campaign waits for game c2"],
    "fr": ["", "non terminée : la campagne attend cette partie", "en attente : la campagne attend la partie c2"],
    "es": ["", "sin terminar: la campaña espera esta partida", "pendiente: la campaña espera la partida c2"],
}


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_a_campaigns_notes_are_told_in_the_readers_language(language: str) -> None:
    unfinished = played("c2", BEA_ID, ALAIN_ID, 6, 2)
    status = campaign_status(RULESET, CAMPAIGN, [GAMES[0], unfinished, GAMES[2]], words=Translator(language))
    assert [step.note for step in status.steps] == CAMPAIGN_NOTES[language]
    decided = campaign_status(
        RULESET, CAMPAIGN, [*GAMES, played("c5", ALAIN_ID, BEA_ID, 6, 1, 6)], words=Translator(language)
    )
    assert (
        decided.steps[-1].note
        == {
            "en": "played after the campaign was decided",
            "fr": "jouée après que la campagne a été décidée",
            "es": "jugada cuando la campaña ya estaba decidida",
        }[language]
    )


SETUP = Setup(players=(Player(player_id="p1", name="Alain", seat=0), Player(player_id="p2", name="Bea", seat=1)))
EVENTS = [
    GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=SETUP),
    Rolled(seat=0, face=3),
    Rolled(seat=1, face=5),
    Correction(voids=2, reason="wrong die"),
    Rolled(seat=0, face=4),
    Correction(voids=1),
]
REPLAY_LINES = {
    "en": [
        "A game of Tally (test ruleset) starts with Alain and Bea.",
        "Correction: voids the last 2 events (wrong die).",
        "Correction: voids the last event.",
    ],
    "fr": [
        "Tally (test ruleset) : une partie commence avec Alain et Bea.",
        "Correction : annule les 2 derniers événements (wrong die).",
        "Correction : annule le dernier événement.",
    ],
    "es": [
        "Empieza una partida de Tally (test ruleset) con Alain y Bea.",
        "Corrección: anula los últimos 2 eventos (wrong die).",
        "Corrección: anula el último evento.",
    ],
}


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_replays_start_and_correction_lines_are_told_in_the_readers_language(language: str) -> None:
    steps = replay(RULESET, EVENTS, Viewer.public(), words=Translator(language)).steps
    assert [steps[0].text, steps[3].text, steps[5].text] == REPLAY_LINES[language]
    # The game's own lines that are not messages yet stay as the game tells them.
    assert steps[1].text == replay(RULESET, EVENTS, Viewer.public()).steps[1].text


def test_teams_are_told_side_against_side_in_french() -> None:
    players = tuple(
        Player(player_id=f"p{n}", name=name, seat=n, team=n % 2)
        for n, name in enumerate(("Alain", "Bea", "Cleo", "Dan"))
    )
    events = [GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=Setup(players=players))]
    assert replay(RULESET, events, Viewer.public()).steps[0].text == (
        "A game of Tally (test ruleset) starts: Alain and Cleo (team 0) against Bea and Dan (team 1)."
    )
    assert replay(RULESET, events, Viewer.public(), words=Translator("fr")).steps[0].text == (
        "Tally (test ruleset) : une partie commence, Alain et Cleo (équipe 0) contre Bea et Dan (équipe 1)."
    )


def test_a_swiss_rounds_dropped_constraint_is_a_sentence_in_each_language() -> None:
    dropped = relaxed_message("no_repeat")
    assert ENGLISH(dropped) == "No repeat pairing was dropped: two players could meet again."
    assert Translator("fr")(dropped) == (
        "La règle « pas de revanche » a été levée : deux joueurs peuvent se rencontrer de nouveau."
    )
    assert Translator("es")(dropped) == ("Se dejó de evitar las revanchas: dos jugadores pueden volver a enfrentarse.")
