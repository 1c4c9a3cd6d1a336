"""The engine's check of one answer before it is stored: the room's declare view and the battles API both call it.

One function for both, so that whatever the room refuses the API refuses too,
on the same paths and in the same words.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from masscombat.battles import selectors
from masscombat.core import engines


def engine_accepts(form, viewer, key: str, declared: dict) -> bool:
    """``check-declaration`` on the answer, as this viewer knows the battle, with the round's other
    declarations this viewer may know (a player: their side's and the GM's; the engine keeps from a
    side what it may not read).  Its refusals go on their fields: what ``resolve-round`` would refuse
    is refused now, before anything is stored."""
    battle = viewer.battle
    participant = selectors.round_participants(battle).get(key)
    if participant is None:
        form.add_error(None, _("There is nothing to declare for this participant now."))
        return False
    side = viewer.engine_viewer(key)
    known = {other: row.data for other, row in declared.items() if other != key and (
        viewer.is_gm or other == selectors.GM_KEY or getattr(viewer.participant(other), "side", None) == side)}
    try:
        check = engines.check_declaration(battle.ruleset, battle.state, side, participant.ref, form.declaration(),
                                          known)
    except engines.Refused as exc:
        form.add_error(None, exc.error)
        return False
    if not check.ok:
        form.refuse(battle.ruleset, check)
    return check.ok and form.is_valid()
