"""What PostgreSQL's query planner knows of a table: its statistics (how many rows, how their
values spread), which ``ANALYZE`` gathers. A service that writes many rows at once (a round
seated, a list of players registered, a cut) gathers them for what it wrote, as bulk loaders
do: autovacuum would only do it a minute or more later, and until then the planner takes the
new rows for a handful and may join them in a nested loop, row by row (at a festival's first
round: 1,000 x 1,000 rows, 0.1 s a read of the standings; docs/performance.md).

ANALYZE reads a sample of each table (30,000 rows at most by default), so its cost does not
grow with the table. A table another ANALYZE or a VACUUM holds at that moment is left out
(``SKIP_LOCKED``): the writer never waits on the database's own upkeep. Inside the writer's
transaction it counts that transaction's own new rows, and readers see the statistics with
the rows, at the commit. SQLite plans without them: nothing to do there.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Model

# Fewer rows than this written: left to autovacuum (its own threshold), a nested loop over so
# few rows costs nothing.
BULK_ROWS = 50


def statistics_refresh(*models: type[Model], rows: int) -> None:
    """``rows`` rows were just written to these models' tables (or the tables a read of them
    joins): gather the planner's statistics of the tables (PostgreSQL; a no-op on another
    database, or for fewer than ``BULK_ROWS`` rows)."""
    if connection.vendor != "postgresql" or not models or rows < BULK_ROWS:
        return
    tables = sorted({connection.ops.quote_name(m._meta.db_table) for m in models})
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE (SKIP_LOCKED) {', '.join(tables)}")
