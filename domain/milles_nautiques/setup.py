"""Milles Nautiques' set-up: the options a round takes (its dealer and number, MN-17, MN-19) and `initial`,
the table before the deal, refusing a table the game cannot be played at (MN-2, MN-18)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.i18n import Catalogue
from domain.milles_nautiques.catalogue import CARDS
from domain.milles_nautiques.state import Hand, State
from domain.ruleset import RuleError, Setup

_ = Catalogue("domain.milles_nautiques")


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Set-up options: who deals this round (MN-19) and its number in the game of rounds (MN-17)."""

    dealer: Annotated[
        int | None,
        msgspec.Meta(
            description="The seat that deals this round (MN-19), counted from 0; blank: decided at the table."
        ),
    ] = None
    round: Annotated[
        int, msgspec.Meta(ge=1, description="This round's number in the game of rounds (MN-17), from 1.")
    ] = 1


OPTION_WORDS = {
    "dealer": (_("Dealer"), None),
    "round": (_("Round"), _("This round's number in the game of rounds (MN-17), from 1.")),
}
"""The start form's label and hint of each option, in the reader's language (the schema keeps English)."""


def initial(setup: Setup) -> State:
    """The table before the deal; refuses a table the game cannot be played at."""
    players = sorted(setup.players, key=lambda p: p.seat)
    count = len(players)
    if not 2 <= count <= 6:
        raise RuleError("MN-18", "player_count", _("Milles Nautiques is played by 2 to 6 players."), players=count)
    if [p.seat for p in players] != list(range(count)):
        raise RuleError(
            "MN-2",
            "bad_seats",
            _("Seats must be numbered 0, 1, 2... round the table."),
            seats=[p.seat for p in players],
        )
    try:
        options = msgspec.convert(setup.options, Options)
    except msgspec.ValidationError as error:
        raise RuleError("MN-19", "bad_options", _("Unreadable set-up options: {error}.", error=str(error))) from None
    if options.dealer is not None and not 0 <= options.dealer < count:
        raise RuleError("MN-19", "no_such_dealer", _("The dealer must be one of the players."), dealer=options.dealer)
    side_of, side_seats = _sides([p.team for p in players])
    return State(
        names=tuple(p.name for p in players),
        player_ids=tuple(p.player_id for p in players),
        side_of=side_of,
        side_seats=side_seats,
        round_number=options.round,
        dealer=options.dealer,
        hands=(Hand(),) * count,
        rows=((),) * len(side_seats),
        discard=(0,) * len(CARDS),
        seen=(0,) * len(CARDS),
    )


def _sides(teams: list[int | None]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Seat -> side, and each side's seats. MN-18: teams of two partners facing each other, 4 or 6
    players; otherwise everyone plays alone."""
    count = len(teams)
    if all(team is None for team in teams):
        return tuple(range(count)), tuple((seat,) for seat in range(count))
    if any(team is None for team in teams) or count not in (4, 6):
        raise RuleError("MN-18", "bad_teams", _("Team play is for 4 or 6 players, every player in a team."))
    half = count // 2
    for seat in range(half):
        if teams[seat] != teams[seat + half]:
            raise RuleError(
                "MN-18",
                "partners_not_facing",
                _("Partners sit facing each other: seats 0 and 2 (or 0 and 3 with six players)."),
                seat=seat,
                partner=seat + half,
            )
    if len(set(teams)) != half:
        raise RuleError("MN-18", "bad_teams", _("Each team is exactly two partners."))
    side_seats = tuple((seat, seat + half) for seat in range(half))
    return tuple(seat % half for seat in range(count)), side_seats
