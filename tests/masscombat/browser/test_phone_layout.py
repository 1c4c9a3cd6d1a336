"""Every page of accounts and campaigns at 360 px: no horizontal scroll, touch targets large enough."""

import pytest
from django.urls import reverse

from masscombat.campaigns import selectors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
# Buttons and inputs in the page body; links inside running text are exempt, as in WCAG 2.5.8.
SMALL_TARGETS = """
() => [...document.querySelectorAll('main button, main .button, main input:not([type=hidden]), main select, header button, header a')]
  .filter(el => el.offsetParent !== null)
  .filter(el => el.getBoundingClientRect().height < 40)
  .map(el => el.outerHTML.slice(0, 80))
"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_pages_fit_a_small_phone(browser, live_server, client, campaign, gm, lang, screenshot):
    client.force_login(gm)
    cookie = client.cookies["sessionid"]
    context = browser.new_context(locale={"en": "en-GB", "fr": "fr-FR"}[lang], **NARROW)
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    code = selectors.active_invitation(campaign).code
    paths = [
        "/", reverse("campaigns:create"), reverse("campaigns:edit", args=[campaign.pk]),
        reverse("campaigns:invitation", args=[campaign.pk]), reverse("campaigns:delete", args=[campaign.pk]),
        reverse("campaigns:join-code", args=[code]), reverse("accounts:profile"), reverse("password_change"),
    ]
    for path in paths:
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
        assert page.evaluate(SMALL_TARGETS) == [], path
    # The campaign page also carries the other apps' sections: the width rule holds for all of it.
    page.goto(live_server.url + campaign.get_absolute_url())
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"{lang}-phone360-campaign")
    context.close()
