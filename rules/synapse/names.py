"""Display names of what a state mentions (sides, formations, units, characters), for the room.

Names come from the state given, which for a side is its ``visible-state``:
what that state leaves out (the enemy's reserve and characters) gets no name.
A formation is named after its army and group (land) or its unit (vehicles),
never after the units of a group, which the enemy may not know (S11.2).
"""

from __future__ import annotations

GROUP_NAMES = {"melee": "melee troops", "ranged": "ranged troops", "artillery": "artillery", "reserve": "reserve"}


def formation_name(state: dict, f: dict) -> str:
    army = state["armies"][f["side"]]
    if state["mode"] == "vehicles":
        uid = f["id"].split(".", 1)[1]
        unit = army["units"].get(uid) or {}
        return unit.get("name") or uid
    return f"{army['name']} — {GROUP_NAMES[f['group']]}"


def name_keys_for(state: dict) -> dict[str, dict]:
    """``{formation id: {key, params}}``: a land formation's name as a message, so that the web says
    "troupes de mêlée" to a French reader where ``names`` holds the English ("melee troops")."""
    if state["mode"] == "vehicles":
        return {}
    return {fid: {"key": f"name.formation.{f['group']}", "params": {"army": state["armies"][f["side"]]["name"]}}
            for fid, f in state["formations"].items()}


def names_for(state: dict) -> dict[str, str]:
    """``{id: display name}`` of every side, formation, unit and character ``state`` holds."""
    names = {side: army["name"] for side, army in state["armies"].items()}
    for fid, f in state["formations"].items():
        names[fid] = formation_name(state, f)
    for army in state["armies"].values():
        for uid, unit in army["units"].items():
            names[uid] = unit.get("name") or uid
        for character in army.get("characters", []):
            names[character["id"]] = character.get("name") or character["id"]
    return names
