"""Play at a tournament table: deal confirmations, penalties and who may act on a table."""
