"""The suite's settings: the site's own, with debug asked for (static files served from their
folders without collectstatic, the development key). Subprocesses a test starts get only what
the test gives them (tests/processes.py: child_env)."""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from tarot_scores.settings import *  # noqa: E402, F403
