"""Read paths of battles: who is looking, what they may see, what the pages show.

Everything a side may know comes from the engine's ``visible-state``; what
someone may declare from its ``declaration-options``.  Nothing here decides
a rule.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cached_property

from django.http import Http404

from masscombat.battles import adapters, live, presence
from masscombat.battles.models import Battle, BattleParticipant, Declaration, Round
from masscombat.core import engines, explain
from masscombat.campaigns.access import authorize
from masscombat.core.permissions import Access, Action

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
    def engine_who(self) -> str:
        """Whom the engine's ``visible-state`` and ``visible-round`` answer: the GM, the player's side, or the
        public for someone who plays no side (a member following the battle, a spectator)."""
        return engines.GM if self.is_gm else (self.side or engines.PUBLIC)

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

    def engine_viewer(self, key: str) -> str:
        """Who asks the engine about ``key``'s declaration: the GM sees everything, a player their side."""
        if self.is_gm:
            return engines.GM
        participant = self.participant(key)
        return participant.side if participant is not None else engines.GM


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


def options_for(battle: Battle, participant_key: str, kind: str, ref: str, viewer: str = engines.GM) -> dict:
    """The engine's answer to "what may this participant declare now?", asked as ``viewer`` knows the battle.

    A participant the engine no longer knows (a corps merged away, say) has
    nothing to declare: the page shows the rest rather than fail.

    The answer depends only on the battle's state and the viewer, yet the
    engine can take milliseconds per unit (every legal path of every D&D 5e
    stand) and a room asks for every participant on every load and htmx
    refresh.  So answers are kept twice (:func:`masscombat.core.engines.cached`):
    in a memo on this ``Battle`` object, shared by the forms of one request, and
    in Django's cache, shared by the next requests and the other viewers.
    Callers must not change the answer they get (it is shared).
    """
    def ask() -> dict:
        try:
            return engines.declaration_options(battle.ruleset, battle.state, {"kind": kind, "id": ref or kind}, viewer)
        except engines.Refused as exc:
            logger.warning("declaration-options refused %s in battle %s: %s", participant_key, battle.pk, exc.error)
            return {"options": [], "must_declare": False}

    return engines.cached(battle, f"options:{kind}:{ref}:{viewer}", ask)


def round_participants(battle: Battle) -> dict[str, engines.Participant]:
    """Who declares this round, by key (``round-participants``): who is waited for, and each one's default."""
    def ask() -> dict:
        return {p.key: p for p in engines.round_participants(battle.ruleset, battle.state)}

    return engines.cached(battle, "participants", ask)


def expected(battle: Battle, participants: list[BattleParticipant] | None = None) -> dict[str, dict]:
    """Every participant the round waits for (``must_declare``), with their options as the GM sees them."""
    found = {}
    for key, participant in round_participants(battle).items():
        if participant.must_declare:
            found[key] = options_for(battle, key, participant.ref.get("kind", ""), participant.ref.get("id") or "")
    return found


def missing(battle: Battle, declared: dict) -> list[engines.Participant]:
    """The participants the round waits for who have not declared yet, with the default each would get."""
    return [p for key, p in round_participants(battle).items() if p.must_declare and key not in declared]


def visible_state(viewer: Viewer) -> dict | None:
    """The state this viewer may know: the engine's ``visible-state`` for the GM (all of it) or a side.

    Asked of the engine once per viewer: the map, the reports and the labels of one request share it,
    with its ``names`` (:func:`seen_names`).  A member who plays no side and is not the GM sees the public's.
    """
    return _seen(viewer)["state"]


def seen_names(viewer: Viewer) -> dict[str, str]:
    """``{id: display name}`` of everything this viewer may know (the engine's ``names`` for it): the one
    source of every name a page shows, so that a hidden enemy is never named, nor its id turned into a name.
    In the reader's language where the engine gives a name as a message (``name_keys``)."""
    return explain.names(viewer.battle.ruleset, _seen(viewer))


def _seen(viewer: Viewer) -> dict:
    if "seen" not in vars(viewer):
        viewer.seen = names_and_state(viewer.battle, viewer.engine_who)
    return viewer.seen


def names_and_state(battle: Battle, who: str) -> dict:
    """``visible-state`` of ``battle`` for ``who`` (``"gm"``, a side or the public), memoised with the options."""
    return engines.cached(battle, f"seen:{who}", lambda: engines.visible_state(battle.ruleset, battle.state, who))


def hidden_from(battle: Battle) -> dict[str, frozenset[str]]:
    """What each side may not know of, the engine's word (``round-participants``' ``hidden_from``)."""
    return engines.cached(battle, "hidden-from", lambda: engines.hidden_from(battle.ruleset, battle.state))


def known_to(battle: Battle, who: str, participant) -> bool:
    """Whether ``who`` (the GM, a side, or the public: an enemy of every side) may know that ``participant``
    is in the battle: what it stands for (its unit, hero or character; a side is always known) is hidden
    from none of the sides ``who`` stands for."""
    if who == engines.GM or participant.kind == "side":
        return True
    hidden = hidden_from(battle)
    sides = sorted(hidden) if who == engines.PUBLIC else [who]
    return not any(participant.ref in hidden.get(side, ()) for side in sides)


def public(battle: Battle, participant) -> bool:
    """Whether every other side may know ``participant`` (who declared is then said to everyone)."""
    sides = {p.side for p in battle.participants.all()} - {participant.side}
    return all(known_to(battle, side, participant) for side in sorted(sides))


def secret_orders(battle: Battle) -> frozenset[str]:
    """Keys of the participants whose orders are kept from their own side until resolution (the engine's word)."""
    return engines.cached(battle, "secret-orders", lambda: engines.secret_orders(battle.ruleset, battle.state))


def visible_round(viewer: Viewer, resolved: Round, after: dict, replayed: dict | None = None) -> dict:
    """What this viewer may read of one resolved round (the engine's ``visible-round``): ``after`` is the
    state the round ended in; ``replayed``, a ``resolve-round`` output to read instead of the stored one
    (the replay's).  A member who plays no side and is not the GM reads what the public may."""
    who = viewer.engine_who
    if replayed is None:
        output = {key: value for key, value in resolved.output.items() if key != "extra_round"}
        body = {**output, "state": after, "events": resolved.events, "log": resolved.log, "dice": resolved.dice}
    else:
        body = {**replayed, "state": after}
    what = f"round:{resolved.pk}:{who}" + (":replayed" if replayed is not None else "")
    read = engines.cached(viewer.battle, what,
                   lambda: engines.visible_round(viewer.battle.ruleset, body, who, before=resolved.state_before))
    return {**read, "names": explain.names(viewer.battle.ruleset, read)}  # cached in no one language


# Steps that only say "not given, default used" for each omitted field: true, but they bury the story.
QUIET_KEYS = frozenset({"input.default"})


def rendered_log(battle: Battle, steps: list[dict], names: dict[str, str] | None = None) -> list[dict]:
    """Log steps in the reader's language, ids named from ``names`` (the engine's for the reader)."""
    return explain.rendered_log(battle.ruleset, steps, QUIET_KEYS, names)


def rounds(battle: Battle) -> list[Round]:
    return list(battle.rounds.select_related("resolved_by").order_by("number"))


def present_users(battle: Battle) -> list:
    """Who has the battle open right now (one entry per user); a dead process's rows do not count."""
    seen = {}
    for connection in presence.live_connections(battle.pk).select_related("user").order_by("connected_at"):
        seen.setdefault(connection.user_id, connection.user)
    return list(seen.values())
