"""7th Sea's heroic opportunity, played as an exchange between the GM and the hero's player (S5.3, S7.3, S11.1).

Within one round: the GM offers (in his overrides form, ``heroes.<id>.opportunity.type`` and the GM
fields of S6.10), then the hero's player answers in his own form (the ``type`` he answers, ``accept``
and the player fields).  Each form's options are the engine's ``declaration-options`` asked with the
round's draft (the offer, the answer, the Leadership help), so the fields follow the offer; they are
only reshaped for a form here (a yes/no the player must give, the offer's type as the GM picks it).
At resolution the offer and the answer make one ``opportunity`` object (S9.8); an offer nobody
answered, or answered for another type than the one the GM offers now, is left out and lapses (R0).
"""

from __future__ import annotations

import json
import logging

from rules import registry
from rules.errors import InvalidInput

logger = logging.getLogger(__name__)

GM_KEY = "gm"  # the GM's overrides (masscombat.battles.selectors.GM_KEY)
OFFER = "opportunity"
# S9.8 "who": the inputs the player gives; every other field of the offer is the GM's.
PLAYER_FIELDS = frozenset({"accept", "attack_trait", "attack_knack", "tn_to_be_hit"})


def offer_path(path: str) -> tuple[str, str] | None:
    """``(hero id, field)`` for ``heroes.<id>.opportunity.<field>``, else None."""
    parts = path.split(".")
    if len(parts) == 4 and parts[0] == "heroes" and parts[2] == OFFER:
        return parts[1], parts[3]
    return None


def offers(gm_data: dict) -> dict[str, dict]:
    """The GM's offers in his declaration: ``{hero id: {field: value}}`` (only those with a type)."""
    found: dict[str, dict] = {}
    for path, value in gm_data.items():
        split = offer_path(path)
        if split and split[1] not in PLAYER_FIELDS:
            found.setdefault(split[0], {})[split[1]] = value
    return {hero: offer for hero, offer in found.items() if offer.get("type")}


def answer_counts(hero_id: str, data: dict, offered: dict[str, dict]) -> bool:
    """A player's answer counts when it answers the offer the GM makes now (same type)."""
    offer = offered.get(hero_id)
    return offer is not None and data.get(f"heroes.{hero_id}.{OFFER}.type") == offer["type"]


class _Row:
    """A declaration's data, as the generic merge reads rows."""

    def __init__(self, data: dict):
        self.data = data


def exchange_rows(rows) -> list[_Row]:
    """Each row's data with the answers that count: stale answers and a player's own offer fields dropped."""
    rows = list(rows)
    gm = next((row.data for row in rows if row.participant == GM_KEY), {})
    offered = offers(gm)
    out = []
    for row in rows:
        if row.participant == GM_KEY:
            data = {path: value for path, value in row.data.items()
                    if not (offer_path(path) and offer_path(path)[0] not in offered)}
        else:
            data = {path: value for path, value in row.data.items()
                    if not offer_path(path) or (answer_counts(offer_path(path)[0], row.data, offered)
                                                and offer_path(path)[1] in PLAYER_FIELDS | {"type"})}
        out.append(_Row(data))
    return out


def drop_unanswered(merged: dict) -> dict:
    """An offer without the player's answer is no ``opportunity`` object: it lapses at R0 (S7.3.2)."""
    for declaration in (merged.get("heroes") or {}).values():
        offer = declaration.get(OFFER) if isinstance(declaration, dict) else None
        if isinstance(offer, dict) and ("accept" not in offer or "type" not in offer):
            del declaration[OFFER]
    return merged


# -- the draft the engine reads to tailor each form -----------------------------------------------


def _posted(posted, path: str):
    """A posted choice (JSON-encoded by the form) or box (``on``), None when absent or unreadable."""
    if posted is None or path not in posted:
        return None
    raw = posted.get(path)
    if raw == "on":
        return True
    try:
        return json.loads(raw) if raw else None
    except (TypeError, ValueError):
        return None


def draft(state: dict, declared: dict, *, key: str, posted=None) -> dict:
    """The engine's ``declarations`` draft for the form of ``key``: offers, answers that count, help.

    ``posted`` (the form being validated) replaces what is stored for that form.
    """
    gm_data = dict(declared[GM_KEY].data) if GM_KEY in declared else {}
    if key == GM_KEY and posted is not None:
        gm_data = {path: _posted(posted, path) for path in posted if offer_path(path)}
        gm_data = {path: value for path, value in gm_data.items() if value is not None}
    offered = offers(gm_data)
    heroes: dict[str, dict] = {}
    for hero in state.get("heroes", []):
        hero_id = hero["id"]
        data = dict(declared[f"hero:{hero_id}"].data) if f"hero:{hero_id}" in declared else {}
        if key == f"hero:{hero_id}" and posted is not None:
            for field in (f"heroes.{hero_id}.help_general", f"heroes.{hero_id}.{OFFER}.accept"):
                data[field] = _posted(posted, field)
            data[f"heroes.{hero_id}.{OFFER}.type"] = (offered.get(hero_id) or {}).get("type")
        entry: dict = {}
        if isinstance(data.get(f"heroes.{hero_id}.help_general"), bool):
            entry["help_general"] = data[f"heroes.{hero_id}.help_general"]
        offer = offered.get(hero_id)
        if offer and hero.get("opportunity_pending"):
            chosen = {"type": offer["type"]}
            if isinstance(offer.get("captured"), bool):
                chosen["captured"] = offer["captured"]
            accept = data.get(f"heroes.{hero_id}.{OFFER}.accept")
            if isinstance(accept, bool) and answer_counts(hero_id, data, offered):
                chosen["accept"] = accept
            entry[OFFER] = chosen
        if entry:
            heroes[hero_id] = entry
    return {"heroes": heroes}


def ask(battle, kind: str, ref: str, declarations: dict) -> dict | None:
    """``declaration-options`` with the draft; None when the engine refuses it (the plain answer stands)."""
    try:
        return registry.run(battle.ruleset, "declaration-options", {
            "state": battle.state, "participant": {"kind": kind, "id": ref or kind},
            "declarations": declarations})
    except InvalidInput as exc:
        logger.warning("declaration-options refused the draft of %s:%s in battle %s: %s", kind, ref, battle.pk, exc)
        return None


# -- reshaping the engine's options for one form ---------------------------------------------------


def as_yes_no(option: dict, *, required: bool) -> dict:
    """A flag the form must be able to store as "no" (an unticked box stores nothing)."""
    return {**option, "type": "choice", "allowed": [True, False], "required": required,
            "default": option.get("default") if required else None}


ADJUSTMENT_EXAMPLE = [{"hero_id": "<hero id>", "flesh_wounds": 0, "dramatic_wounds": 1, "status": "active",
                       "clear_effects": True}]


def gm_options(options: list[dict], names: dict[str, str]) -> list[dict]:
    """The GM's overrides: each pending hero's offer as a type to pick and its GM fields; no player field.

    ``adjustments`` is written as JSON (objects of wounds and status, which a list of names cannot
    give), with an example from S7.9's fields.  ``names`` names the hero or side each field is about.
    """
    out = []
    for option in options:
        parts = option["path"].split(".")
        subject = names.get(".".join(parts[:2])) if len(parts) > 2 else None
        if option["path"] == "adjustments":
            out.append({**option, "json": True, "example": ADJUSTMENT_EXAMPLE})
            continue
        if len(parts) == 3 and parts[0] == "heroes" and parts[2] == OFFER:
            types = list(dict.fromkeys(answer["type"] for answer in option.get("allowed") or []))
            forbidden = [{**entry, "value": entry["value"].get("type")} for entry in option.get("forbidden", [])
                         if isinstance(entry.get("value"), dict)]
            out.append({"path": f"{option['path']}.type", "label": option["label"], "type": "choice",
                        "allowed": types, "default": None, "required": False, "forbidden": forbidden,
                        "subject": subject, "label_as": "offer"})
            continue
        split = offer_path(option["path"])
        if split and (split[1] == "type" or split[1] in PLAYER_FIELDS):
            continue  # the type is picked above; the answer is the player's (the GM gives it in the hero's form)
        if split and option["type"] == "boolean":
            option = as_yes_no(option, required=False)
        out.append({**option, "subject": subject} if subject else option)
    return out


def hero_options(options: list[dict], offer: dict | None) -> list[dict]:
    """The hero's form: his answer to the offer as a yes/no, with the type it answers."""
    out = []
    for option in options:
        split = offer_path(option["path"])
        if split and split[1] == "accept":
            hero_id = split[0]
            out.append({"path": f"heroes.{hero_id}.{OFFER}.type", "label": "Heroic opportunity offered",
                        "type": "choice", "allowed": [offer["type"]], "default": offer["type"], "required": True,
                        "forbidden": [], "label_as": "offered"})
            out.append(as_yes_no(option, required=True))
        elif option["path"].endswith(".engagement") and len(option.get("allowed") or []) == 1 \
                and not option.get("required"):
            continue  # imposed: the note says so (S11.1), the engine applies it
        else:
            out.append(option)
    return out


def imposed(options: list[dict]) -> str | None:
    """The engagement the engine imposes on the hero this round (a single allowed level), if any."""
    for option in options:
        if option["path"].endswith(".engagement") and not option.get("required"):
            allowed = option.get("allowed") or []
            if len(allowed) == 1:
                return allowed[0]
            if not allowed and option.get("forbidden"):
                return ""  # resting: no engagement at all
    return None
