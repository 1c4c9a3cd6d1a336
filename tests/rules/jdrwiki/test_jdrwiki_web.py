"""declaration-options and visible-state (the web layer's helpers), and the log messages."""

import copy

from rules.jdrwiki import MESSAGES


def _options(jd, state, kind, pid):
    result = jd.run("declaration-options", {"state": state, "participant": {"kind": kind, "id": pid}})
    jd.check_log(result)
    return result, {o["path"]: o for o in result["options"]}


def test_corps_options_list_targets_in_range_and_forbid_the_rest(jd, s1):
    s1["corps"]["s1"]["zone"] = "z4"  # two zones away from n1 in z2
    result, opts = _options(jd, s1, "corps", "n1")
    assert (result["round"], result["phase"], result["must_declare"]) == (1, "declaration", False)
    actions = opts["corps.n1.actions"]
    assert actions["budget"] == 5 and actions["max_items"] == 2
    assert not [a for a in actions["allowed"] if a.get("target")]
    reasons = {f["value"]["action"]: f for f in actions["forbidden"]}
    assert reasons["massive_assault"]["rule"] == "S4.18"
    assert {"action": "move", "moves": 1, "path": ["z3"]} in actions["allowed"]
    s1["corps"]["s1"]["zone"] = "z3"
    _, opts = _options(jd, s1, "corps", "n1")
    assert {"action": "massive_assault", "target": "s1"} in opts["corps.n1.actions"]["allowed"]


def test_options_forbid_actions_over_the_pool_and_manoeuvres_in_total_melee(jd, s1):
    s1["corps"]["n1"].update(initiative=1, total_melee_with="s1", zone="z3")
    s1["corps"]["s1"]["total_melee_with"] = "n1"
    _, opts = _options(jd, s1, "corps", "n1")
    forbidden = {f["value"]["action"]: f["rule"] for f in opts["corps.n1.actions"]["forbidden"]}
    assert forbidden["combined_assault"] == "S4.16"
    assert forbidden["charge"] == "S7.1.3" and forbidden["total_melee"] == "S7.1.3"
    allowed = {a["action"] for a in opts["corps.n1.actions"]["allowed"]}
    assert "massive_assault" in allowed and "charge" not in allowed
    assert "corps.n1.melee_characteristic" in opts


def test_every_allowed_single_action_is_accepted(jd, s1):
    _, opts = _options(jd, s1, "corps", "s1")
    for action in opts["corps.s1.actions"]["allowed"]:
        allocation = {"preparation": 1} if action["action"] == "mining" else {}
        state = copy.deepcopy(s1)
        state["corps"]["s1"]["advantage"] = 1
        result = jd.run("resolve-round", {"state": state, "seed": 1, "declarations": {
            "corps": {"s1": {"actions": [action], "allocation": allocation}}}})
        assert result["outcomes"]["s1/a0"]["action"] == action["action"]


def test_initiative_phase_options(jd, s1):
    s1["phase"] = "initiative"
    s1["corps"]["n1"]["initiative"] = 0
    result, opts = _options(jd, s1, "corps", "n1")
    assert result["must_declare"] is True
    assert opts["rerolls[].n1"]["required"] is True and opts["rerolls[].n1"]["item"] == "n1"
    assert opts["rerolls[].n1"]["advantage_change"] == 0 + 2  # strategist rank 2: no grace cost, +2 gain
    _, opts = _options(jd, s1, "corps", "s1")
    assert opts["rerolls[].s1"]["forbidden"][0]["value"] is True  # pool 22 above the cap of 5


def test_the_initiative_phase_also_offers_the_actions_resolve_round_accepts(jd, s1):
    """Every round after the first starts in the initiative phase: the corps still declares its actions."""
    s1["phase"] = "initiative"
    _, opts = _options(jd, s1, "corps", "s1")
    allowed = opts["corps.s1.actions"]["allowed"]
    attack = next(a for a in allowed if a["action"] == "massive_assault")
    result = jd.run("resolve-round", {"state": s1, "seed": 1, "declarations": {"corps": {"s1": {"actions": [attack]}}}})
    assert result["outcomes"]["s1/a0"]["action"] == "massive_assault"


def test_a_corps_that_must_re_roll_is_offered_what_its_lowest_roll_pays(jd, s1):
    """Pool 0 in the initiative phase: the engine rolls it first, so the actions are priced on d20 = 1."""
    s1["phase"] = "initiative"
    s1["corps"]["n1"]["initiative"] = 0
    _, opts = _options(jd, s1, "corps", "n1")
    actions = opts["corps.n1.actions"]
    assert actions["budget"] > 0
    costly = max((a for a in actions["allowed"] if a.get("target") and a["action"] != "mining"),
                 key=lambda a: actions["catalogue"][a["action"]]["cost"])
    for seed in range(5):  # whatever the roll, the declaration is accepted
        state = copy.deepcopy(s1)
        result = jd.run("resolve-round", {"state": state, "seed": seed,
                                          "declarations": {"corps": {"n1": {"actions": [costly]}}}})
        assert result["outcomes"]["n1/a0"]["action"] == costly["action"]


def test_negative_advantage_makes_the_allocation_required(jd, s1):
    s1["corps"]["n1"]["advantage"] = -3
    result, opts = _options(jd, s1, "corps", "n1")
    assert result["must_declare"] is True
    env = opts["corps.n1.allocation.environment"]
    assert env["required"] and env["default"] == -3
    # A side that declares something must allocate its deficit itself (S5.5.2) ...
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"armies": {"north": {"withdraw": False}}}})
    assert list(error["fields"]) == ["declarations.corps.n1.allocation"]
    # ... one that declares nothing gets the default: the whole deficit on environment (contract defaults).
    result = jd.run("resolve-round", {"state": s1, "declarations": {}, "seed": 3})
    assert result["defaults_applied"] == ["side:a"]
    assert [s["params"] for s in result["log"] if s["key"] == "defaults.applied"] == [{"participant": "side:a"}]
    allocation = [s["params"] for s in result["log"] if s["key"] == "advantage.allocation"]
    assert allocation[0]["allocation"]["environment"] == -3 and allocation[0]["corps"] == "n1"


def test_hero_and_army_options(jd, s1):
    s1["heroes"]["ildar"]["available_from_round"] = 3
    _, opts = _options(jd, s1, "corps", "n1")
    heroes = opts["corps.n1.heroes"]
    assert heroes["allowed"] == [{"hero_id": "ildar", "sacrifice": True}]
    assert heroes["forbidden"][0]["rule"] == "S7.4.2"
    _, opts = _options(jd, s1, "hero", "kavelec")
    assert opts["corps.s1.heroes[].kavelec.heroism"]["forbidden"] == []
    _, opts = _options(jd, s1, "army", "north")
    assert opts["armies.north.ruthless"]["forbidden"][0]["rule"] == "S7.7.9"
    assert {"pool": "commander", "use": "advantage"} in opts["armies.north.heroism"]["allowed"]
    _, opts = _options(jd, s1, "gm", "gm")
    assert "gm.end_battle" in opts


def test_unknown_participant_is_refused(jd, s1):
    error = jd.refuse("declaration-options", {"state": s1, "participant": {"kind": "corps", "id": "zz"}})
    assert list(error["fields"]) == ["participant.id"]


def test_visible_state_hides_the_other_side(jd, s1):
    s1["map"]["zones"]["z3"]["terrain"] = {"cover": 1}
    result = jd.run("visible-state", {"state": s1, "side": "a"})
    jd.check_log(result)
    view, hidden = result["state"], result["hidden"]
    south = view["armies"]["south"]
    assert set(south) == {"id", "name", "side", "status", "ruthless"}
    assert "armies.south.sheet" in hidden and "armies.south.commander" in hidden
    assert "advantage" not in view["corps"]["s1"] and "initiative" not in view["corps"]["s1"]
    assert "hp" not in view["corps"]["s1"]  # fog: s1 stands under cover
    assert view["corps"]["s1"]["zone"] == "z3"
    kavelec = view["heroes"]["kavelec"]
    assert "bonuses" not in kavelec and "heroism_points" not in kavelec and "available_from_round" not in kavelec
    assert view["corps"]["n1"]["advantage"] == 2 and view["armies"]["north"]["sheet"]["level"] == 12
    assert view["heroes"]["ildar"]["bonuses"]["deft_attack"] == 4
    assert "corps.s1.hp" in hidden and "heroes.kavelec.bonuses" in hidden
    without_fog = jd.run("visible-state", {"state": s1, "side": "a", "fog": False})
    assert without_fog["state"]["corps"]["s1"]["hp"] == 800


def test_every_log_step_has_messages_in_both_languages(jd):
    state, _ = jd.play(jd.NEW_BATTLE, 3, max_rounds=15)
    result = jd.run("battle-aftermath", {"state": state})
    steps = result["log"]
    for seed in range(3):
        battle = jd.run("new-battle", {**jd.NEW_BATTLE, "dice": {}, "seed": seed})
        steps += battle["log"]
        prepared, declarations = jd.legal_declarations(battle["state"], __import__("random").Random(seed))
        steps += jd.run("resolve-round", {"state": prepared, "declarations": declarations, "seed": seed})["log"]
    for step in steps:
        templates = MESSAGES[step["key"]]
        for lang in ("en", "fr"):
            assert templates[lang].format(**step["params"])


def test_visible_state_keeps_only_the_public_part_of_enemy_declarations(jd, s1):
    declarations = {"armies": {"south": {"save_from_fatal": "commander", "withdraw": False}},
                    "corps": {"s1": {"actions": [{"action": "massive_assault", "target": "n1", "on_critical": "damage",
                                                  "fallback": {"action": "massive_assault", "target": "n1"}}],
                                     "allocation": {"fury": 1}, "heroes": [{"hero_id": "kavelec", "heroism": True}]},
                              "n1": {"allocation": {"focus": 1}}}}
    result = jd.run("visible-state", {"state": s1, "side": "a", "declarations": declarations})
    public = result["declarations"]
    action = public["corps"]["s1"]["actions"][0]
    assert action["action"] == "massive_assault" and action["target"] == "n1"
    assert "on_critical" not in action and "fallback" not in action
    assert "allocation" not in public["corps"]["s1"]
    assert public["corps"]["s1"]["heroes"] == [{"hero_id": "kavelec"}]
    assert "save_from_fatal" not in public["armies"]["south"] and public["armies"]["south"]["withdraw"] is False
    assert public["corps"]["n1"]["allocation"]["focus"] == 1  # own side untouched
    assert "declarations.corps.s1.allocation" in result["hidden"]


def test_the_gm_sees_everything(jd, s1):
    result = jd.run("visible-state", {"state": s1, "side": "gm"})
    assert result["hidden"] == []
    assert result["state"]["corps"]["s1"]["advantage"] == 0 and "sheet" in result["state"]["armies"]["south"]


def _intervention_step(result, hero):
    return next(s for s in result["log"] if s["key"] == "hero.intervention" and s["params"]["hero"] == hero)


def test_moderate_use_offers_the_bonuses_to_drop_and_resolve_round_takes_them(jd, s1):
    """S7.4.4: options → a moderate-use intervention → resolve-round keeps the rest and shortens the cooldown."""
    _, opts = _options(jd, s1, "hero", "kavelec")
    prefix = "corps.s1.heroes[].kavelec"
    moderation, dropped = opts[f"{prefix}.moderation"], opts[f"{prefix}.dropped_bonuses"]
    # Five positive bonuses: two rounds at most (four dropped, one kept, H35); cooldown 3 does not cap it.
    assert (moderation["min"], moderation["max"]) == (0, 2)
    assert dropped["allowed"] == ["force_attack", "morale", "parry", "vigor", "will"]
    assert (dropped["count_per_moderation"], dropped["max_items"], dropped["forbidden"]) == (2, 4, [])
    choice = {"hero_id": "kavelec", "moderation": 1, "dropped_bonuses": dropped["allowed"][:2]}
    result = jd.run("resolve-round", {"state": s1, "seed": 5, "declarations": {"corps": {"s1": {"heroes": [choice]}}}})
    step = _intervention_step(result, "kavelec")
    # The maluses always apply; force_attack and morale are given up; cooldown 3 − 1 = 2 rounds.
    assert step["params"]["bonuses"] == {"deft_attack": -1, "parry": 2, "vigor": 2, "will": 2, "maneuver": -1,
                                         "sapping": -1}
    assert step["params"]["cooldown"] == 2
    assert result["summary"]["heroes"]["kavelec"]["available_from_round"] == 1 + 2 + 1


def test_moderate_use_refused_by_the_round_unless_it_matches_the_options(jd, s1):
    choice = {"hero_id": "kavelec", "moderation": 1, "dropped_bonuses": ["force_attack"]}
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"corps": {"s1": {"heroes": [choice]}}}})
    assert list(error["fields"]) == ["declarations.corps.s1.heroes[0].dropped_bonuses"]


def test_moderate_use_stops_where_no_positive_bonus_would_be_left(jd, s1):
    """Four positive bonuses: one round only (two dropped, two kept), never all four (H35)."""
    s1["heroes"]["kavelec"]["bonuses"] = {"force_attack": 2, "parry": 2, "vigor": 2, "will": 2, "maneuver": -1}
    _, opts = _options(jd, s1, "hero", "kavelec")
    assert opts["corps.s1.heroes[].kavelec.moderation"]["max"] == 1
    assert opts["corps.s1.heroes[].kavelec.dropped_bonuses"]["max_items"] == 2
    choice = {"hero_id": "kavelec", "moderation": 2, "dropped_bonuses": ["force_attack", "parry", "vigor", "will"]}
    error = jd.refuse("resolve-round", {"state": s1, "declarations": {"corps": {"s1": {"heroes": [choice]}}}})
    assert list(error["fields"]) == ["declarations.corps.s1.heroes[0].moderation"]


def test_no_bonus_to_drop_for_a_hero_out_of_the_battle(jd, s1):
    s1["heroes"]["kavelec"]["status"] = "out"
    _, opts = _options(jd, s1, "hero", "kavelec")
    dropped = opts["corps.s1.heroes[].kavelec.dropped_bonuses"]
    assert dropped["allowed"] == [] and {f["rule"] for f in dropped["forbidden"]} == {"S7.4.6"}
