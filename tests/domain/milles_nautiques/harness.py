"""Build a round turn by turn for rule tests. Draws are face down unless named, so a play may take
any card from the face-down part of the hand (G-2): scenes need not list hands."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.catalogue import CARDS
from domain.milles_nautiques.events import ConvoyPlaced, Dealt, Discarded, Drew, MilesPlayed
from domain.milles_nautiques.state import State
from domain.ruleset import RuleError
from testkit.players.milles_nautiques import make_setup


class Scene:
    """A dealt round; seat 0 plays first unless another dealer is given (MN-19)."""

    def __init__(
        self, players: int = 2, teams: bool = False, hands: tuple[tuple[str, ...], ...] = (), dealer: int | None = None
    ):
        dealer = players - 1 if dealer is None else dealer
        self.state: State = RULESET.initial(make_setup(players, teams, dealer))
        self.reserved: Counter[str] = Counter()  # cards the table holds face down, never to be discarded
        self.before: State = self.state  # the state before the latest event, for its replay line
        self.latest: Any = None
        self.do(Dealt(dealer=dealer, hands=hands))

    @property
    def seat(self) -> int:
        return self.state.to_play

    def do(self, *events: Any) -> Scene:
        for event in events:
            RULESET.validate(self.state, event)
            self.before, self.state, self.latest = self.state, RULESET.evolve(self.state, event), event
        return self

    def draw(self, card: str | None = None) -> Scene:
        return self.do(Drew(seat=self.seat, card=card))

    def turn(self, play: Any, draw: str | None = None) -> Scene:
        """The player to play draws if he has not yet (face down unless `draw` names it), then plays."""
        if self.state.phase == "draw":
            self.draw(draw)
        return self.do(play)

    def spare_card(self) -> str:
        """A card kind the record can still name, for a discard: 200 miles or a radar while any are
        left (tests assert on the discard of other kinds), else the kind with the most copies left."""
        left = {c.name: c.count - self.state.seen[i] - self.reserved[c.name] for i, c in enumerate(CARDS)}
        for name in ("miles_200", "radar"):
            if left[name] > 0:
                return name
        return max(left, key=lambda name: left[name])

    def skip(self, turns: int = 1) -> Scene:
        """Players draw (if they have not yet) and discard a card, `turns` times."""
        for _ in range(turns):
            self.turn(Discarded(seat=self.seat, card=self.spare_card()))
        return self

    def run_out(self, plays: dict[int, list[Any]]) -> Scene:
        """Play `plays` (by seat, in order) on each player's turns and discard otherwise, until the
        round ends (or waits for its face-down convoys to be shown)."""
        while self.state.phase not in ("over", "reveal"):
            if self.state.phase in ("draw", "extra_draw"):
                self.draw()
                continue
            queue = plays.get(self.seat)
            self.do(queue.pop(0) if queue else Discarded(seat=self.seat, card=self.spare_card()))
        return self

    def refuse(self, event: Any) -> RuleError:
        with pytest.raises(RuleError) as error:
            RULESET.validate(self.state, event)
        return error.value

    def convoy(self, number: int) -> Any:
        convoy = self.state.convoy(number)
        assert convoy is not None
        return convoy

    def discarded(self, card: str) -> int:
        return self.state.discard[[c.name for c in CARDS].index(card)]


def laid_and_sailed_in(seat: int, number: int, card: str | None = None) -> list[Any]:
    """A seat's plays for `Scene.run_out`: a convoy (the round's number `number`) laid at the port end,
    then sailed into port with four 1,000s (MN-4)."""
    return [
        ConvoyPlaced(seat=seat, position=0, card=card),
        *[MilesPlayed(seat=seat, convoy=number, card="miles_1000")] * 4,
    ]
