"""Display names for the ids an answer mentions (the contract's ``names``).

Names come from the state the reader may see, so a name the viewer may not
know is never given.  Corps have no name of their own in JdRWiki (S3.4): a
corps is named after its army, alone when the army has one corps, else with its
rank among the army's corps ("Ost — corps 2"): a number a reader can follow,
where the corps id would mean nothing to them.
"""

from __future__ import annotations


def names(state: dict) -> dict[str, str]:
    """``{id: name}`` for the sides, armies, corps, heroes and zones of ``state``."""
    found: dict[str, str] = {}
    for zone_id, zone in state["map"]["zones"].items():
        found[zone_id] = zone.get("name") or zone_id
    by_side: dict[str, list[str]] = {}
    for army_id, army in sorted(state["armies"].items()):
        label = army.get("name") or army_id
        found[army_id] = label
        by_side.setdefault(army["side"], []).append(label)
    for side, labels in by_side.items():
        found.setdefault(side, " / ".join(labels))
    by_army: dict[str, list[str]] = {}
    for corps_id, corps in sorted(state["corps"].items()):
        by_army.setdefault(corps["army_id"], []).append(corps_id)
    for army_id, corps_ids in by_army.items():
        army = state["armies"].get(army_id, {}).get("name") or army_id
        for rank, corps_id in enumerate(corps_ids, start=1):
            found[corps_id] = army if len(corps_ids) == 1 else f"{army} — corps {rank}"
    for hero_id, hero in state["heroes"].items():
        found[hero_id] = hero.get("name") or hero_id
    return dict(sorted(found.items()))
