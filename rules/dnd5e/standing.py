"""How the battle stands: the ``outcome`` and ``strength`` every returned state carries
(docs/battle-contract.md; docs/rules/dnd5e.md says what they measure)."""

from __future__ import annotations

from rules.contract import outcome

IN_PLAY = ("active", "casualty")


def leader(sides: dict) -> str | None:
    """The side with more victory points (S6.12), None on equal points."""
    (a, sa), (b, sb) = sorted(sides.items())
    if sa["victory_points"] == sb["victory_points"]:
        return None
    return a if sa["victory_points"] > sb["victory_points"] else b


def wiped_out(st: dict) -> list[str]:
    """Sides with no stand in play and no solo that can act (S5.13.5 item 3, H22)."""
    units = st["units"]
    out = []
    for side in sorted(st["sides"]):
        stands = any(s["status"] in IN_PLAY and units[s["unit"]]["side"] == side for s in st["stands"].values())
        solos = any(h["side"] == side and h["condition"] == "active"
                    and (h["position"] is not None or h["attached_to"] is not None) for h in st["solos"].values())
        if not stands and not solos:
            out.append(side)
    return out


def battle_outcome(st: dict) -> dict:
    """``outcome`` of a state: over once ``battle_over`` (S5.13.5); the points decide the winner (S6.12),
    never the GM (``gm_names_winner`` false, S9.14).  Equal points are a tie the GM settles with
    ``end-battle``: a draw, or one more round (``one_more_round``), once: the round fought after a
    tie ends the battle whatever the points (S7.7)."""
    if not st["battle_over"]:
        return outcome(over=False, reason="outcome.running", gm_names_winner=False)
    winner = leader(st["sides"])
    tie_broken = st.get("tie_break_round") is not None
    if wiped_out(st):
        reason = "outcome.wiped_out"
    elif tie_broken and all(s["victory_points"] < st["victory_threshold"] for s in st["sides"].values()):
        reason = "outcome.tie_break"
    else:
        reason = "outcome.threshold"
    return outcome(over=True, winner=winner, tie=winner is None, reason=reason,
                   one_more_round=winner is None and not tie_broken, gm_names_winner=False)


def strength(st: dict, side: str | None = None) -> dict[str, int]:
    """Hit points still in play per side: stands active or casualty, solos neither dead nor fled.

    For a side's viewer only its own figure: enemy hit points are a coarse marker to it (S11.3).
    """
    units = st["units"]
    out = {s: 0 for s in sorted(st["sides"])}
    for s in st["stands"].values():
        if s["status"] in IN_PLAY:
            out[units[s["unit"]]["side"]] += s["hp"]
    for h in st["solos"].values():
        if h["condition"] not in ("dead", "fled"):
            out[h["side"]] += h["hp"]
    return out if side is None else {s: n for s, n in out.items() if s == side}  # the public: none


def stamp(st: dict) -> dict:
    """Write ``outcome`` and ``strength`` into a state (the GM's, whole)."""
    st["outcome"] = battle_outcome(st)
    st["strength"] = strength(st)
    return st
