"""Printing: PDFs (score sheets, seating, standings, brackets, duplicate sheets) and CSV exports."""
