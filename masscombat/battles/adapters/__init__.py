"""What the battle machinery needs to know about one ruleset, and nothing more.

The session code (declarations, resolution, events, undo, replay) is the same
for every game; an :class:`Adapter` per ruleset says how to build the engine's
``new-battle`` input from the campaign's armies and heroes, who declares
(participant kinds for ``declaration-options``), how strong each side is (for
the timeline chart), how to end the battle and how its aftermath goes back to
the rosters.  Rules are never computed here: only the engine's operations are
called, and their outputs read.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext


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
    # Whether a resolved round's log may be shown to both sides (the spec says which steps are public).
    round_log_public: bool = True
    # Whether each side may see the other's strength in the timeline (else only its own).
    strength_public: bool = True
    # Whether the GM who ends a battle names its winner (else the rules' points decide, e.g. D&D 5e S9.14).
    gm_names_winner: bool = True
    strength_label = gettext_lazy("Strength")
    # Option labels by the last segment of the option path, and value labels: the engine's
    # labels are English; these are the translatable ones (the engine's label is the fallback).
    option_labels: dict[str, Any] = {}
    value_labels: dict[str, Any] = {}
    # Whether :meth:`value_label` names things from the battle's state (the web layer then
    # asks the engine for the state the reader may see; others are spared that call).
    labels_use_state: bool = False
    # Whether the round reports name things from that state (true whenever the labels do).
    reports_use_state: bool = False
    # Whether the GM may move pieces on the map before round 1 (see :meth:`placement`).
    places: bool = False

    def split_path(self, path: str) -> list[str]:
        """An option path as keys into the declarations object (where ids hold no dot)."""
        return path.split(".")

    def merge_declarations(self, rows) -> dict:
        """The engine's declarations object from each participant's ``{path: value}``."""
        merged: dict = {}
        for row in rows:
            for path, value in sorted(row.data.items()):
                node = merged
                *parents, last = self.split_path(path)
                for name in parents:
                    node = node.setdefault(name, {})
                node[last] = value
        return merged

    def side_label(self, side: str, state: dict | None = None) -> str:
        name = ((state or {}).get("sides") or {}).get(side, {}).get("name") if state else None
        return name or _("Side %(side)s") % {"side": side.upper()}

    def new_battle_input(self, *, name: str, armies: dict, heroes: list, options: dict) -> tuple[dict, list]:
        raise NotImplementedError

    def finished(self, state: dict) -> bool:
        raise NotImplementedError

    def winner(self, state: dict) -> str | None:
        raise NotImplementedError

    def strength(self, state: dict) -> dict[str, float]:
        raise NotImplementedError

    def end_input(self, state: dict, winner: str | None) -> tuple[str, dict]:
        """The end-of-battle operation and its input."""
        raise NotImplementedError

    def tie(self, state: dict) -> bool:
        """Whether the rules stopped the battle on a tie that the GM settles: a draw or one more round."""
        return False

    def one_more_round(self, state: dict) -> tuple[str, dict, dict]:
        """After a tie: the operation recording the GM's choice of one more round, its input, and the
        state in which the engine resolves that round."""
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

    def map_pieces(self, battle, state: dict, viewer) -> list[dict]:
        """The pieces on the map, from the state this viewer may see."""
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
        """A new ``new-battle`` input with the piece ``piece_id`` moved to ``cell`` (named the engine's way).

        Called only when :attr:`places` is true, before round 1; raises
        ``ValidationError`` with a sentence when the piece cannot be moved
        (the engine's own refusals come from re-running ``new-battle``).
        """
        raise NotImplementedError

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """The options one declaration form shows (``answer`` is the engine's for ``key``) and a note above it.

        A ruleset whose choices depend on what others declared this round (the engine's
        ``declarations`` draft) asks the engine again here; ``posted`` is the data of this form
        when it is being validated.
        """
        return answer, ""

    def participant_public(self, state: dict, participant) -> bool:
        """Whether the other side may know that ``participant`` is in the battle now.

        Not a hidden (ambushing) unit: its name in "who has declared" or in a
        live event would give it away.  The GM and its own side always know.
        """
        return True

    def orders_secret(self, state: dict, participant) -> bool:
        """Whether the orders stored for ``participant`` are kept from its own side until resolution.

        D&D 5e (S11.3): the GM's orders for a broken unit are not shown to that unit's side.
        """
        return False

    def may_see(self, viewer, entry: dict) -> bool:
        """Whether this viewer may read one event or log step of a resolved round (a ruleset may keep a few secret)."""
        return True

    def report(self, viewer, events: list, log: list, dice: dict, before: dict) -> tuple[list, list, dict]:
        """What this viewer reads of a resolved round (``before``: the state it started from):
        its events and log steps as :meth:`may_see` allows, and its dice."""
        return events, [step for step in log if self.may_see(viewer, step)], dice

    def option_label(self, option: dict) -> str:
        last = option["path"].rsplit(".", 1)[-1]
        label = self.option_labels.get(last)
        return str(label) if label is not None else option.get("label", option["path"])

    def value_label(self, value: Any, state: dict | None = None) -> str:
        """An engine value as the reader reads it; ``state`` is the one the reader may see (the GM's
        whole state, a side's ``visible-state``), for a ruleset that names its units from it."""
        if isinstance(value, bool):
            return _("Yes") if value else _("No")
        label = self.value_labels.get(value) if isinstance(value, str) else None
        return str(label) if label is not None else str(value)


def get(slug: str) -> Adapter | None:
    """The adapter of a ruleset, or None when the battles app does not play it yet."""
    try:
        module = importlib.import_module(f"masscombat.battles.adapters.{slug}")
    except ModuleNotFoundError:
        return None
    return module.adapter


def playable(slug: str) -> bool:
    return get(slug) is not None
