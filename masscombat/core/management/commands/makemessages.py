"""Django's ``makemessages``, also reading ``engine_message(context, message)``.

The rules engines' sentences are marked that way in the generated
:mod:`masscombat.core.engine_catalogue` (Django has no context-keeping
``gettext_noop``); everything else is Django's command unchanged.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=engine_message:1c,2"]
