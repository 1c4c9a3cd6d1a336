"""7th Sea's heroic opportunity, played as an exchange between the GM and the hero's player (S5.3, S7.3, S11.1).

Within one round: the GM offers (in his overrides form, ``heroes.<id>.opportunity.type`` and the GM
fields of S6.10), then the hero's player answers in his own form (the ``type`` he answers, ``accept``
and the player fields).  Each form's options are the engine's ``declaration-options`` asked with the
round's answers by participant (this form's as posted): the engine reads them as
``merge-declarations`` will (an answer to an offer the GM no longer makes does not count), so its
options follow the offer.  They say what the web needs: whose answer holds each field
(``declared_by``), the offer a hero answers (its ``accept`` option, with the offer's type and, as
its help, the offer's costs and gains).  They are only reshaped for a form here (a yes/no the
player must give, the offer's type as the GM picks it).  At resolution the engine's
``merge-declarations`` makes the offer and the answer one ``opportunity`` object (S9.8); an offer
nobody answered lapses (R0).
"""

from __future__ import annotations

import logging

from masscombat.core import engines

logger = logging.getLogger(__name__)

GM_KEY = "gm"  # the GM's overrides (masscombat.battles.selectors.GM_KEY)
OFFER = "opportunity"


def offer_path(path: str) -> tuple[str, str] | None:
    """``(hero id, field)`` for ``heroes.<id>.opportunity.<field>``, else None."""
    parts = path.split(".")
    if len(parts) == 4 and parts[0] == "heroes" and parts[2] == OFFER:
        return parts[1], parts[3]
    return None


def ask(battle, kind: str, ref: str, declarations: dict, viewer: str) -> dict | None:
    """``declaration-options`` with the round's answers, as ``viewer`` knows the battle; None when the engine
    refuses them (the plain answer stands)."""
    try:
        return engines.declaration_options(battle.ruleset, battle.state, {"kind": kind, "id": ref or kind}, viewer,
                                           declarations)
    except engines.Refused as exc:
        logger.warning("declaration-options refused the draft of %s:%s in battle %s: %s", kind, ref, battle.pk,
                       exc.error)
        return None


def answered(options: list[dict]) -> dict | None:
    """The option by which the hero answers the offer the GM makes now (``...opportunity.accept``): the engine
    offers it only once the GM has picked a type, named in its label parameters, the offer's terms as its help."""
    return next((option for option in options if (offer_path(option["path"]) or ("", ""))[1] == "accept"), None)


def offered_type(options: list[dict]) -> str | None:
    """The type of the opportunity the GM offers the hero now, as the engine's options say it."""
    option = answered(options)
    return (option.get("label_params") or {}).get("type") if option else None


# -- reshaping the engine's options for one form ---------------------------------------------------


def as_yes_no(option: dict, *, required: bool) -> dict:
    """A flag the form must be able to store as "no" (an unticked box stores nothing)."""
    return {**option, "type": "choice", "allowed": [True, False], "required": required,
            "default": option.get("default") if required else None}


def gm_options(options: list[dict], names: dict[str, str]) -> list[dict]:
    """The GM's overrides: each pending hero's offer as a type to pick and its GM fields; none of what the
    engine says the player answers (``declared_by``: the GM gives it in the hero's form).

    The engine offers the adjustments (S7.9) hero by hero (``adjustments.<id>.<field>``), as plain
    fields.  ``names`` names the hero or side each field is about.
    """
    out = []
    for option in options:
        parts = option["path"].split(".")
        subject = names.get(".".join(parts[:2])) if len(parts) > 2 else None
        if len(parts) == 3 and parts[0] == "heroes" and parts[2] == OFFER:
            types = list(dict.fromkeys(answer["type"] for answer in option.get("allowed") or []))
            forbidden = [{**entry, "value": entry["value"].get("type")} for entry in option.get("forbidden", [])
                         if isinstance(entry.get("value"), dict)]
            out.append({"path": f"{option['path']}.type", "label": option["label"], "type": "choice",
                        "allowed": types, "default": None, "required": False, "forbidden": forbidden,
                        "subject": subject, "label_as": "offer"})
            continue
        split = offer_path(option["path"])
        if (split and split[1] == "type") or option.get("declared_by", GM_KEY) != GM_KEY:
            continue  # the type is picked above; the answer is the player's
        if split and option["type"] == "boolean":
            option = as_yes_no(option, required=False)
        out.append({**option, "subject": subject} if subject else option)
    return out


def hero_options(options: list[dict]) -> list[dict]:
    """The hero's form: his answer to the offer as a yes/no, with the type it answers."""
    out = []
    kind = offered_type(options)
    for option in options:
        split = offer_path(option["path"])
        if split and split[1] == "accept" and kind:
            hero_id = split[0]
            out.append({"path": f"heroes.{hero_id}.{OFFER}.type", "label": "Heroic opportunity offered",
                        "type": "choice", "allowed": [kind], "default": kind, "required": True,
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
