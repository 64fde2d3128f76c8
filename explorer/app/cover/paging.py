"""How the Cover tab's view keeps the page's figure showing its model (a mixin of
:class:`~explorer.app.cover.view.CoverView`): a new scene only when what the still layers show
changes (the view, the curves, the table, the tile grid), otherwise what moved alone (the Monte
Carlo points come since, the settled step, the static tracks that changed); the page's
transport, keys and clicks for the view shown; clicks in data coordinates.
"""

from __future__ import annotations

from ..pagefigure import Pointer
from ..pagerun import CHUNK_STEPS
from ..timeline import KEY_ACTIONS
from .scenes import curves_text, shown_mc
from .tables import boolean_html, recursion_html

#: How far (data units of the plane) a click may be from a point it removes.
PICK = 0.08
#: Steps per chunk of a Monte Carlo run: the page shows its last step, and each point that
#: comes sends the chunks around it again (every step holds the points so far).
MC_CHUNK = 8


class PageDrawing:
    """The page side of :class:`~explorer.app.cover.view.CoverView` (see the module
    docstring); the view has built ``page``, ``paged``, ``drawn`` (a
    :class:`~explorer.app.cover.page.CoverPage`), ``timeline``, ``_no_steps`` and
    ``_page_key`` (what the page's still layers show)."""

    def _redraw(self, *, keep_refusal: bool = True):
        """The page shows the model: a new scene when what its still layers show changed
        (the view, the curves, the table), else only what moved (the Monte Carlo points come
        since, the settled step, the static tracks that changed)."""
        m = self.model
        view = m.view
        self._page_mode()
        try:
            if view == "recursion":
                self.table.value = (f"<details><summary>The table as text</summary>"
                                    f"{recursion_html(m.table, m.step)}</details>")
                if self._page_key != ("recursion", id(m.table)):
                    self._new_scene(("recursion", id(m.table)), step=m.step)
                else:
                    self.paged.go(m.step)
                text = self.recursion.show(m.step)  # the kernel's figure follows
            elif view == "curves":
                self.table.value = ""
                text = curves_text(m)
                self._show_curves()
            else:
                text = self._fill(self.figure, view, post=self._post())
                self.drawn.text = text
                counted = view == "boolean" and m.boolean_rows(self._post())[1] is not None
                self.table.value = (boolean_html(m.boolean_rows(self._post())[0])
                                    if view == "boolean" else "")
                key = (view, counted)
                static = self.figure.restage() if key == self._page_key else None
                if static is None:
                    self._new_scene(key, step=0)
                else:
                    self.page.send_static(static, narration=text, changed_only=True)
        except (ValueError, OverflowError, FloatingPointError) as exc:
            self.messages.refuse(f"Could not draw: {exc}")
            return
        self.messages.narrate(text, keep_refusal=keep_refusal)
        self.changed += 1

    def _show_curves(self) -> None:
        """The curves view in the page: the Monte Carlo points come since as a grown run over
        the same still layers, or a new scene."""
        m = self.model
        key = ("curves", tuple(m.ms), m.xaxis)
        mc = tuple(shown_mc(m))
        if key == self._page_key:
            if mc == self.drawn.mc:
                return  # the page shows them
            scene = self.drawn.grow()
            if scene is not None:
                self._no_steps.set_run(scene.n_steps, start=scene.n_steps)
                self.paged.send_scene(scene, step=scene.n_steps)
                return
        self._new_scene(key, step=len(mc))

    def _new_scene(self, key: tuple, *, step: int) -> None:
        """A new scene of the view shown, at ``step`` (its still layers show ``key``)."""
        recursion = self.model.view == "recursion"
        self.timeline.play.playing = False  # a new run: the page stops playing
        self.paged.timeline = self.timeline if recursion else self._no_steps
        self.paged.chunk_steps = MC_CHUNK if self.model.view == "curves" else CHUNK_STEPS
        if not recursion:
            self._no_steps.set_run(step, start=step)
        self._page_key = None  # (until it is sent)
        self.paged.show(step=step)
        self._page_key = key

    def _page_mode(self) -> None:
        """The page's transport, keys and clicks for the view shown: the recursion steps, the
        other views do not (the curves view shows every Monte Carlo point come so far)."""
        steps = self.model.view == "recursion"
        self.page.show_transport = steps
        keys = dict(KEY_ACTIONS) if steps else {}
        if self.page.key_actions != keys:
            self.page.key_actions = keys
        self.keys_help.layout.display = "" if steps else "none"
        self._pointer_mode()

    def _pointer_mode(self) -> None:
        view = self.model.view
        mode = ("view" if view not in ("dichotomies", "boolean") else "choose"
                if view == "boolean" else "remove" if self.w_click.value == "remove" else "add+")
        if self.page.pointer_mode != mode:
            self.page.pointer_mode = mode

    def _chosen(self) -> None:
        """A dichotomy or Boolean function chosen: its tile outlined (one static track)."""
        if not self._syncing and self.model.view in ("dichotomies", "boolean"):
            self._redraw()

    def _on_pointer(self, p: Pointer) -> None:
        """A click in the page's figure, in the data coordinates of the panel clicked: in the
        plane it places or removes a point, on a tile it chooses that dichotomy or function
        and opens it in the Perceptron tab."""
        f, m = self.figure, self.model
        if m.view == "dichotomies" and p.panel == "plane":
            if p.mode == "remove":
                i = m.nearest_point(p.x, p.y, PICK)
                if i is None:
                    m.refuse("no point there; click on a point")
                    self.page.pointer_done()
                else:
                    m.remove_point(i)
            elif not m.add_point(p.x, p.y):
                self.page.pointer_done()
        elif m.view == "dichotomies" and p.panel == "tiles":
            k = f.tiles.tile_at(p.x, p.y)
            if k is not None:
                self.w_dich.value = int(m.page_ids[k])
                self._open_dichotomy(int(m.page_ids[k]))
        elif m.view == "boolean" and p.panel == "bool_tiles":
            k = f.bool_tiles.tile_at(p.x, p.y)
            if k is not None:
                self.w_bool.value = k
                self._open_boolean(k)
