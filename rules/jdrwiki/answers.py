"""Answers (``{option path: value}``, as the room's forms collect them) into the engine's declarations.

The option paths are those of ``declaration-options``: ``corps.<id>.<field>``,
``armies.<id>.<field>``, ``gm.<field>``, a corps' re-roll box
``rerolls[].<corps>`` (S5.4.1) and a hero player's own choices
``corps.<corps>.heroes[].<hero>.<field>`` (S5.1: heroism and the sacrifice are
the hero's player's to decide, inside the corps' list of interventions).  Ids
may hold dots (S3: an id is any string without ``/``), so a path is cut with
the ids the state knows, longest first.
"""

from __future__ import annotations

import copy
import re

from rules.contract import ANSWER, ANSWERS, declarations_shape, expand, is_flat, merge_into

REROLL = "rerolls[]."
HERO_ITEM = ".heroes[]."
HERO_FIELDS = ("heroism", "sacrifice", "moderation", "dropped_bonuses", "support")


def _head(rest: str, ids) -> tuple[str, str]:
    """``rest`` = ``<id>.<tail>`` with a known id (longest first), else cut at the first dot."""
    for ident in sorted(ids, key=len, reverse=True):
        if rest.startswith(ident + "."):
            return ident, rest[len(ident) + 1:]
    ident, _, tail = rest.partition(".")
    return ident, tail


def splitter(state: dict):
    """A path cutter for :func:`rules.contract.expand` that knows the state's ids."""
    known = {"corps": list(state.get("corps", {})), "armies": list(state.get("armies", {}))}

    def split(path: str) -> list[str]:
        section, _, rest = path.partition(".")
        if section in known and rest:
            ident, tail = _head(rest, known[section])
            return [section, ident, *tail.split(".")] if tail else [section, ident]
        if section == "gm" and rest:
            field, _, zone = rest.partition(".")
            return ["gm", field, zone] if zone else ["gm", field]
        return path.split(".")

    return split


def hero_choice(path: str) -> tuple[str, str, str] | None:
    """``(corps, hero, field)`` of a hero player's path, else None."""
    if not path.startswith("corps.") or HERO_ITEM not in path:
        return None
    head, tail = path.split(HERO_ITEM, 1)
    hero, _, field = tail.rpartition(".")  # a field name holds no dot; a hero id may
    return head.removeprefix("corps."), hero, field


def merge(state: dict, answers: list[dict]) -> dict:
    """One declarations object from several answers (each flat or already nested).

    Plain paths first, then the re-roll boxes, then each hero's own choices
    into his entry of the corps' interventions: a hero his commander does not
    send in has nothing to choose, and his choices are left out (S5.1).
    """
    merged: dict = {}
    rerolls: list[str] = []
    heroes: list[tuple[str, str, str, object]] = []
    split = splitter(state)
    for answer in answers:
        plain = {}
        for path, value in answer.items():
            if path.startswith(REROLL):
                if value is True:
                    rerolls.append(path.removeprefix(REROLL))
            elif (choice := hero_choice(path)) is not None:
                heroes.append((*choice, value))
            else:
                plain[path] = value
        merge_into(merged, expand(plain, split) if is_flat(plain) else copy.deepcopy(plain))
    if rerolls:
        merged["rerolls"] = sorted(set(merged.get("rerolls", [])) | set(rerolls))
    for corps_id, hero_id, field, value in sorted(heroes, key=lambda h: h[:3]):
        entries = section(section(section(merged, "corps"), corps_id), "heroes", list)
        for entry in entries:
            if isinstance(entry, dict) and entry.get("hero_id") == hero_id:
                entry[field] = value
    return merged


def section(decl, name: str, kind: type = dict):
    """``decl[name]`` when ``decl`` is an object and that entry has the expected type, else an empty one
    (a malformed part is refused later, by the declarations' own model)."""
    value = decl.get(name) if isinstance(decl, dict) else None
    return value if isinstance(value, kind) else kind()


def heroes_last(key: str) -> tuple[bool, str]:
    """The order answers by key are merged in: a hero's choices land in the entry his commander wrote."""
    return key.startswith("hero:"), key


def merge_by_key(state: dict, answers: dict[str, dict]) -> dict:
    """``{participant key: answer}`` merged: the sides' and the GM's paths first, then each hero's (S5.1)."""
    return merge(state, [answers[key] for key in sorted(answers, key=heroes_last)])


def known_answer(value: dict | None, without: str) -> dict:
    """The other declarations known so far as ``check-declaration`` reads them (one answer, or the object):
    answers by participant key are put together as one answer, leaving out ``without``'s own (the
    declaration checked replaces it)."""
    if declarations_shape(value) != ANSWERS:
        return value or {}
    together: dict = {}
    for key in sorted(value, key=heroes_last):
        if key != without:
            merge_into(together, copy.deepcopy(value[key]))
    return together


def declarations(state: dict, value: dict | None) -> dict:
    """The engine's declarations from any shape of the contract (:func:`rules.contract.declarations_shape`):
    answers by participant key, one answer (or a merge of answers), or the object itself."""
    shape = declarations_shape(value)
    if shape == ANSWERS:
        return merge_by_key(state, value)
    return merge(state, [value]) if shape == ANSWER else copy.deepcopy(value or {})


INDEX = re.compile(r"\[(\d+)\]")


def answer_path(engine_path: str, decl: dict, offered: list[str]) -> str:
    """The answer path (an offered option path where one fits, the first in ``offered`` order) of an
    engine error path.

    ``declarations.corps.n1.heroes[0].moderation`` becomes
    ``corps.n1.heroes[].ildar.moderation`` for the hero's player, and
    ``declarations.corps.n1.actions[1].target`` becomes ``corps.n1.actions``.
    """
    path = engine_path.removeprefix("declarations.")
    rerolled = re.fullmatch(r"rerolls\[(\d+)\]", path)
    if rerolled:
        listed = decl.get("rerolls", [])
        index = int(rerolled.group(1))
        if index < len(listed):
            path = REROLL + str(listed[index])
    hero = re.match(r"corps\.(.+)\.heroes\[(\d+)\]\.([a-z_]+)", path)
    if hero:
        corps_id, index, field = hero.group(1), int(hero.group(2)), hero.group(3)
        entries = decl.get("corps", {}).get(corps_id, {}).get("heroes", [])
        if field in HERO_FIELDS and index < len(entries):
            candidate = f"corps.{corps_id}{HERO_ITEM}{entries[index]['hero_id']}.{field}"
            if candidate in offered:
                return candidate
    for option in sorted(offered, key=len, reverse=True):
        if path == option or path.startswith((option + ".", option + "[")):
            return option
    for option in offered:
        if option.startswith(path + "."):
            return option
    return path
