"""The pictures of the stones and the puck, drawn once with Pillow (smooth edges by supersampling) and then used as
sprites, so a frame draws every body in one call (no arcade).

Why pictures: a stone is a shadow, a jersey, a rim, the goalie's mask ring and the mark that shows how it turns —
five shapes, fourteen stones, every frame; drawn shape by shape that cost about 3 ms a frame under software
rendering. The same look as ``client.common.board_view``'s shapes, from the colours of ``client.common.palette``; the
mark is a picture of its own so the stone's picture never turns (its shadow falls one way) while the mark does.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from client.common import palette
from shared.model import Team

RADIUS = 64  # px: a stone's radius in its picture (scaled to the board's size when drawn)
MARGIN = 14  # px around it, for the shadow
SIZE = 2 * (RADIUS + MARGIN)
SUPER = 4  # drawn this many times larger, then scaled down: smooth edges


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent supersampled canvas."""
    image = Image.new("RGBA", (SIZE * SUPER, SIZE * SUPER), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...] | None = None,
            outline: tuple[int, ...] | None = None, width: float = 0) -> None:
    """A circle of radius ``r`` (picture pixels) centred at (cx, cy) on the supersampled canvas."""
    s = SUPER
    draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=fill, outline=outline,
                 width=round(width * s))


def _finish(image: Image.Image) -> Image.Image:
    """Scale the supersampled canvas down to its size."""
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


@cache
def stone(team: Team, goalie: bool, upside_down: bool) -> Image.Image:
    """A stone's picture (without its mark and number): shadow, jersey or raw underside, rim, mask ring."""
    image, draw = _canvas()
    c, r = SIZE / 2, RADIUS
    _circle(draw, c + r * 0.12, c + r * 0.16, r, fill=(0, 0, 0, 70))  # the shadow (PIL's y points down)
    if upside_down:
        _circle(draw, c, c, r, fill=(*palette.STONE_UNDERSIDE, 255))
        _circle(draw, c, c, r * 0.62, outline=(*palette.STONE_UNDERSIDE_RIM, 255), width=r * 0.08)
        _circle(draw, c, c, r * 0.3, outline=(*palette.STONE_UNDERSIDE_RIM, 255), width=r * 0.06)
        _circle(draw, c, c, r, outline=(*palette.STONE_UNDERSIDE_RIM, 255), width=r * 0.12)
        return _finish(image)
    jersey = palette.kit(team)[0]
    _circle(draw, c, c, r, fill=(*jersey, 255), outline=(*palette.mix(jersey, (0, 0, 0), 0.45), 255),
            width=r * 0.14)
    if goalie:
        _circle(draw, c, c, r * 0.72, outline=(*palette.GOALIE_MASK, 255), width=r * 0.2)
    return _finish(image)


@cache
def mark(team: Team) -> Image.Image:
    """The mark on a stone's rim that turns with it, pointing to the right (angle 0), in the team's ink."""
    image, draw = _canvas()
    c, r = SIZE / 2, RADIUS
    ink = palette.kit(team)[1]
    draw.line(((c + r * 0.76) * SUPER, c * SUPER, (c + r * 0.98) * SUPER, c * SUPER), fill=(*ink, 255),
              width=round(r * 0.14 * SUPER))
    return _finish(image)


@cache
def puck() -> Image.Image:
    """The puck's picture: a light halo, the black disc and its rim (drawn at the stone's scale: see ``PUCK``)."""
    image, draw = _canvas()
    c, r = SIZE / 2, RADIUS
    _circle(draw, c, c, r * 1.3, outline=(255, 255, 255, 150), width=r * 0.25)
    _circle(draw, c, c, r, fill=(*palette.PUCK, 255), outline=(*palette.PUCK_RIM, 255), width=r * 0.18)
    return _finish(image)
