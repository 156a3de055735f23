"""CSV building blocks: one base export with a ``write_rows(writer)`` hook."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any, Protocol

from django.http import HttpResponse


class RowWriter(Protocol):
    def writerow(self, row: Iterable[Any], /) -> Any: ...


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
        writer = csv.writer(response)
        header = self.header()
        if header:
            writer.writerow(header)
        self.write_rows(writer)
        return response
