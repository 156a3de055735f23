"""WSGI entry point, served by gunicorn (`gunicorn tarot_scores.wsgi:application`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_scores.settings")

application = get_wsgi_application()
