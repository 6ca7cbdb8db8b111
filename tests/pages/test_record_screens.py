"""Every decision within two phone screens (issue 29): at the step of each recorded fixture game whose
decision lists the most choices, the recording page at 360×780 shows its choices grouped by what the
table is doing, long groups folded, so that the choices end within two screens (to the last option of
the group shown); the filter finds a card by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.record import decoder, fold
from service.cli import main as tablelog
from tests.pages.conftest import ARTEFACTS, PHONE, Site
from tests.pages.test_record import choices, phone, settled
from tests.support.rulesets import RULESETS

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
GAMES = (
    "tests/domain/milles_nautiques/fixtures/cards_run_out.jsonl",
    "tests/domain/memoire44/fixtures/hedgerow_lane_axis_medal_victory.jsonl",
    "tests/domain/atlantic_storm/fixtures/three_players_two_convoys.jsonl",
)


def tallest_step(lines: list[bytes]) -> int:
    """How many events lead to the decision listing the most choices (all seats together)."""
    ruleset = RULESETS.get(json.loads(lines[0])["ruleset"])
    read = decoder(ruleset)
    events = [read.decode(line) for line in lines]
    folded = fold(ruleset, events[:1])
    best, at = -1, 1
    for step in range(1, len(events)):
        folded = folded.apply(events[step])
        seats = range(len(folded.setup.players))
        count = sum(len(ruleset.legal_events(folded.state, seat) or []) for seat in seats)
        if count > best:
            best, at = count, step + 1
    return at


@pytest.mark.parametrize("fixture", GAMES)
def test_the_tallest_decision_of_a_recorded_game_fits_two_phone_screens(
    browser: Any, site: Site, tmp_path: Path, fixture: str
) -> None:
    lines = (ROOT / fixture).read_bytes().splitlines()
    step = tallest_step(lines)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[:step]) + b"\n")
    game_id = f"tallest-{Path(fixture).stem.replace('_', '-')}"
    assert (
        tablelog(
            ["import", str(cut), "--club", "c1", "--game-id", game_id, "--database-url", site.database_url],
            rulesets=RULESETS,
        )
        == 0
    )
    page = phone(browser, site)
    page.goto(f"/club/c1/games/{game_id}/record")
    settled(page)
    listed = choices(page)
    assert len(listed) > 8  # a long decision: folded into groups
    height = page.evaluate(
        """() => {
          const box = document.getElementById('choices');
          const shown = [...box.querySelectorAll('button')].filter(
            (b) => !b.closest('details:not([open])') && b.getClientRects().length > 0
          );
          const last = shown[shown.length - 1] || box;
          return last.getBoundingClientRect().bottom - box.getBoundingClientRect().top;
        }"""
    )
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#choices").screenshot(path=str(ARTEFACTS / f"record-tallest-{game_id}-phone.png"))
    assert height <= 2 * PHONE["height"], (fixture, step, len(listed), height)
    # The filter: a word of a listed label keeps only the choices that say it, their groups unfolded.
    word = max(
        json.loads(page.locator("button.choice").first.evaluate("b => JSON.stringify(b.textContent.split(' '))")),
        key=len,
    )
    page.fill("#choice-filter", word)
    kept = page.locator("button.choice").evaluate_all("bs => bs.map(b => b.textContent)")
    assert kept and all(word.lower() in label.lower() for label in kept)
    assert page.locator("button.choice").first.is_visible()
    page.context.close()


def test_tapping_a_unit_at_the_order_step_narrows_the_orders_to_those_that_hold_it(
    browser: Any, site: Site, tmp_path: Path
) -> None:
    lines = (ROOT / GAMES[1]).read_bytes().splitlines()
    ruleset = RULESETS.get("memoire-44")
    read = decoder(ruleset)
    events = [read.decode(line) for line in lines]
    folded = fold(ruleset, events[:1])
    step, ordered = 0, {}
    for index in range(1, len(events)):  # the first order step offering several orders
        seat = json.loads(lines[index]).get("seat", 0)
        if json.loads(lines[index])["type"] == "memoire44.units_ordered" and (
            len(ruleset.legal_events(folded.state, seat) or []) > 3
        ):
            step, ordered = index, json.loads(lines[index])
            break
        folded = folded.apply(events[index])
    assert ordered
    cut = tmp_path / "order.jsonl"
    cut.write_bytes(b"\n".join(lines[:step]) + b"\n")
    assert (
        tablelog(
            ["import", str(cut), "--club", "c1", "--game-id", "order-step", "--database-url", site.database_url],
            rulesets=RULESETS,
        )
        == 0
    )
    page = phone(browser, site)
    page.goto("/club/c1/games/order-step/record")
    settled(page)
    before = choices(page)
    assert ordered in before and all(e["type"] == "memoire44.units_ordered" for e in before)
    uid = ordered["units"][0]
    page.click("#zoom")
    page.locator(f"""#picture g[data-pick^='{{"unit":{uid},']""").first.click(force=True)
    after = choices(page)
    assert ordered in after and len(after) < len(before)
    assert all(uid in e["units"] for e in after)  # the pick names `unit`, the order holds `units`
    page.context.close()


def test_an_overlord_board_zoomed_on_a_phone_has_hexes_as_large_as_a_standard_board_and_pans(
    browser: Any, site: Site, tmp_path: Path
) -> None:
    """Overlord draws two boards side by side: at 360 px its hexes are a dozen pixels across. The bigger
    picture zooms a wider board as much more, so a hex is a thumb's width on either board (issue 29)."""
    hex_widths: dict[str, float] = {}
    for name, fixture in (
        ("overlord", "tests/domain/memoire44/fixtures/meuse_line_overlord_six.jsonl"),
        ("standard", GAMES[1]),
    ):
        cut = tmp_path / f"{name}.jsonl"
        cut.write_bytes((ROOT / fixture).read_bytes().splitlines()[0] + b"\n")
        assert (
            tablelog(
                ["import", str(cut), "--club", "c1", "--game-id", f"board-{name}", "--database-url", site.database_url],
                rulesets=RULESETS,
            )
            == 0
        )
        page = phone(browser, site)
        page.goto(f"/club/c1/games/board-{name}/record")
        settled(page)
        width = "() => document.querySelector('#picture path.hex').getBoundingClientRect().width"
        before = page.evaluate(width)
        page.click("#zoom")
        hex_widths[name] = page.evaluate(width)
        assert hex_widths[name] > 1.9 * before
        pans = page.evaluate(
            "() => { const p = document.getElementById('picture'); return p.scrollWidth > p.clientWidth; }"
        )
        assert pans
        if name == "overlord":
            assert before < 20  # the reason for it: unreadable unzoomed
            page.locator("#picture").evaluate("p => p.scrollTo(p.scrollWidth / 3, 0)")
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTEFACTS / "record-memoire-44-overlord-zoomed-phone.png"))
        page.context.close()
    assert hex_widths["overlord"] >= 44  # a thumb (WCAG 2.5.5's 44 px target)
    assert abs(hex_widths["overlord"] - hex_widths["standard"]) < 0.15 * hex_widths["standard"]
