"""What the French crawl looks for, derived from the catalogues rather than typed by hand.

English: every English text a French reader could meet by mistake, taken from where the
texts live: the engines' sentence tables (``rules/<slug>/messages.py``, English next to
French; their value labels ``value.<word>`` among them) and the project's own msgids
(``locale/fr/LC_MESSAGES/django.po``).  A text counts only where its French
differs from it (the English shows when the translation is missing or was left English).
Templates are cut at their placeholders; what remains is kept when it is a phrase of at
least two words, or one word of four letters or more that French does not use too (the
French vocabulary is every word of every French text of those same catalogues).

Bare ids: the engines' own names for things (unit, stand, hero, corps, side ids, value keys),
collected from the demo battles' states and from the values of the forms the pages show.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ENGINES = ("dnd5e", "heros", "jdrwiki", "seventh_sea", "synapse")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# {name}, {name:+d}, %(name)s, %s, %d: the holes of a template.
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sdfr]|%[sdfr]")
# A fragment's letters and inner spaces, without the punctuation around it.
EDGES = re.compile(r"^[\W\d_]+|[\W\d_]+$")
# Words French shares with English or uses as is (names of things, game terms), and the
# proper nouns of the demo and the rulesets, which no catalogue lists as French.
SHARED = {"ok", "email", "e-mail", "web", "push", "discord", "webhook", "json", "api", "sea", "synapse",
          "heros", "héros", "jdrwiki", "wiki", "d&d", "dnd", "qr", "url", "id", "vp", "pv", "ep", "pa"}
# English words that only ever make a sentence: one of them in a French text is English.
FUNCTION_WORDS = ("the", "and", "with", "of", "is", "are", "has", "have", "cannot", "this", "that",
                  "from", "will", "would", "your", "their", "its", "which", "there", "been", "into")


@dataclass
class EnglishList:
    phrases: dict[str, str] = field(default_factory=dict)  # lower-case fragment -> where it comes from
    words: dict[str, str] = field(default_factory=dict)
    french_words: set[str] = field(default_factory=set)

    def pattern(self) -> re.Pattern:
        """One expression for every phrase, word and function word, whole words only."""
        alternatives = sorted({*self.phrases, *self.words, *FUNCTION_WORDS}, key=len, reverse=True)
        # A function word as a sentence writes it ("the", "The"), not inside an abbreviation (SYNAPSE's "ArE").
        body = "|".join(f"(?-i:{re.escape(text)}|{re.escape(text.capitalize())})" if text in FUNCTION_WORDS
                        else re.escape(text).replace(r"\ ", r"\s+") for text in alternatives)
        return re.compile(rf"(?<![\w’'-])(?:{body})(?![\w’'-])", re.IGNORECASE)

    def source(self, found: str) -> str:
        key = " ".join(found.lower().split())
        return self.phrases.get(key) or self.words.get(key) or "English function word"


def _fragments(template: str) -> list[str]:
    pieces = []
    for piece in PLACEHOLDER.split(template):
        for part in re.split(r"[:;.!?()\[\]→—=/,]|\s-\s|->", piece):
            text = " ".join(EDGES.sub("", part).split())
            if text:
                pieces.append(text)
    return pieces


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(PLACEHOLDER.sub(" ", text))}


def _pairs():
    """(where, English, French) of every text whose French differs: engines and catalogue."""
    import polib

    po = polib.pofile(str(ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    for entry in po:
        if entry.obsolete or not entry.msgid:
            continue
        where = f"django.po {entry.msgctxt + ':' if entry.msgctxt else ''}{entry.msgid[:40]!r}"
        if entry.msgid_plural:
            yield where, entry.msgid, entry.msgstr_plural.get(0, "")
            yield where, entry.msgid_plural, entry.msgstr_plural.get(1, "")
        else:
            yield where, entry.msgid, entry.msgstr
    for slug in ENGINES:
        for key, texts in importlib.import_module(f"rules.{slug}.messages").MESSAGES.items():
            if isinstance(texts, dict) and "en" in texts:
                yield f"rules/{slug}/messages.py {key}", texts["en"], texts.get("fr", "")


def english_list() -> EnglishList:
    """The English fragments a French page must not hold (needs Django set up, for the catalogue)."""
    result = EnglishList()
    pairs = [(where, english, french) for where, english, french in _pairs()]
    for _where, english, french in pairs:
        same = french.strip().lower() == english.strip().lower()
        # A French text, or a single term French uses as is ("Absorption", "Incitation"): French vocabulary.
        if french and (not same or len(_words(french)) == 1):
            result.french_words |= _words(french)
    for where, english, french in pairs:
        if french.strip().lower() == english.strip().lower():
            continue  # the same in both languages: a name, a symbol, an abbreviation
        french_fragments = {fragment.lower() for fragment in _fragments(french)}
        for fragment in _fragments(english):
            lowered = fragment.lower()
            words = WORD.findall(lowered)
            if lowered in french_fragments or any(word in SHARED for word in words):
                continue
            if len(words) >= 2 and not all(word in result.french_words for word in words):
                result.phrases.setdefault(lowered, where)
            elif len(words) == 1 and len(lowered) >= 4 and lowered == words[0] and lowered not in result.french_words:
                result.words.setdefault(lowered, where)
    return result


SNAKE = re.compile(r"(?<![\w./:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-])")
ID_KEYS = re.compile(r"(^|_)ids?$")


def state_ids(states: list[dict], display_names: set[str], french_words: set[str]) -> set[str]:
    """The ids of the demo battles' states: values of every ``id`` / ``*_id`` / ``*_ids`` key, the keys
    of the ``units``/``corps``/``heroes``... maps, and every snake_case word they hold.

    An id made of one plain word that French uses, or that a display name holds in lower case
    ("loups" of "Chevaucheurs de loups"), says nothing when found, and single letters (side
    ids "a", "B") neither: those are left out.
    """
    found: set[str] = set()

    def walk(node, key=""):
        if isinstance(node, dict):
            for name, value in node.items():
                if isinstance(value, (dict, list)) and key in {"units", "corps", "heroes", "sides", "stands", "solos",
                                                               "characters", "armies", "profiles"}:
                    found.add(name)
                if SNAKE.fullmatch(name or ""):
                    found.add(name)
                walk(value, name)
        elif isinstance(node, list):
            for value in node:
                walk(value, key)
        elif isinstance(node, str):
            if ID_KEYS.search(key) or SNAKE.fullmatch(node):
                found.add(node)

    for state in states:
        walk(state)
    name_words = {word for name in display_names for word in WORD.findall(name)}
    return {ident for ident in found if _telling(ident, name_words | french_words)}


def _telling(ident: str, plain_words: set[str]) -> bool:
    if len(ident) < 2 or not re.fullmatch(r"[A-Za-z0-9][\w-]*", ident) or ident.isdigit():
        return False
    if re.fullmatch(r"[A-Za-z]\d{1,2}", ident):  # "a1" as an id; "A1" is also a square of the map
        return ident.islower()
    return bool(re.search(r"[_\-\d]", ident)) or (ident.islower() and ident not in plain_words)


def id_pattern(ids: set[str]) -> re.Pattern:
    """Whole ids only, case kept: "lucie" is Lucie's id, "Lucie" her name."""
    body = "|".join(re.escape(ident) for ident in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{body})(?![\w-])")


def demo_states(database: Path) -> tuple[list[dict], set[str]]:
    """The demo battles' states and every name the demo gave (battles, armies, heroes, campaigns)."""
    import sqlite3

    with sqlite3.connect(database) as db:
        states = [json.loads(state) for (state,) in db.execute("SELECT state FROM battles_battle")]
        names = {name for table in ("battles_battle", "rosters_army", "rosters_hero", "campaigns_campaign")
                 for (name,) in db.execute(f"SELECT name FROM {table}")}  # noqa: S608 - fixed table names
    return states, names
