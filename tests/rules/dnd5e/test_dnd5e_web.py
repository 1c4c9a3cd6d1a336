"""declaration-options, visible-state, the SRD presets and the log messages."""

from __future__ import annotations

import random
import string

import pytest
from dnd5e_testkit import random_declarations, run

from rules.dnd5e import MESSAGES
from rules.dnd5e.entities import Profile


def options_of(state: dict, kind: str, pid: str | None) -> dict:
    return run("declaration-options", {"state": state, "participant": {"kind": kind, "id": pid}})


def test_unit_options_name_legal_targets_and_forbidden_actions(ford_state):
    out = options_of(ford_state, "unit", "u_a")
    assert (out["round"], out["phase"], out["must_declare"]) == (1, "declarations", True)
    opts = {o["path"]: o for o in out["options"]}
    action = opts["units.u_a.action"]
    assert action["allowed"] == ["attack", "configure", "dash", "disengage", "none"]
    assert {f["value"]: f["rule"] for f in action["forbidden"]} == {"cast_spell": "S6.5", "hide": "S6.5"}
    attacks = opts["units.u_a.stands[0].attacks"]
    assert {(a["attack"], a["target"]) for a in attacks["allowed"]} == {("greataxe", "sb1"), ("javelin", "sb1")}
    assert attacks["max"] == 1
    # adjacent to an enemy stand: no move without Disengage
    assert opts["units.u_a.stands[0].move"]["allowed"] == []


def test_defending_regiment_cannot_attack(big_state):
    opts = {o["path"]: o for o in options_of(big_state, "unit", "b_reg")["options"]}
    forbidden = {f["value"]: f for f in opts["units.b_reg.action"]["forbidden"]}
    assert "attack" in forbidden and "defense" in forbidden["attack"]["reason"]
    assert opts["units.b_reg.configuration"]["allowed"] == ["support", "march"]


def test_move_options_are_paths_that_check_movement_accepts(big_state):
    opts = {o["path"]: o for o in options_of(big_state, "unit", "a_sk")["options"]}
    paths = opts["units.a_sk.stands[0].move"]["allowed"]
    assert paths
    for path in paths:
        out = run("check-movement", {"state": big_state, "mover": "as1", "move": path})
        assert out["legal"], (path, out)


def test_solo_options(big_state):
    attached = {o["path"]: o for o in options_of(big_state, "solo", "chief")["options"]}
    assert attached["solos.chief.action"]["allowed"] == ["none", "attack"]
    assert "prepare" in attached["solos.chief.bonus_action"]["allowed"]
    assert "rally" not in attached["solos.chief.bonus_action"]["allowed"]
    detached = {o["path"]: o for o in options_of(big_state, "solo", "wizard")["options"]}
    assert "join" in detached["solos.wizard.action"]["allowed"]
    assert "bm1" in detached["solos.wizard.join"]["allowed"]
    hero = options_of(big_state, "hero", "wizard")
    assert hero["must_declare"] is True


def test_gm_and_side_options(big_state):
    gm = {o["path"]: o for o in options_of(big_state, "gm", None)["options"]}
    assert gm["gm.custom_achieved"]["allowed"] == ["flag"]
    assert (gm["gm.hide_dc"]["min"], gm["gm.hide_dc"]["max"]) == (0, 40)
    side = {o["path"]: o for o in options_of(big_state, "side", "A")["options"]}
    assert {"if_eliminated": "ar1", "shift": "ar2"} in side["casualty_shifts"]["allowed"]


def test_options_after_the_battle_and_for_unknown_ids(ford_state):
    ford_state["battle_over"] = True
    out = options_of(ford_state, "unit", "u_a")
    assert (out["phase"], out["must_declare"], out["options"]) == ("over", False, [])
    from rules.errors import InvalidInput
    with pytest.raises(InvalidInput) as err:
        options_of(ford_state, "unit", "ghost")
    assert "participant.id" in err.value.fields


def test_declarations_built_from_options_are_accepted(big_state):
    rng = random.Random(5)
    state = big_state
    for _ in range(3):
        out = run("resolve-round", {"state": state, "declarations": random_declarations(state, rng)}, seed=3)
        state = out["state"]
        if out["battle_over"]:
            break
    assert state["round"] >= 2


def test_visible_state_hides_hidden_enemies_and_masks_hit_points(big_state):
    big_state["stands"]["bs1"]["hidden"] = True
    big_state["stands"]["br1"]["hp"] = 5
    big_state["units"]["b_reg"]["prepare_until_round"] = 2
    out = run("visible-state", {"state": big_state, "side": "A"})
    view = out["state"]
    assert "bs1" not in view["stands"] and "bs1" not in view["units"]["b_sk"]["stands"]
    assert "stands.bs1" in out["hidden"]
    assert view["stands"]["br1"]["hp"] is None and view["stands"]["br1"]["health"] == "wounded"
    assert view["stands"]["br2"]["health"] == "unhurt"
    assert view["units"]["b_reg"]["prepare_until_round"] is None
    assert view["solos"]["wizard"]["hp"] is None and view["solos"]["wizard"]["spell_uses"] == {}
    assert view["stands"]["ar1"]["hp"] == 15  # own side in full
    assert view["objectives"]["flag"]["description"] == ""
    assert "bs1" not in str(view)
    own = run("visible-state", {"state": big_state, "side": "B"})
    assert own["state"]["stands"]["bs1"]["hidden"] is True and own["state"]["stands"]["br1"]["hp"] == 5
    assert own["state"]["objectives"]["flag"]["description"]


def test_presets_validate_as_profiles_and_feed_the_sheets():
    out = run("creature-presets", {})
    assert len(out["creatures"]) >= 20 and "CC-BY-4.0" in out["credit"] and "5.1" in out["credit"]
    for pid, profile in out["creatures"].items():
        Profile.model_validate(profile)
        role = "solo" if profile["size"] == "gargantuan" else "stand"
        assert run("creature-sheet", {"profile": profile, "role": role})["name"] == profile["name"]
    one = run("creature-presets", {"id": "goblin"})
    assert list(one["creatures"]) == ["goblin"] and one["creatures"]["goblin"]["stealth_bonus"] == 6


def test_every_logged_key_has_both_languages_and_matching_placeholders(big_state):
    rng = random.Random(2)
    state, seen = big_state, []
    for seed in range(4):
        out = run("resolve-round", {"state": state, "declarations": random_declarations(state, rng)}, seed=seed)
        seen += out["log"]
        state = out["state"]
        if out["battle_over"]:
            break
    seen += run("unit-sheet", {"type": "skirmishers", "profiles": big_state["profiles"],
                               "stands": [{"id": "x", "profile": "orc"}]})["log"]
    formatter = string.Formatter()
    for step in seen:
        assert step["key"] in MESSAGES, step["key"]
        for lang in ("en", "fr"):
            names = {f for _, f, _, _ in formatter.parse(MESSAGES[step["key"]][lang]) if f}
            assert names <= set(step["params"]), (step["key"], lang)
            MESSAGES[step["key"]][lang].format(**step["params"])


def test_spell_options_list_targets_in_range_and_origins(big_state):
    opts = {o["path"]: o for o in options_of(big_state, "solo", "wizard")["options"]}
    assert opts["solos.wizard.spell.name"]["allowed"] == ["fire_bolt", "fireball"]
    targets = opts["solos.wizard.spell.targets"]["allowed"]
    # a solo's fire bolt (one target) reaches no stand and no objective square, only solos within 6 squares
    assert all(t["target"] in big_state["solos"] for t in targets)
    origins = {o["spell"]: o["squares"] for o in opts["solos.wizard.spell.origin"]["allowed"]}
    assert [13, 8] in origins["fireball"] and len(origins["fireball"]) > 50
    big_state["stands"]["bm1"]["spell_uses"]["fireball"] = 0
    unit = {o["path"]: o for o in options_of(big_state, "unit", "b_mages")["options"]}
    spell = unit["units.b_mages.stands[0].spell.name"]
    assert spell["allowed"] == ["fire_bolt"] and spell["forbidden"][0]["value"] == "fireball"
