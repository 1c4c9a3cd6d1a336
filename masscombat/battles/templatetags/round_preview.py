"""``{% round_preview viewer as odds %}``: the GM's round preview as it stands, where the room's status is drawn.

Read from the cache (:mod:`masscombat.battles.preview`) while the part is
rendered, so that the status part pushed after each ``preview`` event carries
the bar and the figures as they are then: the progress reaches the GM's page
over its socket, with no request of its own.
"""

from __future__ import annotations

from django import template

from masscombat.battles import preview, simulation_runs

register = template.Library()


@register.simple_tag
def round_preview(viewer) -> dict:
    """``runnable`` (the GM may preview: a round is open), the cached ``preview`` and its page ``figures``."""
    battle = viewer.battle
    runnable = (getattr(viewer, "is_gm", False) and battle.status == battle.Status.RUNNING
                and not (battle.state or {}).get("outcome", {}).get("over"))
    if not runnable:
        return {"runnable": False, "preview": None, "figures": None}
    simulation_runs.warm()  # the workers ready before the GM asks
    entry = preview.current(battle)
    figures = preview.figures(entry, viewer) if entry and entry.get("result") else None
    return {"runnable": True, "preview": entry, "figures": figures}
