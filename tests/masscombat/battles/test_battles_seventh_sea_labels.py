"""Every option and value that 7th Sea's and SYNAPSE's ``declaration-options`` can give has a label of ours.

The engines label in English; a form in French must not fall back to that text.  The walk asks the
engines themselves, on several states (new battles, after rounds with pinned seeds, with a heroic
opportunity pending and each type offered, drafted and accepted), for every participant; the forms
of the room are checked too (their reshaped options).  A label of ours is a translatable string
that the French catalogue translates; ids (heroes, formations, sides) are names, left as they are.
Round events and aftermath values of both rulesets are walked the same way.
"""

import json
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import trans_real

from masscombat.battles import adapters
from masscombat.games.seventh_sea import offers as seventh_sea_offers
from rules import registry
from rules.seventh_sea.tables import OPPORTUNITIES

SYNAPSE_EXAMPLES = Path(__file__).resolve().parents[2] / "rules" / "synapse" / "spec_examples.json"

SEVENTH_SEA_BATTLE = {
    "name": "Col", "attacker": "a", "options": {"wound_checks": True},
    "sides": {"a": {"name": "Montaigne", "troops": 2400, "general": {"wits": 3, "strategy": 3, "incitation": 2}},
              "b": {"name": "Castille", "troops": 2000, "fortification_level": 2,
                    "general": {"wits": 3, "strategy": 2, "incitation": 1}}},
    "heroes": [{"id": "lucie", "name": "Lucie", "side": "a", "wits": 3, "tactics": 2, "leadership": 2, "brawn": 2,
                "resolve": 3, "unit_type": "cavalry", "commission": "lieutenant"},
               {"id": "gaston", "name": "Gaston", "side": "b", "wits": 2, "tactics": 3, "leadership": 1, "brawn": 3,
                "resolve": 2, "unit_type": "infantry"}],
}
SEVENTH_SEA_ROUND = {"sides": {"a": {"strategy": "charge"}, "b": {"strategy": "entrenchment"}},
                     "heroes": {"lucie": {"engagement": "front_line"}, "gaston": {"engagement": "engaged"}}}


def _translated(label) -> bool:
    """A lazy label of ours whose msgid the French catalogue translates, alone or under a context (an
    engine value's is ``<slug>:value.<word>``)."""
    if not isinstance(label, Promise):
        return False
    with translation.override("en"):
        msgid = str(label)
    catalog = trans_real.translation("fr")._catalog
    return any(catalog.get(key) not in (None, "") for key in (msgid, *_contexts(msgid)))


def _contexts(msgid: str) -> list[str]:
    """The catalogue's keys of ``msgid`` under a context (``context\x04msgid``)."""
    return [key for key in trans_real.translation("fr")._catalog.keys()
            if isinstance(key, str) and key.endswith("\x04" + msgid)]


def _strings(value):
    """Every string inside an option value (choices, complete answers, refused values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _values(option: dict):
    yield from _strings(option.get("allowed") or [])
    yield from _strings(option.get("default"))
    for refused in option.get("forbidden") or []:
        yield from _strings(refused.get("value"))


def _options(slug: str, state: dict, participants: list, drafts=({},)) -> list[dict]:
    found = []
    for participant in participants:
        for draft in drafts:
            payload = {"state": state, "participant": participant, **({"declarations": draft} if draft else {})}
            found += registry.run(slug, "declaration-options", payload)["options"]
    return found


def _seventh_sea_states():
    """New battle; after rounds with pinned seeds; with an opportunity pending; holding effects."""
    state = registry.run("seventh_sea", "new-battle", SEVENTH_SEA_BATTLE, seed=3)["state"]
    states = [state]
    for seed in range(1, 40):
        out = registry.run("seventh_sea", "resolve-round", {"state": state, "declarations": SEVENTH_SEA_ROUND},
                           seed=seed)
        if out["state"]["heroes"][0]["opportunity_pending"] and out["state"]["heroes"][0]["status"] == "active":
            pending = out["state"]
            break
    else:
        raise AssertionError("no pinned seed offered Lucie an opportunity")
    states.append(pending)
    for kind in ("hold_the_position", "medic", "capture_enemy_banner"):  # a running effect, a rest, a position
        declarations = {**SEVENTH_SEA_ROUND, "heroes": {
            "lucie": {"engagement": "front_line",
                      "opportunity": {"type": kind, "accept": True, "captured": True}},
            "gaston": {"engagement": "engaged"}}}
        states.append(registry.run("seventh_sea", "resolve-round", {"state": pending, "declarations": declarations},
                                   seed=7)["state"])
    return states, pending


def _seventh_sea_drafts():
    return [{}] + [{"heroes": {"lucie": {"opportunity": {"type": kind, **answer}}}}
                   for kind in OPPORTUNITIES
                   for answer in ({}, {"accept": True, "captured": True}, {"accept": False})]


SEVENTH_SEA_PARTICIPANTS = [{"kind": "side", "id": "a"}, {"kind": "side", "id": "b"}, {"kind": "gm", "id": ""},
                            {"kind": "hero", "id": "lucie"}, {"kind": "hero", "id": "gaston"}]


def _check(adapter, options: list[dict], ids: set[str]) -> list[str]:
    """What falls back to the engine's English: option labels, and string values that are not ids."""
    missing = set()
    with translation.override("fr"):
        for option in options:
            key = option.get("label_as") or _last_segment(adapter, option["path"])
            label = adapter.option_labels.get(key)
            if key not in ids and not _translated(label):
                missing.add(f"option {key} ({option['path']})")
            shown = adapter.option_label(option)
            if shown == option.get("label") or shown == option["path"]:
                missing.add(f"option label {option['path']}")
            for value in _values(option):
                if value not in ids and not _translated(adapter.value_labels.get(value)):
                    missing.add(f"value {value!r} ({option['path']})")
    return sorted(missing)


def test_seventh_sea_options_all_have_our_labels():
    adapter = adapters.get("seventh_sea")
    states, _pending = _seventh_sea_states()
    options = []
    for state in states:
        options += _options("seventh_sea", state, SEVENTH_SEA_PARTICIPANTS, _seventh_sea_drafts())
    ids = {hero["id"] for hero in states[0]["heroes"]}
    assert {"easy_shot", "medic"} <= {v for option in options for v in _values(option)}  # the walk saw the offers
    assert {"accept", "attack_trait", "tn", "duel_won"} <= {o["path"].rsplit(".", 1)[-1] for o in options}
    assert _check(adapter, options, ids) == []


def test_seventh_sea_forms_reshaped_for_the_exchange_keep_our_labels():
    adapter = adapters.get("seventh_sea")
    _states, pending = _seventh_sea_states()
    names = {"heroes.lucie": "Lucie", "heroes.gaston": "Gaston", "sides.a": "Montaigne", "sides.b": "Castille"}
    reshaped = []
    for draft in _seventh_sea_drafts():
        gm = _options("seventh_sea", pending, [{"kind": "gm", "id": ""}], [draft])
        hero = _options("seventh_sea", pending, [{"kind": "hero", "id": "lucie"}], [draft])
        reshaped += seventh_sea_offers.gm_options(gm, names) + seventh_sea_offers.hero_options(hero)
    assert any(option.get("label_as") == "offer" for option in reshaped)
    assert any(option.get("label_as") == "offered" for option in reshaped)
    assert _check(adapter, reshaped, {"lucie", "gaston"}) == []
    with translation.override("fr"):
        labelled = {adapter.option_label(option) for option in reshaped if option.get("subject")}
    assert "Lucie — Modificateur manuel" in labelled or any(label.startswith("Lucie — ") for label in labelled)


def _synapse_states():
    """The spec's battle, then rounds where every formation attacks what its options name (pinned seeds)."""
    setup = json.loads(SYNAPSE_EXAMPLES.read_text(encoding="utf-8"))["new-battle"][0]  # the spec's S9.12 battle
    state = registry.run("synapse", "new-battle", setup, seed=5)["state"]
    states, events = [state], []
    for seed in range(1, 8):
        if state["status"] != "ongoing":
            break
        declarations = {"sides": {}}
        for side in ("A", "B"):
            options = {o["path"]: o for o in _options("synapse", state, [{"kind": "side", "id": side}])}
            orders = {}
            for path, option in options.items():
                if path.endswith(".action"):
                    fid = path[len(f"sides.{side}.orders."):-len(".action")]
                    action = "attack" if "attack" in option["allowed"] else option["allowed"][0]
                    orders[fid] = {"action": action}
                    if action == "attack":
                        orders[fid]["target"] = options[f"sides.{side}.orders.{fid}.target"]["default"]
            declarations["sides"][side] = {"orders": orders}
        out = registry.run("synapse", "resolve-round", {"state": state, "declarations": declarations}, seed=seed)
        state = out["state"]
        states.append(state)
        events += out["events"]
    return states, events


def test_synapse_options_all_have_our_labels():
    adapter = adapters.get("synapse")
    states, _events = _synapse_states()
    participants = [{"kind": "side", "id": "A"}, {"kind": "side", "id": "B"}, {"kind": "gm", "id": "gm"}]
    options = []
    for state in states:
        options += _options("synapse", state, participants)
    ids = set(states[0]["formations"]) | {"A", "B"}
    assert options and _check(adapter, options, ids) == []


def test_round_events_and_aftermath_values_have_our_labels():
    sea = adapters.get("seventh_sea")
    states, pending = _seventh_sea_states()
    declarations = {**SEVENTH_SEA_ROUND, "heroes": {
        "lucie": {"engagement": "front_line", "opportunity": {"type": "push_them_back", "accept": True}},
        "gaston": {"engagement": "engaged"}}}
    out = registry.run("seventh_sea", "resolve-round", {"state": pending, "declarations": declarations}, seed=7)
    events = out["events"]
    assert {"opportunity_started", "round_result"} <= {event["type"] for event in events}
    words = {event["type"] for event in events} | {
        event.get(field) for event in events for field in ("opportunity", "reason", "cause", "source")} - {None}
    aftermath = registry.run("seventh_sea", "end-battle", {"state": out["state"], "winner": "a"})
    words |= {hero[field] for hero in aftermath["heroes"].values() for field in ("share", "status")}
    with translation.override("fr"):
        assert sorted(word for word in words if not _translated(sea.value_labels.get(word))) == []

    synapse = adapters.get("synapse")
    states, _events = _synapse_states()
    words = {status for state in states for formation in state["formations"].values()
             for status in (formation["status"], formation.get("damage_state")) if status}
    aftermath = registry.run("synapse", "end-battle", {"state": states[-1], "winner": "A"})
    words |= {side["result"] for side in aftermath["sides"].values()}
    words |= {"rout", "withdrawal", "mutual", "gm", "withdrawn", "pinned", "failed", "routed", "reserve_committed",
              "battle_over", "retreat", "rally", "friendly_fire", "command_test", "attack"}  # S5.13, S7.14 events
    with translation.override("fr"):
        assert sorted(word for word in words if not _translated(synapse.value_labels.get(word))) == []


@pytest.mark.parametrize("slug", ["seventh_sea", "synapse"])
def test_labels_read_differently_in_french(slug):
    adapter = adapters.get(slug)
    labels = {**adapter.option_labels, **adapter.value_labels}
    assert [key for key, label in labels.items() if not _translated(label)] == []
    with translation.override("fr"):
        french = {key: str(label) for key, label in labels.items()}
    assert all(label and label != key for key, label in french.items())


def _rendered(template: str, slug: str, state: dict, **context) -> str:
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    from masscombat.battles.models import Battle

    battle = Battle(ruleset=slug, state=state, name="x")
    viewer = SimpleNamespace(is_gm=True, sides=set(), side=None, battle=battle, participant=lambda key: None,
                             seen={"state": state, "hidden": [], "names": {}},  # an unsaved battle: no engine names
                             adapter=adapters.get(slug))
    with translation.override("fr"):
        return render_to_string(template, {"battle": battle, "viewer": viewer, **context})


def _last_segment(adapter, path: str) -> str:
    """The segment a label is found by: SYNAPSE's formation ids hold a dot (``A.melee``)."""
    if adapter.slug == "synapse":
        from masscombat.games.synapse.battle import _label_parts

        return _label_parts(path)[-1]
    return path.rsplit(".", 1)[-1]


def test_the_reports_and_aftermaths_show_engine_words_in_french():
    states, events = _synapse_states()
    aftermath = registry.run("synapse", "end-battle", {"state": states[-1]})
    html = _rendered("battles/report/_generic.html", "synapse", states[-1], report={"events": events})
    html += _rendered("battles/aftermath/synapse.html", "synapse", states[-1], aftermath=aftermath)
    words = {event["type"] for event in events} | {side["result"] for side in aftermath["sides"].values()}
    assert {"command_test", "attack", "battle_over"} <= words
    assert [word for word in words if word in html] == []
    assert "Test de commandement" in html and "La bataille est finie" in html

    _states, pending = _seventh_sea_states()
    declarations = {**SEVENTH_SEA_ROUND, "heroes": {
        "lucie": {"engagement": "front_line", "opportunity": {"type": "push_them_back", "accept": True}},
        "gaston": {"engagement": "engaged"}}}
    out = registry.run("seventh_sea", "resolve-round", {"state": pending, "declarations": declarations}, seed=7)
    html = _rendered("battles/report/seventh_sea.html", "seventh_sea", out["state"],
                     output={"report": out["report"]}, report={"events": out["events"]})
    assert "saisit l’opportunité : Repoussez-les !" in html
    assert "push_them_back" not in html and "opportunity_started" not in html
    aftermath = registry.run("seventh_sea", "end-battle", {"state": out["state"], "winner": "b"})
    html = _rendered("battles/aftermath/seventh_sea.html", "seventh_sea", out["state"], aftermath=aftermath)
    assert "moitié (camp vaincu" in html and "en entier (camp vainqueur)" in html
