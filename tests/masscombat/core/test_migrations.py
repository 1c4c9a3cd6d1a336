"""Every model change has its migration: a fresh database gets exactly what the code expects."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration(capsys):
    try:
        call_command("makemigrations", "--check", "--dry-run", verbosity=1)
    except SystemExit:
        pytest.fail("Models changed without a migration:\n" + capsys.readouterr().out)
