"""The QR helper draws the address it is given, as well-formed inline SVG with an escaped title."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import segno

from service.pages.qr import qr_svg


def _dark_modules(svg: str) -> int:
    path = ET.fromstring(svg).find("path")
    assert path is not None
    # Each `h<n>` of the path draws n dark modules of one row.
    return sum(int(n) for n in re.findall(r"h(\d+)", path.attrib["d"]))


def test_the_svg_draws_the_address_given_and_escapes_its_title() -> None:
    address = "http://127.0.0.1:8000/clubs/c1/tournaments/t1/tables/3"
    svg = str(qr_svg(address, title='Table 3 <b>"x"</b>'))
    root = ET.fromstring(svg)
    assert root.tag == "svg"
    title = root.find("title")
    assert title is not None and title.text == 'Table 3 <b>"x"</b>'
    assert "<b>" not in svg
    expected = sum(sum(1 for bit in row if bit & 1) for row in segno.make(address, error="m", micro=False).matrix)
    assert _dark_modules(svg) == expected
    assert _dark_modules(str(qr_svg(address + "9"))) != expected
