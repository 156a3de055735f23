"""Rounds: seating the next round, its tables (club games), swaps, start and close."""
