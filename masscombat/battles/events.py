"""Every kind of battle event, declared once: what its payload holds and which parts of the room it redraws.

Zulip's events model (:mod:`masscombat.battles.live`): every change of a
battle is an event with the next number; the pages apply events.  What a page
does with one is said here and nowhere else: each kind names the parts of the
room it makes stale, and the battle's socket sends, with each event, that list
for the socket's viewer (``refresh``) and the new HTML of those parts, rendered
once for the viewer's audience (:mod:`masscombat.battles.push`).  The browser
holds no list of its own (``static/js/battle.js`` swaps what it is sent).

The parts: ``status`` (the round, who has declared, who is here, the GM's
controls), ``declare`` (the viewer's own declaration forms), ``map`` and
``reports`` (the state, the timeline and the round reports).
"""

from __future__ import annotations

from dataclasses import dataclass

STATUS, DECLARE, MAP, REPORTS = "status", "declare", "map", "reports"
ALL_PARTS = (STATUS, DECLARE, MAP, REPORTS)


@dataclass(frozen=True)
class Kind:
    """One kind of event: the fields of its payload, the parts it redraws, and why."""

    name: str
    payload: tuple[str, ...]
    parts: tuple[str, ...]
    doc: str


KINDS = {kind.name: kind for kind in (
    Kind("created", (), ALL_PARTS, "the battle was set up"),
    Kind("declared", ("round", "participant"), (STATUS,),
         "a participant's declaration was saved (who, never what); the GM's redraws the players' forms too"),
    Kind("round_resolved", ("round",), ALL_PARTS, "a round was resolved: new state, report and forms"),
    Kind("round_undone", ("round",), ALL_PARTS, "the last round was undone"),
    Kind("status", ("status",), ALL_PARTS, "paused, resumed, over, closed, or one more round after a tie"),
    Kind("placed", ("version",), ALL_PARTS, "the GM moved a piece before round 1"),
    Kind("presence", ("user", "connected"), (STATUS,), "someone opened or closed the room (the GM's audience)"),
    Kind("deadline", ("round", "version", "at", "left"), (STATUS,), "the round's clock was set, moved or stopped"),
    Kind("preview", ("version",), (STATUS,), "the GM's preview of the round moved on (the GM's audience)"),
    Kind("watch_link", (), (STATUS,), "the GM shared or revoked the watch link (the GM's audience)"),
)}


def declared(kind: str) -> Kind:
    """The declaration of ``kind``; an undeclared kind is a programming error, refused before anything is stored."""
    try:
        return KINDS[kind]
    except KeyError:
        raise ValueError(f"undeclared battle event kind {kind!r}: declare it in masscombat/battles/events.py") from None


def parts_for(kind: str, payload: dict | None, *, is_gm: bool) -> list[str]:
    """The parts an event of ``kind`` redraws for a viewer (the GM or not), in the page's order.

    A declaration redraws who has declared; the GM's own (``participant`` ``gm``) also redraws the
    players' forms, since some wait on it (a 7th Sea hero's opportunity is offered by the GM).  The
    player who declared has the answer of their own request already: their forms are not redrawn
    under their fingers.
    """
    parts = set(declared(kind).parts)
    if kind == "declared" and not is_gm and (payload or {}).get("participant") == "gm":
        parts.add(DECLARE)
    return [part for part in ALL_PARTS if part in parts]
