"""What each view of the XOR figure shows at step ``k``, and the sentence that says it.

:class:`XorSteps` is mixed into :class:`explorer.plots.xor.XorFigure`, which owns the artists.
A view that plays a run describes step ``k`` once, ``_parts_<view>(scene, k) -> (parts,
narration)`` (:mod:`explorer.plots.xor_parts`: matplotlib and the page draw those parts); a
view without a run, ``_show_<view>(scene, k)``, moves the artists to its fixed picture and
returns the narration.
"""

from __future__ import annotations

import numpy as np

from ..perceptron.replay import frame
from ..shared.geometry import clip_line
from ..shared.i18n import tr
from ..shared.number_format import ROUNDOFF, number_text
from ..xor import HIDDEN_PAIRS, Scene, function, lift
from . import tracks as T
from .overlays import set_hulls
from .xor_parts import bits, joined
from .xor_ways import set_line, zero_segments

__all__ = ["XorSteps"]


def _vec(v) -> str:
    return "(" + ", ".join(number_text(a, noise=ROUNDOFF) for a in np.ravel(v)) + ")"


def _equation(w, b) -> str:
    """``w1·x₁ + w2·x₂ + w3·x₁x₂ + b`` with its signs written once and zero terms left out."""
    parts = [(float(c), name) for c, name in zip((*w, b), ("x₁", "x₂", "x₁x₂", ""), strict=True)
             if abs(float(c)) > 5e-13]
    if not parts:
        return "0"
    out = ""
    for j, (c, name) in enumerate(parts):
        mag = number_text(abs(c), noise=ROUNDOFF)
        term = (name if mag == "1" and name else f"{mag}·{name}" if name else mag)
        out += ("−" if c < 0 else "") + term if j == 0 else (" − " if c < 0 else " + ") + term
    return out


class XorSteps:
    """The per-view step drawing of :class:`explorer.plots.xor.XorFigure` (a mixin)."""

    def step_parts(self, k: int) -> tuple[dict, str]:
        """The moving parts of the view shown at step ``k`` and the narration."""
        return getattr(self, f"_parts_{self.view}")(self.xor_scene, int(k))

    def _seg(self, w, b, box=None) -> np.ndarray:
        w = np.asarray(w, dtype=float)
        box = self.box if box is None else box
        return T.segment(clip_line(w, float(b), box) if np.any(w) else None)

    def _ring_at(self, i) -> dict:
        return {"xy": T.EMPTY if i is None else self.xor_scene.X[[int(i)]]}

    def _parts_cycling(self, sc: Scene, k: int) -> tuple[dict, str]:
        t = sc.run.trajectory
        k = min(k, t.n_steps)
        f = frame(t, sc.X, sc.y, k, info=sc.info)
        _, _, gx, gy = self._grid()
        w = np.asarray(f.w, dtype=float)
        p = {"region": {"bits": bits(w[0] * gx + w[1] * gy + f.b)},
             "line": {"xy": self._seg(w, f.b)},
             "pocket": {"xy": self._seg(f.kept_w, f.kept_b) if f.kept_w is not None
                        else T.NAN_SEG.copy()},
             "ring": self._ring_at(f.picked[0] if f.picked else None)}
        # "so far": steps 0 to k, nothing of the later steps
        n = 2 * k + 1
        p |= {"updates": {"n": n}, "wrong_now": {"n": n}, "wrong_kept": {"n": n},
              "updates_dot": {"xy": np.array([[k, f.n_updates]], dtype=float)},
              "wrong_cursor": {"x": float(k)}}
        c = sc.run.cycle
        found = c.found and k >= c.step
        (x0, x1), (y0, y1) = self.ax_upd.get_xlim(), self.ax_upd.get_ylim()
        if found:
            a, b = c.start_step, c.start_step + c.length
            p["cycle_span"] = {"xy": np.array([[a, y0], [b, y0], [b, y1], [a, y1]], float)}
            p["cycle_note"] = {"xy": np.array([x0 + 0.02 * (x1 - x0), y0 + 0.70 * (y1 - y0)]),
                               "text": tr("cycle of length {length} found at step {step}").format(
                                   length=c.length, step=c.step),
                               "ha": "left", "va": "top"}
        else:
            p["cycle_span"] = {"xy": T.EMPTY}
            p["cycle_note"] = T.hidden_text("left", "top")
        text = f.text
        if found:
            text += " " + tr("The state repeats: cycle of length {length} found at step {step} "
                             "(the state after step {step} equals the one after step {start})."
                             ).format(length=c.length, step=c.step, start=c.start_step)
        return p, text

    def _show_proof(self, sc: Scene, k: int) -> str:
        sep = sc.separability
        self.image.set_data(np.zeros((2, 2, 4)))
        if sep.separable:
            self._linear(sep.w, sep.b)
            w, b = _vec(sep.w), number_text(sep.b, noise=ROUNDOFF)
            self.text.set_text(tr(
                "A line exists. The LP of Sayed P60.4–60.6 finds\n"
                "w = {w}, b = {b} with yᵢ(⟨w, xᵢ⟩ + b) ≥ 1\n"
                "for all four corners, so the perceptron converges.").format(w=w, b=b))
            return tr("{name} is linearly separable: the LP finds the line w = {w}, b = {b}."
                      ).format(name=function(sc.code).name, w=w, b=b)
        cert = sep.certificate
        set_hulls(self, sc.X, sc.y, cert)
        p = cert.point

        def combo(idx, lam):
            return " + ".join(f"{number_text(a, noise=ROUNDOFF)}·{_vec(sc.X[i])}"
                              for i, a in zip(idx, lam, strict=True) if a > 0)

        self.text.set_text(tr(
            "Why no line separates the classes\n\n"
            "The LP  yᵢ(⟨w, xᵢ⟩ + b) ≥ 1 for all i  has no solution\n"
            "(Sayed P60.4–60.6). Its Farkas certificate is a point\n"
            "in both convex hulls:\n\n"
            "  {pos}\n  = {point}  (class +1)\n"
            "  {neg}\n  = {point}  (class −1)\n\n"
            "A line with every +1 corner on its + side has every\n"
            "average of them there too, the ★ included; the same\n"
            "for the −1 side. The ★ cannot be on both sides.").format(
                pos=combo(cert.pos_index, cert.pos_weights),
                neg=combo(cert.neg_index, cert.neg_weights), point=_vec(p)))
        return tr("No line separates {name}: the LP's certificate, the point {point}, is an "
                  "average of the +1 corners and also of the −1 corners, so the two hulls cross "
                  "there (the linear program of separability, Sayed P60.4–P60.6).").format(
                      name=function(sc.code).name, point=_vec(p))

    def _show_grid(self, sc: Scene, k: int) -> str:
        t = sc.grid[sc.code].trajectory
        if t.converged:
            self._linear(t.final_w, t.final_b)
        else:
            self.image.set_data(np.zeros((2, 2, 4)))
        ok = sum(r.trajectory.converged for r in sc.grid)
        return tr("{ok} of the 16 Boolean functions of two inputs train to convergence; XOR and "
                  "XNOR cycle (Sayed appendix 60.B: 14 separable). Click a tile, or choose one "
                  "and press Open, to play it. Selected: {name}.").format(
                      ok=ok, name=function(sc.code).name)

    def _parts_feature(self, sc: Scene, k: int) -> tuple[dict, str]:
        t = sc.lifted.trajectory
        k = min(k, t.n_steps)
        w, b = t.state(k)
        xs, ys, gx, gy = self._grid()
        F = w[0] * gx + w[1] * gy + w[2] * gx * gy + b
        p = {"region": {"bits": bits(F)}, "curve": {"xy": joined(zero_segments(xs, ys, F))},
             "ring": self._ring_at(int(t.picked[k - 1]) if k else None)}
        p |= self.lifted.parts(w, b)
        Z = lift(sc.X)
        wrong = int(np.sum(np.where(Z @ w + b >= 0, 1, -1) != sc.y))
        values = dict(k=k, n=t.n_steps, w=_vec(w), b=number_text(b, noise=ROUNDOFF),
                      wrong=wrong, boundary=_equation(w, b))
        if k == t.n_steps and t.converged:
            return p, tr("Step {k} of {n} of the perceptron on (x₁, x₂, x₁·x₂): w = {w}, b = {b}; "
                         "converged: the plane separates all four lifted points. In the plane "
                         "its boundary is {boundary} = 0 (Hardt & Recht, ch. 3: add the product "
                         "to the features).").format(**values)
        return p, tr("Step {k} of {n} of the perceptron on (x₁, x₂, x₁·x₂): w = {w}, b = {b}; "
                     "{wrong} of 4 on the wrong side. In the plane its boundary is "
                     "{boundary} = 0 (Hardt & Recht, ch. 3: add the product to the "
                     "features).").format(**values)

    def _still_layers(self, sc: Scene) -> None:
        """What the two-layer view shows at every step: the hidden units' lines."""
        (w1, b1), (w2, b2) = sc.net.hidden_lines()
        set_line(self.line, w1, b1, self.box)
        set_line(self.line2, w2, b2, self.box)

    def _parts_layers(self, sc: Scene, k: int) -> tuple[dict, str]:
        net = sc.net
        t = net.output.trajectory
        k = min(k, t.n_steps)
        _, _, gx, gy = self._grid()
        out = net.forward(np.column_stack([gx.ravel(), gy.ravel()]), k).reshape(gx.shape)
        w, b = t.state(k)
        hidden = self.hidden
        hx, hy = hidden.grid()
        p = {"region": {"bits": bits(out)},
             "hidden_region": {"bits": bits(w[0] * hx + w[1] * hy + b)},
             "hidden_line": {"xy": self._seg(w, b, hidden.box)}}
        names = [function(c).name for c in HIDDEN_PAIRS[net.pair][1]]
        pred = net.forward(net.X, k)
        right = int(np.sum(pred == net.y))
        values = dict(h1=names[0], h2=names[1], corners=", ".join(_vec(h) for h in net.H),
                      k=k, n=t.n_steps, w=_vec(w), b=number_text(b, noise=ROUNDOFF), right=right)
        if net.separable:
            return p, tr("Hidden units {h1} and {h2} map the corners to {corners}; the output "
                         "unit's line separates them. Output unit, step {k} of {n}: w = {w}, "
                         "b = {b}; the network gets {right} of 4 right.").format(**values)
        return p, tr("Hidden units {h1} and {h2} map the corners to {corners}; no line "
                     "separates them there either: corners that share a hidden point but not a "
                     "label. Output unit, step {k} of {n}: w = {w}, b = {b}; the network gets "
                     "{right} of 4 right.").format(**values)

    def _parts_kernel(self, sc: Scene, k: int) -> tuple[dict, str]:
        run = sc.kernel
        k = min(k, run.n_steps)
        xs, ys, gx, gy = self._grid()
        F = run.decision(k, np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
        p = {"region": {"bits": bits(F)}, "curve": {"xy": joined(zero_segments(xs, ys, F))},
             "ring": self._ring_at(int(run.picked[k - 1]) if k else None)}
        alpha = run.alpha(k)
        for i, (bar, a) in enumerate(zip(self.duals.bars, alpha, strict=True)):
            x0, x1, a = bar.get_x(), bar.get_x() + bar.get_width(), float(a)
            p[f"alpha_{i}"] = {"xy": np.array([[x0, 0], [x1, 0], [x1, a], [x0, a]], float)}
            p[f"alpha_text_{i}"] = {"xy": np.array([(x0 + x1) / 2, a]), "text": str(int(a)),
                                    "ha": "center", "va": "bottom"}
        p["kernel_updates"] = {"n": 2 * k + 1}
        p["kernel_dot"] = {"xy": np.array([[k, run.updates_until(k)]], dtype=float)}
        right = int(np.sum(run.predict(k, sc.X) == sc.y))
        values = dict(c=number_text(run.c, noise=ROUNDOFF), degree=run.degree, k=k,
                      n=run.n_steps, alpha=_vec(alpha), right=right)
        if k == run.n_steps and run.converged:
            return p, tr("Kernel perceptron, K(x, x') = (⟨x, x'⟩ + {c})^{degree}, step {k} of "
                         "{n}: α = {alpha}, {right} of 4 right. Converged: a full pass without "
                         "an update.").format(**values)
        return p, tr("Kernel perceptron, K(x, x') = (⟨x, x'⟩ + {c})^{degree}, step {k} of {n}: "
                     "α = {alpha}, {right} of 4 right.").format(**values)
