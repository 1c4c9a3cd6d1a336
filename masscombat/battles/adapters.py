"""What the battle machinery needs to know about one ruleset, and nothing more.

The session code (declarations, resolution, events, undo, replay) is the same
for every game; an :class:`Adapter` per ruleset says how to build the engine's
``new-battle`` input from the campaign's armies and heroes, who declares
(participant kinds for ``declaration-options``), the ruleset's ``end-battle``
input and how its aftermath goes back to the rosters.  Rules are never
computed here: who declares, merging, defaults, the end, the winner and the
strength are the engine's answers (``masscombat.core.engines``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from masscombat.core import engine_values, engines, explain, jsonsafe


@dataclass
class ParticipantSpec:
    """One participant of a new battle, before it is saved."""

    kind: str
    ref: str
    side: str
    name: str
    user: Any = None
    army_id: int | None = None
    hero_id: int | None = None


@dataclass
class RosterUpdate:
    """One roster entry to change after the battle: its new data and status, and why."""

    kind: str  # "army" or "hero"
    object_id: int
    data: dict
    status: str | None = None
    summary: dict = field(default_factory=dict)


class Adapter:
    slug: str = ""
    sides: tuple[str, ...] = ("a", "b")
    uses_map: bool = False
    map_kind: str | None = None  # the kind of campaign map its battles are set up on ("square", "hex", "zones")
    # Whether the GM names a winner, and whether a tie waits for the GM, are the engine's answers: the state's
    # ``outcome`` (``gm_names_winner``, ``one_more_round``).
    strength_label = gettext_lazy("Strength")
    # Option labels by the last segment of the option path: the engine's labels are English;
    # these are the translatable ones (the engine's label is the fallback).
    option_labels: dict[str, Any] = {}
    # Whether the GM may move pieces on the map before round 1 (see :meth:`placement`).
    places: bool = False

    @property
    def value_labels(self) -> dict[str, Any]:
        """The ruleset's engine values as people read them: the engine's ``value.<word>`` messages
        (:mod:`masscombat.core.engine_values`), which the pages and the engine's text share."""
        return engine_values.labels(self.slug)

    def side_label(self, side: str, state: dict | None = None) -> str:
        name = ((state or {}).get("sides") or {}).get(side, {}).get("name") if state else None
        return name or _("Side %(side)s") % {"side": side.upper()}

    def new_battle_input(self, *, name: str, armies: dict, heroes: list, options: dict) -> tuple[dict, list]:
        raise NotImplementedError

    def end_input(self, state: dict, winner: str | None) -> dict:
        """The ruleset's ``end-battle`` input: the state, and the winner the GM names (None: the rules decide)."""
        return {"state": state} if winner is None else {"state": state, "winner": winner}

    def one_more_round_input(self, state: dict) -> dict:
        """After a tie the GM settles (the outcome's ``one_more_round``): the ``end-battle`` input recording the
        GM's choice of one more round; the engine returns the state that round is resolved from."""
        raise NotImplementedError

    def roster_updates(self, aftermath: dict, participants: list) -> list[RosterUpdate]:
        raise NotImplementedError

    def setup_fields(self, campaign) -> dict:
        """Extra fields of the battle setup form (name -> form field); their values come as ``options``."""
        return {}

    def clean_setup(self, options: dict) -> dict[str, str]:
        """Errors of the setup options, by field name (rules are the engine's: only what it cannot see)."""
        return {}

    def map_source(self, battle):
        """What the map renderer draws for this battle (a stored map or the engine's), or None."""
        return None

    def stored_map(self, options: dict):
        """The campaign map the battle is set up on (the ``map`` setup option, of :attr:`map_kind`), if it exists."""
        from masscombat.maps.models import BattleMap

        map_id = str(options.get("map", ""))
        return BattleMap.objects.filter(pk=map_id, kind=self.map_kind).first() if map_id.isdigit() else None

    def map_pieces(self, battle, state: dict, viewer, names: dict[str, str]) -> list[dict]:
        """The pieces on the map, from the state this viewer may see, labelled from its ``names``."""
        return []

    def option_piece(self, option: dict, state: dict | None = None) -> str | None:
        """The id of the map piece (``data-piece``) that a path or cell option moves, so a tap on it picks the field.

        ``state`` is the battle's state the options were computed from (a path may name a
        stand only by its index in its unit)."""
        return None

    def cell_label(self, cell) -> str:
        """A cell as a player reads it: column letter and row number on a square grid (``[2, 3]`` is C4), "col,row" on hexes."""
        if isinstance(cell, dict):
            return f"{cell['col']},{cell['row']}"
        x, y = cell
        letters = ""
        x += 1
        while x:
            x, rest = divmod(x - 1, 26)
            letters = chr(ord("A") + rest) + letters
        return f"{letters}{y + 1}"

    def path_label(self, path: list) -> str:
        """One allowed path in a picker: where it ends and how many steps it takes ("→ C4 · 3 squares")."""
        steps = len(path)
        if isinstance(path[-1], dict):
            unit = ngettext("%(count)d hex", "%(count)d hexes", steps) % {"count": steps}
        else:
            unit = ngettext("%(count)d square", "%(count)d squares", steps) % {"count": steps}
        return f"→ {self.cell_label(path[-1])} · {unit}"

    def placement(self, setup_input: dict, piece_id: str, cell) -> dict:
        """A new ``new-battle`` input with the piece ``piece_id`` moved to ``cell`` (named the engine's way): the
        engine's ``place-piece``, which knows where a piece may stand and how it stacks.

        Called only when :attr:`places` is true, before round 1; raises ``ValidationError`` on the field the
        engine names (``piece`` or ``cell``), in the reader's language; re-running ``new-battle`` judges the rest.
        """
        try:
            return engines.place_piece(self.slug, setup_input, piece_id, cell)
        except engines.Refused as exc:
            sentence, fields = explain.refusal(self.slug, exc.error, exc.fields, exc.messages)
            raise ValidationError({field if field in ("piece", "cell") else "__all__": text
                                   for field, text in fields.items()} or {"__all__": sentence}) from exc

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """The options one declaration form shows (``answer`` is the engine's for ``key``) and a note above it.

        A ruleset whose choices depend on what others declared this round (the engine's
        ``declarations`` draft) asks the engine again here; ``posted`` is the data of this form
        when it is being validated.
        """
        return answer, ""

    def option_label(self, option: dict, names: dict[str, str] | None = None) -> str:
        """The web's label for an option's field, else the engine's own from its ``label_key`` in the
        reader's language (ids in its parameters by their names in ``names``)."""
        last = option["path"].rsplit(".", 1)[-1]
        label = self.option_labels.get(last)
        return str(label) if label is not None else explain.option_label(self.slug, option, names)

    def value_label(self, value: Any, names: dict[str, str] | None = None) -> str:
        """An engine value as the reader reads it: an id by its name in ``names`` (the engine's for the
        reader, which never names what the reader may not know), a word by its translated label."""
        if isinstance(value, bool):
            return _("Yes") if value else _("No")
        if isinstance(value, str) and names and value in names:
            return names[value]
        label = self.value_labels.get(value) if isinstance(value, str) else None
        return str(label) if label is not None else str(value)


def posted_value(posted, path: str):
    """A field of a declaration form as posted: its JSON-encoded choice (a list for a multiple one) or a ticked
    box (``on``); None when absent or unreadable (deep JSON included: the form itself then names the field)."""
    raws = posted.getlist(path) if hasattr(posted, "getlist") else [posted.get(path)]
    values = []
    for raw in raws:
        if raw == "on":
            values.append(True)
            continue
        try:
            values.append(jsonsafe.loads(raw) if raw else None)
        except (TypeError, ValueError):
            values.append(None)
    return values if len(values) > 1 else (values[0] if values else None)


def answers_with(declared: dict, key: str, posted=None, keys=None) -> dict[str, dict]:
    """The round's answers by participant key (the ``declarations`` draft the engines read the way
    ``merge-declarations`` will), ``key``'s own as posted when its form is being validated.

    ``declared`` holds the stored declarations by key; ``keys``, when given, the participants whose answers
    the engine may be shown (those the viewer may know of)."""
    answers = {k: dict(d.data) for k, d in declared.items() if keys is None or k in keys}
    if posted is not None:
        fields = {path: posted_value(posted, path) for path in posted if "." in path}
        answers[key] = {path: value for path, value in fields.items() if value is not None}
    return answers


def get(slug: str) -> Adapter | None:
    """The adapter of a ruleset (``masscombat.games.<slug>.battle``), or None when no game package plays it.

    Looked up by name, as Django finds its apps: the game packages implement this module's
    interface and sit above the battles app, which never imports them."""
    try:
        module = importlib.import_module(f"masscombat.games.{slug}.battle")
    except ModuleNotFoundError:
        return None
    return module.adapter


def playable(slug: str) -> bool:
    return get(slug) is not None
