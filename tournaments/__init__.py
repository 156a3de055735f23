"""Tournaments: formats, seating, rounds, tables, standings and knockout brackets."""
