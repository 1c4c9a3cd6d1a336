"""Guest seats: joining by link with a name only, the browser that keeps the seat, keeping it as an account."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from masscombat.accounts import guests
from masscombat.battles import services as battle_services
from masscombat.battles.models import BattleParticipant, Declaration
from masscombat.campaigns import selectors
from masscombat.rosters import services as roster_services

pytestmark = pytest.mark.django_db

User = get_user_model()


def link(campaign) -> str:
    return f"/join/{selectors.active_invitation(campaign).code}/"


def join_as_guest(campaign, name: str, client: Client | None = None) -> tuple[Client, object]:
    client = client or Client()
    response = client.post(link(campaign), {"name": name})
    assert response.status_code == 302, response.content.decode()
    assert response["Location"] == campaign.get_absolute_url()
    return client, User.objects.get(pk=client.session["_auth_user_id"])


def test_an_anonymous_visitor_on_a_link_is_offered_a_guest_seat_or_an_account(campaign):
    response = Client().get(link(campaign))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="name"' in page and "Play as a guest" in page
    assert f"/accounts/login/?next=/join/{selectors.active_invitation(campaign).code}/" in page
    assert "/accounts/signup/?next=" in page


def test_without_a_code_an_anonymous_visitor_is_sent_to_log_in():
    response = Client().get("/join/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=/join/")


def test_a_guest_joins_with_a_name_and_plays_as_a_member(campaign):
    client, guest = join_as_guest(campaign, "Éowyn")
    assert guest.is_guest and not guest.has_usable_password() and guest.email == ""
    assert guest.shown_name == "Éowyn"
    assert campaign.memberships.get(user=guest).role == "player"
    assert client.get(campaign.get_absolute_url()).status_code == 200
    cookie = client.cookies[guests.COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and int(cookie["max-age"]) == guests.COOKIE_AGE


def test_a_logged_in_member_opening_the_link_joins_as_themselves(campaign, client_for, outsider):
    client = client_for(outsider)
    page = client.get(link(campaign)).content.decode()
    assert 'name="code"' in page and 'name="name"' not in page
    client.post("/join/", {"code": selectors.active_invitation(campaign).code})
    assert campaign.memberships.filter(user=outsider).exists()
    assert not User.objects.filter(guest_key_hash__gt="").exists()


def test_the_cookie_logs_the_same_browser_back_in_without_its_session(campaign):
    client, guest = join_as_guest(campaign, "Éowyn")
    restarted = Client()  # a phone restarted: the session is gone, the long-lived cookie stays
    restarted.cookies[guests.COOKIE] = client.cookies[guests.COOKIE].value
    response = restarted.get(campaign.get_absolute_url())
    assert response.status_code == 200 and response.context["user"] == guest
    assert restarted.session["_auth_user_id"] == str(guest.pk)


def test_the_database_keeps_only_a_digest_of_the_secret(campaign):
    client, guest = join_as_guest(campaign, "Éowyn")
    secret = client.cookies[guests.COOKIE].value.split(":", 2)[1]  # "<id>:<secret>:<signature>"
    assert len(secret) >= 40
    assert secret not in guest.guest_key_hash and secret not in guest.password


@pytest.mark.parametrize("forge", [
    lambda value, guest: "",  # another browser: no cookie at all
    lambda value, guest: value[:-3] + "AAA",  # signature broken
    lambda value, guest: f"{guest.pk}:{'x' * 43}",  # unsigned, a guessed secret
])
def test_another_browser_cannot_take_the_seat(campaign, forge):
    client, guest = join_as_guest(campaign, "Éowyn")
    other = Client()
    forged = forge(client.cookies[guests.COOKIE].value, guest)
    if forged:
        other.cookies[guests.COOKIE] = forged
    response = other.get(campaign.get_absolute_url())
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    if forged:
        assert other.cookies[guests.COOKIE].value == ""  # a cookie naming no seat is removed


def test_a_cookie_signed_for_another_guest_with_the_wrong_secret_is_refused(campaign):
    from django.core import signing

    _client, guest = join_as_guest(campaign, "Éowyn")
    other = Client()
    other.cookies[guests.COOKIE] = signing.get_cookie_signer(salt=guests.COOKIE + guests._SALT).sign(
        f"{guest.pk}:not-the-secret")
    assert not other.get("/").context["user"].is_authenticated


def test_the_cookie_logs_in_only_on_reads(campaign):
    """A form posted without a session is not taken as the guest's: logging in rotates the CSRF token."""
    client, guest = join_as_guest(campaign, "Éowyn")
    restarted = Client()
    restarted.cookies[guests.COOKIE] = client.cookies[guests.COOKIE].value
    restarted.post(f"/campaigns/{campaign.pk}/leave/")
    assert campaign.memberships.filter(user=guest).exists()


def test_logging_out_gives_the_seat_up(campaign):
    client, _guest = join_as_guest(campaign, "Éowyn")
    client.post("/accounts/logout/")
    assert client.cookies[guests.COOKIE].value == ""
    assert not client.get("/").context["user"].is_authenticated


@pytest.mark.parametrize(("typed", "shown"), [
    ("Pippin", "Pippin (2)"),  # a member's name, taken
    ("  pippin  ", "pippin (2)"),  # in another case, with spaces around
    ("Gandalf\u200b\u0007", "Gandalf (2)"),  # invisible and control characters do not make it new
    ("Sam   Gamgee", "Sam Gamgee"),
    ("x" * 60, "x" * guests.NAME_MAX),
])
def test_names_are_cleaned_and_unique_within_the_campaign(campaign, typed, shown):
    _client, guest = join_as_guest(campaign, typed)
    assert guest.display_name == shown


def test_a_third_guest_of_the_same_name_gets_the_next_suffix_within_the_length(campaign):
    long = "y" * guests.NAME_MAX
    names = [join_as_guest(campaign, long)[1].display_name for _ in range(3)]
    assert names == [long, "y" * (guests.NAME_MAX - 4) + " (2)", "y" * (guests.NAME_MAX - 4) + " (3)"]
    assert all(len(name) <= guests.NAME_MAX for name in names)


@pytest.mark.parametrize("typed", ["", "   ", "\u200b\u200b", "\x00\x07"])
def test_an_empty_name_is_refused_on_its_field(campaign, typed):
    response = Client().post(link(campaign), {"name": typed})
    assert response.status_code == 200 and "name" in response.context["guest_form"].errors
    assert not User.objects.filter(guest_key_hash__gt="").exists()


def test_a_hostile_name_is_kept_as_typed_and_shown_escaped(campaign, client_for, gm):
    hostile = '<img src=x onerror=alert(1)>"'
    _client, guest = join_as_guest(campaign, hostile)
    assert guest.display_name == hostile
    page = client_for(gm).get(f"/campaigns/{campaign.pk}/members/").content.decode()
    assert hostile not in page and "&lt;img src=x onerror=alert(1)&gt;&quot;" in page


def test_a_revoked_link_creates_no_guest(campaign):
    url = link(campaign)
    campaign.invitations.update(revoked_at="2026-01-01T00:00:00Z")
    response = Client().post(url, {"name": "Éowyn"})
    assert response.status_code == 200 and "no longer valid" in response.content.decode()
    assert not User.objects.filter(guest_key_hash__gt="").exists()


def test_guest_seats_count_in_the_signup_limit(campaign, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "signup": "2/hour"}}
    join_as_guest(campaign, "One")
    join_as_guest(campaign, "Two")
    refused = Client().post(link(campaign), {"name": "Three"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many players joined" in refused.content.decode()
    signup = Client().post("/accounts/signup/", {
        "username": "aragorn", "email": "a@example.org", "password1": "Tabletop-battle-42",
        "password2": "Tabletop-battle-42"})
    assert signup.status_code == 429  # the same counter as the sign-up page's
    assert User.objects.filter(guest_key_hash__gt="").count() == 2


def test_opening_links_counts_in_the_join_limit_per_address(campaign, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "join": "2/min"}}
    visitor = Client()
    assert [visitor.get(link(campaign)).status_code for _ in range(3)] == [200, 200, 429]
    assert Client(REMOTE_ADDR="10.0.0.9").get(link(campaign)).status_code == 200


def test_the_gm_sees_guests_marked(campaign, client_for, gm):
    join_as_guest(campaign, "Éowyn")
    page = client_for(gm).get(f"/campaigns/{campaign.pk}/members/").content.decode()
    assert page.count('class="badge guest"') == 1


def test_a_guest_profile_has_no_email_and_offers_to_keep_the_seat(campaign):
    client, guest = join_as_guest(campaign, "Éowyn")
    response = client.get("/accounts/profile/")
    assert set(response.context["form"].fields) == {"display_name"}
    assert "/accounts/profile/keep-seat/" in response.content.decode()
    response = client.post("/accounts/profile/", {"display_name": ""})
    assert "display_name" in response.context["form"].errors


def test_a_member_has_no_seat_to_keep(client_for, player):
    response = client_for(player).get("/accounts/profile/keep-seat/")
    assert response.status_code == 302 and response["Location"] == "/accounts/profile/"


@pytest.fixture
def guest_at_war(campaign, gm):
    """A guest commanding an army, owning a hero, who declared in a battle."""
    client, guest = join_as_guest(campaign, "Éowyn")
    campaign.ruleset = "seventh_sea"
    campaign.save()
    a = roster_services.create_army(campaign, name="Montaigne", user=gm, commander=guest, data={
        "name": "Montaigne", "troops": 2000, "general": {"wits": 2, "strategy": 3, "incitation": 1}})
    b = roster_services.create_army(campaign, name="Castille", user=gm, data={
        "name": "Castille", "troops": 2000, "general": {"wits": 3, "strategy": 1}, "free_raises": 0})
    hero = roster_services.create_hero(campaign, name="Lucie", user=gm, owner=guest, army=a, data={
        "id": "lucie", "name": "Lucie", "side": "a", "wits": 2, "tactics": 3, "leadership": 2, "brawn": 3,
        "resolve": 2, "unit_type": "artillery", "reputation": 10})
    battle = battle_services.create_battle(campaign, gm, name="Col", armies={"a": a, "b": b},
                                           heroes=[(hero, "a")], options={"attacker": "a", "wound_checks": True})
    battle_services.declare(guest, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    return client, guest, battle


KEEP = {"username": "eowyn", "email": "eowyn@example.org", "password1": "Shield-maiden-42",
        "password2": "Shield-maiden-42"}


def test_keeping_the_seat_keeps_the_user_row_its_hero_army_and_history(guest_at_war):
    client, guest, battle = guest_at_war
    response = client.post("/accounts/profile/keep-seat/", KEEP)
    assert response.status_code == 302
    kept = User.objects.get(pk=guest.pk)
    assert kept.username == "eowyn" and kept.email == "eowyn@example.org" and not kept.is_guest
    assert kept.check_password("Shield-maiden-42") and kept.display_name == "Éowyn"
    assert kept.heroes.get().name == "Lucie" and kept.commanded_armies.get().name == "Montaigne"
    assert Declaration.objects.get(battle=battle).declared_by == kept
    assert BattleParticipant.objects.filter(battle=battle, user=kept).exists()
    assert client.get("/").context["user"] == kept  # the session survived the new password
    password_login = Client()
    assert password_login.login(username="eowyn", password="Shield-maiden-42")
    assert password_login.get(f"/battles/{battle.pk}/").status_code == 200


def test_after_keeping_the_seat_the_cookie_logs_nobody_in(campaign):
    client, guest = join_as_guest(campaign, "Éowyn")
    cookie = client.cookies[guests.COOKIE].value
    client.post("/accounts/profile/keep-seat/", KEEP)
    stale = Client()
    stale.cookies[guests.COOKIE] = cookie
    assert not stale.get("/").context["user"].is_authenticated


def test_keeping_the_seat_refuses_a_taken_user_name_on_its_field(campaign, player):
    client, guest = join_as_guest(campaign, "Éowyn")
    response = client.post("/accounts/profile/keep-seat/", {**KEEP, "username": "pippin"})
    assert response.status_code == 200 and "username" in response.context["form"].errors
    assert User.objects.get(pk=guest.pk).is_guest


def test_the_guest_pages_speak_french(campaign, client_for, gm):
    visitor = Client(HTTP_ACCEPT_LANGUAGE="fr")
    page = visitor.get(link(campaign)).content.decode()
    assert "Jouer en invité" in page and "Votre nom à la table" in page and "Créer un compte" in page
    client, _guest = join_as_guest(campaign, "Éowyn", Client(HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Garder votre place" in client.get("/accounts/profile/keep-seat/").content.decode()
    members = client_for(gm).get(f"/campaigns/{campaign.pk}/members/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert ">invité</span>" in members
