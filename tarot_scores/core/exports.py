"""CSV building blocks: one base export with a ``write_rows(writer)`` hook.

A CSV opens in the reader's spreadsheet as it is, in the reader's language (``CsvDialect``):
in French, cells separated by semicolons and decimals written with a comma ("40,5"), which is
what a spreadsheet set to French expects (a comma there is the decimal mark, so a
comma-separated file opens in one column); in English, commas and decimal points. CSV rather
than XLSX: a plain file any program (and a script) reads, with no library of its own to keep.

Every cell goes through ``spreadsheet_safe`` on its way out: a name typed as ``=HYPERLINK(...)``
is a formula that a spreadsheet program would run on opening the file. Such a cell is written
with a leading apostrophe (read as text); numbers, and text that is only a number such as a
score of -54, are written as they are.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from django.http import HttpResponse
from django.utils.functional import Promise
from django.utils.translation import get_language

# What a spreadsheet reads as the start of a formula (or of a cell it may turn into one).
FORMULA_STARTS = ("=", "+", "@", "\t", "\r")
NEGATIVE_NUMBER = re.compile(r"-\d+(?:[.,]\d+)?")
DECIMAL_TEXT = re.compile(r"-?\d+\.\d+")


@dataclass(frozen=True)
class CsvDialect:
    """How cells are separated and decimals written for a reader's spreadsheet."""

    delimiter: str
    decimal_mark: str

    def cell(self, value: Any) -> Any:
        """A number with a fraction written with the reader's decimal mark (40.5 -> "40,5")."""
        if isinstance(value, bool) or self.decimal_mark == ".":
            return value
        if isinstance(value, float | Decimal):
            return str(value).replace(".", self.decimal_mark)
        if isinstance(value, str) and DECIMAL_TEXT.fullmatch(value):
            return value.replace(".", self.decimal_mark)
        return value


FRENCH = CsvDialect(delimiter=";", decimal_mark=",")
ENGLISH = CsvDialect(delimiter=",", decimal_mark=".")


def csv_dialect() -> CsvDialect:
    """The reader's: French unless the request asked for English."""
    return ENGLISH if (get_language() or "fr").startswith("en") else FRENCH


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
    """A ``csv.writer`` whose every cell goes through ``spreadsheet_safe``, its decimals
    written the ``dialect``'s way."""

    def __init__(self, writer: RowWriter, dialect: CsvDialect = ENGLISH) -> None:
        self.writer = writer
        self.dialect = dialect

    def writerow(self, row: Iterable[Any], /) -> Any:
        return self.writer.writerow([spreadsheet_safe(self.dialect.cell(c)) for c in row])


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
        dialect = csv_dialect()
        writer = SafeRowWriter(csv.writer(response, delimiter=dialect.delimiter), dialect)
        header = self.header()
        if header:
            writer.writerow(header)
        self.write_rows(writer)
        return response
