"""Export captions (issue 30, item 12): the caption strip cut the last row of the Perceptron
figure's legend (PNG, GIF, HTML), and the race's settings ended in "…". Rendered exports of
every tab, at the sizes a window gives the figure: every legend, label and tick lies wholly
above the strip, in pixels, and the caption carries every setting, wrapped, never cut."""

import io
import re

import numpy as np
import pytest
from PIL import Image

from explorer.app.cover import CoverView
from explorer.app.generalization import GeneralizationView
from explorer.app.layout import FigureFit
from explorer.app.margins import MarginsView
from explorer.app.perceptron import PerceptronView
from explorer.app.xor import XorView
from explorer.perceptron import train
from explorer.perceptron.replay import describe_run
from explorer.plots.export import gif_bytes, still_bytes
from explorer.plots.frames import CaptionedFigure
from explorer.plots.tracks import figure_renderer
from explorer.shared import datasets

#: Figure sizes (CSS px) and type scales: the designed one, a small window's, lecture mode's.
FITS = [FigureFit(1040, 544, 1.0), FigureFit(760, 420, 1.0), FigureFit(980, 520, 1.4)]


def _strip_top(fig, strip) -> float:
    return strip.fraction * fig.bbox.height


def _above_the_strip(fig, strip, what: str) -> None:
    """Every legend and every axes' tight box (ticks, labels, titles) over the strip's top."""
    renderer = figure_renderer(fig)
    top = _strip_top(fig, strip)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            box = legend.get_window_extent(renderer)
            assert box.y0 >= top, f"{what}: a legend reaches {top - box.y0:.1f} px into the caption"
        box = ax.get_tightbbox(renderer)
        assert box.y0 >= top, f"{what}: an axes' labels reach {top - box.y0:.1f} px into it"


def _words(text: str) -> list[str]:
    return [w for w in text.split() if w != "·"]


def _says_every_setting(strip, title: str) -> None:
    shown = strip.title_text.get_text()
    assert "…" not in shown and _words(shown) == _words(title), (shown, title)


def _race_view():
    v = PerceptronView()
    assert v.model.update(race=["margin", "relaxation", "pocket"])
    return v


MAKE = {
    "race": _race_view,
    "margins": MarginsView,
    "generalization": lambda: GeneralizationView(autorun=False),
    "xor": XorView,
    "cover": CoverView,
}


@pytest.mark.parametrize("fit", FITS, ids=lambda f: f"{f.width}x{f.height}@{f.scale}")
@pytest.mark.parametrize("tab", sorted(MAKE))
def test_every_tabs_still_keeps_its_legends_above_a_caption_with_every_setting(tab, fit):
    v = MAKE[tab]()
    v.fitted = fit
    frames = v._export_frames()
    k, _, _ = v._export_plan()
    png = frames.still(k)
    _above_the_strip(frames.fig, frames.strip, f"{tab} at {fit}")
    _says_every_setting(frames.strip, frames.title)
    title = Image.open(io.BytesIO(png)).text["Title"]
    assert title.endswith(frames.title)  # the file's metadata: the settings whole


def test_the_race_caption_wraps_its_settings_in_the_animation_too():
    v = _race_view()
    frames = v._export_frames()
    assert len(frames.title) > 100  # four rules' names: more than a line beside the step
    gif = Image.open(io.BytesIO(frames.animation("gif", steps=[0, 5, v.model.n_steps])))
    assert gif.n_frames == 3 and gif.size[1] == round(frames.fig.bbox.height)
    _above_the_strip(frames.fig, frames.strip, "race GIF")
    _says_every_setting(frames.strip, frames.title)
    assert frames.strip.title_text.get_text().count("\n") >= 1  # wrapped, not cut
    page = frames.animation("html", steps=[0, 5])
    assert "…" not in re.sub(r"<[^>]+>", "", page.split("<script")[0])


def test_the_perceptron_runs_legend_is_whole_in_its_still_and_animation():
    """The legend under the data plane had its last row under the strip."""
    ds = datasets.load("koski")
    tr = train(ds.X, ds.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])
    info = describe_run(tr, ds.X, ds.y)
    title = ("Koski's worked example (6 points) · Classic perceptron · η = 0.2 · custom "
             "sequence · " + " · ".join(f"setting {i} = {i}" for i in range(14)))
    cf = CaptionedFigure(tr, ds.X, ds.y, info=info, title=title, still=3)
    cf.draw(3)
    _above_the_strip(cf.fig, cf.strip, "Perceptron still")
    _says_every_setting(cf.strip, title)
    legend = cf.panels.plane.legend
    assert legend is not None and legend.get_visible()
    png = still_bytes(tr, ds.X, ds.y, k=3, info=info, title=title)
    im = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    # in the picture: the strip's top line (the first row of its blue) lies below the
    # legend's lowest row of ink, at the PNG's resolution
    scale = im.shape[0] / cf.fig.bbox.height
    box = legend.get_window_extent(figure_renderer(cf.fig))
    legend_low = int(np.ceil((cf.fig.bbox.height - box.y0) * scale))
    blue = np.all(np.abs(im - [0, 114, 178]) < 30, axis=-1).mean(axis=1) > 0.9
    line_row = int(np.flatnonzero(blue)[0])
    assert legend_low < line_row, (legend_low, line_row)
    cf = CaptionedFigure(tr, ds.X, ds.y, info=info, title=title)  # the GIF's and HTML's
    cf.blit(tr.n_steps)
    _above_the_strip(cf.fig, cf.strip, "Perceptron animation")
    gif = Image.open(io.BytesIO(gif_bytes(tr, ds.X, ds.y, info=info, title=title,
                                          steps=[0, 3])))
    assert gif.size == cf.fig.canvas.get_width_height()
