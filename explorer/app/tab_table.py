"""The dashboard's tabs: which there are, how each is loaded, and what is done before a
visitor asks (imports in a thread, a preheated kernel's warm-up).

A tab is named by a key (``tab=`` in a link), titled (translated where shown) and made by a
view class imported on first use (:func:`tab_class`), so that a page open imports only the tab
it shows; the others' modules are imported in a thread once the page is up
(:func:`preload_later`).
"""

from __future__ import annotations

import importlib
import threading

from ..shared.i18n import N_

#: (key, title, "module:Class") per tab; the class follows the tab protocol of PerceptronView:
#: made with ``Class(fitted=FigureFit or None)`` (the figure's size for the window, None before
#: the page measured it), ``spec``, ``save_state()``, ``load_state(dict, origin=None)``,
#: ``changed`` (trait), ``messages``, ``timeline``, ``fit(FigureFit)``, ``show_settings(bool)``,
#: ``handle_key(key)``.
TABS = [("perceptron", N_("Perceptron"), "explorer.app.perceptron:PerceptronView"),
        ("margins", N_("Margins"), "explorer.app.margins:MarginsView"),
        ("cover", N_("Cover"), "explorer.app.cover:CoverView"),
        ("xor", N_("XOR"), "explorer.app.xor:XorView"),
        ("generalization", N_("Generalization"),
         "explorer.app.generalization:GeneralizationView")]
#: Seconds after the page is built before the other tabs' modules are imported in a thread
#: (:func:`preload_tabs`): after the first picture, beside the Perceptron tab's solvers (their
#: import starts 2.5 s after the page is built, about 1.5 s of CPU, and the tabs need some of
#: them: each module is imported once, by whichever thread comes first).
PRELOAD_AFTER_S = 3.0
#: What a tab's first opening imports besides its own modules: scikit-learn's data sets (the
#: Generalization tab's risk panel reads iris and breast cancer when it is made) and the kernel
#: perceptron (the XOR tab's scene runs it).
PRELOAD_MODULES = ("sklearn.datasets", "explorer.xor.kernel_perceptron")


def _load(target: str):
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def tab_class(tab, *, tabs=TABS):
    """The view class of the tab called ``tab`` (importing its module), or None if none is."""
    target = next((t for key, _, t in tabs if key == tab), None)
    return None if target is None else _load(target)


def tab_spec(tab, *, tabs=TABS):
    """The state spec of the tab called ``tab`` (importing its module), or None if none is."""
    cls = tab_class(tab, tabs=tabs)
    return None if cls is None else cls.spec


def preload_tabs(tabs=TABS) -> None:
    """Import every tab's modules and :data:`PRELOAD_MODULES`: what opening each tab the
    first time would otherwise import in front of the visitor (0.05-0.3 s a tab; about 5 MB
    of memory for all of them, which opening every tab takes anyway)."""
    for _, _, target in tabs:
        importlib.import_module(target.split(":")[0])
    for name in PRELOAD_MODULES:
        importlib.import_module(name)


def preload_later(tabs=TABS) -> threading.Thread:
    """:func:`preload_tabs` in a daemon thread (started now); a failure is left to the tab's
    own opening, which imports the same modules and reports it."""
    def run():
        try:
            preload_tabs(tabs)
        except Exception:  # noqa: BLE001 - the tab's opening says what failed
            pass

    thread = threading.Thread(target=run, name="pe-preload", daemon=True)
    thread.start()
    return thread


def warm_up() -> None:
    """Do ahead of time what the first page open would otherwise do in front of the visitor.

    For preheated kernels (``perceptron-explorer --hall``, :mod:`explorer.serving.hall`), which run this
    before anyone asks for a page: import the first tab and the solvers its run needs
    (scikit-learn's libsvm for the margin of the bound, scipy's HiGHS for the separability LP),
    train and describe the opening run, and draw it once on an off-screen figure, so fonts,
    text layout and the first solves are cached; import the other tabs' modules
    (:func:`preload_tabs`). No widget is created. Measured in docs/performance.md ("page open
    -> interactive, preheated").
    """
    from ..plots.figure import PerceptronFigure
    from .perceptron.model import PerceptronModel
    from .perceptron.view import PerceptronView  # noqa: F401 - the tab's module and its imports

    model = PerceptronModel()
    figure = PerceptronFigure()
    figure.set_run(model.trajectory, model.X, model.y, model.info)
    figure.show(0)
    figure.fig.canvas.draw()
    preload_tabs()
