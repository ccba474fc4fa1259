"""Chapter II in the client: the two teams' kits."""

from __future__ import annotations

from client.common import palette


def _luminance(rgb: tuple[int, int, int]) -> float:
    r, g, b = (c / 255 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_II_2_the_two_kits_never_clash():
    """II.2 (digital): home and away jerseys differ strongly in brightness, so they never look alike."""
    home, away = palette.kit("home")[0], palette.kit("away")[0]
    assert abs(_luminance(home) - _luminance(away)) > 0.35


def test_II_3_kits_belong_to_the_seat_so_no_lot_is_needed():
    """II.3 (digital): kits go with the seat, not the coach, so two coaches can never bring the same colours."""
    assert set(palette.KITS) == {"home", "away"}
    for team in ("home", "away"):
        jersey, number = palette.kit(team)
        assert abs(_luminance(jersey) - _luminance(number)) > 0.35  # the number stays readable on the jersey
