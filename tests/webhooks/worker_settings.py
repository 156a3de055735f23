"""The site's settings for the worker process a webhook test starts: the site's own, with the
test's receiver on 127.0.0.1 allowed (WEBHOOKS_TEST_HOSTS, which the site never reads from the
environment)."""

from tarot_scores.settings import *  # noqa: F403

WEBHOOKS_TEST_HOSTS = ["127.0.0.1"]
