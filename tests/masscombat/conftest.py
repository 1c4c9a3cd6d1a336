"""Fixtures of the web application's tests.

When ``DATABASE_URL`` or ``REDIS_URL`` is set, the suite was told to use the
real services: a session fixture checks that they answer before any test
runs, and every test errors if they do not (a skipped run proves nothing).
"""

import os

import pytest
from django.core.cache import cache
from django.test import Client

from masscombat.campaigns import services
from masscombat.campaigns.models import Campaign
from masscombat.core.permissions import Role


@pytest.fixture(scope="session", autouse=True)
def required_services():
    """Fail hard when a service the run was pointed at is unreachable."""
    if os.environ.get("DATABASE_URL"):
        import psycopg

        try:
            psycopg.connect(os.environ["DATABASE_URL"], connect_timeout=5).close()
        except psycopg.Error as exc:
            pytest.fail(f"DATABASE_URL is set but PostgreSQL is unreachable: {exc}", pytrace=False)
    if os.environ.get("REDIS_URL"):
        import redis

        try:
            redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=5).ping()
        except redis.RedisError as exc:
            pytest.fail(f"REDIS_URL is set but Redis is unreachable: {exc}", pytrace=False)


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Templates resolve static files from the source folders, without collectstatic."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Real hashing costs a fifth of a second per user; tests do not need it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """API rate limits count in the cache: each test starts from zero."""
    cache.clear()


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(
            username=username, password="correct horse battery", email=f"{username}@example.org", **extra
        )

    return make


@pytest.fixture
def gm(make_user):
    return make_user("gandalf", display_name="Gandalf")


@pytest.fixture
def player(make_user):
    return make_user("pippin", display_name="Pippin")


@pytest.fixture
def outsider(make_user):
    return make_user("saruman")


@pytest.fixture
def campaign(gm, player) -> Campaign:
    """A campaign with one GM and one player."""
    campaign = services.create_campaign(gm, name="War of the Ring", ruleset="dnd5e", description="Middle-earth.")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    return campaign


@pytest.fixture
def client_for():
    """A test client logged in as the given user (or anonymous for None)."""

    def make(user) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make
