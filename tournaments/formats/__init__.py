"""Formats: what differs between rounds, knockout and duplicate tournaments."""
