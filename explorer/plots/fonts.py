"""The shipped Chinese font in matplotlib: registered, and the last family of every text.

On a machine with no Chinese font matplotlib draws Chinese as empty boxes (and warns "Glyph
... missing from font(s)"). :func:`register` adds the package's subset of Noto Sans CJK SC
(:mod:`explorer.shared.cjk_font`) to matplotlib's font manager and appends its family to
``rcParams["font.family"]``: matplotlib (3.6 and later) draws each character with the first
family of that list that has it, so Latin text keeps its font (DejaVu Sans) to the pixel and
only what that font lacks comes from the shipped one. Public API only
(:meth:`matplotlib.font_manager.FontManager.addfont`, ``rcParams``). :mod:`explorer.plots`
calls it when imported.
"""

from __future__ import annotations

import matplotlib
from matplotlib import font_manager

from ..shared import cjk_font


def register() -> list[str]:
    """Register the shipped font (once) and make its family the last of
    ``rcParams["font.family"]``; returns the list of families now in force."""
    path = str(cjk_font.PATH)
    if not any(f.fname == path for f in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)
    families = list(matplotlib.rcParams["font.family"])
    if cjk_font.FAMILY not in families:
        matplotlib.rcParams["font.family"] = [*families, cjk_font.FAMILY]
    return list(matplotlib.rcParams["font.family"])


register()
