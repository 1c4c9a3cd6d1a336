"""The player's declaration flow on the server side (issue #17): the banner of what is left, the marks the
page's drafts rely on (when each form was last saved, which one was just saved), and a resent Declare
that has one effect.  The browser side is test_declare_flow_browser.py.

The 7th Sea battle of conftest.py: Pippin (``player``) declares for side A and for his hero Lucie, both
awaited each round; Merry for side B.
"""

import re

import pytest
from django.urls import reverse

from masscombat.battles import services
from masscombat.battles.models import BattleEvent, Declaration

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def hero_key(battle) -> str:
    return f"hero:{battle.participants.get(kind='hero').ref}"


def declare_part(client, battle, **extra) -> str:
    return client.get(reverse("battles:part", args=[battle.pk, "declare"]), **extra).content.decode()


def banner(html: str) -> str:
    """The banner's words, spaces folded; "" when the page has none."""
    found = re.search(r'<div class="declare-banner[^"]*"[^>]*>(.*?)</div>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else ""


def test_the_banner_counts_down_what_is_left_to_the_player(battle, client_for, player):
    client = client_for(player)
    assert banner(declare_part(client, battle)).startswith("2 of your 2 units still to declare")
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    html = declare_part(client, battle)
    assert banner(html).startswith("1 of your 2 units still to declare")
    # its link leads to the form still awaited, which carries that id
    first = re.search(r'<a href="#([^"]+)" class="declare-banner-link"', html).group(1)
    hero_form = re.search(rf'<form [^>]*data-participant="{hero_key(battle)}"[^>]*>', html).group(0)
    assert f'id="{first}"' in hero_form and "data-awaited" in hero_form
    services.declare(player, battle.pk, hero_key(battle), {f"heroes.{hero_key(battle)[5:]}.engagement": "support"},
                     expected_round=1)
    assert banner(declare_part(client, battle)) == "All declared — waiting for the game master"


def test_the_banner_speaks_french_with_plurals(battle, client_for, player):
    client = client_for(player)
    assert banner(declare_part(client, battle, HTTP_ACCEPT_LANGUAGE="fr")).startswith(
        "Il vous reste 2 unités sur 2 à déclarer")
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    assert banner(declare_part(client, battle, HTTP_ACCEPT_LANGUAGE="fr")).startswith(
        "Il vous reste 1 unité sur 2 à déclarer")
    services.declare(player, battle.pk, hero_key(battle), {f"heroes.{hero_key(battle)[5:]}.engagement": "support"},
                     expected_round=1)
    assert banner(declare_part(client, battle, HTTP_ACCEPT_LANGUAGE="fr")) == "Tout est déclaré — en attente du meneur de jeu"


def test_the_room_shows_the_banner_to_players_only(battle, client_for, gm, player):
    assert banner(client_for(player).get(battle.get_absolute_url()).content.decode())
    assert banner(client_for(gm).get(battle.get_absolute_url()).content.decode()) == ""


def test_each_form_says_when_it_was_saved_and_which_was_just_saved(battle, client_for, player):
    client = client_for(player)
    html = declare_part(client, battle)
    assert html.count('data-saved-at=""') == 2 and "data-just-saved" not in html
    answer = client.post(reverse("battles:declare", args=[battle.pk]),
                         {"participant": "side:a", "round": 1, "sides.a.strategy": '"march"'}, **HTMX).content.decode()
    saved = Declaration.objects.get(battle=battle, participant="side:a").updated_at.isoformat()
    side_form = re.search(r'<form [^>]*data-participant="side:a"[^>]*>', answer).group(0)
    hero_form = re.search(rf'<form [^>]*data-participant="{hero_key(battle)}"[^>]*>', answer).group(0)
    assert f'data-saved-at="{saved}"' in side_form and "data-just-saved" in side_form and 'data-round="1"' in side_form
    assert 'data-saved-at=""' in hero_form and "data-just-saved" not in hero_form
    refused = client.post(reverse("battles:declare", args=[battle.pk]),
                          {"participant": "side:a", "round": 1, "sides.a.strategy": '"teleport"'}, **HTMX).content.decode()
    assert "data-just-saved" not in refused  # a refusal is no save: the page keeps the player's draft


def test_the_same_declare_sent_twice_has_one_effect(battle, client_for, player):
    """A phone that lost the answer sends the form again: the second is answered "saved" and changes nothing."""
    client = client_for(player)
    post = {"participant": "side:a", "round": 1, "sides.a.strategy": '"march"'}
    first = client.post(reverse("battles:declare", args=[battle.pk]), post, **HTMX)
    row = Declaration.objects.get(battle=battle, participant="side:a")
    events = BattleEvent.objects.filter(battle=battle).count()
    second = client.post(reverse("battles:declare", args=[battle.pk]), post, **HTMX)
    assert first.status_code == second.status_code == 200
    assert "Declaration saved" in second.content.decode() and "data-just-saved" in second.content.decode()
    again = Declaration.objects.get(battle=battle, participant="side:a")
    assert (again.pk, again.data, again.updated_at) == (row.pk, row.data, row.updated_at)
    assert BattleEvent.objects.filter(battle=battle).count() == events  # no second "declared" event

    changed = client.post(reverse("battles:declare", args=[battle.pk]), {**post, "sides.a.strategy": '"charge"'}, **HTMX)
    assert changed.status_code == 200
    assert Declaration.objects.get(battle=battle, participant="side:a").data == {"sides.a.strategy": "charge"}
    assert BattleEvent.objects.filter(battle=battle).count() == events + 1


def test_a_resend_for_a_round_already_over_is_refused_not_stored(battle, client_for, gm, player, other_player):
    """The round moved on while the phone was offline: its Declare for the old round stores nothing."""
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    services.declare(other_player, battle.pk, "side:b", {"sides.b.strategy": "march"}, expected_round=1)
    services.resolve_round(gm, battle.pk, expected_round=1)
    answer = client_for(player).post(reverse("battles:declare", args=[battle.pk]),
                                     {"participant": "side:a", "round": 1, "sides.a.strategy": '"march"'}, **HTMX)
    assert 'class="message error"' in answer.content.decode() and "data-just-saved" not in answer.content.decode()
    assert not Declaration.objects.filter(battle=battle, round=2).exists()


def test_a_gm_fold_loaded_alone_says_when_it_was_saved(battle, client_for, gm, player):
    """The GM's folds load one form each: it carries the same save mark as in the whole part, so a draft
    the GM started there is dropped once the player saves that participant."""
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    saved = Declaration.objects.get(battle=battle, participant="side:a").updated_at.isoformat()
    html = client_for(gm).get(reverse("battles:part", args=[battle.pk, "declare"]) + "?participant=side:a").content.decode()
    assert f'data-saved-at="{saved}"' in html and 'data-round="1"' in html
