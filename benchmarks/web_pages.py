"""Time the hot pages and API endpoints of the web app; prints figures, asserts nothing.

    .venv/bin/python benchmarks/web_pages.py [--campaigns 50] [--members 30] [--repeat 200]

Runs against a throw-away SQLite file (or DATABASE_URL if set) with one GM in
many campaigns, each with many players: the home page, a campaign page, its
members fragment, and the campaigns API list.  Reports the median and 95th
percentile per request and the number of queries each makes.
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--campaigns", type=int, default=50)
    parser.add_argument("--members", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="masscombat-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "masscombat.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    # As Django's test runner does: keep one connection, so its query log covers whole requests.
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"
    call_command("migrate", verbosity=0)

    from masscombat.accounts.models import User
    from masscombat.campaigns import services
    from masscombat.campaigns.models import Membership

    gm = User.objects.create_user("bench-gm", password="x")
    players = User.objects.bulk_create(User(username=f"bench-p{i}", display_name=f"P{i}") for i in range(args.members))
    campaigns = [services.create_campaign(gm, name=f"Campaign {i:03}", ruleset="dnd5e") for i in range(args.campaigns)]
    Membership.objects.bulk_create(Membership(campaign=c, user=p, role="player") for c in campaigns for p in players)

    client = Client()
    client.force_login(gm)
    target = campaigns[0].pk
    print(f"{args.campaigns} campaigns x {args.members + 1} members, {args.repeat} requests each, {connection.vendor}")
    print(f"{'request':<36}{'median ms':>10}{'p95 ms':>10}{'queries':>9}")
    for label, path in [
        ("home page", "/"),
        ("campaign page", f"/campaigns/{target}/"),
        ("members fragment", f"/campaigns/{target}/members/"),
        ("GET /api/campaigns/", "/api/campaigns/"),
        ("GET /api/campaigns/<id>/members/", f"/api/campaigns/{target}/members/"),
    ]:
        connection.queries_log.clear()  # a full log (it is bounded) would count nothing
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        timings = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            client.get(path)
            timings.append((time.perf_counter() - start) * 1000)
        p95 = statistics.quantiles(timings, n=20)[-1]
        print(f"{label:<36}{statistics.median(timings):>10.2f}{p95:>10.2f}{len(queries):>9}")


if __name__ == "__main__":
    main()
