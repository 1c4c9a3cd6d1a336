"""Battle room invariants of HÉROS on random battles (hypothesis, modest runs: the suite shares 2 cores).

(a) Every participant picks random values among what ``declaration-options``
offers its viewer (or declares nothing); what ``check-declaration`` accepts,
``resolve-round`` resolves, giving the silent participants it waits for their
defaults.  (b) Moving, renaming or wounding an enemy the viewer cannot see
changes no byte of that viewer's answers.
"""

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from heros_helpers import by_id, heros, setup, unit
from test_heros_properties import scenario

from rules.contract import GM

FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pick(option: dict, rng: random.Random):
    """A random value among those the option offers; ``None`` when it offers nothing to pick."""
    if option.get("allowed"):
        return rng.choice(option["allowed"])
    if option["type"] == "boolean":
        return rng.random() < 0.5
    if option["type"] == "integer" and "min" in option:
        return rng.randint(option["min"], option["max"])
    return None


def answer_of(options: list[dict], rng: random.Random) -> dict:
    if rng.random() < 0.25:
        return {}
    answer = {}
    for option in options:
        if rng.random() < 0.5:
            continue
        value = pick(option, rng)
        if value is not None:
            answer[option["path"]] = value
    return answer


def viewer_of(participant: dict) -> str:
    return participant["side"] or GM


def declare_round(state: dict, rng: random.Random) -> tuple[dict, list[str]]:
    """Every participant answers in turn, each checked against the answers its viewer knows (its own side's
    and the GM's, announced before the bound); the accepted ones, and the keys that had to declare and did not."""
    accepted: dict[str, dict] = {}
    must = []
    for p in heros("round-participants", {"state": state})["participants"]:
        viewer = viewer_of(p)
        must += [p["key"]] if p["must_declare"] else []
        opts = heros("declaration-options", {"state": state, "participant": p["participant"], "viewer": viewer})
        answer = answer_of(opts["options"], rng)
        known = {k: v for k, v in accepted.items() if k == GM or viewer == GM or k.startswith("side:" + viewer)
                 or k.split(":", 1)[-1] in {x["id"] for x in state["units"] + state["characters"]
                                            if x.get("side") == viewer}}
        out = heros("check-declaration", {"state": state, "viewer": viewer, "participant": p["participant"],
                                          "declaration": answer, "declarations": known})
        assert set(out["fields"]) == set(out["messages"])
        if out["ok"] and answer:
            accepted[p["key"]] = answer
    return accepted, [k for k in must if k not in accepted]


@FEW
@given(seed=st.integers(0, 10_000))
def test_what_the_checks_accept_resolves_and_the_silent_get_defaults(seed):
    rng = random.Random(seed)
    state = heros("new-battle", scenario(rng, 3), seed=seed)["state"]
    for bound in range(2):
        if state["status"] != "ongoing":
            break
        accepted, silent = declare_round(state, rng)
        out = heros("resolve-round", {"state": state, "declarations": accepted}, seed=seed + bound)
        assert out["defaults_applied"] == silent
        assert [s["params"]["participant"] for s in out["log"] if s["key"] == "defaults.applied"] == silent
        for viewer in ("red", "blue", GM):
            seen = heros("visible-round", {"round": {**out, "before": state}, "viewer": viewer})
            assert all(e["visible_to"] in ("all", viewer) for e in seen["events"]) or viewer == GM
        state = out["state"]


def ambush_battle(rng: random.Random) -> dict:
    """Red's units in the open, blue's ambusher hidden in a wood and a lurker in blue's pool."""
    hexes = [{"col": c, "row": r, "terrain": "rough", "wooded": True} for c in range(3, 7) for r in range(4, 7)]
    col, row = rng.randint(3, 6), rng.randint(4, 6)
    return setup([unit("bd", "r", "Bd", 2, 2, facing=3, move=rng.randint(2, 6)), unit("bw", "r", "Bw", 5, 2, range=3),
                  unit("wb", "b", "Bd", 9, 8), unit("ps", "b", "Ps", col, row, hidden=True, move=4),
                  unit("lu", "b", "Lu", 0, 0, status="pool", position=None)],
                 [{"id": "rg", "corps_id": "r", "role": "cinc", "stacked_on": "bd"},
                  {"id": "bg", "corps_id": "b", "role": "cinc", "stacked_on": "wb", "magician": True, "power_points": 5},
                  {"id": "spy", "corps_id": "b", "role": "champion", "stacked_on": "ps", "personal_pa": 2}],
                 hexes=hexes, first=rng.choice(["red", "blue"]))


def red_answers(state: dict, answer: dict) -> list[tuple[str, dict]]:
    """The red viewer's operations on ``state``: options and checks of each red participant, its state."""
    calls = [("visible-state", {"state": state, "viewer": "red"})]
    for kind, pid in (("unit", "bd"), ("unit", "bw"), ("side", "red"), ("character", "rg")):
        calls.append(("declaration-options", {"state": state, "participant": {"kind": kind, "id": pid}, "viewer": "red"}))
        calls.append(("check-declaration", {"state": state, "viewer": "red", "participant": {"kind": kind, "id": pid},
                                            "declaration": answer if kind == "unit" and pid == "bd" else {}}))
    return calls


@FEW
@given(seed=st.integers(0, 10_000), col=st.integers(3, 6), row=st.integers(4, 6), ep=st.sampled_from([0.5, 1, 2]))
def test_an_unseen_enemy_changes_nothing_red_is_told(seed, col, row, ep):
    rng = random.Random(seed)
    state = ambush_battle(rng)
    other = copy.deepcopy(state)
    by_id(other["units"], "ps").update(position={"col": col, "row": row}, name="Shadow", ep=ep, wound_state="light")
    by_id(other["characters"], "spy").update(name="Nobody", wound_state="serious")
    by_id(other["units"], "lu").update(lurker_activations=rng.randint(0, 3))
    if other == state:
        return
    offered = heros("declaration-options", {"state": state, "participant": {"kind": "unit", "id": "bd"},
                                            "viewer": "red"})["options"]
    paths = next((o for o in offered if o["path"] == "active.actions[kind=move].paths.bd"), {})
    answer = {"active.actions[kind=move].paths.bd": rng.choice(paths["allowed"])} if paths.get("allowed") else {}
    for (op, a), (_op, b) in zip(red_answers(state, answer), red_answers(other, answer)):
        assert heros(op, a) == heros(op, b), op
    if state["active_side"] == "red" and answer:
        first = heros("resolve-round", {"state": state, "declarations": {"unit:bd": answer}}, seed=seed)
        round_a = {**first, "before": state}
        moved = copy.deepcopy(round_a)
        for item in (moved["state"], moved["before"]):
            hidden = by_id(item["units"], "ps")
            if hidden["hidden"]:
                hidden.update(name="Shadow", ep=ep)
        assert heros("visible-round", {"round": round_a, "viewer": "red"}) == \
            heros("visible-round", {"round": moved, "viewer": "red"})
