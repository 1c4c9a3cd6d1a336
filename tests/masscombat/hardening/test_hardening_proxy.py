"""Issue #16, finding 5, reproduced as it was found: a real server started with ``BEHIND_TLS_PROXY=1``.

The review's server sat behind a TLS proxy, which appends the address it
received each request from to ``X-Forwarded-For``; the client writes what it
likes to the left of it.  The old server took the leftmost entry as the
client, so rotating it gave a fresh address each time: the log-in limit never
came, and 25 sign-ups went through against 20 an hour.  Here a server started
(as ``bin/run`` does) with only ``BEHIND_TLS_PROXY=1`` (so ``TRUSTED_PROXY_COUNT`` takes its default
from it) receives what that proxy would pass on: a rotated entry written by
the client, then the proxy's own view of the one address they all came from.
"""

import re
import time

import requests

PROXY_SAW = "203.0.113.7"  # the one machine sending everything, as the proxy saw it
SIGNUPS_PER_HOUR = 20


def through_the_proxy(index: int, base: str) -> dict:
    """The headers a TLS proxy passes on for a client that wrote ``X-Forwarded-For: 198.51.100.<index>``."""
    return {"X-Forwarded-For": f"198.51.100.{index % 250}, {PROXY_SAW}", "X-Forwarded-Proto": "https",
            "Origin": base.replace("http://", "https://")}


def an_hour_window_with_room() -> None:
    """The limits count in fixed windows: start with a minute and a half left in this hour's, at least."""
    left = 3600 - time.time() % 3600
    if left < 90:
        time.sleep(left + 1)


def test_rotating_forwarded_for_escapes_neither_the_login_nor_the_signup_limit(daphne_server):
    # The log-in rate counts per hour here (10, as the default per minute): the same number, in a window
    # the test cannot straddle.  One server for both: starting one costs a migration.
    base = daphne_server(BEHIND_TLS_PROXY="1", THROTTLE_LOGIN="10/hour")
    an_hour_window_with_room()
    logins_refused(base)
    signups_refused(base)


def logins_refused(base: str) -> None:
    """Password guesses, each from a rotated address: the eleventh is refused."""
    answers = []
    for index in range(12):  # a new user name each time: only the address can stop it
        answers.append(requests.post(f"{base}/api/token/", json={"username": f"guess{index}", "password": "x"},
                                     headers=through_the_proxy(index, base), timeout=30))
    assert [answer.status_code for answer in answers] == [400] * 10 + [429] * 2
    assert int(answers[-1].headers["Retry-After"]) > 0


def signups_refused(base: str) -> None:
    """25 sign-ups, each from a rotated address: 20 are made, as the hour's limit says."""
    created = refused = 0
    for index in range(25):
        session = requests.Session()  # a fresh browser each time, as a script would be
        headers = through_the_proxy(index, base)
        page = session.get(f"{base}/accounts/signup/", headers=headers, timeout=30)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        answer = session.post(f"{base}/accounts/signup/", allow_redirects=False, timeout=30, headers={
            **headers, "Referer": f"{headers['Origin']}/accounts/signup/"}, data={
            "csrfmiddlewaretoken": token, "username": f"bulk{index}", "display_name": "", "password1":
            "Tabletop-battle-42", "password2": "Tabletop-battle-42", "email": f"bulk{index}@example.org"})
        assert answer.status_code in (302, 429), (index, answer.status_code, answer.text[:500])
        created += answer.status_code == 302
        refused += answer.status_code == 429
    assert (created, refused) == (SIGNUPS_PER_HOUR, 5)
