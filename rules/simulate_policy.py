"""How a simulated participant answers: its default orders, a random pick, or a one-round look-ahead.

Every policy works from the contract alone: ``round-participants`` gives each
participant's ``default`` answer, ``declaration-options`` what it may choose,
``check-declaration`` whether a choice would pass.  The GM (``side`` null) is
never played by a policy: the circumstances it sets (weather, adjustments, the
end of the battle) are not orders a side gives, so it stays silent unless the
caller fixed its answer.

A participant whose chosen answer is its ``default`` stays silent: the engine
gives the default itself to those the round waits for (``must_declare``), and
the others may be units that can no longer act (a D&D 5e unit eliminated this
round is still listed, and its default is refused), so sending it is never
better and sometimes an error.

* ``default``: each participant answers its ``default`` (by silence, above).
* ``random``: each option takes a value drawn uniformly among those offered
  (``allowed`` minus ``forbidden``, the integers between ``min`` and ``max``,
  true/false).  A list option takes nothing or one of its items, unless its
  items are whole values themselves (a path of hexes).  Options offered with
  no values to pick from (free text, objects, lists of free-form actions) keep
  their default.  The drawn answer is checked; a refused path goes back to
  its default and the answer is checked again, and after ``REPAIRS`` refusals
  the participant sends its default.
* ``greedy``: the default and ``candidates`` random answers are each scored by
  resolving the round once (the participants not decided yet silent, so on
  their defaults) with dice of their own, never the round's real dice, and
  reading the side's ``strength`` lead (a win or a loss of the battle first).
  The best one is kept; on a tie the default orders, else a seeded draw
  among the best.  One round is all it sees: an order whose effect comes
  later (a charge that lands next round, a retreat that succeeds next round)
  scores like holding, so it is not taken for its own sake.
* ``engage``: each participant closes on the nearest enemy and strikes when
  it can (``rules.simulate_engage``), its answer checked like a random one:
  the policy that ends battles where the spec default orders only hold.
"""

from __future__ import annotations

import json
from typing import Any

from rules.dice import Dice
from rules.errors import InvalidInput
from rules.simulate_engage import Sightings, engaging_value, whereabouts
from rules.simulate_engine import Engine

POLICIES = ("default", "random", "greedy", "engage")
REPAIRS = 3
"""Checks of a random answer before falling back to the default: bounded, whatever the engine says."""


class Picker:
    """Seeded uniform picks, each a named draw of the battle's policy dice (``pick.1``, ``pick.2``...)."""

    def __init__(self, seed: int):
        self._dice = Dice(seed=seed)
        self._count = 0

    def index(self, size: int) -> int:
        """A uniform index in ``range(size)``."""
        self._count += 1
        return self._dice.pick(f"pick.{self._count}", 1, size)[0]


def offered_values(option: dict) -> list | range:
    """What a random pick may choose for an option, forbidden values left out (empty: keep the default)."""
    kind = option.get("type")
    allowed = option.get("allowed")
    forbidden = [entry["value"] for entry in option.get("forbidden", []) if isinstance(entry, dict) and "value" in entry]
    if kind == "integer" and not isinstance(allowed, list):
        low, high = option.get("min"), option.get("max")
        if not (isinstance(low, int) and isinstance(high, int)) or high < low:
            return []
        if not forbidden:
            return range(low, high + 1)
        return [value for value in range(low, high + 1) if value not in forbidden]
    if kind == "boolean" and not isinstance(allowed, list):
        allowed = [False, True]
    if not isinstance(allowed, list) or not allowed:
        return []
    if kind == "list" and not all(isinstance(item, list) for item in allowed):
        return [[]] + [[item] for item in allowed if item not in forbidden]
    return [value for value in allowed if value not in forbidden]


def random_answer(options: list[dict], default: dict, picker: Picker) -> dict:
    """The participant's default with every option given a uniformly drawn offered value.

    A draw equal to the option's own default is left out of the answer (silent
    on that point) unless the option is required or the participant's default
    names the path.
    """
    answer = dict(default)
    for option in options:
        path = option.get("path")
        values = offered_values(option)
        if not path or not values:
            continue
        value = values[picker.index(len(values))]
        if value == option.get("default") and path not in default and not option.get("required"):
            answer.pop(path, None)
        else:
            answer[path] = value
    return answer


def engage_answer(options: list[dict], default: dict, enemies: list) -> dict:
    """The participant's default with every option that can close on or strike the enemy set so
    (``rules.simulate_engage``)."""
    answer = dict(default)
    for option in options:
        values = offered_values(option)
        value = engaging_value(option, values, enemies) if option.get("path") and values else None
        if value is None and option.get("required") and option.get("default") is not None:
            value = answer.get(option["path"], option["default"])  # as a random answer would name it (the stand)
        if value is not None:
            answer[option["path"]] = value
    return answer


def repaired(answer: dict, default: dict, refused: dict[str, str]) -> dict | None:
    """The answer with every refused path back to its default, or ``None`` when no path of it was named."""
    touched = [path for path in answer if any(_related(path, field) for field in refused)]
    if not touched:
        return None
    fixed = dict(answer)
    for path in touched:
        if path in default:
            fixed[path] = default[path]
        else:
            del fixed[path]
    return fixed


def _related(path: str, field: str) -> bool:
    """Whether a refusal at ``field`` is about the answer's ``path`` (the same, or one inside the other)."""
    if path == field:
        return True
    return any(longer.startswith(shorter) and longer[len(shorter)] in ".[" for shorter, longer in
               ((path, field), (field, path)) if len(longer) > len(shorter))


def standing(state: dict, side: str) -> tuple[int, float]:
    """How good a state is for ``side``: the battle won (1) or lost (-1) first, then its strength lead."""
    outcome = state.get("outcome") or {}
    rank = 0
    if outcome.get("over") and outcome.get("winner") is not None:
        rank = 1 if outcome["winner"] == side else -1
    strength = {name: value for name, value in (state.get("strength") or {}).items()
                if isinstance(value, int | float) and not isinstance(value, bool)}
    others = [value for name, value in strength.items() if name != side]
    return rank, strength.get(side, 0) - max(others, default=0)


class Chooser:
    """Chooses every side participant's answer for one round: one policy for all, or one per side.

    ``policy`` is a policy name, or ``{side: name}`` with ``"*"`` for the sides
    not named (``default`` when there is none).
    """

    def __init__(self, engine: Engine, policy: str | dict[str, str], picker: Picker, *, candidates: int = 3):
        self.engine = engine
        self.policies = policy if isinstance(policy, dict) else {"*": policy}
        self.picker = picker
        self.candidates = candidates
        self.sightings = Sightings()

    def policy_of(self, side: str) -> str:
        return self.policies.get(side, self.policies.get("*", "default"))

    def answers(self, state: dict, participants: list[dict], fixed: dict[str, dict], lookahead_seed: int) -> dict:
        """``{key: answer}``: ``fixed`` as given, each other side participant by the policy."""
        answers = {key: dict(answer) for key, answer in fixed.items()}
        spotted = self._spot(state, participants)
        for participant in participants:
            key = participant["key"]
            if participant.get("side") is None or key in answers:
                continue
            default = dict(participant.get("default") or {})
            policy = self.policy_of(participant["side"])
            if policy == "default":
                answer = default
            elif policy == "engage":
                sides = {p["key"]: p["side"] for p in participants if p.get("side") is not None}
                enemies = self.sightings.enemies_of(participant["side"], sides)
                answer = self._checked(state, participant, engage_answer(spotted[key], default, enemies), answers)
            else:
                options = self.engine.options(state, participant["participant"], answers)
                if policy == "random":
                    answer = self._checked_random(state, participant, options, answers)
                else:
                    answer = self._best(state, participant, options, answers, lookahead_seed)
            if answer and answer != default:
                answers[key] = answer
        return answers

    def _spot(self, state: dict, participants: list[dict]) -> dict[str, list[dict]]:
        """For the engage policy: every side participant's options, once the round starts, and where it stands.

        Asked before anyone answers (without the others' drafts): the policy
        needs to know where the enemy is before it moves the first unit.  The
        check of each answer still weighs the answers given before it.
        """
        if "engage" not in self.policies.values():
            return {}
        self.sightings.new_round()
        spotted = {}
        for participant in participants:
            if participant.get("side") is None:
                continue
            spotted[participant["key"]] = options = self.engine.options(state, participant["participant"], {})
            self.sightings.saw(participant["key"], whereabouts(options))
        return spotted

    def _checked_random(self, state: dict, participant: dict, options: list[dict], answers: dict) -> dict:
        return self._checked(state, participant, random_answer(options, dict(participant.get("default") or {}),
                                                               self.picker), answers)

    def _checked(self, state: dict, participant: dict, answer: dict | None, answers: dict) -> dict:
        """``answer`` once ``check-declaration`` takes it, refused paths back to their default (``REPAIRS`` tries)."""
        default = dict(participant.get("default") or {})
        for _ in range(REPAIRS):
            if answer is None or answer == default:
                break
            refused = self.engine.check(state, participant["participant"], answer, answers)
            if not refused:
                return answer
            answer = repaired(answer, default, refused)
        return default

    def _best(self, state: dict, participant: dict, options: list[dict], answers: dict, lookahead_seed: int) -> dict:
        default = dict(participant.get("default") or {})
        candidates = [default]
        seen = {_fingerprint(default)}
        for _ in range(self.candidates):
            candidate = self._checked_random(state, participant, options, answers)
            if _fingerprint(candidate) not in seen:
                seen.add(_fingerprint(candidate))
                candidates.append(candidate)
        if len(candidates) == 1:
            return default  # nothing else to weigh: no look-ahead to pay for
        scored = []
        for candidate in candidates:
            trial = {**answers, participant["key"]: candidate} if candidate else dict(answers)
            try:
                after = self.engine.resolve(state, self.engine.merge(state, trial), lookahead_seed)["state"]
            except InvalidInput:
                continue  # a look-ahead the engine refuses scores nothing; the round itself will tell
            scored.append((standing(after, participant["side"]), candidate))
        if not scored:
            return default
        top = max(score for score, _ in scored)
        best = [candidate for score, candidate in scored if score == top]
        if default in best:
            return default
        return best[self.picker.index(len(best))] if len(best) > 1 else best[0]


def _fingerprint(answer: dict[str, Any]) -> str:
    return json.dumps(answer, sort_keys=True, default=str)
