"""Tarot Scores: the Django project and the club domain (clubs, players, games, deals)."""
