"""The colours of static/css/app.css, light and dark: side colours apart for colour-blind players, text readable.

The side colours (``--side-0`` .. ``--side-3``) mark the battle's sides in
text, in the strength chart and on the map's pieces. Each pair must stay apart
(CIEDE2000) for normal vision and as deuteranopes and protanopes see them
(Machado et al. 2009), and every colour that is text on a background must reach
WCAG AA (4.5:1), in both themes.  ``test_palette_browser.py`` checks the same
on what chromium renders (chart lines, map pieces), and the pieces against the
map's terrain fills.
"""

import itertools
import re
from pathlib import Path

import pytest

from masscombat.battles.pages import SIDE_COLOURS
from tests.masscombat.core.colour_vision import MACHADO, ciede2000, contrast, difference, lab, linear_rgb

APP_CSS = Path(__file__).resolve().parents[3] / "static" / "css" / "app.css"
VISIONS = (None, "deuteranopia", "protanopia")
MIN_DIFFERENCE = 15.0  # CIEDE2000; 2.3 is a just-noticeable difference, above 10 two colours read as different ones
AA_TEXT = 4.5
SIDES = [f"--side-{index}" for index in range(4)]
# (text, background) pairs the stylesheets put together.
TEXT_ON = [
    *[(text, ground) for text in ("--ink", "--muted", "--accent", "--danger", "--gm", "--player", *SIDES)
      for ground in ("--paper", "--card")],
    *[("--piece-ink", side) for side in SIDES],  # a piece's label on its side's colour
    *[("--badge-ink", ground) for ground in ("--muted", "--gm", "--player", "--accent", "--danger", "--warn", "--ink")],
    ("--accent-ink", "--accent"),  # primary buttons
    ("--header-ink", "--header"),
    ("--ink", "--ok-soft"), ("--ink", "--error-soft"), ("--ink", "--notice-soft"),
    ("--danger", "--error-soft"),  # offline status, sheet problems
    ("--player", "--ok-soft"),  # online status
    ("--gm", "--gm-soft"),  # rule sections
    ("--ink", "--accent-soft"),  # the picked choice
]


def custom_properties(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def theme(name: str) -> dict[str, str]:
    """The custom properties of app.css in the ``light`` or ``dark`` theme (dark overrides light)."""
    css = APP_CSS.read_text()
    light = re.search(r"^:root \{(.*?)^\}", css, re.S | re.M)
    dark = re.search(r'^:root\[data-theme="dark"\] \{(.*?)^\}', css, re.S | re.M)
    assert light and dark, "app.css lost its :root or its dark theme block"
    values = custom_properties(light.group(1))
    if name == "dark":
        values.update(custom_properties(dark.group(1)))
    return values


@pytest.mark.parametrize("name", ["light", "dark"])
def test_side_colours_stay_apart_for_colour_blind_players(name):
    colours = theme(name)
    sides = [colours[side] for side in SIDES]
    for (first, second), vision in itertools.product(itertools.combinations(sides, 2), VISIONS):
        gap = difference(first, second, vision)
        assert gap >= MIN_DIFFERENCE, f"{name}: {first} and {second} are {gap:.1f} apart for {vision or 'normal vision'}"


@pytest.mark.parametrize("name", ["light", "dark"])
def test_text_meets_wcag_aa(name):
    colours = theme(name)
    failing = {(text, ground): round(contrast(colours[text], colours[ground]), 2) for text, ground in TEXT_ON
               if contrast(colours[text], colours[ground]) < AA_TEXT}
    assert failing == {}, f"{name} theme, below {AA_TEXT}:1"


def test_the_dark_theme_changes_every_side_colour():
    light, dark = theme("light"), theme("dark")
    assert all(light[side] != dark[side] for side in SIDES)


def test_the_chart_paints_with_the_stylesheet_side_colours():
    """One source of truth: Python names the CSS properties, app.css holds the colours of both themes."""
    assert SIDE_COLOURS == tuple(f"var({side})" for side in SIDES)
    assert set(SIDES) <= set(theme("light")) and set(SIDES) <= set(theme("dark"))


def test_the_old_side_colours_would_fail():
    """The check can fail: the red-brown and ochre of the first palette merged for deuteranopes."""
    assert difference("#8c2f1b", "#7a5a1b", "deuteranopia") < MIN_DIFFERENCE


# -- the colour arithmetic itself --------------------------------------------------------------


@pytest.mark.parametrize(("first", "second", "expected"), [
    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 2, 3, 7, 17 and 25.
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_matches_the_published_test_data(first, second, expected):
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(second, first) == pytest.approx(expected, abs=1e-4)


def test_lab_of_white_and_black():
    assert lab(linear_rgb("#ffffff")) == pytest.approx((100.0, 0.0, 0.0), abs=0.05)
    assert lab(linear_rgb("#000000")) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)


@pytest.mark.parametrize("deficiency", sorted(MACHADO))
def test_dichromats_see_grey_as_grey_and_red_near_green(deficiency):
    for row in MACHADO[deficiency]:
        assert sum(row) == pytest.approx(1.0, abs=1e-5)
    assert difference("#808080", "#808080", deficiency) == 0
    # Red and green, far apart for normal vision, come close for both dichromacies.
    assert difference("#cc3311", "#338833", deficiency) < difference("#cc3311", "#338833") / 2


def test_wcag_contrast_extremes():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#777777") == pytest.approx(1.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
