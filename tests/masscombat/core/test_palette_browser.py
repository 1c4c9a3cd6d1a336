"""The side colours as the browser renders them, light and dark, seen with deuteranopia and protanopia (issue #19).

``test_palette.py`` checks the stylesheet's custom properties; this reads what
chromium computes on a real battle room (the HÉROS demo battle after one
round: its strength chart and its hex map) in each theme: the chart's lines,
the pieces' fills, the terrain cells' fills over the map's ground (their
opacity blended in, as the eye gets them).  To every piece drawn there it
adds, in the same map, one piece of each of the four sides and one cell of
every terrain the stylesheet knows, so that sides and terrains no demo map
shows are read the same way.  Then, for normal vision and as deuteranopes
and protanopes see them (Machado et al. 2009):

- sides apart from each other (CIEDE2000 15, as the tokens), on the map and in the chart;
- every side's pieces apart from every terrain (10: a piece also has its outline);
- chart lines against the chart's background at 3:1 (WCAG's contrast for graphics);
- the map's words (elevation, glyphs, zone names) 4.5:1 against their halo.
"""

import itertools
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import (  # noqa: F401
    DESKTOP,
    browser,
    enter_battle,
    leave_the_room,
    resolve,
    screenshot,
)
from tests.masscombat.core.colour_vision import contrast, difference
from tests.masscombat.core.test_palette import MIN_DIFFERENCE, VISIONS

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

PIECE_FROM_TERRAIN = 10.0
GRAPHICS = 3.0
AA_TEXT = 4.5

# Every terrain class and flag of static/css/maps.css that fills a cell.
MAPS_CSS = Path(__file__).resolve().parents[3] / "static" / "css" / "maps.css"
TERRAINS = sorted(set(re.findall(r"\.(t-[a-z_]+)\b", MAPS_CSS.read_text()))) + ["f-river"]

# In the page: the computed colours, after adding the sample pieces and cells to the room's map.
READ = """terrains => {
  const svg = document.querySelector('#battle-map svg.battle-map');
  const ns = 'http://www.w3.org/2000/svg';
  const sample = document.createElementNS(ns, 'g');
  sample.setAttribute('data-sample', '');
  for (let side = 0; side < 4; side++) {
    const piece = document.createElementNS(ns, 'g');
    piece.setAttribute('class', `piece side-${side} k-stand`);
    piece.appendChild(document.createElementNS(ns, 'rect'));
    sample.appendChild(piece);
  }
  for (const terrain of terrains) {
    const cell = document.createElementNS(ns, 'rect');
    cell.setAttribute('class', `cell ${terrain}`);
    cell.setAttribute('data-terrain', terrain);
    sample.appendChild(cell);
  }
  svg.appendChild(sample);
  const style = el => getComputedStyle(el);
  const background = el => {
    for (; el; el = el.parentElement) {
      const colour = style(el).backgroundColor;
      if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
    }
    return style(document.body).backgroundColor;
  };
  const out = {
    theme: document.documentElement.dataset.theme,
    ground: background(document.querySelector('#battle-map .map-viewport')),
    pieces: [...svg.querySelectorAll('.piece > rect, .piece > circle')].map(shape => ({
      side: [...shape.parentElement.classList].find(c => /^side-\\d$/.test(c)), fill: style(shape).fill,
      sample: !!shape.closest('[data-sample]')})),
    cells: [...svg.querySelectorAll('.cell')].map(cell => ({
      terrain: cell.dataset.terrain || [...cell.classList].filter(c => /^[tf]-/.test(c)).join(' '),
      fill: style(cell).fill, opacity: style(cell).fillOpacity, sample: !!cell.closest('[data-sample]')})),
    words: [...svg.querySelectorAll('.elev, .glyph, .zone-name, .zone-terrain')].map(text => ({
      fill: style(text).fill, halo: style(text).stroke})),
    lines: [...document.querySelectorAll('svg.chart polyline')].map(line => style(line).stroke),
    chart: background(document.querySelector('svg.chart')),
  };
  sample.remove();
  return out;
}"""


def hex_of(css: str) -> str:
    """``rgb(r, g, b)`` (or ``rgba``) as ``#rrggbb``."""
    red, green, blue = (int(float(v)) for v in re.findall(r"[\d.]+", css)[:3])
    return f"#{red:02x}{green:02x}{blue:02x}"


def over(colour: str, ground: str, opacity: float) -> str:
    """``colour`` at ``opacity`` over ``ground``, as the eye gets it (sRGB blending, as browsers paint)."""
    top, bottom = bytes.fromhex(colour[1:]), bytes.fromhex(ground[1:])
    return "#" + "".join(f"{round(opacity * a + (1 - opacity) * b):02x}" for a, b in zip(top, bottom))


def rendered(page) -> dict:
    read = page.evaluate(READ, TERRAINS)
    ground = hex_of(read["ground"])
    sides = {}
    for piece in read["pieces"]:
        sides.setdefault(piece["side"], set()).add(hex_of(piece["fill"]))
    terrains = {}
    for cell in read["cells"]:
        terrains.setdefault(cell["terrain"], set()).add(over(hex_of(cell["fill"]), ground, float(cell["opacity"])))
    return {"theme": read["theme"], "sides": sides, "terrains": terrains, "read": read,
            "words": {(hex_of(w["fill"]), hex_of(w["halo"]) if w["halo"].startswith("rgb") else None)
                      for w in read["words"]},
            "lines": [hex_of(line) for line in read["lines"]], "chart": hex_of(read["chart"])}


def failures(seen: dict) -> list[str]:
    found = []
    side_colours = {side: colour for side, colours in seen["sides"].items() for colour in colours}
    for (one, first), (other, second) in itertools.combinations(sorted(side_colours.items()), 2):
        for vision in VISIONS:
            if difference(first, second, vision) < MIN_DIFFERENCE:
                found.append(f"{one} {first} ~ {other} {second} ({vision}): {difference(first, second, vision):.1f}")
    for (side, piece), (terrain, fills) in itertools.product(side_colours.items(), seen["terrains"].items()):
        for fill, vision in itertools.product(fills, VISIONS):
            if difference(piece, fill, vision) < PIECE_FROM_TERRAIN:
                found.append(f"{side} {piece} on {terrain} {fill} ({vision}): {difference(piece, fill, vision):.1f}")
    for first, second in itertools.combinations(seen["lines"], 2):
        for vision in VISIONS:
            if difference(first, second, vision) < MIN_DIFFERENCE:
                found.append(f"chart lines {first} ~ {second} ({vision})")
    found += [f"chart line {line} on {seen['chart']}: {contrast(line, seen['chart']):.2f}" for line in seen["lines"]
              if contrast(line, seen["chart"]) < GRAPHICS]
    found += [f"map word {fill} without a halo" for fill, halo in seen["words"] if halo is None]
    found += [f"map word {fill} on its halo {halo}: {contrast(fill, halo):.2f}" for fill, halo in seen["words"]
              if halo is not None and contrast(fill, halo) < AA_TEXT]
    return found


def test_rendered_side_colours_stay_apart_from_each_other_and_the_terrain(browser, daphne_server, screenshot):  # noqa: F811
    base = daphne_server(demo=True)
    page = browser.new_context(locale="en-GB", color_scheme="light", **DESKTOP).new_page()
    enter_battle(page, base, "demo-gm", "heros")
    resolve(page, 1)  # the chart draws a line per side from two rounds on
    expect(page.locator("svg.chart polyline")).to_have_count(2)
    results = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)  # theme.js follows the system while nothing else was chosen
        expect(page.locator("html")).to_have_attribute("data-theme", scheme)
        expect(page.locator("#battle-map svg.battle-map .piece").first).to_be_attached()
        seen = rendered(page)
        assert seen["theme"] == scheme
        # What the room draws, and the samples: the four sides and every terrain of the stylesheet.
        assert {"side-0", "side-1", "side-2", "side-3"} == set(seen["sides"])
        assert set(TERRAINS) <= set(seen["terrains"])
        assert any(not cell["sample"] for cell in seen["read"]["cells"])  # the map's own cells are read too
        assert len(seen["lines"]) == 2 and seen["words"], seen["read"]
        assert all(len(colours) == 1 for colours in seen["sides"].values()), seen["sides"]  # one colour per side
        results[scheme] = failures(seen)
        page.locator("#battle-map").scroll_into_view_if_needed()
        screenshot(page, f"palette-heros-en-desktop-gm-{scheme}")
    print({scheme: len(found) for scheme, found in results.items()}, results)
    assert results == {"light": [], "dark": []}
    leave_the_room(page)


def test_the_check_fails_on_the_colours_it_replaced():
    """The dark map's old terrain (four fifths of the light fill over the ground) hid the bluish-green side
    from deuteranopes on open ground, and the old impassable grey did so in the light theme."""
    seen = {"sides": {"side-2": {"#2fdfa0"}}, "terrains": {"t-open": {over("#dfe8c8", "#2a2c31", 0.8)}},
            "lines": [], "chart": "#ffffff", "words": set()}
    assert failures(seen) == ["side-2 #2fdfa0 on t-open #bbc2aa (deuteranopia): 2.3",
                              "side-2 #2fdfa0 on t-open #bbc2aa (protanopia): 8.6"]
    seen["sides"], seen["terrains"] = {"side-2": {"#0c7a58"}}, {"t-impassable": {"#6d6258"}}
    assert [failure.split(" (")[1] for failure in failures(seen)] == ["deuteranopia): 1.0", "protanopia): 8.0"]
