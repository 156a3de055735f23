"""Tournament models (formats, rounds, tables, seats): none yet."""
