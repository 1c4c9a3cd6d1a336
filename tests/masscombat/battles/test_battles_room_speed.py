"""The battle room renders only what is asked: parts build their own context, the GM's forms load when opened.

Run on the D&D 5e demo battle (the ``ford`` fixture of the room map tests):
Pippin plays the orc horde, Merry the hobgoblins, Gandalf is the GM.
"""

import json
import re
from collections import Counter

import pytest
from django import forms
from django.test.html import parse_html
from django.urls import reverse

from django.utils.html import conditional_escape

from masscombat.battles.forms import MapPickSelect, choice_inputs
from masscombat.battles.models import Declaration
from masscombat.core.permissions import Role

from .test_battles_room_map import ORCS, Select, ford, options_of, other_side  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db
MOVE = f"units.{ORCS}.stands[0].move"


def one_form(battle, key: str) -> str:
    return reverse("battles:part", args=[battle.pk, "declare"]) + "?participant=" + key


def keys_of(battle, side: str) -> list[str]:
    return [p.key for p in battle.participants.filter(side=side)]


def ids_of(html: str) -> list[str]:
    return re.findall(r'\sid="([^"]+)"', html)


# -- the GM's folded forms ------------------------------------------------------------------


def test_the_gm_room_folds_each_form_and_loads_it_when_opened(ford, client_for, gm):
    page = client_for(gm).get(ford.get_absolute_url()).content.decode()
    assert '<details class="gm-declare" data-participant="unit:' + ORCS in page
    assert 'class="panel declare-form' not in page  # no form built until its fold is opened
    assert f'hx-get="{one_form(ford, "unit:" + ORCS)}" hx-trigger="toggle once"'.replace("unit:", "unit%3A") in page
    assert f'data-pieces="{ORCS}-1 ' in page  # a tap on one of its stands can open it

    part = client_for(gm).get(one_form(ford, f"unit:{ORCS}"))
    html = part.content.decode()
    assert part.status_code == 200 and "<html" not in html
    assert html.count("<form") == 1 and f'data-participant="unit:{ORCS}"' in html
    assert Select(html, MOVE).attrs["data-piece"] == f"{ORCS}-1"


def test_without_javascript_a_fold_opens_through_its_link(ford, client_for, gm):
    page = client_for(gm).get(ford.get_absolute_url()).content.decode()
    link = f'href="{ford.get_absolute_url()}?open=unit%3A{ORCS}"'
    assert link in page
    opened = client_for(gm).get(ford.get_absolute_url(), {"open": f"unit:{ORCS}"}).content.decode()
    assert opened.count("<form") - page.count("<form") == 1
    assert f'<details class="gm-declare" data-participant="unit:{ORCS}" open' in opened


@pytest.mark.parametrize("who,key,status", [
    ("player", f"unit:{ORCS}", 200),   # his own unit
    ("player", "other side", 404),     # Merry's unit: not his to see
    ("player", "gm", 404),             # the GM's overrides
    ("gm", "gm", 200),
    ("gm", "unit:nobody", 404),        # no such participant
    ("other_side", f"unit:{ORCS}", 404),
    ("outsider", f"unit:{ORCS}", 404),
])
def test_one_form_is_given_only_to_who_may_declare_it(ford, client_for, gm, player, other_side, outsider,  # noqa: F811
                                                      who, key, status):
    users = {"gm": gm, "player": player, "other_side": other_side, "outsider": outsider}
    if key == "other side":
        key = keys_of(ford, "B")[0]
    response = client_for(users[who]).get(one_form(ford, key))
    assert response.status_code == status
    if status == 200:
        assert f'data-participant="{key}"' in response.content.decode()


def test_an_anonymous_visitor_is_sent_to_log_in(ford, client_for):
    response = client_for(None).get(one_form(ford, f"unit:{ORCS}"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_refused_gm_declaration_comes_back_open_and_full_the_others_folded(ford, client_for, gm):
    response = client_for(gm).post(reverse("battles:declare", args=[ford.pk]),
                                   {"participant": f"unit:{ORCS}", "round": 1, MOVE: "[[99, 99]]"},
                                   HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.count("<form") == 1 and f'<details class="gm-declare" data-participant="unit:{ORCS}" open' in html
    assert "Select a valid choice" in html
    assert f'data-participant="{keys_of(ford, "B")[0]}"' in html and "toggle once" in html  # the others stay folded


def test_a_saved_gm_declaration_stays_open_with_its_notice(ford, client_for, gm):
    required = {o["path"]: json.dumps(o["default"]) for o in options_of("dnd5e", ford.state, "unit", ORCS)
                if o["path"].endswith(".stand")}
    response = client_for(gm).post(reverse("battles:declare", args=[ford.pk]),
                                   {"participant": f"unit:{ORCS}", "round": 1, **required}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert Declaration.objects.filter(battle=ford, participant=f"unit:{ORCS}").exists()
    assert html.count("<form") == 1 and 'role="status"' in html
    assert f'<details class="gm-declare" data-participant="unit:{ORCS}" open' in html


# -- players: inline forms, unique ids, names kept -------------------------------------------


def test_a_player_with_several_forms_gets_them_inline_with_unique_ids(ford, client_for, player):
    page = client_for(player).get(ford.get_absolute_url()).content.decode()
    mine = keys_of(ford, "A")
    assert page.count('class="panel declare-form') == len(mine) > 1
    duplicates = [i for i, n in Counter(ids_of(page)).items() if n > 1]
    assert duplicates == []
    select = Select(page, MOVE)  # the posted name is still the option's path
    assert select.attrs["id"] == f"id_unit-{ORCS}-{MOVE}"
    assert f'<label for="id_unit-{ORCS}-{MOVE}"' in page


def test_two_forms_sharing_option_paths_get_different_ids(ford, client_for, gm):
    client = client_for(gm)
    first, second = (client.get(one_form(ford, key)).content.decode() for key in keys_of(ford, "A")[:2])
    assert set(ids_of(first)) & set(ids_of(second)) == set()


# -- the picker's markup --------------------------------------------------------------------


class TemplateSelect(MapPickSelect):
    """The same select rendered by Django's templates, one per option: the markup to keep."""

    def render(self, name, value, attrs=None, renderer=None):
        return forms.Select.render(self, name, value, attrs, renderer)

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value in self.cells:
            option["attrs"]["data-cells"] = self.cells[value]
        return option


def test_the_picker_renders_what_django_templates_would_and_escapes(ford):
    move = next(o for o in options_of("dnd5e", ford.state, "unit", ORCS) if o["path"] == MOVE)
    choices = [("", "(do not move)"), ('"<b>&', 'a <b>"label"</b> & more')]
    choices += [(json.dumps(path), f"path {n}") for n, path in enumerate(move["allowed"])]
    cells = {key: f"{n},0 '\"<x>" for n, (key, _label) in enumerate(choices) if key}
    attrs = {"data-map-pick": "path", "data-piece": 'a"b'}
    chosen = choices[3][0]
    fast, slow = (widget(attrs=attrs, cells=cells) for widget in (MapPickSelect, TemplateSelect))
    for widget in (fast, slow):
        widget.choices = choices
    rendered = [w.render(MOVE, chosen, attrs={"id": "id_x", "required": True}) for w in (fast, slow)]
    assert parse_html(rendered[0]) == parse_html(rendered[1])
    assert "<b>" not in rendered[0] and rendered[0].count(" selected") == 1


class Choices(forms.Form):
    one = forms.ChoiceField(choices=[("", "(no change)"), ('"a"', "<b>A & B</b>"), ('"b"', "B")],
                            widget=forms.RadioSelect, initial='"a"')
    many = forms.MultipleChoiceField(choices=[('"x"', "X"), ('"y"', 'Y "quoted"')], required=False,
                                     widget=forms.CheckboxSelectMultiple, help_text="pick", initial=['"y"'])


@pytest.mark.parametrize("data", [None, {"one": '"b"', "many": ['"x"', '"y"']}])
def test_radios_and_boxes_render_what_django_templates_would(data):
    form = Choices(data, auto_id="id_unit-a-%s")
    for name in ("one", "many"):
        field = form[name]
        slow = "".join(f'<label class="choice">{radio.tag()} <span>{conditional_escape(radio.choice_label)}</span></label>'
                       for radio in field)
        fast = choice_inputs(field)
        assert parse_html(fast) == parse_html(slow)
        assert "<b>" not in fast and "checked" in fast


# -- query counts on the hot paths ----------------------------------------------------------


# session, user, battle, membership, participants, then the part's own: declarations (and presence), rounds;
# the GM's status part also reads the battle's live watch link (spectators)
@pytest.mark.parametrize("part,most", [("status", 8), ("declare", 6), ("reports", 6)])
def test_each_part_is_built_in_a_bounded_number_of_queries(ford, client_for, gm, part, most,
                                                          django_assert_max_num_queries):
    client = client_for(gm)
    url = reverse("battles:part", args=[ford.pk, part])
    client.get(url)
    with django_assert_max_num_queries(most):
        assert client.get(url).status_code == 200


def test_one_gm_form_is_built_in_a_bounded_number_of_queries(ford, client_for, gm, django_assert_max_num_queries):
    client = client_for(gm)
    url = one_form(ford, f"unit:{ORCS}")
    client.get(url)
    with django_assert_max_num_queries(6):
        assert client.get(url).status_code == 200


def test_a_player_who_joined_late_is_not_given_forms(ford, client_for, make_user):
    late = make_user("frodo")
    ford.campaign.memberships.create(user=late, role=Role.PLAYER)
    assert client_for(late).get(one_form(ford, f"unit:{ORCS}")).status_code == 404
