"""The JSON API, version 1: the public score calculator first; club endpoints join it here."""
