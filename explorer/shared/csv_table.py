"""A CSV file as a table of cells, read and checked in the file's own terms.

:func:`read_csv_table` splits CSV text into rows of cells (the delimiter, comma, semicolon, tab
or space, is guessed from the start of the text; a first row with no number in it is a
header). Every row keeps its number **as a spreadsheet shows it**: the file's line, so the
header is row 1 and the first data row row 2, or row 1 without a header; blank lines are
skipped but counted. Columns are numbered from 1, as a spreadsheet's A, B, C.

The checks of :class:`CsvTable` raise ``ValueError`` (``TypeError`` where a cell is not a
number) with messages that speak of rows, columns and the label column, never of arrays:
"row 3, column 2 holds 'abc', which is not a number"; "the label column (column 3) must hold
only -1 and +1 (or 0 and 1); row 4 holds '2'". Both :func:`explorer.shared.datasets.from_csv` and
the page's reader (:mod:`explorer.app.upload`) use them, so a file gets the same words in a
notebook and in the page.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np

from .i18n import tr
from .validation import MAX_ABS

__all__ = ["CsvTable", "read_csv_table"]

#: How many distinct label values a message lists.
_SHOWN = 6


def _number(cell: str) -> float | None:
    try:
        return float(cell)
    except (TypeError, ValueError):
        return None


def _cell(cell: str) -> str:
    """A cell as messages quote it: ``'abc'``, cut if long; "an empty cell"."""
    text = cell.strip()
    if not text:
        return "an empty cell"
    return repr(text if len(text) <= 20 else text[:20] + "…")


@dataclass(frozen=True)
class CsvTable:
    """The cells of a CSV text (see the module docstring).

    Attributes
    ----------
    header : tuple of str or None
        The header row's cells, if the first row holds no number.
    rows : tuple of tuple of str
        The data rows' cells (blank lines left out).
    lines : tuple of int
        Each data row's number as a spreadsheet shows it (the file's line, from 1).
    name : str
        What messages call the whole text ("the CSV", "data.csv", "the pasted text").
    """

    header: tuple[str, ...] | None
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]
    name: str = "the CSV"

    def width(self) -> int:
        """The number of columns: the same in every row, and at least two (features, label)."""
        first = len(self.rows[0])
        for cells, line in zip(self.rows, self.lines, strict=True):
            if len(cells) != first:
                raise ValueError(tr("every row must have the same number of columns; row {line} "
                                    "has {n}, row {first_line} has {first}").format(
                    line=line, n=len(cells), first_line=self.lines[0], first=first))
        if first < 2:
            raise ValueError(f"{self.name} needs at least two columns (the features, then the "
                             f"label in the last column); it has {first}")
        return first

    def numbers(self, columns, *, max_abs: float = MAX_ABS) -> np.ndarray:
        """The cells of ``columns`` (0-based) as an ``(n, len(columns))`` float array: every one
        a finite number within ``±max_abs``; else the message names the row and column."""
        out = np.empty((len(self.rows), len(columns)))
        for i, (cells, line) in enumerate(zip(self.rows, self.lines, strict=True)):
            for j, c in enumerate(columns):
                where = f"row {line}, column {c + 1}"
                if c >= len(cells):
                    raise ValueError(f"{where} is missing (row {line} has {len(cells)} "
                                     f"column{'s' * (len(cells) != 1)})")
                v = _number(cells[c])
                if v is None:
                    raise TypeError(tr("row {line}, column {column} holds {cell}, which is not a "
                                       "number").format(line=line, column=c + 1,
                                                        cell=_cell(cells[c])))
                if np.isnan(v):
                    raise ValueError(f"{where} holds {_cell(cells[c])}, which is not a number "
                                     "(NaN)")
                if not np.isfinite(v):
                    raise ValueError(f"{where} holds {_cell(cells[c])}, which is not a finite "
                                     "number")
                if abs(v) > max_abs:
                    raise ValueError(f"{where} holds {_cell(cells[c])}; numbers must be within "
                                     f"±{max_abs:.0e} (rescale the data)")
                out[i, j] = v
        return out

    def labels(self, column: int, *, labels: str = "auto", both: bool = True
               ) -> tuple[np.ndarray, str]:
        """The label column (0-based ``column``) as numbers, checked, and how to read them:
        ``"pm1"`` (-1 and +1) or ``"01"`` (0 and 1; :func:`explorer.shared.datasets.from_arrays`
        converts 0 to -1 and says so).

        ``labels``: ``"pm1"``, ``"01"`` or ``"auto"`` (``"01"`` if every label is 0 or 1 and
        some is 0, else ``"pm1"``). ``both``: refuse a column of one class.
        """
        where = f"the label column (column {column + 1})"
        cells = [r[column] for r in self.rows]
        values = [_number(c) for c in cells]
        if labels == "auto":
            labels = "01" if all(v in (0.0, 1.0) for v in values) and 0.0 in values else "pm1"
        allowed = (0.0, 1.0) if labels == "01" else (-1.0, 1.0)
        want = "0 and 1" if labels == "01" else "-1 and +1 (or 0 and 1)"
        bad = next((i for i, v in enumerate(values) if v not in allowed), None)
        if bad is not None:
            kind = TypeError if values[bad] is None else ValueError
            raise kind(f"{where} must hold only {want}; row {self.lines[bad]} holds "
                       f"{_cell(cells[bad])}")
        if both and len(set(values)) < 2:
            every = "the only row has" if len(values) == 1 else f"all {len(values)} rows have"
            pair = "0 and 1" if labels == "01" else "-1 and +1, or 0 and 1"
            raise ValueError(f"{every} the label {_cell(cells[0])} in {where}, so there is "
                             f"only one class; a line separates two, so both are needed "
                             f"({pair})")
        return np.array(values, dtype=float), labels


def read_csv_table(text: str, *, name: str = "the CSV") -> CsvTable:
    """Split CSV ``text`` into a :class:`CsvTable`; ``ValueError`` if it holds no data row.
    ``name`` is what messages call the text."""
    if not isinstance(text, str):
        raise TypeError(f"CSV text must be a str; got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    try:
        delim = csv.Sniffer().sniff(text[:4096], delimiters=",;\t ").delimiter
    except csv.Error:
        delim = ","
    reader = csv.reader(io.StringIO(text), delimiter=delim, skipinitialspace=True)
    rows, lines = [], []
    for row in reader:
        if any(c.strip() for c in row):
            rows.append(tuple(c.strip() for c in row))
            lines.append(reader.line_num)
    if not rows:
        raise ValueError(f"{name} is empty: expected rows of numbers like '0.5, 1.2, 1'")
    header = None
    if not any(_number(c) is not None for c in rows[0] if c):
        header, rows, line = rows[0], rows[1:], lines.pop(0)
        if not rows:
            raise ValueError(f"{name} has a header but no data rows (row {line}, the header, "
                             "holds no number)")
    return CsvTable(header, tuple(rows), tuple(lines), name)
