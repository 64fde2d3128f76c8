"""The XOR figure's moving parts, described once per step and drawn by matplotlib
(:func:`apply`) or by the page (the :func:`tracks` of a :class:`~explorer.plots.scene.Scene`).

Each view that plays a run (cycling, feature, layers, kernel) describes step ``k`` as
``{track name: {array name: value}}`` (:meth:`explorer.plots.xor_steps.XorSteps.step_parts`);
the tracks here say what each part is and how it looks, read from the matplotlib artist that
draws it. The region a classifier gives each class is a two-colour ``raster`` (its bits
packed, a run of 2000 steps stays small); the "so far" curves are ``prefix`` es of their
whole run's staircase (steps 0 to ``k`` only, as :data:`explorer.plots.style.SO_FAR` says);
the lifted view's parts are 3-D (:mod:`explorer.plots.view3d`).
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_hex

from . import tracks as T
from .scene import Track
from .xor_ways import NEG_TINT, POS_TINT, region_rgba

#: The page's two still layers split at this z order: the points and their numbers (z 5, 6)
#: over the tint and the lines, the visited point's ring (z 6) over them.
SPLIT_Z = 4.5
#: Views whose steps move something (the others are still: proof, grid).
STEPPED = ("cycling", "feature", "layers", "kernel")
TINTS = [to_hex(NEG_TINT, keep_alpha=True), to_hex(POS_TINT, keep_alpha=True)]
EMPTY3 = np.zeros((0, 3))


# ---------------------------------------------------------------------- helpers
def bits(F) -> np.ndarray:
    """The sign image ``F >= 0`` (R, C), its bits packed along each row (R, ceil(C / 8))."""
    return np.packbits(np.asarray(F) >= 0, axis=-1)


def set_raster(image, packed, cols: int) -> None:
    """An ``imshow`` image from packed bits: the class +1 tint where a bit is set."""
    on = np.unpackbits(np.asarray(packed, dtype=np.uint8), axis=-1, count=int(cols))
    image.set_data(region_rgba(on.astype(float) - 0.5))


def raster_track(name: str, panel: str, image, box, shape) -> Track:
    """A ``raster`` track over ``box`` (xmin, xmax, ymin, ymax) of ``shape`` (rows, cols)."""
    rows, cols = shape
    return Track(name, panel, "raster", z=image.get_zorder(), style={"colors": TINTS},
                 data={"data": np.array([[box[0], box[2]], [box[1], box[3]], [cols, rows]],
                                        dtype=float)})


def staircase(values) -> np.ndarray:
    """A steps-post curve of ``values`` at steps 0, 1, ...: (0, v0), (1, v0), (1, v1), ...;
    its first ``2 k + 1`` vertices end at ``(k, v_k)``."""
    v = np.asarray(values, dtype=float)
    k = np.arange(len(v), dtype=float)
    out = np.empty((2 * len(v) - 1, 2)) if len(v) else np.zeros((0, 2))
    out[0::2] = np.column_stack([k, v])
    out[1::2] = np.column_stack([k[1:], v[:-1]])
    return out


def joined(segments) -> np.ndarray:
    """Polylines as one array with NaN rows between them (a ``polyline`` track)."""
    rows = []
    for s in segments:
        rows += [np.asarray(s, dtype=float), np.full((1, 2), np.nan)]
    return np.vstack(rows) if rows else T.EMPTY


def ring_style(line, pt: float) -> dict:
    """An open ring marker (a ``Line2D`` with ``mfc="none"``)."""
    return T.marker_style(line, pt) | {"fill": "none"}


# ---------------------------------------------------------------------- tracks
def tracks(fig, pt: float) -> list:
    """The tracks of the view shown (layers set by the figure from the z order)."""
    v = fig.view
    if v not in STEPPED:
        return []
    out = [raster_track("region", "plane", fig.image, fig.box, fig.grid_shape)]
    if v == "cycling":
        out += [Track("line", "plane", "polyline", z=fig.line.get_zorder(),
                      style=T.line_style(fig.line, pt)),
                Track("pocket", "plane", "polyline", z=fig.line2.get_zorder(),
                      style=T.line_style(fig.line2, pt))]
        for name, line in (("updates", fig.upd_curve), ("wrong_now", fig.err_now),
                           ("wrong_kept", fig.err_kept)):
            panel = "updates" if name == "updates" else "wrong"
            out.append(Track(name, panel, "prefix", z=line.get_zorder(),
                             style=T.line_style(line, pt), data={"data": fig.stairs[name]}))
        out += [Track("updates_dot", "updates", "points", z=fig.upd_dot.get_zorder(),
                      style=T.marker_style(fig.upd_dot, pt)),
                Track("cycle_span", "updates", "polygon", z=fig.upd_cycle.get_zorder(),
                      style=T.polygon_style(fig.upd_cycle, pt)),
                Track("cycle_note", "updates", "text", z=fig.upd_note.get_zorder(),
                      style=T.text_style(fig.upd_note, pt)),
                Track("wrong_cursor", "wrong", "vline", z=fig.err_cursor.get_zorder(),
                      style=T.line_style(fig.err_cursor, pt))]
    if v in ("feature", "kernel"):
        out.append(Track("curve", "plane", "polyline", z=fig.curve.get_zorder(),
                         style=_collection_style(fig.curve, pt)))
    if v in ("cycling", "feature", "kernel"):
        out.append(Track("ring", "plane", "points", z=fig.ring.get_zorder(),
                         style=ring_style(fig.ring, pt)))
    if v == "feature":
        out += fig.lifted.tracks("lift", pt)
    elif v == "layers":
        h = fig.hidden
        out += [raster_track("hidden_region", "hidden", h.image, h.box, h.shape),
                Track("hidden_line", "hidden", "polyline", z=h.line.get_zorder(),
                      style=T.line_style(h.line, pt))]
    elif v == "kernel":
        d = fig.duals
        for i, (bar, text) in enumerate(zip(d.bars, d.values, strict=True)):
            out += [Track(f"alpha_{i}", "duals", "polygon", z=bar.get_zorder(),
                          style=T.polygon_style(bar, pt)),
                    Track(f"alpha_text_{i}", "duals", "text", z=text.get_zorder(),
                          style=T.text_style(text, pt))]
        out += [Track("kernel_updates", "kernel_updates", "prefix", z=fig.k_curve.get_zorder(),
                      style=T.line_style(fig.k_curve, pt), data={"data": fig.stairs["kernel"]}),
                Track("kernel_dot", "kernel_updates", "points", z=fig.k_dot.get_zorder(),
                      style=T.marker_style(fig.k_dot, pt))]
    return out


def _collection_style(coll, pt: float) -> dict:
    color, alpha = T.hex_alpha(coll.get_colors()[0], coll.get_alpha())
    return {"color": color, "alpha": alpha, "width": round(float(coll.get_linewidths()[0]) * pt, 3)}


def artists(fig) -> dict:
    """Track name -> the matplotlib artist that draws it, in the view shown."""
    v = fig.view
    if v not in STEPPED:
        return {}
    out = {"region": fig.image}
    if v == "cycling":
        out |= {"line": fig.line, "pocket": fig.line2, "updates": fig.upd_curve,
                "wrong_now": fig.err_now, "wrong_kept": fig.err_kept,
                "updates_dot": fig.upd_dot, "cycle_span": fig.upd_cycle,
                "cycle_note": fig.upd_note, "wrong_cursor": fig.err_cursor}
    if v in ("feature", "kernel"):
        out["curve"] = fig.curve
    if v in ("cycling", "feature", "kernel"):
        out["ring"] = fig.ring
    if v == "feature":
        out |= fig.lifted.artists()
    elif v == "layers":
        out |= {"hidden_region": fig.hidden.image, "hidden_line": fig.hidden.line}
    elif v == "kernel":
        for i, (bar, text) in enumerate(zip(fig.duals.bars, fig.duals.values, strict=True)):
            out |= {f"alpha_{i}": bar, f"alpha_text_{i}": text}
        out |= {"kernel_updates": fig.k_curve, "kernel_dot": fig.k_dot}
    return out
