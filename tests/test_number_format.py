"""One number formatter: :func:`explorer.shared.number_format.number_text`, and no other in ``explorer/``.

Reference cases (how it rounds, "−0", round-off noise, inf, nan, large and small magnitudes),
invariants checked with hypothesis (never "−0", a true minus sign, the text reads back to the
number within its significant digits), and a check of the source: no module of ``explorer/``
but ``shared/number_format.py`` defines a formatter of its own (``def _g`` and the like, or the
``f"{x:.3g}".replace("-", "−")`` idiom the five copies were written with).
"""

from __future__ import annotations

import ast
import math
import pathlib
import re
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.shared.number_format import DIGITS, MINUS, ROUNDOFF, number_text

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "explorer"
HOME = PACKAGE / "shared" / "number_format.py"


@pytest.mark.parametrize(("x", "kw", "text"), [
    (0.0, {}, "0"), (-0.0, {}, "0"), (-0.0, {"digits": 2}, "0"),
    (2.0, {}, "2"), (-2.0, {}, "−2"), (2.5, {}, "2.5"), (0.1 + 0.2, {}, "0.3"),
    (-0.123456, {}, "−0.123"), (0.123456, {"digits": 2}, "0.12"), (2 / 3, {"digits": 6}, "0.666667"),
    (0.125, {"digits": 2}, "0.12"),  # round half to even on the exact binary value
    (0.375, {"digits": 2}, "0.38"), (999.5, {}, "1e+03"), (1234.5, {}, "1.23e+03"),
    (123.0, {}, "123"), (123456.0, {}, "1.23e+05"), (-123456.0, {}, "−1.23e+05"),
    (1e-4, {}, "0.0001"), (1.5e-5, {}, "1.5e−05"), (-1.5e-5, {}, "−1.5e−05"),
    (1e-17, {}, "1e−17"), (-1e-17, {}, "−1e−17"),  # only an exact zero is "0" by default
    (1e-17, {"noise": ROUNDOFF}, "0"), (-4e-13, {"noise": ROUNDOFF}, "0"),
    (6e-13, {"noise": ROUNDOFF}, "6e−13"), (0.5, {"noise": ROUNDOFF}, "0.5"),
    (math.inf, {}, "∞"), (-math.inf, {}, "−∞"), (math.nan, {}, "nan"),
    (1e300, {}, "1e+300"), (5e-324, {}, "4.94e−324"),
])
def test_reference_cases(x, kw, text):
    assert number_text(x, **kw) == text


def test_numpy_scalars_and_ints_are_numbers_too():
    np = pytest.importorskip("numpy")
    assert number_text(np.float32(-0.0)) == "0"
    assert number_text(np.float64(-1.25)) == "−1.25"
    assert number_text(np.int64(7)) == "7"
    assert DIGITS == 3 and MINUS == "\u2212"


def _back(text: str) -> float:
    return float(text.replace(MINUS, "-").replace("∞", "inf"))


@given(st.floats(allow_nan=False), st.integers(min_value=1, max_value=17))
def test_never_minus_zero_and_reads_back_within_its_digits(x, digits):
    text = number_text(x, digits=digits)
    assert "-" not in text, text  # a true minus sign, in the exponent too
    assert text not in ("−0", "0.0", "−0.0")
    assert (text == "0") == (x == 0)
    if math.isinf(x):
        assert _back(text) == x
    elif x != 0:
        # exactly: at most half a unit in the last significant digit of the float's own value
        shown, exact = Decimal(text.replace(MINUS, "-")), Decimal(x)
        assert abs(shown - exact) <= Decimal(5).scaleb(exact.adjusted() - digits), (x, text)
    assert (text.startswith(MINUS)) == (x < 0)


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(min_value=0, max_value=1))
def test_noise_writes_only_small_magnitudes_as_zero(x, noise):
    text = number_text(x, noise=noise)
    assert (text == "0") == (x == 0 or abs(x) < noise)


# ------------------------------------------------------------------ no other formatter
#: Names a number formatter has gone by in this package (the copies this module replaced).
FORMATTER_NAMES = re.compile(r"_?(g|fmt|num_?text|number_?text|format_number|fmt_num)")
#: ``f"{x:.3g}".replace("-", "−")``: a number written with a format spec, then its minus sign.
IDIOM = re.compile(r"""\{[^{}]*:[^{}]*[gef]\}["']\)?\.replace\(["']-["'], ["']−["']\)""")


def formatters(path: pathlib.Path) -> list[str]:
    """``path:line what`` of each number formatter ``path`` defines or writes inline."""
    source = path.read_text(encoding="utf-8")
    found = [f"{path.name}:{node.lineno} def {node.name}" for node in ast.walk(ast.parse(source))
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
             and FORMATTER_NAMES.fullmatch(node.name)]
    found += [f"{path.name}:{i} {line.strip()}" for i, line in enumerate(source.splitlines(), 1)
              if IDIOM.search(line)]
    return found


def test_no_other_module_defines_a_number_formatter():
    """Every number is written by ``number_text``: no ``def _g``, ``_fmt``, ``number_text``…
    elsewhere in ``explorer/``, and no ``f"{x:.3g}".replace("-", "−")`` inline."""
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) if path != HOME
             for hit in formatters(path)]
    assert found == []


def test_the_formatter_check_can_fail(tmp_path):
    """The source check finds the copies it was written against (as they were on main)."""
    copy = tmp_path / "copy.py"
    copy.write_text('def _g(x: float) -> str:\n'
                    '    return "0" if abs(x) < 5e-13 else f"{x:.3g}".replace("-", "−")\n\n\n'
                    'def label(t):\n'
                    '    return f"y·f(x) ≤ {t:g}".replace("-", "−")\n\n\n'
                    'def _fmt(v):\n    return str(v)\n\n\ndef number_text(x):\n    return x\n')
    assert [hit.split(" ", 2)[:2] for hit in formatters(copy)] == [
        ["copy.py:1", "def"], ["copy.py:9", "def"], ["copy.py:13", "def"],
        ["copy.py:2", 'return'], ["copy.py:6", "return"]]
    assert formatters(HOME)  # the one formatter is found where it lives


def test_the_race_says_zero_not_minus_zero():
    """A point of label −1 on the start's boundary has y·f(x) = −1 · 0 = −0.0, which the race's
    own copy wrote "−0" (main: "y·f(x) = −0 ≤ 0"); a reader expects 0."""
    from explorer.perceptron.race import race, race_text
    from explorer.perceptron.rules import RULES

    r = race([[1.0, 0.0], [0.0, 1.0]], [-1, 1], rules=["classic", "margin"], max_epochs=2)
    text = race_text(r, 1)
    assert "Classic perceptron: y·f(x) = 0 ≤ 0" in text and "−0" not in text, text
    assert RULES["classic"].condition_text(-0.0) == "y·f(x) ≤ 0"
