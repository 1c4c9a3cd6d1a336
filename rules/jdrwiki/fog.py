"""``visible-round``: what one viewer may read of a resolved round (S11.3, S5.5.7).

Events already carry their audience (``visible_to``).  The log and the
events also tell things S11.3 keeps from the other side: its advantage
points and allocation, its initiative pools, its heroism and how it was
spent, its heroes' bonuses and cooldowns and, under the optional fog, the hit
points of its corps standing under cover (their damage shows only as a hit).
A step of one of the keys below about an enemy is left out; the other steps
(rolls, results, moves, effects, deaths) are what S11.3 calls public.
"""

from __future__ import annotations

from rules.contract import GM

# Log keys whose steps tell a side's hidden figures: shown to that side (and the GM) only.
SECRET_KEYS = frozenset({
    "advantage.allocation", "advantage.change", "initiative.roll", "initiative.reroll", "initiative.spend",
    "hero.intervention", "damage.saved", "gm.adjustment", "gm.modifier", "army.commander_change",
    "army.confusion", "action.critical",
})
# Steps that tell how much damage a corps took, hidden when that corps stands under cover (fog).
DAMAGE_KEYS = frozenset({"damage.event", "damage.critical", "damage.return"})
SUBJECTS = ("corps", "army", "hero")


class Sides:
    """Whose are the corps, armies and heroes of a round (from the states before and after it)."""

    def __init__(self, *states: dict):
        self.owner: dict[str, str] = {}
        self.covered: set[str] = set()
        for state in states:
            armies = state["armies"]
            for army_id, army in armies.items():
                self.owner[army_id] = army["side"]
            for cid, corps in state["corps"].items():
                self.owner[cid] = armies[corps["army_id"]]["side"]
                if state["map"]["zones"][corps["zone"]]["terrain"]["cover"] >= 1:
                    self.covered.add(cid)
            for hero_id, hero in state["heroes"].items():
                self.owner[hero_id] = armies[hero["army_id"]]["side"]

    def enemy(self, ident, viewer: str) -> bool:
        return isinstance(ident, str) and self.owner.get(ident, viewer) != viewer

    def hidden_hp(self, ident, viewer: str) -> bool:
        return self.enemy(ident, viewer) and ident in self.covered


def step_visible(step: dict, viewer: str, sides: Sides) -> bool:
    if viewer == GM:
        return True
    params = step.get("params", {})
    if step.get("key") in SECRET_KEYS:
        return not any(sides.enemy(params.get(name), viewer) for name in SUBJECTS)
    if step.get("key") in DAMAGE_KEYS:
        return not any(sides.hidden_hp(params.get(name), viewer) for name in ("defender", "attacker", "corps"))
    return True


def event_seen(event: dict, viewer: str, sides: Sides) -> dict | None:
    """The event as the viewer may read it, or None when it is not for the viewer."""
    if viewer == GM:
        return event
    if event.get("visible_to", "all") not in ("all", viewer):
        return None
    seen = dict(event)
    kind = event.get("type")
    if kind == "initiative" and sides.enemy(event.get("corps"), viewer):
        seen.pop("pool", None)
    elif kind == "damage" and sides.hidden_hp(event.get("defender"), viewer):
        seen.pop("amount", None)
        seen.pop("hp", None)
    elif kind == "melee" and isinstance(event.get("damage"), dict):
        pair = [c for c in event.get("corps", []) if isinstance(c, str)]
        dealt = {}
        for dealer, amount in event["damage"].items():
            receiver = next((c for c in pair if c != dealer), None)
            if not sides.hidden_hp(receiver, viewer):
                dealt[dealer] = amount
        seen["damage"] = dealt
    return seen


def dice_seen(dice: dict, viewer: str, sides: Sides) -> dict:
    """Every roll is public once resolved (S11.3) except an enemy's initiative roll, which gives its pool."""
    if viewer == GM:
        return dict(dice)
    return {name: value for name, value in dice.items()
            if not (name.endswith("/initiative") and sides.enemy(name.rsplit("/", 1)[0], viewer))}
