"""What a battle's socket pushes after an event: the new HTML of the parts it redraws, once per audience.

Each socket keeps its viewer, loaded when it opened (permissions included,
checked again when access changes or the page says hello), as a
:class:`Watcher`.  After an event it asks for the parts the event redraws
(:func:`masscombat.battles.events.parts_for`) as one *frame*: the JSON
``{"type": "parts", "seq": n, "html": {part: html}}``, gzipped when the page
can inflate it.  A frame is keyed by the battle, the event number, the
audience (and the user, for their own forms) and the language, and kept in the
deployment's cache, computed once however many sockets ask together
(:func:`masscombat.core.cache.compute_once`): the first socket of a side
renders it (:mod:`masscombat.battles.parts`), the others send the same bytes.
A socket whose frame is cached touches neither the database nor a template.

The ``declare`` part, someone's own forms, always goes in a frame of its own,
keyed by its user: shared frames never hold it.  A map's terrain is left out
of frames (:func:`masscombat.maps.render.without_terrain`): the page keeps
the one it shows, and asks for the part by GET when it shows another.
"""

from __future__ import annotations

import gzip
import json
import logging
from dataclasses import dataclass

from django.utils import translation

from masscombat.battles import events, live, parts
from masscombat.battles.models import Battle
from masscombat.core.cache import compute_once
from masscombat.maps.render import without_terrain

logger = logging.getLogger(__name__)


@dataclass
class Watcher:
    """One socket's viewer: access and participants loaded once; the battle row as last read."""

    viewer: object  # selectors.Viewer, or spectators.Spectator for a watch link

    def fresh(self):
        """The viewer on the battle as it is now: one query, the permissions and participants kept."""
        battle = Battle.objects.select_related("campaign").get(pk=self.viewer.battle.pk)
        old = self.viewer
        self.viewer = type(old)(battle, old.access, old.user, old.participants)
        return self.viewer


class PartFailed(Exception):
    """Some parts could not be rendered: the frame of those that could (not cached), and the others' names."""

    def __init__(self, frame, names: list[str]):
        super().__init__(", ".join(names))
        self.frame, self.names = frame, names


def frames(watcher: Watcher, names: list[str], seq: int, language: str, compressed: bool,
           stamp: str | None = None) -> tuple[list, list[str]]:
    """The frames carrying ``names`` as this socket's audience sees the battle as of event ``seq``
    (``stamp``: the event message's, :func:`masscombat.battles.live.stamp`; else the viewer's battle's),
    and the names of the parts that failed to render (the page asks for those by GET)."""
    stamp = live.stamp(watcher.viewer.battle) if stamp is None else stamp
    out, failed = [], []
    with translation.override(language):
        for group in ([n for n in names if n != events.DECLARE], [n for n in names if n == events.DECLARE]):
            if not group:
                continue
            key = ":".join(["frame", *group, "gz" if compressed else "txt",
                            parts.cache_key(watcher.viewer, group[0], seq, stamp)])
            try:
                out.append(compute_once(key, lambda group=group: _frame(watcher, group, seq, stamp, compressed),
                                        parts.KEEP_SECONDS))
            except PartFailed as exc:
                out.extend([exc.frame] if exc.frame is not None else [])
                failed.extend(exc.names)
    return out, failed


def _frame(watcher: Watcher, names: list[str], seq: int, stamp: str, compressed: bool):
    """One frame, each part from its cached rendering, or rendered on the battle as it is now."""
    keyed = watcher.viewer  # the keys are the audience's, whatever this socket read last
    now = []  # the viewer on the battle as it is now, read once, and only if some part is not cached

    def current():
        if not now:
            now.append(watcher.fresh())
        return now[0]

    html, failed = {}, []
    for name in names:
        try:
            html[name] = without_terrain(parts.render(keyed, name, seq, stamp=stamp, now=current))
        except Exception:  # noqa: BLE001 - one part failing must not cost the others; the page asks for it
            logger.exception("part %s of battle %s not rendered for its socket", name, watcher.viewer.battle.pk)
            failed.append(name)
    frame = encode({"type": "parts", "seq": seq, "html": html}, compressed) if html else None
    if failed:
        raise PartFailed(frame, failed)
    return frame


def encode(message: dict, compressed: bool):
    """A message as the page reads it: gzipped bytes (a binary frame), or JSON text."""
    text = json.dumps(message, separators=(",", ":"))
    return gzip.compress(text.encode(), compresslevel=9, mtime=0) if compressed else text
