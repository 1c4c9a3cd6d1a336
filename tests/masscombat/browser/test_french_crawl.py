"""Every page of the five demo battles, read in French on a phone, holds no English and no bare id.

Issue #17: a French reader never meets English or the engines' internal ids.  One daphne
server with the demo data; the GM, Aline and Bastien each in a browser of their own (fr-FR,
390x844 phone).  Two rounds of each demo battle are played (the players send their forms,
the GM resolves, with the default orders where a form is refused); then each user reads
every room, every htmx part of it (status, declare and each participant's form, reports,
map), the replay, and the battle's watch page as a spectator reads it; the GM ends every
battle, everyone reads the aftermath, the GM confirms it, and everyone reads the closed rooms,
the replays, and the campaign, member, invitation, roster, army, hero and map pages the campaign
pages link to.

What is read: the body's visible text with every fold opened, the options of the lists,
the texts of the map's drawings, and the attributes people meet (title, aria-label,
placeholder, alt, the confirmation questions).  What is looked for is derived in
``french_crawl_lists``: English from the engines' and the project's catalogues, ids from
the demo battles' states and the forms' values; and values printed as the program holds them
({}, [], None).  All findings are reported at once, the battle pages' apart from the campaign
pages', and written to ``.screenshots/french-crawl-findings.txt``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.masscombat.battles.conftest import DEMO_BATTLES, PHONE, SCREENSHOTS, leave_the_room
from tests.masscombat.browser import french_crawl_lists as lists

# Issue #17's acceptance crawl, part of the browser pass.
pytestmark = pytest.mark.browser
expect.set_options(timeout=20_000)

USERS = ("demo-gm", "demo-player1", "demo-player2")
# A choice per ruleset that makes the round say more than the default orders do (French labels).
CHOICES = {"seventh_sea": "Charge", "synapse": "Attaquer", "jdrwiki": "Assaut combiné"}
# Pages of a campaign the crawl follows from its links; never one that changes something on GET
# (none does) nor a download.
FOLLOWED = re.compile(r"^/campaigns/\d+/(?:$|members/$|invitation/$|edit/$|rosters/$|maps/$|maps/\d+/$"
                      r"|(?:armies|heroes)/\d+/(?:edit/)?$)")

READ = """() => {
  document.querySelectorAll('details:not([hx-get])').forEach(d => { d.open = true; });
  // Skipped: what is marked as another language (the language switch's buttons speak their own; a JSON
  // example the GM types is code, lang="zxx").
  const french = el => (el.closest('[lang]')?.lang || 'fr').startsWith('fr');
  let body = document.body.innerText;
  for (const el of document.body.querySelectorAll('[lang]:not([lang^="fr"])'))
    if (el.innerText) body = body.replace(el.innerText, ' ');
  const texts = [document.title, body];
  for (const el of [...document.querySelectorAll('[title], [aria-label], [placeholder], [alt], [data-confirm]')]
                   .filter(french))
    for (const name of ['title', 'aria-label', 'placeholder', 'alt', 'data-confirm'])
      if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
  for (const el of document.querySelectorAll('option, svg text, svg title')) texts.push(el.textContent);
  const values = [...document.querySelectorAll('input[type=radio], input[type=checkbox], option')]
    .map(el => el.value);
  return {texts, values};
}"""
URL = re.compile(r"https?://\S+|/[\w/.-]*\?\S*")
# An engine value printed as the program holds it ({}, [], {'a': 1}, None, True): no reader's word.
RAW = re.compile(r"\{\}|\[\]|[{\[]['\"]|(?<![\w-])(?:None|True|False)(?![\w-])")


class Crawl:
    """What the users read, and what in it is English or an id."""

    def __init__(self):
        self.english = lists.english_list()
        self.english_pattern = self.english.pattern()
        self.read: dict[tuple[str, str], list[str]] = {}
        self.values: set[str] = set()

    def visit(self, page, user: str, url: str, phase: str) -> None:
        for _attempt in range(3):  # a 503 while SQLite is busy with another write: read it again
            if page.goto(url).status != 503:
                break
            page.wait_for_timeout(1000)
        page.wait_for_load_state("networkidle")
        self.take(page, user, phase)

    def take(self, page, user: str, phase: str) -> None:
        found = page.evaluate(READ)
        self.read[(f"{phase} {user}", urlsplit(page.url).path + (f"?{urlsplit(page.url).query}"
                                                                  if urlsplit(page.url).query else ""))] = found["texts"]
        self.values |= {value for value in found["values"] if lists.SNAKE.fullmatch(value)}

    def findings(self, ids: set[str]) -> dict[str, list[str]]:
        """What was found, by where: ``battle`` (rooms, their parts, replays) and ``campaign`` (the
        campaign, roster, army, hero and map pages), each text with up to three of its places."""
        id_pattern = lists.id_pattern(ids | self.values)
        found: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        for (who, url), texts in self.read.items():
            area = "campaign" if url.startswith("/campaigns/") else "battle"
            for text in texts:
                for line in (text or "").splitlines():
                    line = URL.sub(" ", line)
                    place = f"{who} {url}: {line.strip()[:160]}"
                    for match in self.english_pattern.finditer(line):
                        found[(area, match.group(0).lower(), self.english.source(match.group(0)))].add(place)
                    for match in id_pattern.finditer(line):
                        found[(area, match.group(0), "id")].add(place)
                    for match in lists.SNAKE.finditer(line):
                        found[(area, match.group(0), "snake_case")].add(place)
                    for match in RAW.finditer(line):
                        found[(area, match.group(0), "raw value")].add(place)
        out: dict[str, list[str]] = {"battle": [], "campaign": []}
        for (area, text, source), where in sorted(found.items()):
            out[area].append(f"{text!r} ({source}), {len(where)} places, e.g.\n    " + "\n    ".join(sorted(where)[:3]))
        return out

def log_in(browser, base: str, username: str):
    page = browser.new_context(locale="fr-FR", **PHONE).new_page()
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "masscombat-demo")
    page.locator("main button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    return page


def battle_urls(page, base: str) -> dict[str, str]:
    """The room of each demo battle, found as a player finds it: campaign link, then battle link."""
    rooms = {}
    for ruleset, (campaign, battle) in DEMO_BATTLES.items():
        page.goto(base + "/")
        page.locator("a", has_text=campaign).first.click()
        page.locator("a", has_text=battle).click()
        expect(page.locator("#live-status.online")).to_be_visible()
        rooms[ruleset] = page.url
    return rooms


def declare_everything(page, ruleset: str) -> None:
    """The player sends each form of the room, with the ruleset's richer choice where the form has it and
    the first choice of any list the form asks for and left empty."""
    keys = page.locator("#battle-declare form[data-participant]").evaluate_all(
        "forms => forms.map(f => f.dataset.participant)")
    for key in keys:
        form = page.locator(f'#battle-declare form[data-participant="{key}"]')
        choice = form.locator("label.choice", has_text=CHOICES.get(ruleset, "\x00"))
        if choice.count():
            choice.first.click()
        form.locator("fieldset.choices").evaluate_all("""sets => sets.forEach(set => {
            const radios = set.querySelectorAll('input[type=radio]');
            if (radios.length && ![...radios].some(r => r.checked)) radios[0].click();
        })""")
        form.locator("button[type=submit]").last.click()
        # Declared, or refused with its reason on the form: either way the GM's default orders cover it.
        expect(page.locator(f'#battle-declare form[data-participant="{key}"].declared, '
                            f'#battle-declare form[data-participant="{key}"] .message')).not_to_have_count(0)


def resolve(gm, room: str, number: int) -> None:
    """The GM resolves round ``number``, confirming the default orders of whoever did not declare (a battle
    the rules ended in round 1 has no round 2 to resolve).

    SQLite refuses a write while another holds the file (the "back in a moment" page): the GM tries
    again, as a person would; the round number in the form keeps a second try from resolving twice.
    """
    for _attempt in range(3):
        gm.goto(room)
        button = gm.locator(f'#battle-status form:has(input[name="round"][value="{number}"]) button[data-resolve]')
        if not button.count():
            break
        button.click()
        gm.wait_for_load_state()
        missing = gm.locator('form:has(input[name="confirm_missing"]) button[type=submit]')
        if missing.count():
            missing.click()
            gm.wait_for_load_state()
    gm.goto(room)  # the next round, or the aftermath where the rules ended the battle
    expect(gm.locator(f'#battle-status input[name="round"][value="{number + 1}"], .aftermath').first).to_be_attached()


def submit(gm, room: str, form: str) -> None:
    """The GM sends a form of the room as it stands, through the browser's own session (a click could
    land while the status part reloads), again while SQLite is busy (see :func:`resolve`)."""
    gm.goto(room)
    if not gm.locator(form).count():
        return  # the rules ended the battle already
    action, fields = gm.locator(form).evaluate("form => [form.action, Object.fromEntries(new FormData(form))]")
    for _attempt in range(3):
        if gm.request.post(action, form=fields, headers={"Referer": room}, timeout=120_000).status != 503:
            return


def crawl_room(crawl: Crawl, page, user: str, room: str, phase: str, *, parts: bool) -> None:
    """The room, then each part alone as htmx loads it, and each participant's form of the GM's folds."""
    crawl.visit(page, user, room, phase)
    keys = page.locator("details.gm-declare[data-participant]").evaluate_all(
        "folds => folds.map(f => f.dataset.participant)")
    if not parts:
        return
    for name in ("status", "declare", "reports", "map"):
        if name != "map" or page.locator("#battle-map").count():
            crawl.visit(page, user, f"{room}part/{name}/", phase)
    for key in keys:
        crawl.visit(page, user, f"{room}part/declare/?participant={key}", phase)


def watch_page(crawl: Crawl, browser, gm, base: str, room: str) -> None:
    """The GM makes the battle's watch link; someone without an account opens it on a French phone,
    and reads the page and each of its parts."""
    submit(gm, room, "form[action$='/watch-link/']")
    gm.goto(room)
    watch = base + urlsplit(gm.locator("[data-watch-url]").input_value()).path  # the link may name the LAN address
    spectator = browser.new_context(locale="fr-FR", **PHONE).new_page()
    crawl.visit(spectator, "spectator", watch, "2 rounds")
    for name in ("status", "reports", "map"):
        if name != "map" or spectator.locator("#battle-map").count():
            crawl.visit(spectator, "spectator", f"{watch}part/{name}/", "2 rounds")
    spectator.context.close()


def campaign_pages(crawl: Crawl, page, user: str, base: str, phase: str) -> None:
    """Every campaign page the demo campaigns link to, as far as ``FOLLOWED`` lets the crawl go."""
    page.goto(base + "/")
    todo = sorted({urlsplit(href).path for href in page.locator("main a[href]").evaluate_all(
        "links => links.map(a => a.href)") if re.fullmatch(r"/campaigns/\d+/", urlsplit(href).path)})
    seen = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        crawl.visit(page, user, base + path, phase)
        links = page.locator("main a[href]").evaluate_all("links => links.map(a => a.href)")
        todo += [urlsplit(href).path for href in links
                 if urlsplit(href).netloc == urlsplit(base).netloc and FOLLOWED.match(urlsplit(href).path)]


def test_the_five_demo_battles_read_in_french_on_a_phone(browser, daphne_server, tmp_path):
    base = daphne_server(demo=True)
    crawl = Crawl()
    pages = {user: log_in(browser, base, user) for user in USERS}
    gm = pages["demo-gm"]
    rooms = battle_urls(gm, base)

    # Two rounds of each battle: the players declare from their rooms, the GM resolves.
    for ruleset, room in rooms.items():
        for number in (1, 2):
            for user in USERS[1:]:
                page = pages[user]
                page.goto(room)
                expect(page.locator("#live-status.online")).to_be_visible()
                declare_everything(page, ruleset)
            resolve(gm, room, number)
    SCREENSHOTS.mkdir(exist_ok=True)
    for ruleset, room in rooms.items():
        for user, page in pages.items():
            crawl_room(crawl, page, user, room, "2 rounds", parts=True)
            page.goto(room)
            expect(page.locator("#live-status.online")).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / f"french-crawl-{ruleset}-{user}-phone.png"), full_page=True)
        crawl.visit(gm, "demo-gm", f"{room}replay/", "2 rounds")
        watch_page(crawl, browser, gm, base, room)

    # The GM ends every battle: the aftermath to check, then written to the rosters.
    for ruleset, room in rooms.items():
        submit(gm, room, "details.end-battle form")
        gm.goto(room)
        expect(gm.locator(".aftermath")).to_be_visible()
        for user, page in pages.items():
            crawl_room(crawl, page, user, room, "aftermath", parts=False)
            crawl.visit(page, user, f"{room}part/status/", "aftermath")
        submit(gm, room, ".aftermath form[action$='/confirm/']")
        gm.goto(room)
        expect(gm.locator(".aftermath .notice")).to_be_visible()
        for user, page in pages.items():
            crawl_room(crawl, page, user, room, "closed", parts=False)
            page.screenshot(path=str(SCREENSHOTS / f"french-crawl-{ruleset}-{user}-phone-closed.png"),
                            full_page=True)
            crawl.visit(page, user, f"{room}replay/", "closed")
    for user, page in pages.items():
        campaign_pages(crawl, page, user, base, "campaign")

    states, names = lists.demo_states(tmp_path / "db.sqlite3")
    ids = lists.state_ids(states, names, crawl.english.french_words)
    assert len(crawl.read) > 100 and len(ids) > 30  # the crawl saw the battles, the states gave ids
    findings = crawl.findings(ids)
    leave_the_room(*pages.values())
    report = "".join(f"\n{len(found)} English texts or ids on French {area} pages:\n" + "\n".join(found)
                     for area, found in findings.items() if found)
    (SCREENSHOTS / "french-crawl-findings.txt").write_text(report or "nothing found\n", encoding="utf-8")
    assert not report, report
