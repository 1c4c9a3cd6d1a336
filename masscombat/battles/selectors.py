"""Read paths of battles: who is looking, what they may see, what the pages show.

Everything a side may know comes from the engine's ``visible-state``; what
someone may declare from its ``declaration-options``.  Nothing here decides
a rule.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from functools import cached_property

from django.core.cache import cache
from django.http import Http404

from masscombat.battles import adapters, live, presence
from masscombat.battles.models import Battle, BattleParticipant, Declaration, Round
from masscombat.core import explain
from masscombat.core.permissions import Access, Action, authorize
from rules import registry
from rules.errors import InvalidInput

logger = logging.getLogger(__name__)

GM_KEY = "gm"


@dataclass
class Viewer:
    """A battle as one user sees it: their role, and the participants they play."""

    battle: Battle
    access: Access
    user: object
    participants: list[BattleParticipant] = field(default_factory=list)

    @property
    def is_gm(self) -> bool:
        return self.access.is_gm

    @cached_property
    def mine(self) -> list[BattleParticipant]:
        return [p for p in self.participants if p.user_id == self.user.pk]

    @cached_property
    def sides(self) -> set[str]:
        return {p.side for p in self.mine}

    @property
    def side(self) -> str | None:
        """The one side a player belongs to (a player on both sides sees as the first)."""
        return min(self.sides) if self.sides else None

    @property
    def audiences(self) -> list[str]:
        return live.audiences_for(self.is_gm, self.sides)

    @cached_property
    def adapter(self) -> adapters.Adapter:
        return adapters.get(self.battle.ruleset)

    def controls(self, key: str) -> bool:
        """May this user declare for the participant ``key``? The GM may for anyone."""
        if self.is_gm:
            return True
        return any(p.key == key for p in self.mine)

    def participant(self, key: str) -> BattleParticipant | None:
        return next((p for p in self.participants if p.key == key), None)


def viewer(user, action: Action, battle_id: int, *, lock: bool = False) -> Viewer:
    """Load a battle for ``user`` to take ``action``: 404 for outsiders and unknown ids, 403 if not allowed."""
    queryset = Battle.objects.select_for_update() if lock else Battle.objects
    battle = queryset.filter(pk=battle_id).first()
    if battle is None:
        raise Http404
    access = authorize(user, action, battle.campaign_id)
    return Viewer(battle, access, user, list(battle.participants.select_related("user")))


def battles_of(campaign_id: int):
    return Battle.objects.filter(campaign_id=campaign_id).only(
        "pk", "name", "status", "round", "ruleset", "created_at", "campaign_id"
    )


def declarations(battle: Battle, number: int | None = None) -> dict[str, Declaration]:
    number = battle.current_round if number is None else number
    return {d.participant: d for d in battle.declarations.filter(round=number).select_related("declared_by")}


OPTIONS_CACHE_SECONDS = 6 * 3600


def options_for(battle: Battle, participant_key: str, kind: str, ref: str) -> dict:
    """The engine's answer to "what may this participant declare now?".

    A participant the engine no longer knows (a corps merged away, say) has
    nothing to declare: the page shows the rest rather than fail.

    The answer depends only on the battle's state, yet the engine can take
    milliseconds per unit (every legal path of every D&D 5e stand) and a room
    asks for every participant on every load and htmx refresh.  So answers are
    kept twice: in a memo on this ``Battle`` object, so that ``expected()`` and
    the forms of one request share them, and in Django's cache (Redis, shared
    by every server process and tolerant of Redis being away; this process's
    memory without Redis), so that the next request and the other viewers
    reuse them.  The cache key names the battle, its ``version`` (bumped by
    every service that writes ``state``) and a digest of the state itself: a
    state written without a bump, or a database rebuilt under a long-lived
    Redis, can never be answered from another state's entry.  Callers must
    not change the answer they get (it is shared).
    """
    memo = _options_memo(battle)
    cache_key = f"battle-options:{battle.pk}:{battle.version}:{memo['digest']}:{battle.ruleset}:{kind}:{ref}"
    if cache_key in memo["answers"]:
        return memo["answers"][cache_key]
    answer = cache.get(cache_key)
    if answer is None:
        participant = {"kind": kind, "id": ref or kind}
        try:
            answer = registry.run(battle.ruleset, "declaration-options",
                                  {"state": battle.state, "participant": participant})
        except InvalidInput as exc:
            logger.warning("declaration-options refused %s in battle %s: %s", participant_key, battle.pk, exc)
            answer = {"options": [], "must_declare": False}
        cache.set(cache_key, answer, OPTIONS_CACHE_SECONDS)
    memo["answers"][cache_key] = answer
    return answer


def _options_memo(battle: Battle) -> dict:
    """This object's answers so far, started again whenever its state object or version changes."""
    memo = battle.__dict__.get("_options_memo")
    if memo is None or memo["state"] is not battle.state or memo["version"] != battle.version:
        encoded = json.dumps(battle.state, sort_keys=True, separators=(",", ":")).encode()
        memo = {"state": battle.state, "version": battle.version, "answers": {},
                "digest": hashlib.blake2b(encoded, digest_size=16).hexdigest()}
        battle.__dict__["_options_memo"] = memo
    return memo


def expected(battle: Battle, participants: list[BattleParticipant]) -> dict[str, dict]:
    """Every participant who must declare this round, with their options (key -> engine answer)."""
    found = {}
    for participant in participants:
        answer = options_for(battle, participant.key, participant.kind, participant.ref)
        if answer.get("must_declare"):
            found[participant.key] = answer
    return found


def missing(battle: Battle, participants: list[BattleParticipant], declared: dict) -> list[str]:
    """Keys of the participants who must declare and have not yet."""
    return [key for key in expected(battle, participants) if key not in declared]


def visible_state(viewer: Viewer) -> dict | None:
    """The state this viewer may know: all of it for the GM, the engine's filter for a side.

    Asked of the engine once per viewer: the map, the reports and the labels of one request share it.
    """
    if "seen_state" not in vars(viewer):
        battle = viewer.battle
        if viewer.is_gm or viewer.side is None:
            viewer.seen_state = battle.state if viewer.is_gm else None
        else:
            viewer.seen_state = registry.run(battle.ruleset, "visible-state",
                                             {"state": battle.state, "side": viewer.side})["state"]
    return viewer.seen_state


# Steps that only say "not given, default used" for each omitted field: true, but they bury the story.
QUIET_KEYS = frozenset({"input.default"})


def rendered_log(battle: Battle, steps: list[dict]) -> list[dict]:
    return explain.rendered_log(battle.ruleset, steps, QUIET_KEYS)


def rounds(battle: Battle) -> list[Round]:
    return list(battle.rounds.select_related("resolved_by").order_by("number"))


def present_users(battle: Battle) -> list:
    """Who has the battle open right now (one entry per user); a dead process's rows do not count."""
    seen = {}
    for connection in presence.live_connections(battle.pk).select_related("user").order_by("connected_at"):
        seen.setdefault(connection.user_id, connection.user)
    return list(seen.values())
