"""What a page-drawn figure's matplotlib artists show, in CSS px, against its scene's chunks.

``actual(...)`` reads an artist's geometry back through matplotlib's own transforms;
``expected(...)`` maps a chunk's arrays with the scene's :meth:`Panel.to_px`. Agreement checks
both the per-step description and the panels' data -> pixel mapping.
"""

import io

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Polygon
from matplotlib.quiver import Quiver
from matplotlib.text import Text

from explorer.plots.scene import FIGURE, HA, VA
from explorer.plots.tracks import css_dpi


def to_css(fig, height, display) -> np.ndarray:
    """Display px (bottom-left origin, the figure's dpi) -> CSS px (top-left origin)."""
    d = np.asarray(display, dtype=float).reshape(-1, 2)
    c = css_dpi(fig) / fig.dpi
    return np.column_stack([d[:, 0] * c, height - d[:, 1] * c])


def finite(xy) -> np.ndarray:
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    return xy[np.isfinite(xy).all(axis=1)]


def _dedupe(xy) -> np.ndarray:
    """A polygon's distinct vertices in order: repeated ones (padding) and a closing one
    dropped."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    keep = np.ones(len(xy), bool)
    keep[1:] = np.any(np.abs(np.diff(xy, axis=0)) > 1e-12 * (1 + np.abs(xy[1:])), axis=1)
    xy = xy[keep]
    if len(xy) > 1 and np.allclose(xy[0], xy[-1], rtol=1e-12, atol=0):
        xy = xy[:-1]
    return xy


def _segments(data) -> list:
    """Each pair of consecutive finite rows (a prefix track drawn as arrows), but for those of
    length 0 (no direction: no arrow)."""
    data = np.asarray(data, dtype=float).reshape(-1, 2)
    ok = np.isfinite(data[:-1]).all(axis=1) & np.isfinite(data[1:]).all(axis=1)
    ok &= np.any(data[:-1] != data[1:], axis=1)
    return [np.array([p, q]) for p, q in zip(data[:-1][ok], data[1:][ok], strict=True)]


def expected(scene, chunk, track, row: int) -> dict:
    """The page's drawing instruction for ``track`` at ``row`` of ``chunk``: ``px`` (CSS px,
    NaN rows dropped), ``visible``, and for texts ``text``, ``ha``, ``va``; for points the
    colour codes ``c``."""
    a = {k: np.asarray(v)[row] for k, v in chunk.arrays[track.name].items()}
    panel = None if track.panel == FIGURE else scene.panel(track.panel)

    def px(xy):
        xy = finite(xy)
        return xy if panel is None else panel.to_px(xy).reshape(-1, 2)

    kind = track.kind
    if kind == "text":
        ok = bool(np.isfinite(a["xy"]).all())
        return {"px": px(a["xy"]), "visible": ok, "text": chunk.strings[int(a["t"])],
                "ha": HA[int(a["ha"])], "va": VA[int(a["va"])]}
    if kind == "prefix":
        data = np.asarray(track.data["data"], dtype=float)
        lo, hi = int(a.get("start", 0)), int(a["n"])
        if "head" in track.style:
            segs = [panel.to_px(p) for p in _segments(data[lo:hi])]
            return {"segments": segs, "visible": bool(segs)}
        pts = data[:hi] if lo == 0 else data[lo:hi]
        if "tail" in a:
            pts = np.vstack([pts, a["tail"][None]])
        return {"px": px(pts), "visible": len(finite(pts)) > 0}
    if kind == "vline":
        x = float(a["x"])
        return {"x": panel.to_px([[x, panel.ylim[0]]])[0, 0], "visible": np.isfinite(x)}
    if kind == "polygon":
        pts = _dedupe(finite(a["xy"]))
        return {"px": px(pts), "visible": len(pts) >= 3}
    out = {"px": px(a["xy"]), "visible": len(finite(a["xy"])) > 0}
    if kind == "points" and "c" in a:
        out["c"] = np.asarray(a["c"])[np.isfinite(np.asarray(a["xy"], float)).all(axis=1)]
    return out


def actual(fig, height, art, kind: str) -> dict:
    """What the artist ``art`` shows now, in the same terms as :func:`expected`."""
    if isinstance(art, Text):
        xy = to_css(fig, height, art.get_transform().transform(art.get_position()))
        return {"px": xy, "visible": art.get_visible(), "text": art.get_text(),
                "ha": art.get_horizontalalignment(), "va": art.get_verticalalignment()}
    ax = art.axes
    if isinstance(art, Quiver):
        uv = np.column_stack([art.U, art.V])
        live = np.any(uv != 0, axis=1)
        off = art.get_offsets()[live]
        segs = [to_css(fig, height, ax.transData.transform(np.array([o, o + d])))
                for o, d in zip(off, uv[live], strict=True)]
        return {"segments": segs, "visible": bool(segs)}
    if isinstance(art, FancyArrowPatch):
        xy = to_css(fig, height, ax.transData.transform(np.array(art._posA_posB)))
        return {"px": xy, "visible": art.get_visible()}
    if isinstance(art, Polygon):
        xy = _dedupe(art.get_xy()) if art.get_visible() else np.zeros((0, 2))
        return {"px": to_css(fig, height, ax.transData.transform(xy)) if len(xy) else xy,
                "visible": art.get_visible()}
    if isinstance(art, PathCollection):
        off = np.asarray(art.get_offsets(), dtype=float).reshape(-1, 2)
        px = to_css(fig, height, ax.transData.transform(off)) if len(off) else off
        return {"px": px, "visible": art.get_visible() and len(off) > 0,
                "edge": art.get_edgecolors()}
    assert isinstance(art, Line2D), type(art)
    if kind == "vline":
        x = np.asarray(art.get_xdata(), dtype=float)[0]
        return {"x": to_css(fig, height, ax.transData.transform([[x, 0]]))[0, 0],
                "visible": art.get_visible()}
    xy = finite(np.column_stack([art.get_xdata(), art.get_ydata()]))
    if kind == "marks":
        every = art.get_markevery() or 1
        xy = xy[::every]
    return {"px": to_css(fig, height, ax.transData.transform(xy)) if len(xy) else xy,
            "visible": art.get_visible() and len(xy) > 0}


#: How far apart (CSS px) the page's drawing and matplotlib's may be.
TOL = 0.5


def close(got, want, what) -> None:
    """Assert two lists of (x, y) CSS px agree within :data:`TOL`."""
    got, want = np.asarray(got, float).reshape(-1, 2), np.asarray(want, float).reshape(-1, 2)
    assert got.shape == want.shape, f"{what}: {got.shape} vs {want.shape}"
    if len(got):
        assert np.all(np.abs(got - want) <= TOL), f"{what}: {np.abs(got - want).max()} px apart"


def agree(got, want, kind: str, what) -> bool:
    """Assert what matplotlib draws (``got``, from :func:`actual`) is the page's instruction
    (``want``, from :func:`expected`): visibility, then position (a vertical line's x, or
    the CSS px), and a text's words and alignment. Returns whether it is drawn (the caller's
    checks of colours or sizes follow)."""
    assert got["visible"] == want["visible"], what
    if not want["visible"]:
        return False
    if "x" in want:
        assert abs(got["x"] - want["x"]) <= TOL, what
    elif "segments" in want:  # a prefix drawn as arrows: each segment's ends
        assert len(got["segments"]) == len(want["segments"]), what
        for g, w in zip(got["segments"], want["segments"], strict=True):
            close(g, w, what)
    else:
        close(got["px"], want["px"], what)
    if kind == "text":
        assert (got["text"], got["ha"], got["va"]) == (want["text"], want["ha"], want["va"]), what
    return True


def drawn_lines(fig) -> list:
    """``[(line, (x, y)), ...]``: every line of text a full matplotlib draw of ``fig`` puts on
    its Agg canvas, with the left end of its baseline in CSS px: what the renderer was told to
    draw (a multi-line text is one call a line), read without any of the figure's own layout
    code, to check text tracks of one line each against."""
    from matplotlib.backends.backend_agg import RendererAgg

    calls, draw_text = [], RendererAgg.draw_text
    c = css_dpi(fig) / fig.dpi

    def spy(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        calls.append((s, np.array([x * c, y * c])))  # Agg draws from the top: y is flipped
        return draw_text(self, gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    RendererAgg.draw_text = spy
    try:
        fig.canvas.draw()
    finally:
        RendererAgg.draw_text = draw_text
    return calls


def pieces(px) -> list:
    """A polyline's pieces between NaN rows (each drawn on its own)."""
    out, cur = [], []
    for row in np.asarray(px, dtype=float).reshape(-1, 2):
        if np.isfinite(row).all():
            cur.append(row)
        elif cur:
            out.append(np.array(cur))
            cur = []
    return out + ([np.array(cur)] if cur else [])


def close_segments(fig, scene, source, track, row: int, art, what) -> None:
    """A polyline track broken by NaN rows (row ``row`` of ``source``, a chunk or the statics)
    against a ``LineCollection`` that draws each piece as one of its segments."""
    a = np.asarray(source.arrays[track.name]["xy"][row], dtype=float)
    want = pieces(scene.panel(track.panel).to_px(a))
    got = [to_css(fig, scene.height, art.axes.transData.transform(s)) for s in art.get_segments()]
    assert len(got) == len(want), what
    for g, e in zip(got, want, strict=True):
        close(g, e, what)


def image(png) -> np.ndarray:
    """A PNG as RGBA floats in [0, 1]."""
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"), dtype=float) / 255


def over(dst, src) -> np.ndarray:
    """``src`` composited over ``dst`` (RGBA floats), as the page's canvas does."""
    a = src[..., 3:]
    out = dst.copy()
    out[..., :3] = src[..., :3] * a + dst[..., :3] * (1 - a)
    return out


#: Kinds whose artists need a figure's own reading (images, 3-D projections): their checks
#: are in that figure's test (tests/test_xor_scene.py).
OWN_CHECKS = ("raster", "points3d", "polyline3d", "polygon3d", "axes3d", "hull3d", "arrow3d")


def check_track(fig, scene, source, row: int, track, art, what) -> bool:
    """What ``art`` shows now against the page's instruction for ``track`` at ``row`` of
    ``source`` (a chunk or a figure's static arrays): position, visibility, words, and for
    markers each one's size (``s``) and the colour its code ``c`` picks (the fill of filled
    markers, the edge of rings). False for a kind checked by its figure's test."""
    from matplotlib.collections import LineCollection
    from matplotlib.colors import to_hex
    from matplotlib.patches import Rectangle

    if track.kind in OWN_CHECKS:
        return False
    if isinstance(art, LineCollection):  # one polyline broken by NaN rows: its pieces
        close_segments(fig, scene, source, track, row, art, what)
        return True
    want = expected(scene, source, track, row)
    if isinstance(art, Rectangle):  # a bar: its four corners
        x, y, w, h = art.get_x(), art.get_y(), art.get_width(), art.get_height()
        xy = art.axes.transData.transform([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        got = {"px": to_css(fig, scene.height, xy), "visible": art.get_visible()}
        corners = np.asarray(source.arrays[track.name]["xy"][row], float)
        want = {"px": scene.panel(track.panel).to_px(corners), "visible": True}
    else:
        got = actual(fig, scene.height, art, track.kind)
    if track.kind == "polygon":  # a polygon of one vertex draws nothing in either
        got["visible"] = got["visible"] and len(got["px"]) >= 3
    if not agree(got, want, track.kind, what):
        return True
    arrays = source.arrays[track.name]
    if "s" in arrays and isinstance(art, PathCollection):  # each marker's diameter
        pt = css_dpi(fig) / 72.0
        s = np.asarray(arrays["s"][row], dtype=float)
        s = s[np.isfinite(np.asarray(arrays["xy"][row], float)).all(axis=1)]
        np.testing.assert_allclose(np.sqrt(art.get_sizes()) * pt, s, rtol=1e-5, err_msg=what)
    if "c" in want and isinstance(art, PathCollection) and track.style.get("colors"):
        ring = track.style.get("fill") == "none"
        drawn = [to_hex(c) for c in (art.get_edgecolors() if ring else art.get_facecolors())]
        drawn = drawn * len(want["c"]) if len(drawn) == 1 else drawn
        assert drawn == [track.style["colors"][c] for c in want["c"]], what
    return True
