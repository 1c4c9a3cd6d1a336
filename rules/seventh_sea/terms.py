"""What an offered heroic opportunity costs and brings, as a message for the offer's forms (S6.10, S11.1).

S11.1 asks the player's answer to come "with a short description of costs and
gains": the numbers are read from the S6.10 data (and the S7.4 constants),
the sentences are message keys ``terms.<type>`` of :mod:`.messages`, so the
web says them in the reader's language and never restates a rule.
"""

from __future__ import annotations

from typing import Any

from rules.seventh_sea import tables
from rules.seventh_sea.opportunities import CARRY_BONUS, CARRY_TOTAL, FLEE_AT


def _entry(kind: str) -> dict:
    return tables.opportunity(kind)


def _numbers(kind: str) -> dict[str, Any]:
    entry = _entry(kind)
    reputation = entry.get("reputation", {})
    modifier = entry.get("general_modifier") or {}
    return {
        "save_the_banner": lambda: {"reputation": reputation["per_round"]},
        "hold_the_position": lambda: {"rounds": entry["duration_rounds"],
                                      "engaged": reputation["per_round_by_engagement"]["engaged"],
                                      "front_line": reputation["per_round_by_engagement"]["front_line"],
                                      "bonus": modifier["amount"]},
        "take_the_position": lambda: {"modifier": entry["personal_modifier"], "reputation": reputation["per_round"],
                                      "bonus": modifier["amount"]},
        "easy_shot": lambda: {"reputation": reputation["on_hit"], "penalty": modifier["amount"]},
        "push_them_back": lambda: {"reputation": reputation["per_round"], "bonus": modifier["amount"]},
        "rescue_comrade": lambda: {"rounds": entry["duration_rounds"], "reputation": reputation["per_round"]},
        "capture_enemy_banner": lambda: {"modifier": entry["all_rolls_modifier"],
                                         "reputation": reputation["per_round"], "success": reputation["on_success"],
                                         "bonus": modifier["amount"]},
        "prepare_to_die": lambda: {"penalty": entry["on_accept"]["loser_general_modifier"]},
        "unhorsed_rider": lambda: {"first": entry["personal_modifier"]["while_rounds_done_below_2"], "rounds": 2,
                                   "after": entry["personal_modifier"]["afterwards"]},
        "charge_their_ranks": lambda: {"dice": (entry["extra_volley"]["salvo_level"] + 1) // 2,
                                       "reputation": reputation["on_success"]},
        "commander_is_dead": lambda: {"brutes": entry["unit"]["brutes"], "flee": FLEE_AT},
        "wounded_porte_mage": lambda: {"modifier": entry["personal_modifier"],
                                       "loot": entry["aftermath"]["if_conscious"]["roll_modifier"]},
        "carry_the_message": lambda: {"total": CARRY_TOTAL, "bonus": CARRY_BONUS},
    }.get(kind, dict)()


def offer_terms(kind: str, offer: dict, names: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """``(message key, params)`` describing an offer of ``kind`` with the GM's inputs given so far."""
    params = _numbers(kind)
    if kind == "easy_shot":
        return "terms.easy_shot", {**params, "tn": offer.get("tn") or tables.opportunity_input(kind, "tn")["default"]}
    if kind == "prepare_to_die":
        loss = offer.get("refusal_reputation_loss")
        params["loss"] = loss if loss is not None else tables.opportunity_input(kind, "refusal_reputation_loss")[
            "default"]
        opponent = names.get(offer.get("opponent_id") or "")
        return ("terms.prepare_to_die.against", {**params, "opponent": opponent}) if opponent else (
            "terms.prepare_to_die", params)
    if kind == "capture_enemy_banner" and offer.get("captured") is False:
        return "terms.capture_enemy_banner.held", {}
    return f"terms.{kind}", params
