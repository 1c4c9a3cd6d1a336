"""The API fuzzed from its own OpenAPI schema (schemathesis): no server error, answers as documented.

Every operation of ``/api/schema/`` gets generated requests, valid and not,
as the GM, as a player and anonymously, against a campaign with armies, heroes
and a battle (every id of a path, ``{id}``, ``{campaign_pk}``, ``{change_id}``,
``{user_id}``, points at them four times in five, so requests reach the real
code rather than stopping at 404; each operation on a battle, an army, a hero
or a map fails when the GM never got past 404; the counts are printed, by
method and status).  A battle action's body is aimed too: the round the
battle is at, a real participant, generated values under its real option
paths, so that declarations, resolutions and undos really happen.
Checks: no 5xx, the documented content type, and the documented body for
every documented status.  The examples per operation come
from ``FUZZ_EXAMPLES`` (CI keeps it small; the README's "Hardening" section
gives the long run).  drf-spectacular publishes no OpenAPI links, so there is
no stateful run: each operation is fuzzed on its own.
"""

import os

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)

from masscombat.battles import selectors, services
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


# The detail paths' kind of object, by the collection their ``{id}`` follows.
KINDS = ("armies", "heroes", "maps", "battles")


def kind_of(path: str) -> str | None:
    """``armies``, ``heroes``, ``maps`` or ``battles`` for a path with an ``{id}`` of that collection;
    ``campaigns`` for ``/api/campaigns/{id}/``; None for a path without an id."""
    for kind in KINDS:
        if f"/{kind}/{{id}}" in path:
            return kind
    return "campaigns" if "/campaigns/{id}" in path else None


def real_ids(world) -> dict[str, dict]:
    """For each kind of detail path, the path parameters that name a real object of the world."""
    sea, zones = world["sea"], world["zones"]
    army, hero = world["army"], world["hero"]
    return {
        "armies": {"campaign_pk": sea.pk, "id": army.pk, "change_id": army.changes.latest("pk").pk},
        "heroes": {"campaign_pk": sea.pk, "id": hero.pk, "change_id": hero.changes.latest("pk").pk},
        "maps": {"campaign_pk": zones.pk, "id": world["map"].pk},  # the maps live in the jdrwiki campaign
        "battles": {"campaign_pk": sea.pk, "id": world["battle"].pk},
        "campaigns": {"id": sea.pk},
        None: {"campaign_pk": sea.pk},
    }


def aim(case, world, targets: dict, number: int) -> bool:
    """Point every id of the path at the world's objects, four requests in five; whether it did.

    The fifth keeps the ids schemathesis made up (unknown objects: 404s, which are checked too).  By the
    request's ``number`` (hypothesis seeds ``random`` alike for every example: a draw would always agree),
    which also takes the engine's operations in turn for ``/api/rules/{slug}/{op}/``.
    """
    if number % 5 == 4:
        return False
    parameters = case.path_parameters or {}
    real = {"user_id": world["target"].pk, "slug": world["sea"].ruleset, **targets[kind_of(case.path)]}
    for name in list(parameters):
        if name in real:
            parameters[name] = real[name]
        elif name == "op":
            operations = sorted(registry.get(world["sea"].ruleset).operations)
            parameters[name] = operations[number % len(operations)]  # each operation of the engine in turn
    if kind_of(case.path) == "battles" and isinstance(case.body, dict):
        aim_the_round(case, world["battle"], number)
    return True


def aim_the_round(case, battle, number: int) -> None:
    """A battle action's body names the round the battle is at (declare: current round; undo: the last
    resolved, one the GM resolves first if there is none) and, to declare, one of its participants in turn:
    the rest of the body stays generated, so the engine's checks of the declaration and the round's
    services really run (and declare, resolve or undo for the GM)."""
    battle.refresh_from_db()
    if case.path.endswith("/undo/") and battle.round == 0:  # something to undo: the GM resolves round 1
        services.resolve_round(battle.created_by, battle.pk, expected_round=1, confirmed_missing=True)
        battle.refresh_from_db()
    if "round" in case.body:
        case.body["round"] = battle.round if case.path.endswith("/undo/") else battle.current_round
    if "participant" in case.body:
        keys = sorted(participant.key for participant in battle.participants.all())
        key = case.body["participant"] = keys[number % len(keys)]
        if isinstance(case.body.get("declaration"), dict):
            case.body["declaration"] = aim_the_declaration(battle, key, case.body["declaration"], number)


def aim_the_declaration(battle, key: str, generated: dict, number: int) -> dict:
    """The generated values under the participant's real option paths (each in turn), so that the form and
    the engine judge them; one request in three the first value each option allows instead, which is a
    declaration the battle takes."""
    kind, ref = key.split(":", 1)
    options = selectors.options_for(battle, key, kind, ref)["options"]
    if not options:
        return generated
    if number % 3 == 0:
        return {option["path"]: option["allowed"][0] for option in options if option.get("allowed")}
    return {options[index % len(options)]["path"]: value for index, value in enumerate(generated.values())}


@pytest.fixture
def targets(world):
    """:func:`real_ids`, read once per operation: an example may delete what later ones aim at (they get 404)."""
    return real_ids(world)


@pytest.fixture
def reached(request):
    """How many requests of this test reached a real object (aimed, and not answered 404), checked at the end:
    an operation on a battle, an army, a hero or a map that the GM never got past 404 was not fuzzed."""
    counts = {"calls": 0, "aimed": 0, "reached": 0, "path": None, "statuses": {}}
    yield counts
    statuses = ", ".join(f"{code}: {n}" for code, n in sorted(counts["statuses"].items()))
    print(f"{request.node.name}: {counts['reached']} of {counts['aimed']} aimed requests (of {counts['calls']})"
          f" reached the real object; their answers {statuses}")
    role = request.node.callspec.params.get("role")
    if counts["path"] and kind_of(counts["path"]) in KINDS and role == "gm":
        assert counts["reached"] > 0, f"{counts['path']} as {role}: no request got past 404"


@pytest.mark.parametrize("role", ["gm", "player", "anonymous"])
@schema.parametrize()
@hypothesis_settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_api(case, role, world, callers, targets, reached):
    """Rate limits stay on (each test counts afresh); a 429 is no server error and passes."""
    aimed = aim(case, world, targets, reached["calls"])
    # The WSGI test client does not decompress: ask for the body as it is (gzip has its own tests).
    response = case.call_and_validate(headers={**callers[role], "Accept-Encoding": "identity"}, checks=CHECKS)
    reached["path"] = case.path
    reached["calls"] += 1
    reached["aimed"] += aimed
    reached["reached"] += aimed and response.status_code != 404
    if aimed:  # by method too: schemathesis also sends methods the path does not document (405, or OPTIONS)
        answer = f"{response.request.method} {response.status_code}"
        reached["statuses"][answer] = reached["statuses"].get(answer, 0) + 1


# What the fuzzing found once its requests reached real objects, kept as plain tests.


@pytest.mark.parametrize("kind", ["armies", "heroes"])
@pytest.mark.parametrize("body", ["[]", "[1, 2]", "7", '"version"'])
def test_a_restore_whose_body_is_not_an_object_asks_for_the_version(world, client_for, kind, body):
    """``request.data.get`` on a JSON list was a 500 (AttributeError): now the version's field error."""
    ids = real_ids(world)[kind]
    url = f"/api/campaigns/{ids['campaign_pk']}/{kind}/{ids['id']}/restore/{ids['change_id']}/"
    answer = client_for(world["users"]["gm"]).post(url, body, content_type="application/json")
    assert answer.status_code == 400 and "version" in answer.json()
