"""What the battle room shows one viewer: assembled from selectors, for the templates.

Secret declarations stay secret here: a participant's choices are shown only
to the GM and to its own side; everyone else learns only whether it has
declared, and only of participants the engine names to them.  The state and
every name a page shows come from the engine's ``visible-state`` for the
viewer (``selectors.seen_names``), each round report from its ``visible-round``:
no fog is decided here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from masscombat.battles import selectors
from masscombat.battles.forms import DeclarationForm, PlacementForm, map_pieces
from masscombat.battles.models import BattleEvent
from masscombat.core import engines, explain

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 150, 24
CHART_LEFT = 44  # room for the strength figures left of the lines
SIDE_COLOURS = tuple(f"var(--side-{index})" for index in range(4))  # colours (light and dark) in app.css


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


def _shown(viewer, adapter, declaration, options: dict) -> list:
    if declaration is None:
        return []
    names = selectors.seen_names(viewer)
    labels = {option["path"]: adapter.option_label(option, names) for option in options.get("options", [])}
    return [(labels.get(path) or adapter.option_label({"path": path}), adapter.value_label(value, names))
            for path, value in sorted(declaration.data.items())]


def slots(viewer, expected: dict, declared: dict, present_ids: set) -> list[Slot]:
    """Who declares, as this viewer may know them: a participant the engine hides from this viewer
    (``round-participants``' ``hidden_from``: a hidden enemy) is not listed at all, and a name is the
    engine's, never an id."""
    adapter, names = viewer.adapter, selectors.seen_names(viewer)
    secret = selectors.secret_orders(viewer.battle) if not viewer.is_gm and declared else frozenset()
    out = []
    for participant in sorted(viewer.participants, key=_order):
        own = participant.side in viewer.sides
        if not (viewer.is_gm or own or selectors.known_to(viewer.battle, viewer.engine_who, participant)):
            continue  # a hidden enemy unit: not even its name
        may_see = viewer.is_gm or (own and participant.key not in secret)
        declaration = declared.get(participant.key)
        out.append(Slot(
            key=participant.key, name=participant_name(names, participant), side=participant.side,
            player=participant.user.shown_name if participant.user else _("game master"),
            must_declare=participant.key in expected, declared=declaration is not None,
            shown=_shown(viewer, adapter, declaration, expected.get(participant.key, {})) if may_see else [],
            present=participant.user_id in present_ids,
        ))
    return out


def participant_name(names: dict, participant) -> str:
    """The engine's name of what the participant stands for (renamed in the state, it reads the new name)."""
    return names.get(participant.side if participant.kind == "side" else participant.ref) or participant.name


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
    out, waited = [], selectors.round_participants(battle)
    for key, kind, ref, name in entries:
        if only is not None and key != only:
            continue
        if not viewer.is_gm and getattr(waited.get(key), "declared_by", None) == engines.GM:
            continue  # the engine gives this participant's orders to the GM this round (D&D 5e's broken units)
        answer, note = viewer.adapter.declaration_form(
            viewer, key, kind, ref, selectors.options_for(battle, key, kind, ref, viewer.engine_viewer(key)),
            declared, posted if key == posted_key else None)
        if not answer.get("options"):
            continue
        existing = declared.get(key)
        entry = {"key": key, "name": name, "form": None, "declared": existing is not None,
                 "must_declare": getattr(waited.get(key), "must_declare", False), "own": not viewer.is_gm or kind == "gm",
                 "note": note, "pieces": ""}
        out.append(entry)
        if viewer.is_gm and key not in (only, posted_key, shown):
            entry["pieces"] = " ".join(map_pieces(answer["options"], viewer.adapter, battle.state))
            continue
        entry["form"] = DeclarationForm(
            posted if key == posted_key else None,
            options=answer["options"], adapter=viewer.adapter,
            initial_data=existing.data if existing else None, state=battle.state,
            label_state=selectors.seen_names(viewer), prefix=None,
            auto_id=field_ids(key), gm_tools=viewer.is_gm,
        )
        if key == posted_key and posted is not None:
            entry["form"].is_valid()
    return out


def field_ids(key: str) -> str:
    """Ids unique on the page for one participant's fields (several forms share option paths), names untouched."""
    return "id_" + re.sub(r"[^\w-]", "-", key) + "-%s"


def visible_strength(viewer, strength: dict) -> dict:
    """Each side's strength, but for a player only the sides whose figure the engine's ``visible-state``
    gives them now (the rules may keep the other's secret, or part of it)."""
    if viewer.is_gm:
        return strength
    shown = (selectors.visible_state(viewer) or {}).get("strength") or {}
    return {side: value for side, value in strength.items() if side in shown}


def strengths(viewer, rounds: list) -> list[tuple[int, dict]]:
    """``[(round, {side: strength})]`` this viewer may read, from round 0 (the state before round 1,
    so that one resolved round already makes a line) to the last resolved round."""
    if not rounds:
        return []
    start = (0, visible_strength(viewer, (rounds[0].state_before or {}).get("strength") or {}))
    points = [start] + [(r.number, visible_strength(viewer, r.strength)) for r in rounds]
    return [(n, s) for n, s in points if s]


def chart(viewer, rounds: list) -> dict | None:
    """A small SVG line chart of each side's strength per round (server-side, no script), with the
    same figures as a table for whoever cannot see the lines."""
    adapter = viewer.adapter
    points = strengths(viewer, rounds)
    if not points:
        return None
    values = [v for _n, strength in points for v in strength.values()]
    low, high = min(0, min(values)), max(values) or 1
    first, last = min(n for n, _s in points), max(n for n, _s in points)
    span_x = max(last - first, 1)

    def xy(number, value):
        x = CHART_LEFT + (number - first) * (CHART_WIDTH - CHART_LEFT - CHART_PAD) / span_x
        y = CHART_HEIGHT - CHART_PAD - (value - low) * (CHART_HEIGHT - 2 * CHART_PAD) / ((high - low) or 1)
        return round(x, 1), round(y, 1)

    lines = []
    for index, side in enumerate(adapter.sides):
        coords = [xy(n, s[side]) for n, s in points if side in s]
        if not coords:
            continue
        lines.append({
            "side": side, "label": side_name(viewer, side), "colour": SIDE_COLOURS[index % 4],
            "points": " ".join(f"{x},{y}" for x, y in coords), "dots": coords,
        })
    label = _("%(what)s, round by round (0: before round 1)") % {"what": adapter.strength_label}
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "lines": lines, "label": label,
            "what": adapter.strength_label, "left": CHART_LEFT, "right": CHART_WIDTH - CHART_PAD,
            "rounds": [{"n": n, "x": xy(n, low)[0]} for n, _s in points], "base": CHART_HEIGHT - CHART_PAD,
            "high": high, "low": low, "top": CHART_PAD,
            "table": [(n, [s.get(line["side"]) for line in lines]) for n, s in points]}


def strength_summary(viewer, resolved, before: dict) -> list[dict]:
    """One line per side this viewer may read: its strength after the round and the change the round
    made (``before``: the strength the round started from)."""
    before = visible_strength(viewer, before or {})
    after = visible_strength(viewer, resolved.strength or {})
    return [{"side": side, "name": side_name(viewer, side), "after": _figure(after[side]),
             "change": _change(after[side] - before[side]) if side in before else ""}
            for side in viewer.adapter.sides if side in after]


def _figure(value) -> str:
    return number_format(value, force_grouping=True)


def _change(delta) -> str:
    """A change of strength as people write it: "+3", "−27" (a true minus sign), or "no change"."""
    if not delta:
        return _("no change")
    return ("+" if delta > 0 else "\u2212") + _figure(abs(delta))


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
    pieces = adapter.map_pieces(viewer.battle, state, viewer, selectors.seen_names(viewer))
    out = {"svg": render_map_svg(source, pieces=pieces, label=viewer.battle.name), "controls": True,
           "legend": legend(source, pieces), "placement": None}
    if may_place(viewer):
        out["placement"] = placement or PlacementForm(pieces=pieces, kind=_map_kind(source))
        out["placed"] = placement is None and just_placed(viewer.battle)
    return out


def just_placed(battle) -> bool:
    """Whether the battle is as the last placement left it (no version since, such as round 1 undone): the
    GM's map says the piece is placed however often it is drawn again (the "placed" event redraws the map on
    every screen, the GM's too, right after the answer that said it)."""
    payload = (BattleEvent.objects.filter(battle=battle, kind="placed").order_by("-seq")
               .values_list("payload", flat=True).first())
    return isinstance(payload, dict) and payload.get("version") == battle.version


def may_place(viewer) -> bool:
    """Pieces are placed by the GM, before round 1 is resolved, in rulesets whose adapter places them."""
    battle = viewer.battle
    return (viewer.is_gm and viewer.adapter.places and battle.round == 0
            and battle.status in (battle.Status.RUNNING, battle.Status.PAUSED))


def placement_form(viewer, data) -> PlacementForm:
    """The placement form bound to posted data, its pieces those on the map now."""
    source = viewer.adapter.map_source(viewer.battle)
    pieces = viewer.adapter.map_pieces(viewer.battle, viewer.battle.state, viewer,
                                       selectors.seen_names(viewer)) if source else []
    return PlacementForm(data, pieces=pieces, kind=_map_kind(source))


def _map_kind(source) -> str:
    """``square``, ``hex`` or ``zones``: how the placement form reads a cell."""
    from masscombat.maps.render import normalise_source

    return normalise_source(source)[0] if source else "square"


def side_name(viewer, side: str) -> str:
    """A side by the engine's name for this viewer ("Side A" where the engine names none)."""
    return selectors.seen_names(viewer).get(side) or viewer.adapter.side_label(side)


def reports(viewer, rounds: list) -> list[dict]:
    """Each resolved round as this viewer may read it: the engine's ``visible-round`` (events, log steps,
    dice and the names of what they mention), the log rendered in the reader's language."""
    battle = viewer.battle
    names = selectors.seen_names(viewer) if rounds else {}  # no engine call for a battle not resolved yet
    afters = [r.state_before for r in rounds[1:]] + [battle.state]
    keys = {p.key: participant_name(names, p) for p in viewer.participants  # log steps name participants by key
            if viewer.is_gm or selectors.known_to(battle, viewer.engine_who, p)}
    keys[selectors.GM_KEY] = _("the game master")  # the viewer a round was read for, in its last step
    out = []
    for resolved, after in reversed(list(zip(rounds, afters))):
        read = selectors.visible_round(viewer, resolved, after)
        named = {**read["names"], **names, **keys}
        out.append({
            "round": resolved,
            "names": named,
            "events": read["events"],
            "log": selectors.rendered_log(battle, read["log"], named),
            "dice": [(explain.die_label(name, named), values) for name, values in read["dice"].items()],
            "rolls": read["dice"], "steps": read["log"],  # as the engine gave them: each event's own, beside it
            "summary": strength_summary(viewer, resolved, (resolved.state_before or {}).get("strength")),
        })
    return out
