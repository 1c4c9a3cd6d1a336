"""Time the roster pages as the roster grows; prints figures, asserts nothing.

    .venv/bin/python benchmarks/roster_pages.py [--repeat 20]

For HÉROS armies of 10, 60 and 200 units (the army sheet takes any number) and
for the SYNAPSE army at the engine's 40-unit maximum, through Django's test
client as the GM: the army page (engine army sheet, order of battle, history),
the editor (the schema-built form of every unit), the htmx preview of an
edit, and the campaign page with 20 armies.  Also the engine derivation alone,
to tell the web layer's share from the rules'.  Query counts are printed too.

A throw-away SQLite file is used unless DATABASE_URL is set.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def heros_army(units: int) -> dict:
    return {
        "side_id": "blue",
        "corps": [{"id": "c1", "kind": "cinc", "general_id": "g1"}, {"id": "c2", "kind": "sub", "general_id": "g2"}],
        "units": [{"id": f"u{n}", "corps_id": f"c{1 + n % 2}", "troop_type": ("Sp", "Bw", "Kn", "Ax")[n % 4],
                   "factor_vs_foot": 4, "factor_vs_mounted": 4, "move": 3} for n in range(units)],
        "characters": [{"id": "g1", "corps_id": "c1", "role": "cinc"}, {"id": "g2", "corps_id": "c2", "role": "sub_general"}],
    }


def synapse_army(units: int) -> dict:
    kinds = ("human_infantry", "cavalry", "orc_warriors", "dwarf_warriors")
    return {
        "name": "Grande armée",
        "commander": {"name": "Hannibal", "mental_mod": 3, "presence_mod": 2, "combat": 5, "art_of_war": 5},
        "units": [{"id": f"u{n}", "unit_type": kinds[n % 4], "headcount": 100 + n, "weapon_damage": 4,
                   "combat_base": 3 + n % 5, "armour": n % 3} for n in range(units)],
    }


def timed(label: str, repeat: int, func) -> float:
    func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    median = statistics.median(times)
    print(f"{label:<58} median {median:7.1f} ms   p95 {times[max(0, int(len(times) * 0.95) - 1)]:7.1f} ms")
    return median


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="masscombat-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "masscombat.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from masscombat.campaigns import services as campaign_services
    from masscombat.rosters import adapters, services

    setup_test_environment()
    call_command("migrate", verbosity=0)
    gm = get_user_model().objects.create_user("bench_gm", password="x" * 12)
    client = Client()
    client.force_login(gm)

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        return len(captured)

    cases = [("heros", n, heros_army(n)) for n in (10, 60, 200)] + [("synapse", 40, synapse_army(40))]
    for slug, units, data in cases:
        campaign = campaign_services.create_campaign(gm, name=f"Bench {slug} {units}", ruleset=slug)
        army = services.create_army(campaign, name=f"{units} units", user=gm, data=data)
        for _ in range(10):  # some history to chart
            army = services.update_army(army, data, user=gm, expected_version=army.version)
        url = army.get_absolute_url()
        print(f"-- {slug}, {units} units: army page {queries(url)} queries, editor {queries(url + 'edit/')} queries")
        timed(f"{slug} {units} units: engine sheet alone", args.repeat, lambda: adapters.get(slug).army_sheet(data))
        timed(f"{slug} {units} units: GET army page", args.repeat, lambda: client.get(url))
        timed(f"{slug} {units} units: GET editor", args.repeat, lambda: client.get(url + "edit/"))
        form = client.get(url + "edit/").content.decode()
        post = _form_fields(form)
        timed(f"{slug} {units} units: POST preview (htmx)", args.repeat,
              lambda: client.post(url + "preview/", post, HTTP_HX_REQUEST="true"))

    campaign = campaign_services.create_campaign(gm, name="Bench campaign", ruleset="heros")
    for n in range(20):
        services.create_army(campaign, name=f"Army {n}", user=gm, data=heros_army(200))
        services.create_hero(campaign, name=f"Hero {n}", user=gm)
    url = campaign.get_absolute_url()
    print(f"-- campaign page, 20 armies of 200 units and 20 heroes: {queries(url)} queries")
    timed("GET campaign page", args.repeat, lambda: client.get(url))


def _form_fields(html: str) -> dict:
    """The editor's fields as a browser would post them (the test suite's reader, simplified)."""
    from html.parser import HTMLParser
    import html as html_module

    fields: dict[str, list[str]] = {}

    class Reader(HTMLParser):
        select = None

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            name = attrs.get("name")
            if tag == "input" and name and attrs.get("type") not in ("submit", "checkbox") or (
                    tag == "input" and attrs.get("type") == "checkbox" and "checked" in attrs and name):
                fields.setdefault(name, []).append(html_module.unescape(attrs.get("value", "on")))
            elif tag == "select" and name:
                Reader.select = name
            elif tag == "option" and Reader.select and "selected" in attrs:
                fields.setdefault(Reader.select, []).append(attrs.get("value", ""))

    Reader().feed(html)
    return fields


if __name__ == "__main__":
    main()
