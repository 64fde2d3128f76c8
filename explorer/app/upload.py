"""Your own data in a tab: a CSV file (upload) or CSV text (paste), read, checked and previewed.

:func:`read_user_data` turns the bytes or text a person gave into 2-D points with labels ±1, or
into one sentence saying why not; it never raises. Size is checked before anything is parsed.
:class:`DataPanel` is the widget a tab puts in its settings column: file upload, paste box,
a preview (first rows, how the labels were read, whether a line separates the classes) and a
button that hands the points to the tab.

What is read: one row per point, numeric feature columns and a label column (the last), an
optional header row, separated by commas, semicolons, tabs or spaces. Labels −1/+1, or 0/1 (read
as −1/+1 and said so). The file is read and checked by :mod:`explorer.shared.csv_table`, so every
message speaks of the file's rows, columns and label column, numbered as a spreadsheet shows
them (a header is row 1), the same for an uploaded file and for pasted text.

How many features a tab takes is its own (``features``, from the tab's ``data_features``): a
tab that trains in the data's own dimension (the Perceptron tab, up to
:data:`~explorer.app.perceptron.model.MAX_FEATURES`) keeps every feature and refuses a file of
more, saying the cap; a tab of the plane (``features=2``) projects more than two features to
2-D by PCA (principal component analysis, via scikit-learn) and states the share of the
variance the plane keeps. One feature is drawn on the x₁ axis (x₂ = 0), and said so.

Without labels (``labels=False``, for a tab that labels the points itself, e.g. Cover's
dichotomies): the first two numeric columns are the points; further columns are ignored and
the summary says so.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import ipywidgets as W
import numpy as np

from ..shared import datasets
from ..shared.csv_table import read_csv_table
from ..shared.i18n import N_, tr
from .labels import label
from .lazy import BuiltOnUse
from .remarks import on_one_line

#: Largest file or pasted text read (bytes), and most points; both checked before parsing.
MAX_BYTES = 1_000_000
MAX_ROWS = 2000
#: Coordinates are kept within this size (the tabs' declared state allows no more).
MAX_ABS = 1e12
EXAMPLE = "x1, x2, label\n0.5, 1.2, 1\n-0.3, -0.8, -1\n1.1, 0.4, 1\n-1.0, 0.2, -1"
EXAMPLE_POINTS = "x1, x2\n0.5, 1.2\n-0.3, -0.8\n1.1, 0.4\n-1.0, 0.2"


@dataclass(frozen=True)
class UserData:
    """Points a person loaded, ready for a tab.

    Attributes
    ----------
    X : ndarray (n, M)
        M = 2, or up to the tab's ``features`` (see the module docstring).
    y : ndarray (n,), values ±1 (zeros when read without labels)
    summary : str
        What was read, in one or two sentences (rows, features, label mapping, PCA or the
        dimension trained in, separable).
    preview : str
        HTML: a table of the first rows as read.
    """

    X: np.ndarray
    y: np.ndarray
    summary: str
    preview: str


def _decode(raw, name: str) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return bytes(raw).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(tr("{name} is not UTF-8 text (byte {byte} cannot be read); save it as "
                            "UTF-8 CSV").format(name=name, byte=exc.start + 1)) from None


def _pca2(X: np.ndarray) -> tuple[np.ndarray, float]:
    from sklearn.decomposition import PCA

    pca = PCA(n_components=2).fit(X)
    return pca.transform(X), float(pca.explained_variance_ratio_.sum())


def _preview(X: np.ndarray, y: np.ndarray | None, rows: int = 5, cols: int = 6) -> str:
    """The first ``rows`` rows as an HTML table (no label column when ``y`` is None); of more
    than ``cols`` features, the first ``cols - 1``, "…" and the last."""
    M = X.shape[1]
    shown = list(range(M)) if M <= cols else [*range(cols - 1), None, M - 1]
    head = "".join("<th>…</th>" if j is None else f"<th>x{j + 1}</th>" for j in shown)
    head += "" if y is None else "<th>label</th>"
    body = "".join("<tr>" + "".join("<td>…</td>" if j is None else f"<td>{X[i, j]:.4g}</td>"
                                    for j in shown)
                   + ("" if y is None else f"<td>{int(y[i]):+d}</td>") + "</tr>"
                   for i in range(min(rows, len(X))))
    more = f"<div>… and {len(X) - rows} more rows</div>" if len(X) > rows else ""
    return f"<table class='pe-preview'><tr>{head}</tr>{body}</table>{more}"


def _points(table, *, max_rows: int) -> UserData:
    """Points without labels: the first two columns of every row (further ones ignored)."""
    for cells, line in zip(table.rows, table.lines, strict=True):
        if len(cells) < 2:
            raise ValueError(f"in {table.name}, row {line} has {len(cells)} column; every row "
                             "needs two coordinates x1, x2 (e.g. '0.5, 1.2')")
    if len(table.rows) > max_rows:
        raise ValueError(f"{table.name} has {len(table.rows):,} points; this view takes at most "
                         f"{max_rows:,}")
    X = table.numbers([0, 1], max_abs=MAX_ABS)
    extra = max(len(r) for r in table.rows) - 2
    parts = [f"{len(X)} point{'s' * (len(X) != 1)} (columns x1, x2)"]
    if extra:
        parts.append(f"{extra} further column{'s' * (extra != 1)} ignored (labels, if any: this "
                     "view counts every labeling itself)")
    return UserData(X, np.zeros(len(X)), "; ".join(parts) + ".", _preview(X, None))


def _labelled(table, *, features: int) -> UserData:
    """Features and labels (the last column), checked in the file's terms, as a tab taking
    ``features`` features in their own dimension takes them (see the module docstring)."""
    width = table.width()
    if features > 2 and width - 1 > features:  # before a cell is read
        raise ValueError(f"{table.name} has {width - 1:,} feature columns; this tab trains on at "
                         f"most {features} features in their own dimension (keep at most "
                         f"{features} columns, then the label)")
    X = table.numbers(range(width - 1), max_abs=MAX_ABS)
    y, kind = table.labels(width - 1)
    ds = datasets.from_arrays(X, y, labels=kind)
    X, y = np.asarray(ds.X, dtype=float), np.asarray(ds.y, dtype=float)
    parts = [f"{len(y)} points, {X.shape[1]} feature{'s' * (X.shape[1] != 1)}"]
    parts.append("labels {0, 1} read as {−1, +1}" if ds.notes else "labels −1/+1")
    shown = X
    if X.shape[1] == 1:
        X = np.column_stack([X[:, 0], np.zeros(len(X))])
        parts.append("one feature: drawn on the x₁ axis (x₂ = 0)")
    elif X.shape[1] > features:
        X, kept = _pca2(X)
        parts.append(f"projected to 2-D by PCA, keeping {100 * kept:.0f} % of the variance")
    elif X.shape[1] > 2:
        # how it is drawn is each tab's (the plane of w, or margins y·f(x)): its figure says
        parts.append(f"trained in its own {X.shape[1]} dimensions, no projection")
    n_pos, n_neg = int((y > 0).sum()), int((y < 0).sum())
    parts.append(f"{n_pos} of class +1, {n_neg} of class −1")
    from ..shared.separability import check  # scipy's LP: loaded when data arrive, not at page open

    sep = check(X, y).separable
    line = {2: "line", 3: "plane"}.get(X.shape[1], "hyperplane")
    parts.append(f"a {line} separates the classes" if sep else f"no {line} separates the classes")
    same = {tuple(r) for r in X[y > 0]} & {tuple(r) for r in X[y < 0]}
    if same:
        parts.append(f"{len(same)} point{'s' * (len(same) != 1)} carr"
                     f"{'y' if len(same) != 1 else 'ies'} both labels")
    if on_one_line(X):
        parts.append("all on one line")
    return UserData(X, y, "; ".join(parts) + ".", _preview(shown, y))


def read_user_data(raw, *, max_rows: int = MAX_ROWS, labels: bool = True,
                   name: str = "the data", features: int = 2) -> UserData | str:
    """Read CSV bytes or text into :class:`UserData`, or return the reason it cannot be used.

    The size (at most :data:`MAX_BYTES`) and the number of lines (at most ``max_rows`` plus a
    header) are checked before the text is parsed. With ``labels=False`` the first two
    columns are read as points and ``y`` is all zeros (see the module docstring). ``features``:
    the most features kept in their own dimension (2: more are projected by PCA). The reason
    names ``name`` (the file's name, or "the pasted text"), and rows and columns as a
    spreadsheet shows them (:mod:`explorer.shared.csv_table`): "Not read: in data.csv, row 3,
    column 2 holds 'abc', which is not a number."
    """
    like = "0.5, 1.2, 1" if labels else "0.5, 1.2"
    size = len(raw) if isinstance(raw, (bytes, bytearray, memoryview)) else len(str(raw).encode())
    empty = tr("Nothing to read: {name} is empty. Expected rows like '{like}'.").format(
        name=name, like=like)
    if size == 0:
        return empty
    if size > MAX_BYTES:
        return _too_large(name, size)
    try:
        text = _decode(raw, name)
    except ValueError as exc:
        return tr("Not read: {why}.").format(why=exc)
    if not text.strip():
        return empty
    lines = sum(1 for ln in text.splitlines() if ln.strip())
    if lines > max_rows + 1:
        return tr("Not read: {name} has {lines} rows; this view takes at most {most} points "
                  "(rows of data, after a header if any; keep a sample).").format(
            name=name, lines=f"{lines:,}", most=f"{max_rows:,}")
    try:  # text only: a line naming a file is never opened
        table = read_csv_table(text, name=name)
        return (_labelled(table, features=features) if labels
                else _points(table, max_rows=max_rows))
    except (ValueError, TypeError) as exc:
        why = str(exc)
    if why.startswith((name, "in ")):
        return tr("Not read: {why}.").format(why=why)
    return tr("Not read: in {name}, {why}.").format(name=name, why=why)


def _too_large(name: str, size: int) -> str:
    return tr("Not read: {name} has {size} bytes, more than the {most} this view "
              "reads.").format(name=name, size=f"{size:,}", most=f"{MAX_BYTES:,}")


class DataPanel(BuiltOnUse, W.VBox):
    """Upload or paste CSV data, see it read, and hand it to the tab with ``apply(X, y)``.

    Its widgets are made when first used (a view shows it closed, in a
    :func:`~explorer.app.lazy.disclosure`).

    ``apply`` returns True when the tab took the points (it says why not itself otherwise).
    Messages go to ``messages`` (a :class:`explorer.app.messages.MessageArea`). With
    ``labels=False`` only the points are read (``y`` is zeros; see :func:`read_user_data`).
    ``features``: the most features the tab trains on in their own dimension (its
    ``data_features``; see the module docstring).
    """

    def __init__(self, apply: Callable[[np.ndarray, np.ndarray], bool], messages, *,
                 max_rows: int = MAX_ROWS, labels: bool = True, features: int = 2):
        self._apply, self._messages, self.max_rows = apply, messages, max_rows
        self.labels, self.features = labels, features
        super().__init__([])  # the parts are made when first used (_build)

    def _build(self) -> None:
        labels = self.labels
        self.upload = label(W.FileUpload(accept=".csv,.txt,text/csv,text/plain", multiple=False,
                                         layout=W.Layout(width="auto")),
                            description=N_("Upload CSV"), tooltip=N_("Read a CSV file of points"))
        self.paste = W.Textarea(placeholder=EXAMPLE if labels else EXAMPLE_POINTS,
                                layout=W.Layout(width="95%", height="6em"),
                                style={"description_width": "calc(var(--pe-font) * 6.2)"})
        label(self.paste, description=N_("or paste"))
        self.b_read = label(W.Button(layout=W.Layout(width="auto")),
                            description=N_("Use pasted data"), tooltip=N_("Read the CSV text above"))
        self.preview = W.HTML().add_class("pe-help")
        self.upload.observe(self._on_upload, names="value")
        self.b_read.on_click(lambda _: self.load(self.paste.value))
        self.children = [self.upload, self.paste, self.b_read, self.preview]

    def _on_upload(self, change):
        files = change["new"]
        if not files:
            return
        f = files[0]
        size = int(f.get("size", len(f.get("content", b""))))
        if size > MAX_BYTES:  # refused before its content is looked at
            self._messages.refuse(_too_large(f.get("name", tr("the file")), size))
            return
        self.load(f["content"], name=f.get("name", "the file"))

    def load(self, raw, *, name: str = "the pasted text") -> bool:
        """Read ``raw`` and, if it can be used, hand it to the tab; says what happened."""
        try:
            got = read_user_data(raw, max_rows=self.max_rows, labels=self.labels, name=name,
                                 features=self.features)
        except Exception as exc:  # noqa: BLE001 - a person's file must never raise into the page
            got = f"Not read: {type(exc).__name__} while reading {name}."
        if isinstance(got, str):
            self._messages.refuse(got)
            return False
        self.preview.value = (f"<div>{html.escape(name)}: {html.escape(got.summary)}</div>"
                              + got.preview)
        if not self._apply(got.X, got.y):
            return False
        self.preview.value = (f"<div><b>Loaded</b> {html.escape(name)}: "
                              f"{html.escape(got.summary)}</div>" + got.preview)
        return True
