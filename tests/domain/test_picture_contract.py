"""Pictures through the ruleset contract: every game either draws its views as SVG or says it has no
picture (None), and every step of every recorded game draws, in the public and the full view, as a
document that parses, with a title, highlighting the paths that changed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from domain.milles_nautiques.scoring import points_text as points
from domain.record import Correction, start
from domain.ruleset import Viewer
from domain.svg import Changed, esc
from projections.diff import diff
from testkit import tally
from tests.domain.test_ruleset_contract import FIXTURES, load
from tests.support.rulesets import RULESETS

SVG = "{http://www.w3.org/2000/svg}"


def parse(document: str) -> ET.Element:
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") and root.get("width") is None  # scales to the page's width
    title = root.find(f"{SVG}title")
    assert title is not None and title.text
    return root


def changed_elements(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "changed" in (e.get("class") or "").split()]


def test_every_built_in_game_draws_pictures_and_a_ruleset_without_one_says_none() -> None:
    for ruleset in RULESETS:
        picture = ruleset.picture
        assert picture is None or callable(picture)
        if ruleset.name != "tally":
            assert callable(picture), f"{ruleset.name} has no picture"
    # A ruleset that does not name one (the tests' Tally) has the contract's default: None.
    assert tally.RULESET.picture is None


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_step_of_a_recorded_game_draws_in_the_public_and_full_views(path: Path) -> None:
    ruleset, events = load(path)
    picture = ruleset.picture
    folded = start(ruleset, events[0])
    viewers = (Viewer.public(), Viewer.full())
    before: dict[str, Any] = {v.kind: ruleset.view(folded.state, v) for v in viewers}
    for view in before.values():  # the set-up: a replay's first step adds the whole view at the root
        assert not changed_elements(parse(picture(view, [()])))
    highlighted = 0
    for event in events[1:]:
        folded = folded.apply(event)
        for viewer in viewers:
            view = ruleset.view(folded.state, viewer)
            paths = [tuple(str(part) for part in change.path) for change in diff(before[viewer.kind], view)]
            root = parse(picture(view, paths))
            highlighted += bool(changed_elements(root))
            if not isinstance(event, Correction):
                assert not changed_elements(parse(picture(view, ())))  # nothing changed: no highlight
            before[viewer.kind] = view
    assert highlighted > len(events) // 2  # most steps change something the picture draws


def test_a_changed_path_names_its_element_its_contents_and_what_replaced_its_holder() -> None:
    changed = Changed([("convoys", "2", "alert"), ("battle",)])
    assert changed("convoys", 2)
    assert changed("convoys", "2", "alert")
    assert not changed("convoys", 1)
    assert changed("battle", "plays", 0)  # the whole battle was replaced
    assert not changed("players")
    # The first step of a replay adds the whole view at the root: nothing is outlined.
    assert not Changed([()])("convoys", 0)


def test_text_is_escaped_and_half_points_read_as_points() -> None:
    assert esc("<script>\"x\" & 'y'</script>") == "&lt;script&gt;&quot;x&quot; &amp; &#x27;y&#x27;&lt;/script&gt;"
    assert [points(n) for n in (0, 1, 53, 54)] == ["0", "0.5", "26.5", "27"]
