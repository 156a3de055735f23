"""A CSV download read as a spreadsheet set to the reader's language reads it: semicolons in
French, commas in English (``core.exports.CsvDialect``), chosen by the answer's language."""

from __future__ import annotations

import csv
import io
from typing import Any


def csv_rows(response: Any) -> list[list[str]]:
    language = response.get("Content-Language", "fr") or "fr"
    delimiter = "," if language.startswith("en") else ";"
    text = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
