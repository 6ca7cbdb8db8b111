"""QR codes drawn on the server as inline SVG (segno): a phone opens a table's page or a player's link
from a projected screen or a printed slip without typing a long address."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(address: str, *, title: str = "", scale: int = 4, fit: bool = False) -> Markup:
    """An address as an inline `<svg>` QR code; `title` is what a screen reader says of it. `fit`: a
    `viewBox` instead of a size, so the stylesheet sizes it (large on a screen, in millimetres on paper).

    Error correction "M" (15 %) survives a creased or smudged slip; the quiet zone is kept so a phone
    finds the code on a busy page."""
    code = segno.make(address, error="m", micro=False)
    # segno writes the title escaped and nothing else of ours: the address is only in the modules drawn.
    return Markup(code.svg_inline(scale=scale, title=title or None, svgclass="qr", lineclass=None, omitsize=fit))
