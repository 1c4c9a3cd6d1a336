"""Hypothesis invariants of the single-step operations (bounded runs)."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from heros_helpers import heros
from rules.heros.tables import SEVERITY, TROOP_TYPES

SIMPLE = [t for t in TROOP_TYPES if t not in ("Lu",)]
d6 = st.integers(min_value=1, max_value=6)


@st.composite
def combatants(draw, name):
    t = draw(st.sampled_from(SIMPLE))
    return {"id": name, "troop_type": t, "class": draw(st.sampled_from(TROOP_TYPES[t]["classes"])),
            "factor_vs_foot": draw(st.integers(-1, 12)), "factor_vs_mounted": draw(st.integers(-1, 12)),
            "move": draw(st.integers(0, 20)), "impetuous": draw(st.booleans()),
            "hex": {"terrain": draw(st.sampled_from(["open", "rough", "difficult"])), "elevation": draw(st.integers(-3, 5)),
                    "wooded": draw(st.booleans())},
            "contacts": {"overlaps": draw(st.integers(0, 3)), "flank": draw(st.integers(0, 2)), "rear": draw(st.integers(0, 1))},
            "characters": draw(st.lists(st.fixed_dictionaries({"id": st.sampled_from([f"{name}c1", f"{name}c2"]),
                                                                "combat_bonus": st.integers(0, 6)}), max_size=2,
                                        unique_by=lambda c: c["id"])),
            "demoralised": draw(st.booleans()), "retreat_blocked": draw(st.sampled_from(["none", "friends", "enemy"]))}


@settings(max_examples=150, deadline=None)
@given(combatants("a"), combatants("b"), st.sampled_from(["melee", "shooting"]), d6, d6, st.booleans())
def test_combat_totals_and_comparisons_are_consistent(a, b, kind, da, db, exchange):
    payload = {"kind": kind, "active": "a", "exchange": exchange, "a": a, "b": b, "dice": {"a": da, "b": db}}
    out = heros("combat", payload)
    ta, tb = out["a"]["total"], out["b"]["total"]
    assert ta >= 0 and tb >= 0
    assert out["a"]["total"] == max(0, da + out["a"]["factor"] + sum(m["value"] for m in out["a"]["modifiers"]))
    pair = {out["a"]["comparison"], out["b"]["comparison"]}
    assert pair == {"equal"} or "higher" in pair
    assert (out["winner"] == "a") == (ta > tb) and (out["winner"] == "b") == (tb > ta)
    for line in (out["a"], out["b"]):
        assert line["result"] in ("none", "recoil", "flee", "destroyed", "dispersed")
        assert all(m["value"] != 0 for m in line["modifiers"])
        if line["comparison"] == "higher":
            assert line["result"] in ("none", "destroyed")  # only a spirit may suffer when winning
    again = heros("combat", payload)
    assert json.dumps(again, sort_keys=True) == json.dumps(out, sort_keys=True)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["victory", "tie", "recoil", "flee", "destroyed"]), st.lists(d6, min_size=2, max_size=2),
       st.lists(d6, min_size=2, max_size=2), d6, st.sampled_from(SEVERITY[:-1]), st.integers(0, 20),
       st.booleans(), st.integers(0, 3), st.booleans())
def test_wounds_never_heal_in_combat(row, risk, wound, capture, state, malus, surrounded, flank, dwarf):
    out = heros("combat-risk", {"character": {"id": "c", "wound_state": state, "wound_malus": malus, "dwarf": dwarf},
                                "row": row, "context": {"surrounded": surrounded, "flank_contacts": flank},
                                "dice": {"risk": risk, "wound": wound, "capture": capture}})
    after = out["character"]
    assert SEVERITY.index(after["wound_state"]) >= SEVERITY.index(state)
    assert after["wound_malus"] >= malus
    assert not (after["captured"] and after["wound_state"] == "dead")
    assert after["ep_lost"] == (after["captured"] or after["wound_state"] in ("unconscious", "dead"))
    if out["wound"] is None:
        assert after["wound_state"] == state


eps = st.sampled_from([0.5, 1, 1.5, 2, 4])
statuses = st.sampled_from(["active", "pool", "reserve", "destroyed", "fled_off", "dispersed", "departed"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(eps, statuses, st.booleans()), min_size=1, max_size=12),
       st.lists(st.tuples(st.sampled_from(["none", "light", "unconscious", "dead"]), st.sampled_from(["active", "captured", "dead"])),
                max_size=4),
       st.lists(st.sampled_from(["cinc", "sub_general", "ally_general", "champion"]), max_size=3))
def test_army_sheet_bounds(units, chars, captives):
    payload = {"side_id": "s", "corps": [{"id": "c1", "kind": "cinc", "general_id": "g"}, {"id": "c2", "kind": "ally", "general_id": "h"}],
               "units": [{"id": f"u{i}", "corps_id": f"c{1 + i % 2}", "troop_type": "Sp", "ep": ep, "status": status,
                          "impetuous": imp} for i, (ep, status, imp) in enumerate(units)],
               "characters": [{"id": f"k{i}", "corps_id": "c1", "role": "champion", "wound_state": w, "status": s}
                              for i, (w, s) in enumerate(chars)],
               "captives_held": [{"character_id": f"e{i}", "role": r} for i, r in enumerate(captives)]}
    out = heros("army-sheet", payload)
    for line in out["corps"]:
        assert 0 <= line["ep_lost"] <= line["ep_total"]
        assert line["demoralised"] == (line["ep_total"] > 0 and line["ep_lost"] >= line["demoralised_at"])
        assert line["demoralised_at"] * 3 >= line["ep_total"] and (line["demoralised_at"] - 0.5) * 3 < line["ep_total"]
    army = out["army"]
    assert army["ep_total"] == sum(line["ep_total"] for line in out["corps"])
    assert 0 <= army["ep_lost_effective"] <= army["ep_lost_raw"]
    assert army["broken_at"] * 2 >= army["ep_total"] and (army["broken_at"] - 0.5) * 2 < army["ep_total"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["recoil", "flee", "destroyed"]), d6, st.booleans())
def test_recovery_is_capped_at_six(holder, roll, after_rally):
    out = heros("captive-recovery", {"holder_result": holder, "after_rally": after_rally, "dice": {"recovery": roll}})
    assert out["modified"] == min(6, roll + (2 if after_rally else 0))
    if holder == "destroyed":
        assert out["outcome"] != "still_captive"
