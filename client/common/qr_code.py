"""A QR code of the server's address as plain data: its dark and light modules (no arcade).

Why a kept library: a QR code's encoding (Reed-Solomon error correction, masks, versions) is a known job; segno does
it in pure Python with no dependencies, and the desk only turns its module matrix into a picture
(``client.desk.desk_view``), so phones and tablets in the hall open the address by pointing a camera at the screen.
"""

from __future__ import annotations

QUIET_ZONE = 4  # modules of light border the QR specification asks for around the code


def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The rows of the QR code of ``text`` (True: a dark module), medium error correction, without the border."""
    import segno

    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def qr_pixels(text: str, scale: int) -> tuple[int, list[int]]:
    """The code with its quiet zone as a square grey image ``scale`` pixels per module: its side and its pixels
    (row by row from the top, 0 dark and 255 light)."""
    rows = qr_modules(text)
    side = len(rows) + 2 * QUIET_ZONE
    pixels: list[int] = []
    for y in range(side):
        module_row = rows[y - QUIET_ZONE] if QUIET_ZONE <= y < side - QUIET_ZONE else ()
        line: list[int] = []
        for x in range(side):
            dark = bool(module_row) and QUIET_ZONE <= x < side - QUIET_ZONE and module_row[x - QUIET_ZONE]
            line += [0 if dark else 255] * scale
        pixels += line * scale
    return side * scale, pixels
