"""The GM's "The piece is placed." survives the map being drawn again (issue #16's flaky browser test).

The answer to a placement says it, then the "placed" event redraws the map
part on every screen, the GM's too: that drawing says it as well, as long as
the battle is as that placement left it.  A player never reads it, nor does
the GM whose placement was refused.
"""

import pytest
from django.urls import reverse

from masscombat.battles import services
from tests.masscombat.battles.test_battles_room_map import (  # noqa: F401
    FIRST,
    deep_water,
    ford,
    free_square,
    other_side,
)

pytestmark = pytest.mark.django_db

PLACED = '<p class="message" role="status">The piece is placed.</p>'


def map_part(client, battle) -> str:
    return client.get(reverse("battles:part", args=[battle.pk, "map"])).content.decode()


def test_the_map_drawn_again_after_a_placement_still_says_it_to_the_gm_only(ford, gm, player, client_for):  # noqa: F811
    assert PLACED not in map_part(client_for(gm), ford)  # nothing placed yet
    services.place(gm, ford.pk, FIRST, free_square(ford), expected_version=ford.version)
    assert PLACED in map_part(client_for(gm), ford)  # what the "placed" event's redraw shows the GM
    assert "The piece is placed." not in map_part(client_for(player), ford)
    services.set_paused(gm, ford.pk, True)
    assert PLACED in map_part(client_for(gm), ford)  # still as the placement left it: paused, nothing moved
    services.set_paused(gm, ford.pk, False)
    services.resolve_round(gm, ford.pk, expected_round=1)
    services.undo_round(gm, ford.pk, expected_round=1)  # back before round 1: placing again, nothing placed since
    assert "data-place-toggle" in map_part(client_for(gm), ford) and PLACED not in map_part(client_for(gm), ford)


def test_a_refused_placement_says_why_and_not_that_it_is_placed(ford, gm, client_for):  # noqa: F811
    client = client_for(gm)
    services.place(gm, ford.pk, FIRST, free_square(ford), expected_version=ford.version)
    ford.refresh_from_db()
    x, y = deep_water(ford)
    answer = client.post(reverse("battles:place", args=[ford.pk]), {
        "piece": FIRST, "cell": f"{x},{y}", "version": ford.version}, HTTP_HX_REQUEST="true").content.decode()
    assert "errorlist" in answer and "The piece is placed." not in answer
