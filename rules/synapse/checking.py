"""``check-declaration``: would ``resolve-round`` accept this participant's part?

It runs the very checks of ``resolve-round`` (:func:`declaration_problems`)
on the declarations as the viewer knows them: the other declarations it may
know (a side: its own side's only), this participant's part replaced by the
declaration checked, on the state its ``visible-state`` shows.  Only the
refusals that concern this participant's part are kept.  A charge screened by
a reserve the viewer cannot see passes here and stops at the screen during
the round (S7.4), so what this accepts never makes ``resolve-round`` fail.
"""

from __future__ import annotations

from rules.contract import GM, Viewer, check_result
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.answers import Declared, known, part_of, scoped
from rules.synapse.declarations import Declarations, declaration_problems
from rules.synapse.options import Participant, participant_side
from rules.synapse.state import StateIn, load_state, parse_at
from rules.synapse.visibility import check_viewer, seen_by


class CheckInput(Input):
    state: StateIn
    viewer: Viewer
    participant: Participant
    declaration: Declared
    declarations: Declared | None = None


def known_to(declarations: dict, viewer: str) -> dict:
    """The part of the others' declarations a viewer may know: all for the GM, its own side's for a side."""
    if viewer == GM:
        return declarations
    own = (declarations.get("sides") or {}).get(viewer) if isinstance(declarations.get("sides"), dict) else None
    return {"sides": {viewer: own}} if isinstance(own, dict) else {}


def replace_part(declarations: dict, prefix: list[str], part: dict) -> dict:
    """``declarations`` with the subtree at ``prefix`` replaced by that of ``part``."""
    node = declarations
    for name in prefix[:-1]:
        child = node.get(name)
        if not isinstance(child, dict):
            child = node[name] = {}
        node = child
    source = part
    for name in prefix:
        source = source.get(name, {}) if isinstance(source, dict) else {}
    node[prefix[-1]] = source
    if source == {} and len(prefix) > 2:
        del node[prefix[-1]]  # a formation that declares nothing holds: no order at all
    return declarations


@ruleset.operation("check-declaration", CheckInput, summary="Whether resolve-round would accept one participant's declaration (S5.3, S9.13).")
def check_declaration(data: CheckInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer)
    full = load_state(data.state)
    p = data.participant
    if p.kind == "character":
        raise InvalidInput.field("participant.kind", "a character declares nothing in mass combat (S1.3)")
    side = participant_side(full, p)
    state = seen_by(full, viewer, side, p.kind == "gm")
    key = "gm" if p.kind == "gm" else f"{p.kind}:{p.id}"
    prefix = part_of(key)
    part = scoped(key, data.declaration, "declaration")
    merged = replace_part(known_to(known(data.declarations), viewer), prefix, part)
    if state["status"] != "ongoing":
        raise InvalidInput.field("state.status", "the battle is over")
    try:
        decl = parse_at(Declarations, merged, "declarations")
    except InvalidInput:
        decl = None  # the others' parts may be what is malformed: this part alone, then
    try:
        if decl is None:
            decl = parse_at(Declarations, replace_part({}, prefix, part), "declarations")
    except InvalidInput as exc:
        problems, texts = {path: None for path in exc.fields}, exc.fields
        said = exc.messages
    else:
        problems = declaration_problems(state, decl)
        texts, said = {path: found.text for path, found in problems.items()}, {}
    mine = "declarations." + ".".join(prefix)
    fields, messages = {}, {}
    for path, found in problems.items():
        if path != mine and not path.startswith((mine + ".", mine + "[")):
            continue
        where = path.removeprefix("declarations.")
        fields[where] = texts[path]
        if found is not None:
            messages[where] = {"rule": found.rule, "key": found.key, "params": found.params, "text": found.text}
        elif path in said:  # a malformed value, said by key (rules.validate)
            messages[where] = {"rule": "S5.3", **said[path], "text": texts[path]}
    ctx.log.add("S5.3", "declaration.checked", "Declaration of {participant}: {count} problem(s).",
                participant=key, count=len(fields))
    return check_result(InvalidInput("refused", fields) if fields else None, messages)
