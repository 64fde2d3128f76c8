"""The shipped Chinese font in matplotlib: registered, and the last family of every text.

On a machine with no Chinese font matplotlib draws Chinese as empty boxes (and warns "Glyph
... missing from font(s)"). :func:`register` adds the package's subset of Noto Sans CJK SC
(:mod:`explorer.shared.cjk_font`) to matplotlib's font manager and appends its family to
``rcParams["font.family"]``: matplotlib (3.6 and later) draws each character with the first
family of that list that has it, so Latin text keeps its font (DejaVu Sans) to the pixel and
only what that font lacks comes from the shipped one. Public API only
(:meth:`matplotlib.font_manager.FontManager.addfont`, ``rcParams``). :mod:`explorer.plots`
calls it when imported.

The subset is of the regular weight only: a bold heading's Chinese is drawn regular. matplotlib
says so in a warning at every bold text (its font list names the shipped family); that one
warning, about this family only, is filtered from matplotlib's font-manager logger
(:class:`RegularOnly`), since it is what we chose, not something the reader can change.
"""

from __future__ import annotations

import logging

import matplotlib
from matplotlib import font_manager

from ..shared import cjk_font


class RegularOnly(logging.Filter):
    """Drop matplotlib's "Failed to find font weight ... for <the shipped family>" warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.msg.startswith("findfont: Failed to find font weight")
                    and cjk_font.FAMILY in tuple(map(str, record.args or ())))


def register() -> list[str]:
    """Register the shipped font (once) and make its family the last of
    ``rcParams["font.family"]``; returns the list of families now in force."""
    path = str(cjk_font.PATH)
    if not any(f.fname == path for f in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)
    log = logging.getLogger(font_manager.__name__)
    if not any(isinstance(f, RegularOnly) for f in log.filters):
        log.addFilter(RegularOnly())
    families = list(matplotlib.rcParams["font.family"])
    if cjk_font.FAMILY not in families:
        matplotlib.rcParams["font.family"] = [*families, cjk_font.FAMILY]
    return list(matplotlib.rcParams["font.family"])


register()
