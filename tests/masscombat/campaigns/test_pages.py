"""Campaign pages: creating, inviting, joining, managing members, with and without htmx."""

import pytest
from django.urls import reverse

from masscombat.campaigns import selectors, services
from masscombat.campaigns.models import Campaign, Invitation, normalise_code

pytestmark = pytest.mark.django_db


def test_create_makes_an_invitation_and_shows_it(client_for, outsider):
    client = client_for(outsider)
    response = client.post("/campaigns/new/", {"name": "Siege", "ruleset": "seventh_sea", "description": ""})
    campaign = Campaign.objects.get()
    assert response["Location"] == reverse("campaigns:invitation", args=[campaign.pk])
    page = client.get(response["Location"]).content.decode()
    invitation = selectors.active_invitation(campaign)
    assert invitation.display_code in page
    assert f"/join/{invitation.code}/" in page


def test_create_refuses_bad_input_and_saves_nothing(client_for, outsider):
    response = client_for(outsider).post("/campaigns/new/", {"name": "", "ruleset": "chess"})
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"name", "ruleset"}
    assert not Campaign.objects.exists()


def test_join_by_link_then_button(client_for, outsider, campaign):
    code = selectors.active_invitation(campaign).code
    client = client_for(outsider)
    page = client.get(f"/join/{code}/").content.decode()
    assert "War of the Ring" in page
    response = client.post("/join/", {"code": code.lower()[:4] + " - " + code[4:]})
    assert response["Location"] == campaign.get_absolute_url()
    assert campaign.memberships.filter(user=outsider, role="player").exists()


def test_join_with_a_revoked_code_explains(client_for, gm, outsider, campaign):
    code = selectors.active_invitation(campaign).code
    services.revoke_invitation(campaign)
    client = client_for(outsider)
    assert "no longer valid" in client.get(f"/join/{code}/").content.decode()
    response = client.post("/join/", {"code": code})
    assert response.status_code == 200
    assert "matches no open invitation" in response.content.decode()
    assert not campaign.memberships.filter(user=outsider).exists()


@pytest.mark.parametrize("code", ["", "ABC", "ABCD-EFGH-IJ", "x" * 21])
def test_join_form_validates_the_code(client_for, outsider, code):
    response = client_for(outsider).post("/join/", {"code": code})
    assert response.status_code == 200 and "code" in response.context["form"].errors


def test_anonymous_invitation_link_offers_login_and_back(client, campaign):
    """Beside the guest seat (tests/masscombat/accounts/test_guests.py), logging in comes back to the link."""
    code = selectors.active_invitation(campaign).code
    response = client.get(f"/join/{code}/")
    assert response.status_code == 200
    assert f'href="{reverse("login")}?next=/join/{code}/"' in response.content.decode()


def test_signup_with_next_returns_to_the_invitation(client, campaign):
    code = selectors.active_invitation(campaign).code
    response = client.post(
        f"/accounts/signup/?next=/join/{code}/",
        {"username": "sam", "display_name": "Sam", "email": "sam@example.org",
         "password1": "Tabletop-battle-42", "password2": "Tabletop-battle-42"},
    )
    assert response["Location"] == f"/join/{code}/"


def test_signup_ignores_an_offsite_next(client):
    response = client.post(
        "/accounts/signup/?next=https://evil.example/",
        {"username": "sam", "email": "sam@example.org", "password1": "Tabletop-battle-42", "password2": "Tabletop-battle-42"},
    )
    assert response["Location"] == "/"


def test_regenerate_replaces_and_revoke_closes(client_for, gm, campaign):
    client = client_for(gm)
    old = selectors.active_invitation(campaign)
    client.post(reverse("campaigns:invitation-regenerate", args=[campaign.pk]))
    new = selectors.active_invitation(campaign)
    assert new.code != old.code
    assert Invitation.objects.get(pk=old.pk).revoked_at is not None
    client.post(reverse("campaigns:invitation-revoke", args=[campaign.pk]))
    assert selectors.active_invitation(campaign) is None
    assert "no open invitation" in client.get(reverse("campaigns:invitation", args=[campaign.pk])).content.decode()
    assert client.get(reverse("campaigns:invitation-qr", args=[campaign.pk])).status_code == 404


def test_qr_code_is_an_svg_of_the_link(client_for, gm, campaign):
    response = client_for(gm).get(reverse("campaigns:invitation-qr", args=[campaign.pk]))
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg") and b'xmlns="http://www.w3.org/2000/svg"' in response.content


def test_promote_and_remove_answer_htmx_with_the_fragment(client_for, gm, player, campaign):
    client = client_for(gm)
    promote = reverse("campaigns:member-promote", args=[campaign.pk, player.pk])
    response = client.post(promote, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "<html" not in response.content.decode() and "Pippin" in response.content.decode()
    assert campaign.memberships.get(user=player).role == "gm"


def test_remove_without_htmx_redirects(client_for, gm, player, campaign):
    response = client_for(gm).post(reverse("campaigns:member-remove", args=[campaign.pk, player.pk]))
    assert response["Location"] == campaign.get_absolute_url()
    assert not campaign.memberships.filter(user=player).exists()


def test_acting_on_a_non_member_is_404(client_for, gm, outsider, campaign):
    response = client_for(gm).post(reverse("campaigns:member-remove", args=[campaign.pk, outsider.pk]))
    assert response.status_code == 404


def test_wrong_method_is_405(client_for, gm, campaign):
    assert client_for(gm).get(reverse("campaigns:leave", args=[campaign.pk])).status_code == 405


def test_edit_keeps_the_campaign_on_bad_input(client_for, gm, campaign):
    response = client_for(gm).post(reverse("campaigns:edit", args=[campaign.pk]), {"name": "", "ruleset": "dnd5e"})
    assert response.status_code == 200
    campaign.refresh_from_db()
    assert campaign.name == "War of the Ring"


def test_codes_avoid_ambiguous_characters():
    from masscombat.campaigns.models import CODE_ALPHABET, new_code

    assert not set("01ILO") & set(CODE_ALPHABET)
    assert len({new_code() for _ in range(200)}) == 200
    assert normalise_code(" abcd-efgh ") == "ABCDEFGH"


def test_a_player_may_be_in_many_campaigns(client_for, gm, player, campaign):
    other = services.create_campaign(gm, name="Second front", ruleset="jdrwiki")
    services.join_campaign(player, selectors.active_invitation(other).code)
    page = client_for(player).get("/").content.decode()
    assert "War of the Ring" in page and "Second front" in page


def test_home_and_members_query_counts(client_for, gm, player, campaign, make_user, django_assert_num_queries):
    for i in range(4):
        campaign.memberships.create(user=make_user(f"extra{i}"), role="player")
        services.create_campaign(gm, name=f"Other {i}", ruleset="heros")
    client = client_for(gm)
    # session, user, the campaigns (role and count in one query)
    with django_assert_num_queries(3):
        assert client.get("/").status_code == 200
    # session, user, campaign with the caller's role, members with their users
    with django_assert_num_queries(4):
        assert client.get(reverse("campaigns:members", args=[campaign.pk])).status_code == 200


def test_campaign_page_queries_do_not_grow_with_members(client_for, gm, campaign, make_user):
    """Other apps add sections to the page; none may query once per member."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(gm)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(campaign.get_absolute_url()).status_code == 200
        return len(queries)

    few = count()
    for i in range(6):
        campaign.memberships.create(user=make_user(f"extra{i}"), role="player")
    assert count() == few


def test_admin_shows_a_campaign_with_its_members(admin_client, campaign):
    response = admin_client.get(reverse("admin:campaigns_campaign_change", args=[campaign.pk]))
    assert response.status_code == 200 and "Pippin" in response.content.decode()


def test_leaving_is_offered_to_players_and_to_gms_who_are_not_the_last(client_for, gm, player, campaign):
    leave = reverse("campaigns:leave", args=[campaign.pk])
    assert leave in client_for(player).get(campaign.get_absolute_url()).content.decode()
    assert leave not in client_for(gm).get(campaign.get_absolute_url()).content.decode()
    services.set_role(campaign, campaign.memberships.get(user=player), "gm")
    assert leave in client_for(gm).get(campaign.get_absolute_url()).content.decode()


def test_login_page_explains_an_invitation(client, campaign):
    code = selectors.active_invitation(campaign).code
    page = client.get(f"/accounts/login/?next=/join/{code}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Vous êtes invité à une campagne" in page
    assert "invité à une campagne" not in client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
