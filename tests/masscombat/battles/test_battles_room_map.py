"""The battle room's map as an input: path and cell options picked on the map, and the GM's placement.

The forms are built from the real engines' options (D&D 5e's "battle of the
bridge" kit and HÉROS's S9.12 set-up) with the generic adapter; the room and
the placement run the D&D 5e demo battle through its adapter.
"""

import copy
import importlib.util
import json
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection  # noqa: F401 - read by the skipif condition below
from django.urls import reverse

from masscombat.battles import adapters, replay, selectors, services
from masscombat.games.dnd5e import demo as demo_dnd5e
from masscombat.battles.adapters import Adapter
from masscombat.battles.forms import DeclarationForm, PlacementForm
from masscombat.battles.models import Battle, BattleEvent, Declaration, Round
from masscombat.core.permissions import Action, Role
from masscombat.maps import demo as maps_demo
from masscombat.rosters import examples
from masscombat.rosters import services as roster_services
from rules import registry
from rules.errors import InvalidInput

pytestmark = pytest.mark.django_db
RULES_TESTS = Path(__file__).resolve().parents[2] / "rules"


def _helpers(name: str, path: Path):
    """A rules test folder's helper module (pytest's importlib mode puts no test folder on sys.path)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def dnd_kit():
    return _helpers("dnd5e_testkit", RULES_TESTS / "dnd5e" / "conftest.py")


def heros_kit():
    return _helpers("heros_helpers", RULES_TESTS / "heros" / "heros_helpers.py")


class Select(HTMLParser):
    """The attributes of one <select> of a page and of its <option>s (with their text)."""

    def __init__(self, html: str, name: str):
        super().__init__()
        self.name, self.attrs, self.options, self._inside = name, None, [], False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "select" and attrs.get("name") == self.name:
            self.attrs, self._inside = attrs, True
        elif tag == "option" and self._inside:
            self.options.append({**attrs, "text": ""})

    def handle_endtag(self, tag):
        if tag == "select":
            self._inside = False

    def handle_data(self, data):
        if self._inside and self.options:
            self.options[-1]["text"] += data.strip()


def options_of(slug: str, state: dict, kind: str, ref: str) -> list[dict]:
    return registry.run(slug, "declaration-options", {"state": state, "participant": {"kind": kind, "id": ref}})["options"]


@pytest.fixture(scope="module")
def bridge_state():
    return registry.run("dnd5e", "new-battle", dnd_kit().big_setup(), seed=7)["state"]


def option(options: list[dict], path: str) -> dict:
    return next(o for o in options if o["path"] == path)


def key(cell) -> str:
    return f"{cell['col']},{cell['row']}" if isinstance(cell, dict) else f"{cell[0]},{cell[1]}"


# -- the declaration form ----------------------------------------------------------------


class PieceNamer(Adapter):
    """Names the piece of a solo's options (the generic default names none)."""

    def option_piece(self, option, state=None):
        parts = option["path"].split(".")
        return parts[1] if parts[0] == "solos" else None


def test_a_dnd5e_path_option_is_one_select_whose_options_carry_their_cells(bridge_state):
    options = options_of("dnd5e", bridge_state, "unit", "a_reg")
    move = option(options, "units.a_reg.stands[0].move")
    form = DeclarationForm(options=options, adapter=Adapter())
    select = Select(str(form[move["path"]]), move["path"])
    assert select.attrs["data-map-pick"] == "path" and "data-piece" not in select.attrs
    chosen = [o for o in select.options if o["value"]]
    assert len(chosen) == len(move["allowed"]) > 20
    by_value = {json.dumps(path): path for path in move["allowed"]}
    for entry in chosen:
        path = by_value[entry["value"]]
        assert entry["data-cells"] == " ".join(key(cell) for cell in path)
        assert entry["text"].endswith(f"· {len(path)} squares") or len(path) == 1
    assert select.options[0]["value"] == "" and not move["required"]


def test_a_posted_path_comes_back_exactly_as_the_engine_allowed_it(bridge_state):
    options = options_of("dnd5e", bridge_state, "unit", "a_reg")
    move = option(options, "units.a_reg.stands[1].move")
    path = move["allowed"][len(move["allowed"]) // 2]
    posted = {o["path"]: json.dumps(o["default"]) for o in options if o["path"].endswith(".stand")}
    posted[move["path"]] = json.dumps(path, separators=(",", ":"))  # spelt without spaces: the same path
    form = DeclarationForm(posted, options=options, adapter=Adapter())
    assert form.is_valid(), form.errors
    assert form.declaration()[move["path"]] == path
    output = registry.run("dnd5e", "resolve-round", {"state": bridge_state, "declarations": {
        "units": {"a_reg": {"stands": [{"stand": "ar2", "move": path}]}}}}, seed=3)
    assert output["state"]["stands"]["ar2"]["position"] == path[-1]


def test_a_path_the_engine_does_not_allow_is_refused_with_a_message(bridge_state):
    options = options_of("dnd5e", bridge_state, "unit", "a_reg")
    move = option(options, "units.a_reg.stands[0].move")
    too_far = move["allowed"][0] + [[0, 0], [0, 1]]
    for wrong in (json.dumps(too_far), "[[3, 3], [", "not a path"):
        form = DeclarationForm({move["path"]: wrong}, options=options, adapter=Adapter())
        assert not form.is_valid()
        assert "valid choice" in " ".join(form.errors[move["path"]])


def test_an_empty_list_of_paths_gives_no_field(bridge_state):
    options = options_of("dnd5e", bridge_state, "solo", "wizard")
    empty = dict(option(options, "solos.wizard.move"), allowed=[])
    form = DeclarationForm(options=[empty], adapter=Adapter())
    assert "solos.wizard.move" not in form.fields


def test_a_cell_option_is_a_cell_select_with_a_none_choice_and_its_piece(bridge_state):
    options = options_of("dnd5e", bridge_state, "solo", "chief")
    detach = option(options, "solos.chief.detach_to")
    assert None in detach["allowed"] and detach["type"] == "square"
    form = DeclarationForm(options=options, adapter=PieceNamer())
    select = Select(str(form[detach["path"]]), detach["path"])
    assert select.attrs["data-map-pick"] == "cell" and select.attrs["data-piece"] == "chief"
    cells = [c for c in detach["allowed"] if c is not None]
    assert sorted(o["data-cells"] for o in select.options if o["value"]) == sorted(key(c) for c in cells)
    assert select.options[0]["value"] == ""
    label = {o["data-cells"]: o["text"] for o in select.options if o["value"]}
    x, y = cells[0]
    assert label[key(cells[0])] == f"{'ABCDEFGHIJKLMNOP'[x]}{y + 1}"
    posted = DeclarationForm({detach["path"]: json.dumps(cells[0])}, options=[detach], adapter=PieceNamer())
    assert posted.is_valid() and posted.declaration() == {detach["path"]: cells[0]}
    nothing = DeclarationForm({detach["path"]: ""}, options=[detach], adapter=PieceNamer())
    assert nothing.is_valid() and nothing.declaration() == {}


def test_an_area_spell_origin_is_not_taken_for_cells(bridge_state):
    """The wizard's spell origin allows {spell, squares} objects, not cells: no map picker."""
    options = options_of("dnd5e", bridge_state, "solo", "wizard")
    form = DeclarationForm(options=options, adapter=Adapter())
    assert "data-map-pick" not in str(form["solos.wizard.spell.origin"])
    assert 'data-map-pick="path"' in str(form["solos.wizard.move"])


def test_a_heros_hex_path_option_is_a_select_of_hex_paths():
    kit = heros_kit()
    state = registry.run("heros", "new-battle", copy.deepcopy(kit.NEW_BATTLE), seed=1)["state"]
    options = options_of("heros", state, "unit", "r-bd")
    paths = option(options, "active.actions[kind=move].paths.r-bd")
    form = DeclarationForm(options=options, adapter=Adapter())
    select = Select(str(form[paths["path"]]), paths["path"])
    chosen = [o for o in select.options if o["value"]]
    assert select.attrs["data-map-pick"] == "path" and len(chosen) == len(paths["allowed"])
    first = paths["allowed"][0]
    entry = next(o for o in chosen if json.loads(o["value"]) == first)
    assert entry["data-cells"] == " ".join(f"{c['col']},{c['row']}" for c in first)
    assert entry["text"] == f"→ {first[-1]['col']},{first[-1]['row']} · {len(first)} hex" + ("es" if len(first) > 1 else "")
    posted = DeclarationForm({paths["path"]: json.dumps(first)}, options=options, adapter=Adapter())
    assert posted.is_valid() and posted.declaration()[paths["path"]] == first


def test_every_path_to_the_same_cell_is_kept_and_told_apart_by_its_steps():
    paths = [[[1, 1], [1, 2], [2, 2]], [[2, 1], [2, 2]], [[1, 1]]]
    move = {"path": "solos.s.move", "type": "list", "allowed": paths, "default": [], "required": False}
    select = Select(str(DeclarationForm(options=[move], adapter=Adapter())["solos.s.move"]), "solos.s.move")
    assert [o["text"] for o in select.options[1:]] == ["→ B2 · 1 square", "→ C3 · 2 squares", "→ C3 · 3 squares"]
    assert [o["data-cells"] for o in select.options[1:]] == ["1,1", "2,1 2,2", "1,1 1,2 2,2"]


@pytest.mark.parametrize(("cell", "name"), [([0, 0], "A1"), ([2, 3], "C4"), ([25, 9], "Z10"), ([26, 0], "AA1"),
                                            ({"col": 4, "row": 2}, "4,2")])
def test_cells_are_named_for_a_player(cell, name):
    assert Adapter().cell_label(cell) == name


def test_path_labels_say_the_destination_and_the_steps_in_french():
    from django.utils import translation

    with translation.override("fr"):
        assert Adapter().path_label([[2, 1], [2, 2], [2, 3]]) == "→ C4 · 3 cases"
        assert Adapter().path_label([[1, 1]]) == "→ B2 · 1 case"


# -- the room, on the D&D 5e demo battle --------------------------------------------------


ORCS = "A-regiment_orque"
FIRST, SECOND, THIRD = (f"{ORCS}-{n}" for n in (1, 2, 3))


@pytest.fixture
def other_side(make_user):
    return make_user("merry", display_name="Merry")


@pytest.fixture
def ford(campaign, gm, player, other_side):
    """The D&D 5e demo battle (the orc horde of Pippin against Merry's hobgoblins) on the maps demo's grid."""
    campaign.memberships.create(user=other_side, role=Role.PLAYER)
    maps_demo.load(campaign)
    (name, data), = examples.ARMIES["dnd5e"].items()
    roster_services.create_army(campaign, name=name, user=gm, data=data, commander=player)
    return demo_dnd5e.load(campaign, gm, [player, other_side])


def position(battle, stand=FIRST):
    battle.refresh_from_db()
    return battle.state["stands"][stand]["position"]


def free_squares(battle):
    """Squares of row 4, near the orcs, where the engine accepts the first orc stand (asked, not assumed)."""
    adapter = adapters.get("dnd5e")
    for x in range(battle.state["map"]["width"]):
        try:
            registry.run("dnd5e", "new-battle", adapter.placement(battle.setup["input"], FIRST, [x, 4]), seed=1)
        except InvalidInput:
            continue
        yield [x, 4]


def free_square(battle) -> list:
    return next(free_squares(battle))


def deep_water(battle) -> list:
    return next(c["at"] for c in battle.state["map"]["cells"] if c.get("terrain") == "deep_water")


def test_the_room_draws_the_map_in_its_own_part_with_pickers_naming_their_pieces(ford, client_for, player):
    page = client_for(player).get(ford.get_absolute_url()).content.decode()
    assert 'id="battle-map"' in page and 'class="battle-map kind-square"' in page
    assert "js/battle-map.js" in page and "data-place-toggle" not in page  # placement is the GM's
    select = Select(page, f"units.{ORCS}.stands[0].move")
    assert select.attrs["data-piece"] == FIRST and select.attrs["data-map-pick"] == "path"
    assert f'data-piece="{FIRST}"' in page.split('id="battle-map"')[1]  # the piece it moves is on the map
    assert f'data-map-pick-show="units.{ORCS}.stands[0].move" hidden' in page  # shown by the script
    part = client_for(player).get(reverse("battles:part", args=[ford.pk, "map"])).content.decode()
    assert "battle-map-panel" in part and "<html" not in part
    reports = client_for(player).get(reverse("battles:part", args=[ford.pk, "reports"])).content.decode()
    assert 'class="battle-map' not in reports


def test_the_map_part_is_drawn_in_a_bounded_number_of_queries(ford, client_for, player, django_assert_max_num_queries):
    client = client_for(player)
    url = reverse("battles:part", args=[ford.pk, "map"])
    client.get(url)
    with django_assert_max_num_queries(5):  # session, user, battle, membership, participants
        assert client.get(url).status_code == 200


def test_a_move_declared_from_the_room_round_trips(ford, client_for, player):
    options = options_of("dnd5e", ford.state, "unit", ORCS)
    move = option(options, f"units.{ORCS}.stands[0].move")
    path = move["allowed"][-1]
    response = client_for(player).post(reverse("battles:declare", args=[ford.pk]), {
        "participant": f"unit:{ORCS}", "round": 1, move["path"]: json.dumps(path),
        **{o["path"]: json.dumps(o["default"]) for o in options if o["path"].endswith(".stand")}})
    assert response.status_code == 302
    assert Declaration.objects.get(battle=ford, participant=f"unit:{ORCS}").data[move["path"]] == path
    page = client_for(player).get(ford.get_absolute_url()).content.decode()
    selected = [o for o in Select(page, move["path"]).options if "selected" in o]
    assert [json.loads(o["value"]) for o in selected] == [path]


def test_the_gm_sees_the_placement_form_before_round_1_only(ford, client_for, gm):
    page = client_for(gm).get(ford.get_absolute_url()).content.decode()
    assert "data-place-toggle" in page and f'name="version" value="{ford.version}"' in page
    Battle.objects.filter(pk=ford.pk).update(round=1)
    assert "data-place-toggle" not in client_for(gm).get(ford.get_absolute_url()).content.decode()


# -- placement: the service -------------------------------------------------------------------


def test_place_moves_a_stand_with_a_new_battle_on_the_stored_seed(ford, gm):
    version, seq, target = ford.version, ford.last_seq, free_square(ford)
    services.place(gm, ford.pk, FIRST, target, expected_version=version)
    assert position(ford) == target and ford.version == version + 1
    assert registry.run("dnd5e", "new-battle", copy.deepcopy(ford.setup["input"]), seed=ford.seed)["state"] == ford.state
    event = BattleEvent.objects.get(battle=ford, seq=seq + 1)
    assert event.kind == "placed" and event.audience == "all" and FIRST not in json.dumps(event.payload)


def test_a_battle_replays_from_its_placed_setup(ford, gm):
    target = free_square(ford)
    services.place(gm, ford.pk, FIRST, target, expected_version=ford.version)
    services.resolve_round(gm, ford.pk, expected_round=1)
    steps = replay.replay(selectors.viewer(gm, Action.BATTLE_VIEW, ford.pk))
    assert [step["number"] for step in steps] == [0, 1] and all(step["matches"] for step in steps)
    assert Round.objects.get(battle=ford, number=1).state_before["stands"][FIRST]["position"] == target


def test_the_same_placement_twice_has_one_effect(ford, gm):
    version, target = ford.version, free_square(ford)
    services.place(gm, ford.pk, FIRST, target, expected_version=version)
    services.place(gm, ford.pk, FIRST, target, expected_version=version)  # the same request, resent
    ford.refresh_from_db()
    assert ford.version == version + 1
    assert BattleEvent.objects.filter(battle=ford, kind="placed").count() == 1


def test_a_stale_page_is_refused(ford, gm):
    before = position(ford, SECOND)
    services.place(gm, ford.pk, FIRST, free_square(ford), expected_version=ford.version)
    with pytest.raises(ValidationError) as refused:
        services.place(gm, ford.pk, SECOND, [before[0], 5], expected_version=ford.version - 1)
    assert "version" in refused.value.message_dict and position(ford, SECOND) == before


def test_the_engine_refuses_an_occupied_impassable_or_outside_square(ford, gm):
    start = position(ford)
    for cell in (position(ford, SECOND), deep_water(ford), [ford.state["map"]["width"], 0]):
        with pytest.raises(ValidationError) as refused:
            services.place(gm, ford.pk, FIRST, cell, expected_version=ford.version)
        assert refused.value.message_dict["cell"][0]
    assert position(ford) == start


def test_placement_is_the_gms_and_ends_with_declarations_or_round_1(ford, gm, player):
    start, target = position(ford), free_square(ford)
    with pytest.raises(PermissionDenied):
        services.place(player, ford.pk, FIRST, target, expected_version=ford.version)
    Declaration.objects.create(battle=ford, round=1, participant=f"unit:{ORCS}", data={}, declared_by=player)
    with pytest.raises(ValidationError, match="already"):
        services.place(gm, ford.pk, FIRST, target, expected_version=ford.version)
    assert Declaration.objects.filter(battle=ford).count() == 1  # kept
    Battle.objects.filter(pk=ford.pk).update(round=1)
    with pytest.raises(ValidationError, match="round 1"):
        services.place(gm, ford.pk, FIRST, target, expected_version=ford.version)
    assert position(ford) == start


# -- placement: the view ------------------------------------------------------------------------


def place_url(battle):
    return reverse("battles:place", args=[battle.pk])


def cell_text(cell) -> str:
    return f"{cell[0]},{cell[1]}"


@pytest.mark.parametrize(("kind", "text", "cell"), [("square", "3,4", [3, 4]), ("square", " 12 , 0 ", [12, 0]),
                                                   ("hex", "2,5", {"col": 2, "row": 5}), ("zones", "gué", "gué")])
def test_the_placement_form_reads_a_cell_the_engines_way(kind, text, cell):
    form = PlacementForm({"piece": "p1", "cell": text}, pieces=[{"id": "p1"}], kind=kind)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["cell"] == cell


@pytest.mark.parametrize("text", ["3", "3,4,5", "-1,2", "a,b", ""])
def test_the_placement_form_refuses_what_is_not_a_cell(text):
    form = PlacementForm({"piece": "p1", "cell": text}, pieces=[{"id": "p1"}], kind="square")
    assert not form.is_valid() and form.errors["cell"]


@pytest.mark.parametrize(("role", "status"), [("anonymous", 302), ("outsider", 404), ("other_side", 403),
                                              ("player", 403), ("gm", 302)])
def test_only_the_gm_places(ford, client_for, gm, player, other_side, outsider, role, status):
    user = {"anonymous": None, "outsider": outsider, "other_side": other_side, "player": player, "gm": gm}[role]
    start, target = position(ford), free_square(ford)
    response = client_for(user).post(place_url(ford), {"piece": FIRST, "cell": cell_text(target),
                                                       "version": ford.version})
    assert response.status_code == status
    assert position(ford) == (target if role == "gm" else start)


def test_the_htmx_answer_is_the_redrawn_map_or_the_refusal_by_field(ford, client_for, gm):
    client, target, version = client_for(gm), free_square(ford), ford.version
    moved = client.post(place_url(ford), {"piece": FIRST, "cell": cell_text(target), "version": version},
                        HTTP_HX_REQUEST="true").content.decode()
    assert "battle-map-panel" in moved and "<html" not in moved and 'role="status"' in moved
    assert f'name="version" value="{version + 1}"' in moved and f'data-piece="{FIRST}"' in moved
    water = client.post(place_url(ford), {"piece": SECOND, "cell": cell_text(deep_water(ford)), "version": version + 1},
                        HTTP_HX_REQUEST="true").content.decode()
    assert 'class="field has-error"' in water and "deep water" in water and position(ford) == target
    typo = client.post(place_url(ford), {"piece": SECOND, "cell": "five", "version": version + 1},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "two numbers" in typo
    stale = client.post(place_url(ford), {"piece": SECOND, "cell": cell_text([target[0] + 1, 4]), "version": version},
                        HTTP_HX_REQUEST="true").content.decode()
    assert "changed meanwhile" in stale and f'name="version" value="{version + 1}"' in stale


def test_a_plain_post_refused_shows_the_room_with_the_errors(ford, client_for, gm):
    response = client_for(gm).post(place_url(ford), {"piece": "nobody", "cell": "5,4", "version": ford.version})
    assert response.status_code == 400 and b"place-manual" in response.content and b"has-error" in response.content


def test_the_adapters_refusal_in_one_sentence_is_shown_above_the_form(ford, client_for, gm, monkeypatch):
    def refuse(setup_input, piece_id, cell):
        raise ValidationError("This stand is bolted to the ground.")

    monkeypatch.setattr(adapters.get("dnd5e"), "placement", refuse)
    answer = client_for(gm).post(place_url(ford), {"piece": FIRST, "cell": "5,4", "version": ford.version},
                                 HTTP_HX_REQUEST="true").content.decode()
    assert "bolted to the ground" in answer.split('class="form-errors"')[1]


def test_after_round_1_the_gm_is_told_placement_is_over(ford, client_for, gm):
    start = position(ford)
    Battle.objects.filter(pk=ford.pk).update(round=1)
    answer = client_for(gm).post(place_url(ford), {"piece": FIRST, "cell": "5,4", "version": ford.version},
                                 HTTP_HX_REQUEST="true").content.decode()
    assert "Placement is over" in answer and position(ford) == start


def test_a_ruleset_that_does_not_place_has_no_placement(battle, client_for, gm):
    response = client_for(gm).post(place_url(battle), {"piece": "a", "cell": "1,1", "version": battle.version})
    assert response.status_code == 404


# -- placement: racing requests (PostgreSQL) ----------------------------------------------------


def _together():
    """The hardening tests' barrier: threads released at one instant, each on its own connection."""
    path = Path(__file__).resolve().parents[1] / "hardening" / "test_hardening_concurrency.py"
    return _helpers("hardening_concurrency", path).together


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks and parallel writers need PostgreSQL")
def test_simultaneous_placements_from_one_page_apply_once(ford, gm):
    """Two taps sent from one page (one version): one moves the stand, the other is told the map changed.
    Then the same request sent five times at once moves it once."""
    together, version = _together(), ford.version
    first, *others = free_squares(ford)
    second = next(cell for cell in others if abs(cell[0] - first[0]) >= 2)
    results = together(2, lambda i: services.place(gm, ford.pk, FIRST, (first, second)[i], expected_version=version))
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 1 and "version" in refused[0].message_dict, results
    assert position(ford) in (first, second) and ford.version == version + 1

    other = second if position(ford) == first else first
    results = together(5, lambda _i: services.place(gm, ford.pk, FIRST, other, expected_version=version + 1))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert position(ford) == other and ford.version == version + 2
    assert BattleEvent.objects.filter(battle=ford, kind="placed").count() == 2
