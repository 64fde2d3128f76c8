"""Issue 30, item 14: every message about a person's CSV speaks of the file's rows, columns and
label column, and numbers rows as a spreadsheet shows them (a header is row 1, the first data
row row 2; without a header the first data row is row 1; blank lines count), the same for an
uploaded file and for pasted text.

Before, row numbers counted the header in one message ("row 3 has 2") and were 0-based data
indices in another ("NaN at row 0, column 1"), and messages used internal names ("X must
contain...", "y must contain only -1 and +1").
"""

from __future__ import annotations

import re

import pytest

from explorer.app.perceptron import PerceptronView
from explorer.app.upload import MAX_BYTES, read_user_data
from explorer.shared.csv_table import read_csv_table

NAME = "data.csv"
LABELS = "the label column (column 3) must hold only -1 and +1 (or 0 and 1)"
BIG = "numbers must be within ±1e+12 (rescale the data)"

# (case, CSV text, the whole message for a file called data.csv)
LABELLED = [
    ("empty", "", "Nothing to read: data.csv is empty. Expected rows like '0.5, 1.2, 1'."),
    ("blank lines only", "  \n \n",
     "Nothing to read: data.csv is empty. Expected rows like '0.5, 1.2, 1'."),
    ("header only", "x1,x2,label\n",
     "Not read: data.csv has a header but no data rows (row 1, the header, holds no number)."),
    ("text, no header", "0,0,-1\n1,b,1\n",
     "Not read: in data.csv, row 2, column 2 holds 'b', which is not a number."),
    ("text, header", "x1,x2,label\n0,0,-1\n1,b,1\n",
     "Not read: in data.csv, row 3, column 2 holds 'b', which is not a number."),
    ("NaN, no header", "0,0,-1\nnan,1,1\n",
     "Not read: in data.csv, row 2, column 1 holds 'nan', which is not a number (NaN)."),
    ("NaN, header", "x1,x2,label\nnan,1,1\n0,0,-1\n",
     "Not read: in data.csv, row 2, column 1 holds 'nan', which is not a number (NaN)."),
    ("inf", "x1,x2,label\n0,0,-1\n1,-inf,1\n",
     "Not read: in data.csv, row 3, column 2 holds '-inf', which is not a finite number."),
    ("1e309 (beyond floats)", "0,0,-1\n1e309,1,1\n",
     "Not read: in data.csv, row 2, column 1 holds '1e309', which is not a finite number."),
    ("1e308", "x1,x2,label\n0,0,-1\n1,1e308,1\n",
     f"Not read: in data.csv, row 3, column 2 holds '1e308'; {BIG}."),
    ("1e13", "1e13,0,1\n0,0,-1\n", f"Not read: in data.csv, row 1, column 1 holds '1e13'; {BIG}."),
    ("ragged, no header", "0,0,1\n1,1\n",
     "Not read: in data.csv, every row must have the same number of columns; row 2 has 2, row 1 "
     "has 3."),
    ("ragged, header", "x1,x2,label\n0,0,1\n1,1\n",
     "Not read: in data.csv, every row must have the same number of columns; row 3 has 2, row 2 "
     "has 3."),
    ("blank lines count, as a spreadsheet shows them", "x1,x2,label\n\n0,0,1\n\n1,1\n",
     "Not read: in data.csv, every row must have the same number of columns; row 5 has 2, row 3 "
     "has 3."),
    ("one column", "1\n-1\n",
     "Not read: data.csv needs at least two columns (the features, then the label in the last "
     "column); it has 1."),
    ("one class", "x1,x2,label\n0,0,1\n1,1,1\n2,0,1\n",
     "Not read: in data.csv, all 3 rows have the label '1' in the label column (column 3), so "
     "there is only one class; a line separates two, so both are needed (-1 and +1, or 0 and 1)."),
    ("one row", "0.5,1.2,1\n",
     "Not read: in data.csv, the only row has the label '1' in the label column (column 3), so "
     "there is only one class; a line separates two, so both are needed (-1 and +1, or 0 and 1)."),
    ("one class of 0/1 labels", "0,0,0\n1,1,0\n",
     "Not read: in data.csv, all 2 rows have the label '0' in the label column (column 3), so "
     "there is only one class; a line separates two, so both are needed (0 and 1)."),
    ("label 2, header", "x1,x2,label\n0,0,1\n1,1,-1\n2,2,2\n",
     f"Not read: in data.csv, {LABELS}; row 4 holds '2'."),
    ("labels yes/no", "0,0,yes\n1,1,no\n", f"Not read: in data.csv, {LABELS}; row 1 holds 'yes'."),
    ("label 0 among -1/+1", "0,0,1\n1,1,-1\n2,2,0\n",
     f"Not read: in data.csv, {LABELS}; row 3 holds '0'."),
    ("label empty", "0,0,\n1,1,-1\n", f"Not read: in data.csv, {LABELS}; row 1 holds an empty cell."),
    ("label NaN", "0,0,1\n1,1,nan\n", f"Not read: in data.csv, {LABELS}; row 2 holds 'nan'."),
    ("label 0.5", "0,0,0.5\n1,1,1\n", f"Not read: in data.csv, {LABELS}; row 1 holds '0.5'."),
    ("too many points", "x1,x2,label\n" + "".join(f"{i},{i % 7},{1 - 2 * (i % 2)}\n"
                                                  for i in range(2500)),
     "Not read: data.csv has 2,501 rows; this view takes at most 2,000 points (rows of data, "
     "after a header if any; keep a sample)."),
    ("not UTF-8", b"0,0,1\n\xff\xfe,1,-1\n",
     "Not read: data.csv is not UTF-8 text (byte 7 cannot be read); save it as UTF-8 CSV."),
    ("too many bytes", "0" * (MAX_BYTES + 1),
     f"Not read: data.csv has {MAX_BYTES + 1:,} bytes, more than the {MAX_BYTES:,} this view "
     "reads."),
]

# The words of the core's array checks, which must never reach a person reading a file.
INTERNAL = re.compile(r"\bX\b|\by\b|row 0|column 0|dtype|shape|array")


@pytest.mark.parametrize("case,raw,message", LABELLED, ids=[c[0] for c in LABELLED])
def test_each_csv_message_names_the_files_row_and_column(case, raw, message):
    got = read_user_data(raw, name=NAME)
    assert got == message, case
    assert not INTERNAL.search(got), got


@pytest.mark.parametrize("case,raw,message", [
    ("empty", "", "Nothing to read: the pasted text is empty. Expected rows like '0.5, 1.2'."),
    ("header only", "x1,x2\n",
     "Not read: the pasted text has a header but no data rows (row 1, the header, holds no "
     "number)."),
    ("text, header", "x1,x2\n0,0\na,1\n",
     "Not read: in the pasted text, row 3, column 1 holds 'a', which is not a number."),
    ("NaN", "0,0\n1,nan\n",
     "Not read: in the pasted text, row 2, column 2 holds 'nan', which is not a number (NaN)."),
    ("1e308", "1e308,0\n0,0\n",
     f"Not read: in the pasted text, row 1, column 1 holds '1e308'; {BIG}."),
    ("one column", "x\n1\n2\n",
     "Not read: in the pasted text, row 2 has 1 column; every row needs two coordinates x1, x2 "
     "(e.g. '0.5, 1.2')."),
    ("too many points", "\n".join(f"{i},{i * i % 5}" for i in range(17)),
     "Not read: the pasted text has 17 points; this view takes at most 16."),
])
def test_points_without_labels_speak_the_same_terms(case, raw, message):
    """Cover's dichotomies read points only (labels=False): the same numbering and words."""
    got = read_user_data(raw, labels=False, max_rows=16, name="the pasted text")
    assert got == message, case


def test_the_row_number_is_the_row_a_spreadsheet_shows():
    """The numbers come from the file's lines: for any position of the bad cell, with or
    without a header and blank lines, the message names the line that holds it."""
    for header in ("", "x1,x2,label\n"):
        for blank in ("", "\n"):
            for k in range(1, 6):
                rows = [f"{i},{i % 3},{1 - 2 * (i % 2)}" for i in range(6)]
                rows[k] = rows[k].replace(f"{k},", "oops,", 1)
                text = header + blank + "\n".join(rows) + "\n"
                line = text.splitlines().index(rows[k]) + 1
                got = read_user_data(text, name=NAME)
                assert f"row {line}, column 1 holds 'oops'" in got, (text, got)


def test_the_table_keeps_each_rows_spreadsheet_number():
    t = read_csv_table("\ufeffx,y,l\r\n\r\n1,2,1\r\n3,4,-1\r\n")
    assert t.header == ("x", "y", "l") and t.lines == (3, 4)
    assert t.rows == (("1", "2", "1"), ("3", "4", "-1"))


@pytest.fixture(scope="module")
def view():
    return PerceptronView()


@pytest.mark.parametrize("case,raw,message", [c for c in LABELLED if c[0] in (
    "text, header", "NaN, no header", "ragged, header", "label 2, header", "one class", "empty")],
    ids=lambda c: c if isinstance(c, str) and len(c) < 30 else "")
def test_upload_and_paste_say_the_same_in_the_page(view, case, raw, message):
    """Through the Data panel: an uploaded file is named by its name, pasted text as such;
    the rest of the message, row numbers included, is the same. The data on screen stay."""
    panel = view.data_panel
    X = view.model.X
    panel._on_upload({"new": ({"name": NAME, "size": len(raw), "content": raw.encode()},)})
    assert view.messages.refused == message
    assert not panel.load(raw)
    assert view.messages.refused == message.replace(NAME, "the pasted text")
    assert view.model.X is X
