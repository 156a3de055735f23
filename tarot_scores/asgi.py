"""ASGI entry point, kept for live updates later; production serves WSGI through gunicorn."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_scores.settings")

application = get_asgi_application()
