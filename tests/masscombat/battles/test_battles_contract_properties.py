"""Property: whatever a player or the GM picks among what the room's forms offer, an accepted declaration resolves.

For each ruleset the demo battle is played through the real views (Django's test client), at
least ``ROUNDS_PER_RULESET`` resolved rounds (counted and asserted): each participant's player
(the GM for those nobody plays), and the GM in his own overrides form, either stays silent or
posts a random choice among the values the form offers, field by field.  The declare view checks
it with ``check-declaration``; the GM then resolves, confirming the defaults of the silent.  Every
round must resolve (the engine never refuses what the room accepted), and every participant the
round waited for who has no declaration stored is named in the round's ``defaults_applied`` (or,
where the GM's own answer took it out of the round first, a 7th Sea adjustment knocking a hero out,
is named there when the same round is resolved without the GM's answer).

Each example plays ``ROUNDS`` rounds: when the rules end the battle it starts again from the demo
state (its rounds rolled back), and where a tie waits for the GM (D&D 5e, S7.7) the GM picks at
random between a draw and one more round, as his status panel offers.

The GM's JSON fields are drawn too, from what the engine's option describes (its ``allowed``
values and the ``items`` of each kind or id): D&D 5e's adjustments and solos' fallbacks.  A JSON
field whose option describes no value (HÉROS' stars and escapes, JdRWiki's regroup: the engine
offers an empty ``allowed`` for them in the demo battles) cannot be drawn from the form and is
left empty; the count of drawn JSON fields is asserted where the form describes some.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections import Counter

import pytest
from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from masscombat.battles import parts, selectors
from masscombat.battles.forms import EngineJSONField
from masscombat.battles.models import Battle
from masscombat.core import engines

pytestmark = pytest.mark.django_db

RULESETS = ("seventh_sea", "synapse", "jdrwiki", "dnd5e", "heros")
ROUNDS_PER_RULESET = int(os.environ.get("ROOM_PROPERTY_ROUNDS", "200"))  # fewer only for a quick local look
EXAMPLES = int(os.environ.get("ROOM_PROPERTY_EXAMPLES", "20"))
ROUNDS = -(-ROUNDS_PER_RULESET // EXAMPLES)  # rounds each example resolves, so that the examples make the total
JSON_DRAWN = {"dnd5e"}  # rulesets whose GM forms describe the values of a JSON field (see the docstring)


class _Rollback(Exception):
    """Raised at the end of a battle's run: its rounds are undone with the savepoint."""


def _clients() -> dict:
    clients = {}
    for user in get_user_model().objects.filter(username__startswith="demo-"):
        client = Client()
        client.force_login(user)
        clients[user.pk] = client
    return clients


def _value(data, field):
    """One value the form offers for ``field``, as a browser would post it (None: left empty)."""
    if isinstance(field, forms.BooleanField):
        return "on" if data.draw(st.booleans()) else None
    if isinstance(field, forms.IntegerField):
        low = field.min_value if field.min_value is not None else -3
        high = field.max_value if field.max_value is not None else low + 10
        return str(data.draw(st.integers(low, max(low, min(high, low + 40)))))
    if isinstance(field, forms.MultipleChoiceField):
        values = [value for value, _label in field.choices]
        return data.draw(st.lists(st.sampled_from(values), max_size=3, unique=True)) if values else None
    if isinstance(field, forms.ChoiceField):
        values = [value for value, _label in field.choices]
        return data.draw(st.sampled_from(values)) if values else None
    if isinstance(field, forms.CharField):
        return data.draw(st.text(alphabet="abc é", max_size=8))
    return None


def _spec_value(data, spec):
    """One value of an option's ``items`` field: among its allowed values, or within its bounds."""
    if isinstance(spec, list):
        return data.draw(st.sampled_from(spec)) if spec else _NOTHING
    if isinstance(spec, dict) and spec.get("type") == "integer":
        return data.draw(st.integers(spec["min"], min(spec["max"], spec["min"] + 40)))
    if isinstance(spec, dict) and spec.get("type") == "square":
        return [data.draw(st.integers(low, high)) for low, high in zip(spec["min"], spec["max"], strict=True)]
    return _NOTHING


_NOTHING = object()


def _entry(data, fields: dict, every: bool):
    """An object of ``fields`` (name -> spec): all of them (an adjustment's), or one (a fallback's choice)."""
    names = sorted(fields) if every else [data.draw(st.sampled_from(sorted(fields)))] if fields else []
    out = {name: _spec_value(data, fields[name]) for name in names}
    return None if not out or any(value is _NOTHING for value in out.values()) else out


def _json_value(data, option: dict) -> str | None:
    """A JSON value built from what the option describes (None: it describes none to build).

    A list whose ``items`` are by kind (D&D 5e's adjustments): entries of allowed kinds with each
    field drawn; an object whose ``items`` are by id (the side's fallbacks): one entry of an allowed
    id; an object whose ``items`` are fields (one solo's fallback): one of them."""
    items, allowed = option.get("items"), option.get("allowed") or []
    if not isinstance(items, dict) or not items:
        return None
    if option["type"] == "list":
        kinds = data.draw(st.lists(st.sampled_from(allowed), max_size=2)) if allowed else []
        entries = [_entry(data, items.get(kind) or {}, every=True) for kind in kinds]
        return json.dumps([{"type": kind, **entry} for kind, entry in zip(kinds, entries, strict=True) if entry])
    if allowed:  # by id
        ident = data.draw(st.sampled_from(allowed))
        entry = _entry(data, items.get(ident) or {}, every=False)
        return json.dumps({ident: entry}) if entry else None
    entry = _entry(data, items, every=False)
    return json.dumps(entry) if entry else None


def _answer(data, form, drawn: Counter) -> dict:
    out = {}
    for path, field in form.fields.items():
        if not data.draw(st.booleans()):
            continue  # left as it is
        if isinstance(field, EngineJSONField):
            value = _json_value(data, form.engine_options[path])
            drawn["json"] += value is not None
        else:
            value = _value(data, field)
        if value is not None:
            out[path] = value
    return out


def _forms(client, battle, mine: set[str]) -> list[dict]:
    """The declaration forms the room gives this user now, of the participants in ``mine`` (those the user
    plays: the GM's are folds, each one opened as its fold loads it)."""
    url = reverse("battles:part", args=[battle.pk, "declare"])
    # The part names each form's participant (the GM's folds too).
    keys = dict.fromkeys(html.unescape(key) for key in re.findall(r'data-participant="([^"]+)"',
                                                                     client.get(url).content.decode()))
    out = []
    for key in (key for key in keys if key in mine):
        opened = client.get(url, {"participant": key})
        entry = opened.context["entry"] if opened.status_code == 200 else None
        if entry is not None and entry["form"] is not None:
            out.append(entry)
    return out


def _play_round(data, battle, clients, gm_id, drawn: Counter) -> None:
    number = battle.current_round
    plays = {p.key: p.user_id or gm_id for p in battle.participants.all()}
    plays[selectors.GM_KEY] = gm_id  # the GM's own overrides
    for user_id, client in clients.items():
        for entry in _forms(client, battle, {key for key, player in plays.items() if player == user_id}):
            key = entry["key"]
            if not data.draw(st.booleans()):
                continue  # silent this round
            answer = _answer(data, entry["form"], drawn)
            response = client.post(reverse("battles:declare", args=[battle.pk]),
                                   {"participant": key, "round": number, **answer}, HTTP_HX_REQUEST="true")
            assert response.status_code == 200, (key, answer, response.status_code)
            if not response.context["notice"].get("error"):  # saved (else refused on its fields, nothing stored)
                drawn["gm accepted" if key == selectors.GM_KEY else "accepted"] += 1
    waiting = [p.key for p in selectors.missing(battle, selectors.declarations(battle))]
    gm = clients[gm_id]
    response = gm.post(reverse("battles:resolve", args=[battle.pk]), {"round": number, "confirm_missing": "1"})
    assert response.status_code == 302
    battle.refresh_from_db()
    stored = {d.participant: d.data for d in battle.declarations.filter(round=number)}
    assert battle.round == number, (f"round {number} did not resolve", [
        str(m) for m in messages.get_messages(response.wsgi_request)], stored)
    resolved = battle.rounds.get(number=number)
    assert not set(stored) & set(waiting)
    silent = set(waiting) - set(resolved.output["defaults_applied"])
    if silent:  # only the GM's own answer (an adjustment taking a hero out first, say) may spare them their orders
        assert selectors.GM_KEY in stored, (silent, stored)
        without = {key: answer for key, answer in stored.items() if key != selectors.GM_KEY}
        merged = engines.merge(battle.ruleset, resolved.state_before, without)
        again = engines.resolve_round(battle.ruleset, resolved.state_before, merged.declarations, seed=number)
        assert silent <= {*merged.defaults_applied, *again["defaults_applied"]}, (silent, stored)


def _settle_tie(data, battle, gm) -> None:
    """The rules stopped on a tie the GM settles: a draw (the battle ends) or one more round, as he picks."""
    if data.draw(st.booleans()):
        gm.post(reverse("battles:one_more_round", args=[battle.pk]), {"round": battle.current_round})
    else:
        gm.post(reverse("battles:end", args=[battle.pk]), {"winner": ""})
    battle.refresh_from_db()


@pytest.fixture
def demo():
    call_command("demo", verbosity=0)
    return {battle.ruleset: battle for battle in Battle.objects.all()}


@pytest.fixture
def runs(monkeypatch):
    """The number of the battle's current run, in the key of every part the cache keeps.

    A run's rollback brings the battle's event numbers back, by which rendered parts are cached: the
    next run would be shown another run's forms at the same number.  (Emptying the cache instead
    would empty it under the other test processes too, where it is Redis.)"""
    count = [0]
    real = parts.cache_key
    monkeypatch.setattr(parts, "cache_key", lambda *args, **kwargs: f"{real(*args, **kwargs)}:run{count[0]}")
    return count


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_declaration_the_room_accepts_resolves(demo, runs, ruleset):
    battle_id = demo[ruleset].pk
    clients = _clients()
    gm_id = get_user_model().objects.get(username="demo-gm").pk
    played, drawn = [], Counter()

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def play(data):
        here = 0
        while here < ROUNDS:
            before = here
            runs[0] += 1  # this run's parts are cached under keys of its own (see the fixture)
            try:
                with transaction.atomic():  # one run of the battle from the demo state, undone at its end
                    battle = Battle.objects.get(pk=battle_id)
                    while here < ROUNDS and battle.status == Battle.Status.RUNNING:
                        outcome = engines.outcome(battle.state)
                        if outcome.one_more_round:
                            _settle_tie(data, battle, clients[gm_id])
                            drawn["ties settled"] += 1
                            continue
                        if outcome.over:
                            break
                        _play_round(data, battle, clients, gm_id, drawn)
                        played.append(battle.round)
                        here += 1
                    raise _Rollback
            except _Rollback:
                pass
            assert here > before, "the demo battle resolves no round"

    play()
    print(f"{ruleset}: {len(played)} rounds resolved; {dict(drawn)}")
    assert len(played) >= ROUNDS_PER_RULESET
    assert drawn["accepted"] and drawn["gm accepted"]  # players' and the GM's answers were played
    if ruleset in JSON_DRAWN:
        assert drawn["json"]
