"""The API fuzzed from its own OpenAPI schema (schemathesis): no server error, answers as documented.

Every operation of ``/api/schema/`` gets generated requests, valid and not,
as the GM, as a player and anonymously, against a campaign with armies, heroes
and a battle (path ids point at them, so requests reach the real code rather
than stopping at 404).  Checks: no 5xx, the documented content type, and the
documented body for every documented status.  The examples per operation come
from ``FUZZ_EXAMPLES`` (CI keeps it small; the README's "Hardening" section
gives the long run).  drf-spectacular publishes no OpenAPI links, so there is
no stateful run: each operation is fuzzed on its own.
"""

import os
import random

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import content_type_conformance, not_a_server_error, response_schema_conformance

from rules import registry

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "4"))
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def callers(world):
    users = world["users"]
    tokens = {role: Token.objects.create(user=users[role]).key for role in ("gm", "player")}
    return {
        "gm": {"Authorization": f"Token {tokens['gm']}"},
        "player": {"Authorization": f"Token {tokens['player']}"},
        "anonymous": {},
    }


def aim(case, world) -> None:
    """Point the path at objects that exist, most of the time."""
    if random.random() < 0.2:
        return
    real = {"campaign_pk": world["sea"].pk, "user_id": world["target"].pk, "slug": world["sea"].ruleset}
    parameters = case.path_parameters or {}
    for name in list(parameters):
        if name in real:
            parameters[name] = real[name]
        elif name == "pk":
            parameters[name] = world["hero"].pk if "/heroes/" in case.path else (
                world["army"].pk if "/armies/" in case.path else world["sea"].pk)
        elif name == "op":
            parameters[name] = random.choice(sorted(registry.get(world["sea"].ruleset).operations))


@pytest.mark.parametrize("role", ["gm", "player", "anonymous"])
@schema.parametrize()
@hypothesis_settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_api(case, role, world, callers):
    """Rate limits stay on (each test counts afresh); a 429 is no server error and passes."""
    aim(case, world)
    case.call_and_validate(headers=callers[role], checks=CHECKS)
