"""Webhooks: an organiser's HTTPS address told, signed, of what happens in the club or in one of
its tournaments (deals, rounds, standings), by the task queue (see docs/api.md, "Webhooks")."""
