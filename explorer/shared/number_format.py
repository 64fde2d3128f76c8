"""The one way the package writes a number for a reader: :func:`number_text`.

Every sentence, label, legend and tick the core, the figures and the page write with a
computed number goes through :func:`number_text` (a test forbids other formatters in
``explorer/``). Messages that echo what a user typed, and the state link's exact numbers, are
not display formatting: they write the user's own value back (``explorer.app.state_field``).

Numbers follow the page's language (:func:`explorer.shared.i18n.language`): a decimal comma in
Swedish, German, Spanish (and the pseudo-language), a point in English and Chinese
(:func:`decimal_mark`); where numbers are listed, as a vector's components "(a; b)",
:func:`list_separator` keeps them apart ("; " where the comma is the decimal mark). Links,
JSON states and CSV files never go through these: they stay locale-neutral.
"""

from __future__ import annotations

import math

from . import i18n

__all__ = ["number_text", "MINUS", "DIGITS", "ROUNDOFF", "decimal_mark", "list_separator"]

#: The true minus sign (U+2212), wider than a hyphen and never broken from its number.
MINUS = "−"
#: Significant digits by default.
DIGITS = 3
#: The ``noise`` of figures whose numbers are of order one and come out of a solver or a
#: product of +-1 coordinates (the XOR tab): smaller magnitudes are round-off, written "0".
ROUNDOFF = 5e-13


def decimal_mark() -> str:
    """The decimal mark of the page's language: "," or "."."""
    return "," if i18n.decimal_comma() else "."


def list_separator() -> str:
    """What separates numbers listed side by side, as a vector's components: ", ", or "; "
    where the comma is the decimal mark ("(−1,03; 0,884)")."""
    return "; " if i18n.decimal_comma() else ", "


def number_text(x: float, *, digits: int = DIGITS, noise: float = 0.0) -> str:
    """Write ``x`` with ``digits`` significant digits, a true minus sign and never "−0".

    Rounding is Python's ``format(x, f".{digits}g")``: round half to even on the exact binary
    value, fixed notation for exponents from -4 to ``digits - 1`` and trailing zeros dropped
    (``2.50`` is "2.5", ``1234.5`` at 3 digits "1.23e+03"), scientific notation otherwise
    ("1e−05", "1.23e+06", with the minus sign in the exponent too).

    Parameters
    ----------
    x : float
        Any real number (a numpy scalar is fine).
    digits : int >= 1, default 3
        Significant digits.
    noise : float >= 0, default 0.0
        Magnitudes ``|x| < noise`` are written "0". The default writes only an exact zero as
        "0": the narration shows what the rule computed, so ``1e-17`` stays "1e−17" (data at a
        scale of 1e-12 keep their true margins). A figure whose numbers are of order one and
        come from a solver (the XOR tab's separators, ticks of a lifted axis) passes a small
        absolute ``noise`` (:data:`ROUNDOFF`) so that round-off reads as the 0 it stands for.

    Returns
    -------
    str
        ``0.0`` and ``-0.0`` give "0"; ``inf`` "∞", ``-inf`` "−∞"; ``nan`` "nan". The decimal
        mark is the language's (:func:`decimal_mark`: "0,5" in Swedish).

    Examples
    --------
    >>> number_text(-0.123456), number_text(2.0), number_text(-0.0), number_text(1e-17)
    ('−0.123', '2', '0', '1e−17')
    >>> number_text(1e-17, noise=5e-13), number_text(123456.0), number_text(0.5, digits=2)
    ('0', '1.23e+05', '0.5')
    """
    x = float(x)
    if x == 0 or abs(x) < noise:
        return "0"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    text = format(x, f".{int(digits)}g").replace("-", MINUS)
    return text.replace(".", ",") if i18n.decimal_comma() else text
