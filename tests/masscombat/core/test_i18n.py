"""French and English: complete catalogue, chosen by the browser, switched and remembered."""

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def test_french_catalogue_is_complete():
    po = polib.pofile(str(CATALOGUE))
    assert po.untranslated_entries() == []
    assert po.fuzzy_entries() == []
    assert len(po.translated_entries()) > 100


def test_french_catalogue_is_compiled():
    """bin/setup compiles it; a stale .mo would show old strings."""
    assert CATALOGUE.with_suffix(".mo").exists()
    with translation.override("fr"):
        assert translation.gettext("Your campaigns") == "Vos campagnes"


def test_a_french_browser_gets_french(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5").content.decode()
    assert '<html lang="fr">' in page and "Créer un compte" in page


def test_other_browsers_get_english(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE").content.decode()
    assert '<html lang="en">' in page and "Create an account" in page


def test_the_switch_is_remembered(client):
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/accounts/login/"})
    assert response["Location"] == "/accounts/login/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mot de passe oublié ?" in page


def test_dates_are_localised(client_for, gm, campaign):
    client = client_for(gm)
    french = client.get(campaign.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    english = client.get(campaign.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    month_fr = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
                "septembre", "octobre", "novembre", "décembre"][campaign.created_at.month - 1]
    assert f"Créée le" in french and month_fr in french
    assert "Created on" in english


def test_ruleset_names_in_both_languages():
    from masscombat.campaigns.rulesets import Ruleset

    with translation.override("fr"):
        assert str(Ruleset.JDRWIKI.label) == "JdRWiki — armée méta-personnage"
        assert str(Ruleset.SEVENTH_SEA.label) == "7th Sea — combat de masse"
        assert str(Ruleset.HEROS.label) == "HÉROS (Champs de Bataille / DBM)"
        assert str(Ruleset.SYNAPSE.label) == "SYNAPSE — Le combat de masse"
        assert str(Ruleset.DND5E.label) == "D&D 5e — combat de masse"
    assert [r.value for r in Ruleset] == ["jdrwiki", "seventh_sea", "heros", "synapse", "dnd5e"]


def test_api_errors_follow_the_language(client_for, outsider):
    response = client_for(outsider).post(
        "/api/campaigns/", {}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.json()["name"] == ["Ce champ est obligatoire."]


def test_server_error_page_renders_without_context(rf):
    """The 500 page is rendered with no request context: it must stand alone."""
    from django.views.defaults import server_error

    with translation.override("fr"):
        response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert '<html lang="fr">' in response.content.decode()
    assert "Une erreur est survenue" in response.content.decode()
