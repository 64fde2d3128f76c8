"""Helpers of the data plane: its legend, the certificate of non-separability, label placement.

The legend is rebuilt for each run (its entries depend on the rule, the band, the data's
separability and "you choose" mode); only the pocket/averaged entry changes with the step,
and then the legend is one of the plane's moving artists.
"""

from __future__ import annotations

import numpy as np
from matplotlib.legend_handler import HandlerPatch, HandlerPathCollection, HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch

from ..shared.geometry import convex_hull_polygon
from ..shared.i18n import N_, tr, tr_n
from ..shared.number_format import number_text
from . import mpl_adapter as mpl
from . import style as S
from .live import text_area
from .room import anchor
from .tracks import css_dpi

KEPT_NAMES = {"pocket": N_("pocket"), "averaged": N_("averaged")}
LEGEND_DROP = 40  # points from the axes' bottom edge to the legend's top


def kept_label(kind: str, errors: int | None, n: int) -> str:
    """Legend text of the pocket/averaged classifier, e.g. ``"pocket: 1 of 6 wrong"``."""
    return tr_n("{kept}: {errors} of {n} wrong", "{kept}: {errors} of {n} wrong", n).format(
        kept=tr(KEPT_NAMES[kind]), errors="?" if errors is None else errors, n=n)


def _arrow_patch(legend, orig_handle, xdescent, ydescent, width, height, fontsize):
    y = height / 2 - ydescent
    return FancyArrowPatch((-xdescent, y), (width - xdescent, y), arrowstyle="-|>",
                           mutation_scale=fontsize * 1.2, lw=orig_handle.get_linewidth())


class _ArrowHandler(HandlerPatch):
    """Draws a legend key as a small arrow in the handle's colour."""

    def __init__(self):
        super().__init__(patch_func=_arrow_patch)

    def update_prop(self, legend_handle, orig_handle, legend):
        super().update_prop(legend_handle, orig_handle, legend)
        legend_handle.set_visible(True)  # the key, even if the legend is made at a step whose
        # arrow is hidden (no update): a new size or lecture mode lays the legend out again


def _ring(color, width, *, size=11.0):
    return Line2D([], [], ls="none", marker="o", markersize=size, markerfacecolor="none",
                  markeredgecolor=color, markeredgewidth=width)


def update_label(batch: bool) -> str:
    """The update arrow's label: one point's correction, or a mini-batch's sum of them."""
    return "Σ η·y·x" if batch else "η·y·x"


def build_legend(plane, *, band=None, kept_kind=None, n: int = 0, certificate=None,
                 hand: bool = False, batch: bool = False, ncol: int = 3, where: str = "below",
                 shift: float = 0.0):
    """Make the data plane's legend for a run; returns ``(legend, kept_text or None)``.

    Entries: the classes, both half-planes (hatched, so they read in greyscale), the boundary
    now and before the step, the rings of the visited and the updating point, the update arrow,
    and when they apply the margin band, the pocket/averaged classifier, the two hulls with
    their common point, and the points still failing in "you choose" mode: at most 12 entries,
    four rows of three. ``batch``: the arrow is a mini-batch's summed update. ``where``:
    ``"below"`` the plane (``shift`` px left of its centre) or ``"beside"`` it
    (:func:`explorer.plots.room.anchor`); its type is never under ``S.LEGEND_MIN_PX``.
    """
    ax = plane.ax
    old = ax.get_legend()
    if old is not None:
        old.remove()
    shade = dict(linewidth=0)
    entries = [
        (plane.pos, tr("class +1")),
        (plane.neg, tr("class −1")),
        (Patch(facecolor=plane.shade_pos.get_facecolor(), edgecolor=S.POS, alpha=None,
               hatch=S.POS_HATCH, **shade), tr("predicts +1 (f ≥ 0)")),
        *(() if getattr(plane, "one_side", False) else (  # a 3-D view shades one side
            (Patch(facecolor=plane.shade_neg.get_facecolor(), edgecolor=S.NEG,
                   hatch=S.NEG_HATCH, **shade), tr("predicts −1 (f < 0)")),)),
        (plane.line, tr("boundary now")),
        (plane.ghost, tr("boundary before")),
        ((_ring(S.PICKED, 2.0), _ring(S.TRIGGER, 3.0)), tr("visited / triggered update")),
        (plane.update, tr("update {arrow}").format(arrow=update_label(batch))),
    ]
    if band:
        entries.append((plane.band_hi, tr("band f(x) = ±{band}").format(
            band=number_text(band, digits=6))))
    kept_index = None
    if kept_kind is not None:
        kept_index = len(entries)
        entries.append((plane.kept_line, kept_label(kept_kind, None, n)))
    if certificate is not None:
        if not certificate.conic:
            entries.append(((plane.hull_pos, plane.hull_neg), tr("hulls of +1 / −1")))
        entries.append((plane.cert, tr("in both cones") if certificate.conic else
                        tr("in both hulls")))
    if hand:
        entries.append((plane.failing, tr("still wrong: pick one")))
    handles, labels = zip(*entries, strict=True)
    # below: a fixed distance under the axes, clear of the tick labels and the x label, and
    # ``shift`` px to the left of the axes' centre (into the figure's margin, when wider)
    place = {"borderaxespad": 0.2, **anchor(ax, where, drop=LEGEND_DROP, shift=shift)}
    legend = ax.legend(handles, labels, ncol=ncol, fontsize=S.legend_size(css_dpi(ax.figure)),
                       frameon=False, handlelength=2.1, columnspacing=0.8, handletextpad=0.5,
                       **place, handler_map={FancyArrowPatch: _ArrowHandler(),
                                    tuple: HandlerTuple(ndivide=None, pad=0.4),
                                    plane.failing: HandlerPathCollection(sizes=[110])})
    kept_text = legend.get_texts()[kept_index] if kept_index is not None else None
    if kept_text is not None:
        _fixed_width(legend, kept_text, [kept_label(kept_kind, None, n),
                                         kept_label(kept_kind, 10 ** len(str(n)) - 1, n)])
    return legend, kept_text


def _fixed_width(legend, text, widest) -> None:
    """Lay the legend out as if ``text`` (an entry that changes with the step) were the widest
    of the strings ``widest`` (any count of errors has at most as many digits as n): the
    legend, a still layer of the page's figure, then never moves as the count changes."""
    area = text_area(legend, text)
    measure = area.get_bbox

    def get_bbox(renderer):
        return max(mpl.measure_as(text, widest, measure, renderer), key=lambda b: b.width)

    mpl.replace_bbox(area, get_bbox)


def certificate_artists(ax):
    """The artists :func:`set_hulls` moves: both classes' hull outlines (dashed and dotted, so
    they read in greyscale) and the marker of the point the hulls share; hidden until used."""
    (hull_pos,) = ax.plot([], [], color=S.POS, lw=2.0, ls=S.POS_HULL_STYLE, ms=16, mfc="none",
                          mew=2.0, zorder=2.5, visible=False)
    (hull_neg,) = ax.plot([], [], color=S.NEG, lw=2.4, ls=S.NEG_HULL_STYLE, ms=16, mfc="none",
                          mew=2.0, zorder=2.5, visible=False)
    (cert,) = ax.plot([], [], ls="none", marker=S.CERT_MARKER, ms=20, mfc=S.CERT, mec=S.LINE,
                      mew=1.2, zorder=6.5, visible=False)
    return hull_pos, hull_neg, cert


def set_hulls(plane, X, y, certificate) -> None:
    """Outline both classes' convex hulls and mark the certificate's point (non-separable data).

    Hulls of one or two points are drawn as a point or a segment. With a conic certificate
    (no offset) the point lies in both convex cones, not hulls, so only the point is drawn.
    """
    if certificate is None:
        for art in (plane.hull_pos, plane.hull_neg, plane.cert):
            art.set_data([], [])
            art.set_visible(False)
        return
    for art, cls in ((plane.hull_pos, 1), (plane.hull_neg, -1)):
        poly = convex_hull_polygon(X[y == cls]) if not certificate.conic else np.zeros((0, 2))
        closed = np.vstack([poly, poly[:1]]) if len(poly) >= 3 else poly
        art.set_data(closed[:, 0], closed[:, 1])
        art.set_marker("o" if len(poly) == 1 else "None")
        art.set_visible(len(poly) > 0)
    p = np.asarray(certificate.point, dtype=float)[:2]
    plane.cert.set_data([p[0]], [p[1]])
    plane.cert.set_visible(True)


def hull_segments(plane) -> list:
    """Edges of the drawn hulls and the certificate's point (a segment of length 0), which
    the update arrow's label keeps clear of."""
    segs = []
    for art in (plane.hull_pos, plane.hull_neg, plane.cert):
        if art.get_visible():
            x, y = art.get_data()
            pts = np.column_stack([x, y]).astype(float)
            segs += [(pts[i], pts[i + 1]) for i in range(len(pts) - 1)] or [(q, q) for q in pts]
    return segs


def _rect_clearances(centres, hw, hh, segments: np.ndarray) -> np.ndarray:
    """Roughly how far each rectangle ``centre ± (hw, hh)`` stays from the segments, an array
    of shape (m, 2, 2) (negative when one crosses it): the least distance from a 5 x 3 grid of
    its points, less the grid's cell. ``centres`` (c, 2) gives (c,), all at once."""
    grid = np.stack(np.meshgrid(hw * np.linspace(-1, 1, 5), hh * np.linspace(-1, 1, 3)),
                    axis=-1).reshape(1, -1, 1, 2)
    pts = np.asarray(centres, dtype=float)[:, None, None, :] + grid  # (c, 15, 1, 2)
    a, d = segments[None, None, :, 0], segments[None, None, :, 1] - segments[None, None, :, 0]
    dd = np.einsum("...i,...i->...", d, d)
    t = np.clip(np.einsum("...i,...i->...", pts - a, d) / np.where(dd > 0, dd, 1.0), 0.0, 1.0)
    dist = np.linalg.norm(pts - (a + t[..., None] * d), axis=-1)  # (c, 15, m)
    return dist.min(axis=(1, 2)) - float(np.hypot(hw / 4, hh / 2))


def label_beside(start, end, box, *, avoid=(), half=(0.05, 0.02), gap: float = 0.02,
                 pad: float = 0.01):
    """Where to put the label of the arrow ``start -> end``: beside its middle (or past one of
    its ends), clear of the arrow and of the segments in ``avoid`` (the boundary line, the
    normal arrow; a point is a segment of length 0), inside ``box``, and as close to the arrow
    as that allows.

    ``half`` is the label's half width and half height as fractions of the box's span, ``pad``
    the least clearance wanted, and ``gap`` the first distance tried from the arrow. The
    text is anchored on the side facing away from the arrow, so it grows away from it.
    Returns ``(position, ha, va)`` for ``ax.text``.
    """
    start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    xmin, xmax, ymin, ymax = box
    span = max(xmax - xmin, ymax - ymin)
    d = end - start
    length = float(np.linalg.norm(d))
    along = d / length if length > 0 else np.array([1.0, 0.0])
    normal = np.array([-along[1], along[0]])
    mid = (start + end) / 2
    hw, hh = half[0] * span, half[1] * span
    segments = np.array([*avoid, (start, end)], dtype=float).reshape(-1, 2, 2)
    quarter, three = start + 0.25 * d, start + 0.75 * d
    places = [(mid, normal, 0), (mid, -normal, 0), (three, normal, 1), (three, -normal, 1),
              (quarter, normal, 1), (quarter, -normal, 1), (end, along, 2), (start, -along, 2)]
    tries = []
    for reach in (1.0, 2.5, 4.5, 7.0):
        for base, side, rank in places:
            ha = "left" if side[0] > 0.3 else ("right" if side[0] < -0.3 else "center")
            va = "bottom" if side[1] > 0.3 else ("top" if side[1] < -0.3 else "center")
            pos = base + reach * gap * span * side
            centre = pos + np.array([{"left": hw, "right": -hw}.get(ha, 0.0),
                                     {"bottom": hh, "top": -hh}.get(va, 0.0)])
            tries.append((reach, rank, pos, ha, va, centre))
    clears = _rect_clearances([t[5] for t in tries], hw, hh, segments)
    best = None
    for (reach, rank, pos, ha, va, centre), clear in zip(tries, clears.tolist(), strict=True):
        inside = (xmin + hw <= centre[0] <= xmax - hw) and (ymin + hh <= centre[1] <= ymax - hh)
        # clear and inside first; then the nearest reach, beside the middle rather than past
        # an end, and of the two sides the one farther from everything else
        ok = inside and clear > pad * span
        key = (ok, -reach if ok else clear, -rank, clear)
        if best is None or key > best[0]:
            best = (key, pos, ha, va)
    return best[1], best[2], best[3]
