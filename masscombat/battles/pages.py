"""What the battle room shows one viewer: assembled from selectors, for the templates.

Secret declarations stay secret here: a participant's choices are shown only
to the GM and to its own side; everyone else learns only whether it has
declared.  The state comes from ``visible-state``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from masscombat.battles import selectors
from masscombat.battles.forms import DeclarationForm, PlacementForm, map_pieces

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 140, 24
SIDE_COLOURS = ("#8c2f1b", "#2f5d8c", "#3f7a4a", "#7a5a1b")


@dataclass
class Slot:
    """One participant in the "who has declared" list, as this viewer may see it."""

    key: str
    name: str
    side: str
    player: str
    must_declare: bool
    declared: bool
    shown: list  # [(label, value label)] when this viewer may see the choices, else []
    present: bool


def _order(participant) -> tuple:
    """By side, each side's commander before its heroes."""
    return (participant.side, participant.kind != "side", participant.name)


def label_state(viewer) -> dict | None:
    """The state labels may name things from: the one this viewer may see (so a hidden enemy's id is
    never turned into its name), asked of the engine once per viewer and only for a ruleset whose
    labels use it."""
    return selectors.visible_state(viewer) if viewer.adapter.labels_use_state else None


def report_state(viewer) -> dict | None:
    """The state a round report names things from: :func:`label_state`, or the seen state for a ruleset
    whose reports only name from it (``reports_use_state``)."""
    adapter = viewer.adapter
    return selectors.visible_state(viewer) if adapter.reports_use_state or adapter.labels_use_state else None


def _shown(viewer, adapter, declaration, options: dict) -> list:
    if declaration is None:
        return []
    labels = {option["path"]: adapter.option_label(option) for option in options.get("options", [])}
    state = label_state(viewer)
    return [(labels.get(path) or adapter.option_label({"path": path}), adapter.value_label(value, state))
            for path, value in sorted(declaration.data.items())]


def slots(viewer, expected: dict, declared: dict, present_ids: set) -> list[Slot]:
    adapter, state = viewer.adapter, viewer.battle.state
    out = []
    for participant in sorted(viewer.participants, key=_order):
        own = participant.side in viewer.sides
        if not (viewer.is_gm or own or adapter.participant_public(state, participant)):
            continue  # a hidden enemy unit: not even its name
        may_see = viewer.is_gm or (own and not adapter.orders_secret(state, participant))
        declaration = declared.get(participant.key)
        out.append(Slot(
            key=participant.key, name=participant.name, side=participant.side,
            player=participant.user.shown_name if participant.user else _("game master"),
            must_declare=participant.key in expected, declared=declaration is not None,
            shown=_shown(viewer, adapter, declaration, expected.get(participant.key, {})) if may_see else [],
            present=participant.user_id in present_ids,
        ))
    return out


def declaration_forms(viewer, declared: dict, posted=None, posted_key: str | None = None, *,
                      only: str | None = None, shown: str | None = None) -> list[dict]:
    """One form per participant this viewer declares for (the GM: everyone, and the GM's own).

    The GM's forms are folded and each is loaded when opened (a GM page with every form built
    and rendered took a second): an entry comes with its ``form`` only when it is the one asked
    for (``only``), posted (``posted_key``) or just saved (``shown``); the others with ``form``
    None and the map pieces their pickers move (``pieces``), so a tap on the map can open them.
    ``only`` leaves out every other participant.
    """
    battle = viewer.battle
    if not battle.accepts_declarations:
        return []
    mine = sorted(viewer.participants if viewer.is_gm else viewer.mine, key=_order)
    entries = [(p.key, p.kind, p.ref, p.name) for p in mine]
    if viewer.is_gm:
        entries.append((selectors.GM_KEY, "gm", "", _("Game master's overrides")))
    out = []
    for key, kind, ref, name in entries:
        if only is not None and key != only:
            continue
        answer, note = viewer.adapter.declaration_form(
            viewer, key, kind, ref, selectors.options_for(battle, key, kind, ref), declared,
            posted if key == posted_key else None)
        if not answer.get("options"):
            continue
        existing = declared.get(key)
        entry = {"key": key, "name": name, "form": None, "declared": existing is not None,
                 "must_declare": answer.get("must_declare", False), "own": not viewer.is_gm or kind == "gm",
                 "note": note, "pieces": ""}
        out.append(entry)
        if viewer.is_gm and key not in (only, posted_key, shown):
            entry["pieces"] = " ".join(map_pieces(answer["options"], viewer.adapter, battle.state))
            continue
        entry["form"] = DeclarationForm(
            posted if key == posted_key else None,
            options=answer["options"], adapter=viewer.adapter,
            initial_data=existing.data if existing else None, state=battle.state,
            label_state=label_state(viewer), prefix=None,
            auto_id=field_ids(key), gm_tools=viewer.is_gm,
        )
        if key == posted_key and posted is not None:
            entry["form"].is_valid()
    return out


def field_ids(key: str) -> str:
    """Ids unique on the page for one participant's fields (several forms share option paths), names untouched."""
    return "id_" + re.sub(r"[^\w-]", "-", key) + "-%s"


def visible_strength(viewer, strength: dict) -> dict:
    """Each side's strength, or only the viewer's own where the rules keep the other's secret."""
    if viewer.is_gm or viewer.adapter.strength_public:
        return strength
    return {side: value for side, value in strength.items() if side in viewer.sides}


def chart(viewer, rounds: list) -> dict | None:
    """A small SVG line chart of each side's strength per round (server-side, no script)."""
    battle, adapter = viewer.battle, viewer.adapter
    points = [(r.number, visible_strength(viewer, r.strength)) for r in rounds]
    points = [(n, s) for n, s in points if s]
    if not points:
        return None
    values = [v for _n, strength in points for v in strength.values()]
    low, high = min(0, min(values)), max(values) or 1
    last = max(n for n, _s in points)
    span_x = max(last - 1, 1)

    def xy(number, value):
        x = CHART_PAD + (number - 1) * (CHART_WIDTH - 2 * CHART_PAD) / span_x
        y = CHART_HEIGHT - CHART_PAD - (value - low) * (CHART_HEIGHT - 2 * CHART_PAD) / ((high - low) or 1)
        return round(x, 1), round(y, 1)

    lines = []
    for index, side in enumerate(adapter.sides):
        coords = [xy(n, s[side]) for n, s in points if side in s]
        if not coords:
            continue
        lines.append({
            "side": side, "label": adapter.side_label(side, battle.state), "colour": SIDE_COLOURS[index % 4],
            "points": " ".join(f"{x},{y}" for x, y in coords), "dots": coords,
        })
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "lines": lines, "label": adapter.strength_label,
            "rounds": [{"n": n, "x": xy(n, low)[0]} for n, _s in points], "base": CHART_HEIGHT - CHART_PAD,
            "high": high, "low": low, "top": CHART_PAD}


def battle_map(viewer, state: dict | None, placement: PlacementForm | None = None) -> dict | None:
    """The map with the pieces this viewer may see (drawn by the maps app), for rulesets played on one.

    Before round 1 the GM of a ruleset that places pieces also gets the placement form
    (``placement``, when given, is the one just posted, with its errors).
    """
    adapter = viewer.adapter
    if not adapter.uses_map or state is None:
        return None
    from masscombat.maps.render import legend, render_map_svg

    source = adapter.map_source(viewer.battle)
    if not source:
        return None
    pieces = adapter.map_pieces(viewer.battle, state, viewer)
    out = {"svg": render_map_svg(source, pieces=pieces, label=viewer.battle.name), "controls": True,
           "legend": legend(source, pieces), "placement": None}
    if may_place(viewer):
        out["placement"] = placement or PlacementForm(pieces=pieces, kind=_map_kind(source))
    return out


def may_place(viewer) -> bool:
    """Pieces are placed by the GM, before round 1 is resolved, in rulesets whose adapter places them."""
    battle = viewer.battle
    return (viewer.is_gm and viewer.adapter.places and battle.round == 0
            and battle.status in (battle.Status.RUNNING, battle.Status.PAUSED))


def placement_form(viewer, data) -> PlacementForm:
    """The placement form bound to posted data, its pieces those on the map now."""
    source = viewer.adapter.map_source(viewer.battle)
    pieces = viewer.adapter.map_pieces(viewer.battle, viewer.battle.state, viewer) if source else []
    return PlacementForm(data, pieces=pieces, kind=_map_kind(source))


def _map_kind(source) -> str:
    """``square``, ``hex`` or ``zones``: how the placement form reads a cell."""
    from masscombat.maps.render import normalise_source

    return normalise_source(source)[0] if source else "square"


def _may_see(viewer, event: dict) -> bool:
    """Engines that mark an event's audience (``visible_to``: all, a side, gm) are obeyed; the adapter may keep more."""
    audience = event.get("visible_to", "all")
    return (viewer.is_gm or audience == "all" or audience in viewer.sides) and viewer.adapter.may_see(viewer, event)


def reports(viewer, rounds: list) -> list[dict]:
    """Each resolved round: its engine events and its log, rendered in the reader's language."""
    battle = viewer.battle
    show_log = viewer.is_gm or viewer.adapter.round_log_public
    names = report_state(viewer) if rounds else None  # no engine call for a battle not resolved yet
    out = []
    for resolved in reversed(rounds):
        events, log, dice = viewer.adapter.report(
            viewer, [event for event in resolved.events if _may_see(viewer, event)], resolved.log, resolved.dice,
            resolved.state_before)
        out.append({
            "round": resolved,
            "names": names,
            "events": events,
            "log": selectors.rendered_log(battle, log) if show_log else [],
            "dice": dice if show_log else {},
        })
    return out
