"""Symbols and jargon are defined where they appear; equation numbers come with words (issue 19,
item 17).

Each tab is built without a browser and taken through several states; everything it puts on
screen (its widgets' text, the figure's titles, labels, legends and notes, the narration of a
few steps) is searched for the symbols of :data:`explorer.app.symbols.SYMBOLS`. Every symbol
found must be defined in the tab's own Symbols line, which must be on screen.
"""

from __future__ import annotations

import ast
import html
import pathlib
import re

import ipywidgets as W  # noqa: E402
import pytest
from matplotlib.text import Text  # noqa: E402

from explorer.app.cover import CoverView  # noqa: E402
from explorer.app.generalization import GeneralizationView  # noqa: E402
from explorer.app.margins import MarginsView  # noqa: E402
from explorer.app.perceptron import PerceptronView  # noqa: E402
from explorer.app.symbols import SYMBOLS, TAB_SYMBOLS, symbols_html, symbols_text  # noqa: E402
from explorer.app.xor import XorView  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: The states each tab is taken through (partial states: the rest is the default).
STATES = {
    "perceptron": [{}, {"rule": "margin"}, {"rule": "margin", "w0": []},
                   {"rule": "margin", "w0": [], "eta": 0.5},
                   {"rule": "rosenblatt_r2", "w0": []}, {"rule": "svm_sgd"},
                   {"rule": "relaxation"}, {"rule": "pocket", "dataset": "xor"},
                   {"rule": "classic", "w0": []}],
    "margins": [{}, {"hard": True, "dataset": "separable"}, {"hard": True, "dataset": "xor"},
                {"layout": "side"}],
    "cover": [{"view": v} for v in ("curves", "dichotomies", "recursion", "boolean")],
    "xor": [{"view": v} for v in ("cycling", "proof", "grid", "feature", "layers", "kernel")],
    "generalization": [{}, {"dataset": "iris"}],
}
VIEWS = {"perceptron": PerceptronView, "margins": MarginsView, "cover": CoverView,
         "xor": XorView, "generalization": lambda: GeneralizationView(autorun=False)}


def _strip(text: str) -> str:
    """Text of HTML: inline tags dropped, the others (``<br>``, ``<div>``) a space."""
    text = re.sub(r"</?(?:b|i|sub|sup|code)>", "", text)
    return html.unescape(re.sub(r"<[^>]+>", " ", text)).strip()


def _widget_text(w, out: list) -> None:
    """The text a widget and its children put on screen, except the Symbols line itself."""
    if isinstance(w, (W.HTML, W.HTMLMath, W.Label)):
        if "pe-symbols" not in w.value:
            out.append(_strip(w.value))
    for attr in ("description", "tooltip", "placeholder"):
        value = getattr(w, attr, None)
        if isinstance(value, str):
            out.append(value)
    labels = getattr(w, "_options_labels", None)
    if labels:
        out.extend(labels)
    out.extend(t for t in getattr(w, "titles", ()) or () if isinstance(t, str))
    for child in getattr(w, "children", ()) or ():
        _widget_text(child, out)


def _screen(view) -> str:
    out: list = []
    _widget_text(view, out)
    out.extend(t.get_text() for t in view.figure.fig.findobj(Text))
    return "\n".join(out)


def _symbols_lines(view) -> list:
    found = []

    def walk(w):
        if isinstance(w, W.HTML) and "pe-symbols" in w.value:
            found.append(w.value)
        for child in getattr(w, "children", ()) or ():
            walk(child)
    walk(view)
    return found


@pytest.fixture(scope="module", params=sorted(STATES))
def seen(request):
    """``(tab, view, everything the tab showed over its states and steps)``."""
    tab = request.param
    view = VIEWS[tab]()
    texts = []
    for state in STATES[tab]:
        assert view.load_state(state) is not False, (tab, state)
        n = getattr(view.timeline, "n_steps", 0) or 0
        for k in sorted({0, 1, 3, n}):
            view.timeline.go(min(k, n))
            texts.append(_screen(view))
            texts.append(view.messages.text)
    return tab, view, "\n".join(texts)


def test_every_symbol_shown_is_defined_in_the_tabs_symbols_line(seen):
    tab, view, text = seen
    defined = {s.name for s in TAB_SYMBOLS[tab]}
    shown = {name for name, sym in SYMBOLS.items() if sym.found_in(text)}
    missing = sorted(shown - defined)
    assert not missing, f"the {tab} tab shows {missing} without defining them in its Symbols line"


def test_the_symbols_line_is_on_screen_and_defines_each_symbol_in_words(seen):
    tab, view, _ = seen
    lines = _symbols_lines(view)
    assert lines == [symbols_html(tab)], f"the {tab} tab shows no (or more than one) Symbols line"
    text = _strip(lines[0])
    for sym in TAB_SYMBOLS[tab]:
        assert f"{sym.name}: {sym.meaning}" in text
        assert len(re.findall(r"[A-Za-z]{3,}", sym.meaning)) >= 2, f"{sym.name}: say it in words"


def test_symbols_the_issue_names_are_defined():
    """w*, H, D, m, γ(S), ρ, η, C, α, "Farkas certificate", "support path" (issue 19)."""
    everywhere = {s.name for syms in TAB_SYMBOLS.values() for s in syms}
    assert {"w*", "H", "D", "m", "γ(S)", "ρ", "η", "C", "αᵢ", "Farkas certificate",
            "support path"} <= everywhere
    assert symbols_text("perceptron").startswith("Symbols. f(x): the score")
    with pytest.raises(ValueError, match="unknown tab"):
        symbols_text("nope")


# ------------------------------------------------------------------ equation numbers with words
#: Modules whose strings reach the screen (figure text, narration, help, legends, bound sources).
#: The modules whose strings reach the screen: the widgets, the figures, and the core's topics
#: that write narration, legends and titles (the perceptron's bounds and replay, margins,
#: generalization, Cover's theorem and XOR's Boolean functions).
SCREEN_MODULES = sorted({*ROOT.glob("explorer/app/**/*.py"), *ROOT.glob("explorer/plots/*.py"),
                         *ROOT.glob("explorer/margins/*.py"),
                         *ROOT.glob("explorer/generalization/*.py"),
                         *ROOT.glob("explorer/perceptron/replay/*.py"),
                         *(ROOT / "explorer" / m for m in ("perceptron/bounds.py",
                                                           "cover/theorem.py", "xor/boolean.py"))})
EQUATION = re.compile(r"(?<![\w.])6[01]\.\d+[a-c]?")
#: An equation number right after one of these is a named result ("Lemma 60.1", "Ex. 61.3").
NAMED = re.compile(r"(?:Example|Ex\.|Lemma|Table|Fig\.|Figure|appendix|section|P|Probs?\.|"
                   r"problems?|[–-])\s*$", re.IGNORECASE)
#: Names and filler that do not say what an equation is.
NOT_WORDS = {"sayed", "koski", "cornwell", "hardt", "recht", "with", "from", "lemma", "example",
             "table", "problem", "problems", "cover", "muroga", "gallant", "eqs", "also"}


def _screen_strings(path: pathlib.Path):
    """``(line, text)`` of every string literal that is not a docstring; f-strings whole."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}"
                                       for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            yield node.lineno, node.value


def _bare_equation_numbers(path: pathlib.Path, *, root: pathlib.Path = ROOT) -> list:
    """Equation numbers in ``path``'s on-screen strings whose sentence has no word saying what
    they are ("R_emp ≤ #SV/N (61.29)"; "error ≤ #SV/N (61.29)" is fine)."""
    bare = []
    for line, text in _screen_strings(path):
        for m in EQUATION.finditer(text):
            if NAMED.search(text[:m.start()]):
                continue
            start = max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
            ends = [i for i in (text.find(". ", m.end()), text.find("\n", m.end())) if i >= 0]
            sentence = text[start:min(ends, default=len(text))]
            sentence = sentence.replace(m.group(), " ")
            words = [w for w in re.findall(r"\b[A-Za-z][A-Za-z'’]{3,}", sentence)
                     if w.lower().removesuffix("'s").removesuffix("’s") not in NOT_WORDS]
            if not words:
                bare.append(f"{path.relative_to(root)}:{line}: ({m.group()}) in {text!r}")
    return bare


def test_equation_numbers_on_screen_come_with_words():
    assert all(p.is_file() for p in SCREEN_MODULES), [p for p in SCREEN_MODULES if not p.is_file()]
    for topic in ("margins", "generalization", "perceptron/replay"):  # a moved topic is still read
        assert any(f"explorer/{topic}/" in p.as_posix() for p in SCREEN_MODULES), topic
    bare = [b for path in SCREEN_MODULES for b in _bare_equation_numbers(path)]
    assert not bare, "equation numbers without words:\n" + "\n".join(bare)


def test_the_word_check_finds_a_bare_number(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""A docstring may say (61.29)."""\n'
                     'BARE = "R_emp ≤ #SV/N (61.29)"\nOK = "error ≤ #SV/N (61.29)"\n'
                     'NAMED = "Sayed Ex. 61.3"\nSOURCE = "Sayed, Lemma 60.1 (Novikoff)"\n'
                     'F = f"margin γ(S) = {1} (Sayed 61.3)"\nG = f"γ(S) = {1} (Sayed 61.3)"\n')
    found = _bare_equation_numbers(probe, root=tmp_path)
    assert len(found) == 2 and "R_emp" in found[0] and "'γ(S) = {} (Sayed 61.3)'" in found[1], found
