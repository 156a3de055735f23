"""CSV building blocks: one base export with a ``write_rows(writer)`` hook.

Every cell goes through ``spreadsheet_safe`` on its way out: a name typed as ``=HYPERLINK(...)``
is a formula that a spreadsheet program would run on opening the file. Such a cell is written
with a leading apostrophe (read as text); numbers, and text that is only a number such as a
score of -54, are written as they are.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

from django.http import HttpResponse
from django.utils.functional import Promise

# What a spreadsheet reads as the start of a formula (or of a cell it may turn into one).
FORMULA_STARTS = ("=", "+", "@", "\t", "\r")
NEGATIVE_NUMBER = re.compile(r"-\d+(?:[.,]\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """The cell as text a spreadsheet shows rather than runs."""
    if isinstance(value, Promise):
        value = str(value)
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(FORMULA_STARTS) or (
        value.startswith("-") and not NEGATIVE_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


class RowWriter(Protocol):
    def writerow(self, row: Iterable[Any], /) -> Any: ...


class SafeRowWriter:
    """A ``csv.writer`` whose every cell goes through ``spreadsheet_safe``."""

    def __init__(self, writer: RowWriter) -> None:
        self.writer = writer

    def writerow(self, row: Iterable[Any], /) -> Any:
        return self.writer.writerow([spreadsheet_safe(cell) for cell in row])


class CsvExport:
    """One CSV download: a header line, then whatever ``write_rows`` writes."""

    filename = "export.csv"

    def header(self) -> list[str]:
        return []

    def write_rows(self, writer: RowWriter) -> None:
        raise NotImplementedError

    def response(self) -> HttpResponse:
        response = HttpResponse(
            content_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{self.filename}"'},
        )
        # A byte order mark, so that spreadsheet programs read the accents as UTF-8.
        response.write("\ufeff")
        writer = SafeRowWriter(csv.writer(response))
        header = self.header()
        if header:
            writer.writerow(header)
        self.write_rows(writer)
        return response
