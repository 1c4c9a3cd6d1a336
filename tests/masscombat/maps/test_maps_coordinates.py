"""The names written on a map's edges are those the battle room's lists use (issue #17)."""

import re

from hypothesis import given
from hypothesis import strategies as st

from masscombat.battles import adapters
from masscombat.maps.render import GUTTER, column_name, render_map_svg


def edges(svg: str) -> tuple[list[str], list[str]]:
    cols = re.search(r'<g class="coords-cols"[^>]*>(.*?)</g>', svg).group(1)
    rows = re.search(r'<g class="coords-rows"[^>]*>(.*?)</g>', svg).group(1)
    return re.findall(r">([^<]+)</text>", cols), re.findall(r">([^<]+)</text>", rows)


def test_a_square_grid_names_columns_by_letter_and_rows_from_one():
    svg = render_map_svg({"kind": "square", "width": 28, "height": 3, "data": {}})
    columns, rows = edges(svg)
    assert columns[:3] == ["A", "B", "C"] and columns[25:] == ["Z", "AA", "AB"]
    assert rows == ["1", "2", "3"]
    assert f'viewBox="-{GUTTER} -{GUTTER} ' in svg  # a band for them left and above the cells
    assert 'class="coords" aria-hidden="true"' in svg  # screen readers get the cells' own names


def test_hexes_name_columns_and_rows_from_zero():
    columns, rows = edges(render_map_svg({"kind": "hex", "width": 4, "height": 2, "data": {}}))
    assert columns == ["0", "1", "2", "3"] and rows == ["0", "1"]


def test_zones_have_names_of_their_own_and_no_edges():
    svg = render_map_svg({"kind": "zones", "width": 1, "height": 1, "data": {"zones": {"z": {"at": [0, 0]}}}})
    assert "coords" not in svg and 'viewBox="0 0 ' in svg


@given(st.integers(0, 2000), st.integers(0, 500))
def test_edges_and_lists_agree_on_every_square(x, y):
    assert column_name(x) + str(y + 1) == adapters.get("dnd5e").cell_label([x, y])


@given(st.integers(0, 60), st.integers(0, 60))
def test_edges_and_lists_agree_on_every_hex(col, row):
    assert f"{col},{row}" == adapters.get("heros").cell_label({"col": col, "row": row})
