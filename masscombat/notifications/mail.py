"""E-mail: the same message for a player with no device subscribed to push."""

from django.core.mail import send_mail

from masscombat.notifications.messages import Message, email_text


def send(user, message: Message) -> bool:
    """Mail ``message`` to the user's address; whether there was one to mail."""
    if not user.email:
        return False
    send_mail(message.title, email_text(message), None, [user.email])
    return True
