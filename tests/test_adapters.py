"""Private internals of matplotlib, Voila and IPython stay in one adapter module per library
(issue 31), each checked here on the installed version and on a tiny real object:

* no private name of these libraries is reached anywhere else in ``explorer/``;
* each adapter function returns what it should on a real figure, kernel manager or shell;
* the installed version is inside the range the adapter declares it was checked on, so an
  upgrade past it fails here, naming the adapter to re-check;
* the floors ``pyproject.toml`` declares are inside those ranges.
"""

from __future__ import annotations

import ast
import asyncio
import base64
import importlib
import re
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "explorer"
ADAPTERS = {  # module -> the libraries whose private names it alone may reach
    "explorer.plots.mpl_adapter": ("matplotlib",),
    "explorer.serving.voila_adapter": ("voila",),
    "explorer.app.ipython_adapter": ("ipython", "ipywidgets"),
}
ADAPTER_FILES = {PACKAGE.parent / (m.replace(".", "/") + ".py") for m in ADAPTERS}
#: Private names of the libraries that the package reached before issue 31 (and related ones).
PRIVATE = {"_original_dpi", "_set_dpi", "_get_renderer", "_dash_pattern",
           "_unscaled_dash_pattern", "_get_layout", "_left_title", "_right_title",
           "_legend_title_box", "_legend_handle_box", "_text", "_saved_frames", "_pools",
           "_kernels", "_initialize", "_showtraceback", "_pe_guarded"}
#: Library methods that must not be replaced on an instance, nor classes swapped, outside them.
REPLACED = {"get_bbox", "showtraceback", "__class__"}
#: Underscored names that are public API of the standard library.
STDLIB_PUBLIC = {"_exit", "_asdict", "_replace", "_fields", "_make", "_getframe"}


def _sources():
    return {p: ast.parse(p.read_text(encoding="utf-8"), filename=str(p))
            for p in sorted(PACKAGE.rglob("*.py")) if p not in ADAPTER_FILES}


def _own_names(trees) -> set[str]:
    """Names the package itself defines: functions, classes, assigned names and attributes,
    parameters, imports."""
    own = set()
    for tree in trees.values():
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                own.add(n.name)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                own.add(n.id)
            elif (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                  and isinstance(n.value, ast.Name) and n.value.id in ("self", "cls")):
                own.add(n.attr)
            elif isinstance(n, ast.arg):
                own.add(n.arg)
            elif isinstance(n, ast.alias):
                own.add((n.asname or n.name).split(".")[-1])
    return own


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(trees) -> list[str]:
    """``file:line: what`` for each reach into a library's private names outside the adapters."""
    own = _own_names(trees)
    found = []
    for path, tree in trees.items():
        where = path.relative_to(ROOT)
        for n in ast.walk(tree):
            if isinstance(n, ast.Attribute):
                name, on = n.attr, n.value
                mine = isinstance(on, ast.Name) and on.id in ("self", "cls")
                if name in PRIVATE and not mine:
                    found.append(f"{where}:{n.lineno}: {ast.unparse(n)}")
                elif (name.startswith("_") and not name.startswith("__") and name not in own
                      and name not in STDLIB_PUBLIC):
                    found.append(f"{where}:{n.lineno}: {ast.unparse(n)} (not the package's own)")
                elif name in REPLACED and isinstance(n.ctx, ast.Store):
                    found.append(f"{where}:{n.lineno}: {ast.unparse(n)} = ... (replaced)")
            elif isinstance(n, ast.Constant) and n.value in PRIVATE:
                found.append(f"{where}:{n.lineno}: {n.value!r} (by name)")
            elif isinstance(n, (ast.Import, ast.ImportFrom)) and not getattr(n, "level", 0):
                names = [a.name for a in n.names]
                modules = [n.module] if isinstance(n, ast.ImportFrom) else names
                if any(m.split(".")[0] == "explorer" for m in modules):
                    continue
                parts = [p for m in modules for p in m.split(".")]
                if isinstance(n, ast.ImportFrom):
                    parts += names
                if any(_private(p) for p in parts):
                    found.append(f"{where}:{n.lineno}: {ast.unparse(n)}")
    return sorted(found)


def test_no_private_library_name_outside_the_adapters():
    found = private_uses(_sources())
    assert not found, ("private matplotlib/Voila/IPython internals outside their adapter "
                       f"modules ({', '.join(sorted(ADAPTERS))}):\n" + "\n".join(found))


def test_the_scan_finds_what_it_looks_for():
    """The scan is not blind: each kind of reach it forbids is found in a sample."""
    sample = ast.parse("fig._set_dpi(2)\nx = ax._left_title\ngetattr(km, '_pools', {})\n"
                       "area.get_bbox = f\nkm.__class__ = C\nself._saved_frames.append(1)\n"
                       "self._mine = 1\nself._mine.append(2)\nos._exit(0)\n"
                       "from matplotlib.backend_bases import _get_renderer\nimport voila._version\n"
                       "from __future__ import annotations\nfrom ._validation import check_int\n")
    found = private_uses({PACKAGE / "sample.py": sample})
    assert sorted(f.split(": ", 1)[1] for f in found) == sorted([
        "fig._set_dpi", "ax._left_title", "'_pools' (by name)", "area.get_bbox = ... (replaced)",
        "km.__class__ = ... (replaced)", "self._saved_frames (not the package's own)",
        "from matplotlib.backend_bases import _get_renderer", "import voila._version"]), found


# ---------------------------------------------------------------------- checked ranges
def _ranges():
    for module, libs in ADAPTERS.items():
        checked = importlib.import_module(module).CHECKED
        assert set(checked) == set(libs), (module, checked)
        for lib, bounds in checked.items():
            yield module, lib, SpecifierSet(",".join(bounds))


@pytest.mark.parametrize(("module", "lib", "spec"), list(_ranges()),
                         ids=lambda v: str(v).rsplit(".", 1)[-1])
def test_the_installed_version_is_one_the_adapter_was_checked_on(module, lib, spec):
    installed = version(lib)
    assert Version(installed) in spec, (
        f"{lib} {installed} is outside {spec}, the range {module} was checked on: re-check each "
        f"function of {module.replace('.', '/')}.py against {lib} {installed}'s source (its "
        f"test in tests/test_adapters.py too), then widen CHECKED there")


def _floors() -> dict[str, Version]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    out = {}
    for dep in deps:
        m = re.match(r"([A-Za-z0-9_.-]+)\s*([^;]*)", dep)
        for part in m.group(2).split(","):
            if part.strip().startswith(">="):
                out[m.group(1).lower()] = Version(part.strip()[2:])
    return out


def test_declared_floors_are_versions_the_adapters_were_checked_on():
    floors = _floors()
    assert floors["matplotlib"] >= Version("3.10"), "Artist.get_figure(root=True) needs 3.10"
    for module, lib, spec in _ranges():
        if lib in floors:
            assert floors[lib] in spec, (
                f"pyproject.toml lets {lib} {floors[lib]} in, but {module} was checked on {spec}")


# ---------------------------------------------------------------------- matplotlib
@pytest.fixture
def agg_figure():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2), dpi=80)
    FigureCanvasAgg(fig)
    return fig


def test_mpl_dpi_is_the_one_matplotlib_multiplies_by_the_pixel_ratio(agg_figure):
    from explorer.plots import mpl_adapter as mpl

    fig = agg_figure
    assert mpl.css_dpi(fig) == 80
    size = tuple(fig.get_size_inches())
    mpl.set_css_dpi(fig, 100, ratio=2)
    assert (mpl.css_dpi(fig), fig.dpi) == (100, 200)
    assert tuple(fig.get_size_inches()) == size  # inches kept, nothing forwarded
    mpl.set_css_dpi(fig, 90, ratio=1)
    fig.canvas._set_device_pixel_ratio(2)  # what a high-density canvas does itself
    assert (mpl.css_dpi(fig), fig.dpi) == (90, 180)


def test_mpl_renderer_measures_as_an_agg_canvas(agg_figure):
    from matplotlib.figure import Figure

    from explorer.plots import mpl_adapter as mpl

    assert mpl.renderer(agg_figure) is agg_figure.canvas.get_renderer()
    bare = Figure(figsize=(3, 2), dpi=80)  # a FigureCanvasBase: no get_renderer of its own
    assert not hasattr(bare.canvas, "get_renderer")
    texts = [f.text(0.1, 0.5, "Perceptron", fontsize=12) for f in (agg_figure, bare)]
    boxes = [t.get_window_extent(mpl.renderer(t.figure)) for t in texts]
    assert boxes[0].width > 10 and abs(boxes[0].width - boxes[1].width) < 0.5


def test_mpl_dash_pattern_is_in_points_scaled_by_the_width(agg_figure):
    from matplotlib import rcParams

    from explorer.plots import mpl_adapter as mpl

    ax = agg_figure.add_subplot()
    (solid,) = ax.plot([0, 1], [0, 1], lw=2)
    (custom,) = ax.plot([0, 1], [0, 1], ls=(1, (3, 1)), lw=1.5)
    (dashed,) = ax.plot([0, 1], [0, 1], ls="--", lw=2)
    assert mpl.dash_pattern(solid) == (0, None)
    offset, seq = mpl.dash_pattern(custom)
    assert offset == pytest.approx(1.5) and list(seq) == pytest.approx([4.5, 1.5])
    assert list(mpl.dash_pattern(dashed)[1]) == pytest.approx(
        [2 * v for v in rcParams["lines.dashed_pattern"]])


def test_mpl_line_offsets_give_each_line_and_its_baseline(agg_figure):
    from explorer.plots import mpl_adapter as mpl

    renderer = mpl.renderer(agg_figure)
    one = agg_figure.text(0.1, 0.5, "one", fontsize=12, va="baseline")
    assert mpl.line_offsets(one, renderer) == [("one", (0, 0))]  # drawn at its position
    two = agg_figure.text(0.1, 0.5, "one\ntwo lines", fontsize=12, va="top", ha="right")
    ((l1, (x1, y1)), (l2, (x2, y2))) = mpl.line_offsets(two, renderer)
    assert (l1, l2) == ("one", "two lines")
    assert y2 < y1 < 0  # hung below the position, the second line below the first
    assert x2 < x1 < 0  # right-aligned: the longer line starts further left
    width = two.get_window_extent(renderer).width
    assert -x2 == pytest.approx(width, abs=1)


def test_mpl_left_title_is_the_axes_left_title(agg_figure):
    from explorer.plots import mpl_adapter as mpl

    ax = agg_figure.add_subplot()
    ax.set_title("centre")
    ax.set_title("left", loc="left", fontsize=7)
    title = mpl.left_title(ax)
    assert title.get_text() == ax.get_title(loc="left") == "left"
    assert title.get_fontsize() == 7 and any(c is title for c in ax.get_children())
    title.set_text("changed")
    assert ax.get_title(loc="left") == "changed"


def test_mpl_measure_as_leaves_the_text_as_it_was(agg_figure):
    from explorer.plots import mpl_adapter as mpl

    text = agg_figure.text(0.1, 0.5, "ab", fontsize=12)
    agg_figure.canvas.draw()
    assert not text.stale and not agg_figure.stale
    renderer = mpl.renderer(agg_figure)
    wide = mpl.measure_as(text, ["a", "abcdef"], lambda r: text.get_window_extent(r), renderer)
    own = text.get_window_extent(renderer)
    assert wide[0].width < own.width < wide[1].width
    assert text.get_text() == "ab" and not text.stale and not agg_figure.stale


def test_mpl_replace_bbox_sets_the_size_a_legend_packs(agg_figure):
    from matplotlib.transforms import Bbox

    from explorer.plots import mpl_adapter as mpl
    from explorer.plots.live import text_area

    ax = agg_figure.add_subplot()
    ax.plot([0, 1], [0, 1], label="line")
    legend = ax.legend(title="T")
    renderer = mpl.renderer(agg_figure)
    before = legend.get_window_extent(renderer).width
    area = text_area(legend, legend.get_title())
    assert area.get_text() == "T"
    measure = area.get_bbox

    def wider(r):
        b = measure(r)
        return Bbox.from_bounds(b.x0, b.y0, b.width + 100, b.height)

    mpl.replace_bbox(area, wider)
    agg_figure.canvas.draw()
    after = legend.get_window_extent(renderer).width
    assert after >= measure(renderer).width + 100 > before  # the legend packed the title's box


def test_mpl_html_frames_are_the_ones_the_writer_embeds(agg_figure, tmp_path):
    from matplotlib.animation import HTMLWriter

    from explorer.plots import mpl_adapter as mpl

    out = tmp_path / "a.html"
    writer = HTMLWriter(fps=2, embed_frames=True)
    writer.setup(agg_figure, out, dpi=80)
    assert mpl.html_frames(writer) == []
    frame = base64.encodebytes(b"not really a png").decode("ascii")
    mpl.html_frames(writer).append(frame)
    writer.finish()
    assert frame.strip() in out.read_text()


# ---------------------------------------------------------------------- Voila
def _voila_manager(tmp_path, *, preheat: bool):
    from traitlets.config import Configurable
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    from explorer.serving.hall import HallKernelManager

    class App(Configurable):  # what the kernel manager reads of the Voila app
        root_dir = str(tmp_path)  # no notebooks: nothing is preheated at start
        notebook_path = None
        base_url = server_url = "/"
        port = 0

    cls = voila_kernel_manager_factory(HallKernelManager, preheat, 0)
    return cls(parent=App(), root_dir=str(tmp_path))


def test_voila_pools_hold_the_preheated_kernels(tmp_path):
    from explorer.serving import voila_adapter as va
    from explorer.serving.hall import pooled_kernel_ids

    plain = _voila_manager(tmp_path, preheat=False)
    assert not va.has_pool(plain) and va.pools(plain) == {}
    km = _voila_manager(tmp_path, preheat=True)
    assert va.has_pool(km) and va.pools(km) == {}

    async def started(notebook_name, kernel_id=None, **kwargs):  # a kernel, without a kernel
        return {"kernel_id": f"k-{notebook_name}"}

    km._initialize = started
    km.kernel_pools_config = {"default": {"pool_size": 2}}

    async def fill():
        km.fill_if_needed(delay=0, notebook_name="nb.ipynb")
        await asyncio.gather(*va.pools(km)["nb.ipynb"])

    with ThreadPoolExecutor(1) as pool:  # a loop of its own (see test_hall)
        pool.submit(asyncio.run, fill()).result()
    assert list(va.pools(km)) == ["nb.ipynb"] and km.get_pool_size("nb.ipynb") == 2
    assert pooled_kernel_ids(km) == {"k-nb.ipynb"}


def test_voila_mix_in_puts_the_hall_before_voilas_pool(tmp_path):
    from explorer.serving import voila_adapter as va
    from explorer.serving.hall import HallPool, hall_kernel_manager
    from explorer.serving.room import Room

    km = _voila_manager(tmp_path, preheat=True)
    voila_cls = type(km)
    hall_kernel_manager(km, Room(max_pages=2))
    assert type(km).__name__ == "Hall" + voila_cls.__name__
    assert type(km).__mro__[1:3] == (HallPool, voila_cls)
    assert type(km).fill_if_needed is HallPool.fill_if_needed
    hall_kernel_manager(km, Room(max_pages=2))  # again: not wrapped twice
    assert type(km).__mro__[1:3] == (HallPool, voila_cls)
    plain = _voila_manager(tmp_path, preheat=False)
    assert type(hall_kernel_manager(plain, Room(max_pages=2))) is type(plain)  # no pool: left alone
    name = type(plain).__name__
    assert type(va.mix_in(plain, HallPool, prefix="X")).__name__ == "X" + name


def test_hall_culls_the_kernels_jupyter_server_lists(tmp_path):
    """The hall's concurrent culler goes over ``list_kernel_ids()`` (public), as the stock
    culler goes over its private table, and refills the pool after."""
    from explorer.serving.hall import HallKernelManager

    km = HallKernelManager(root_dir=str(tmp_path))
    km.list_kernel_ids = lambda: ["a", "b"]  # two kernels, without starting any
    checked, refilled = [], []

    async def cull_kernel_if_idle(kernel_id):
        checked.append(kernel_id)
        if kernel_id == "a":
            raise RuntimeError("logged, and the next one is still checked")

    km.cull_kernel_if_idle = cull_kernel_if_idle
    km.refill = lambda delay: refilled.append(delay)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, km.cull_kernels()).result()
    assert sorted(checked) == ["a", "b"] and refilled == [0]


# ---------------------------------------------------------------------- IPython
@pytest.fixture
def ipython_shell(monkeypatch):
    import atexit
    import sys

    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    # a shell makes its namespace sys.modules["__main__"]: the test process gets its own back
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    shell = InteractiveShell(config=config)  # not the singleton: get_ipython() stays as it is
    yield shell
    atexit.unregister(shell.atexit_operations)


def _click_failing_button(monkeypatch, shell):
    import ipywidgets as W
    import ipywidgets.widgets.widget as widget_module

    monkeypatch.setattr(widget_module, "get_ipython", lambda: shell)
    button = W.Button()
    button.on_click(lambda _: 1 / 0)
    button._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "click"}}},
                        "buffers": []})


def test_ipython_route_tracebacks_gets_a_failing_callback(monkeypatch, ipython_shell):
    from explorer.app import ipython_adapter as ia

    seen = []
    assert ia.route_tracebacks(ipython_shell, lambda *a, **k: seen.append("routed"))
    assert not ia.route_tracebacks(ipython_shell, lambda *a, **k: seen.append("twice"))
    _click_failing_button(monkeypatch, ipython_shell)
    assert seen == ["routed"]


def test_ipython_public_custom_exc_does_not_see_widget_callbacks(monkeypatch, ipython_shell):
    """Why the adapter exists: ``set_custom_exc`` (public) is not consulted for the traceback
    ipywidgets asks for; if it ever is, the adapter can go."""
    custom, shown = [], []
    ipython_shell.set_custom_exc((Exception,), lambda *a, **k: custom.append(a))
    monkeypatch.setattr(ipython_shell, "_showtraceback", lambda *a: shown.append(a[0]))
    _click_failing_button(monkeypatch, ipython_shell)
    assert custom == [] and shown == [ZeroDivisionError]
