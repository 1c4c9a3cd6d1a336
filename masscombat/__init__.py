"""The masscombat web application: Django project and its apps (one per domain)."""
