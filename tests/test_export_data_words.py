"""What an export says its data are (issue 30, item 5): a 6-point CSV pasted over "Overlapping
blobs" was exported as "Overlapping blobs (edited) · … · seed 0" in
``perceptron-overlapping-edited-classic-step0.png``. Every tab that takes data (Perceptron,
Margins, Generalization), by paste or upload, names what is shown in the caption and the file
name; points read from a CSV are not "edited", points edited afterwards may say so."""

import base64
import io
import re

import numpy as np
import pytest
from PIL import Image

from explorer.app.generalization import GeneralizationView
from explorer.app.margins import MarginsView
from explorer.app.perceptron import PerceptronView

CSV = "x1,x2,label\n0,1,1\n1,0,-1\n2,2,1\n-1,-1,-1\n3,1,1\n-2,0.5,-1\n"


def _open(tab):
    if tab == "perceptron":
        v = PerceptronView()
        assert v.model.update(dataset="overlapping")
    elif tab == "margins":
        v = MarginsView()
        assert v.model.update(dataset="overlapping")
    else:
        v = GeneralizationView(autorun=False)
    return v


def _read(v, how):
    panel = v.data_panel
    if not panel.built:
        panel._build()
    if how == "paste":
        panel.paste.value = CSV
        panel.b_read.click()
    else:  # the upload widget's change, as the page sends it
        data = CSV.encode()
        panel._on_upload({"new": [{"name": "points.csv", "content": memoryview(data),
                                   "size": len(data)}]})


def _png(v):
    """The PNG the export panel makes: its file name and the caption it carries (the file's
    title and description, which are the caption's text)."""
    v.export.b_png.click()
    link = v.export.links.value
    name = re.search(r'download="([^"]+)"', link).group(1)
    data = base64.b64decode(re.search(r'base64,([^"]+)"', link).group(1))
    meta = Image.open(io.BytesIO(data)).text
    return name, meta["Title"], meta.get("Description", "")


@pytest.mark.parametrize("how", ["paste", "upload"])
@pytest.mark.parametrize("tab", ["perceptron", "margins", "generalization"])
def test_a_csv_read_over_a_data_set_is_exported_as_your_csv(tab, how):
    v = _open(tab)
    _read(v, how)
    assert len(v.model.X) in (6, 4)  # Generalization trains on 70 % of them
    name, title, _ = _png(v)
    assert "your CSV (6 points)" in title, title
    assert "edited" not in title and "Overlapping" not in title and "Your own data" not in title
    assert name.startswith(f"{tab}-csv-") and "overlapping" not in name and "edited" not in name
    if tab == "perceptron":
        assert "seed" not in title  # cyclic passes over given points: no seed shapes them


@pytest.mark.parametrize("tab", ["perceptron", "margins"])
def test_points_edited_after_reading_say_what_was_edited(tab):
    v = _open(tab)
    v.w_edit.value = "add+"
    v.click(0.3, 0.4, mode="add+")  # a data set edited by a click
    if tab == "margins":
        v.model.finish_edit()
    name, title, _ = _png(v)
    assert "Overlapping blobs, edited (41 points)" in title, title
    assert name.startswith(f"{tab}-overlapping-edited-")
    _read(v, "paste")
    name, title, _ = _png(v)
    assert "your CSV (6 points)" in title and "edited" not in title, title
    v.click(0.3, 0.4, mode="add+")  # the CSV's points edited
    v.click(-0.3, 0.2, mode="add-")
    if tab == "margins":
        v.model.finish_edit()
    name, title, _ = _png(v)
    assert "your CSV, edited (8 points)" in title, title
    assert name.startswith(f"{tab}-csv-edited-")


def test_points_sent_from_another_tab_say_where_from():
    v = PerceptronView()
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [-1.0, -1.0]])
    points = [[*x, label] for x, label in zip(X.tolist(), [1, -1, 1, -1], strict=True)]
    assert v.load_state(v.save_state() | {"points": points, "order": "cyclic",
                                          "custom_order": [], "w0": []}, origin="Margins tab")
    name, title, _ = _png(v)
    assert "points from the Margins tab (4 points)" in title and "edited" not in title
    assert name.startswith("perceptron-from-margins-")
