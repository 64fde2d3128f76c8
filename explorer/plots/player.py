"""The HTML animation's page: matplotlib's ``HTMLWriter`` player, made offline and accessible.

``HTMLWriter`` draws its buttons with Font Awesome icons loaded from a CDN, so offline they are
blank. :func:`offline_page` rewrites the writer's output instead of copying its template:
every button gets an inline SVG icon (no ``xmlns``: HTML needs none) and an accessible name
(``aria-label`` and ``title``), the slider and the image are labelled, stylesheet links are
dropped, and the image's ``alt`` text follows the narration of the frame shown. The result is a
standalone page with no ``http://`` or ``https://`` in it.
"""

from __future__ import annotations

import base64
import html
import json
import re

__all__ = ["offline_page"]

# Font Awesome name in matplotlib's template -> (accessible name, path in a 16 x 16 box)
_ICONS = {
    "minus": ("Slower", "M2 7h12v2H2z"),
    "fast-backward": ("First frame", "M16 2 9 8l7 6zM9 2 2 8l7 6zM0 2h2v12H0z"),
    "step-backward": ("Previous frame", "M14 2 5 8l9 6zM2 2h2v12H2z"),
    "play-flip": ("Play backwards", "M12 2 2 8l10 6z"),
    "pause": ("Pause", "M3 2h4v12H3zM9 2h4v12H9z"),
    "play": ("Play", "M4 2l10 6-10 6z"),
    "step-forward": ("Next frame", "M2 2l9 6-9 6zM12 2h2v12h-2z"),
    "fast-forward": ("Last frame", "M0 2l7 6-7 6zM7 2l7 6-7 6zM14 2h2v12h-2z"),
    "plus": ("Faster", "M2 7h12v2H2zM7 2h2v12H7z"),
}
_BUTTON = re.compile(r"<button\b([^>]*)>(.*?)</button>", re.S)
_ICON = re.compile(r'class="fa fa-([\w-]+)( fa-flip-horizontal)?"')
_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')
_URL = re.compile(r"https?://")

_STYLE = """<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 12px; }
.animation img { max-width: 100%; height: auto; }
.anim-buttons button { width: 40px; height: 32px; padding: 0; cursor: pointer; }
.anim-buttons button svg { width: 16px; height: 16px; vertical-align: middle; }
</style>"""

_ALT_SCRIPT = """<script>
/* The frame image's alt text is the narration of the frame shown. */
(function () {
  var text = %s;
  var setFrame = Animation.prototype.set_frame;
  Animation.prototype.set_frame = function (i) {
    setFrame.call(this, i);
    var img = document.getElementById(this.img_id);
    if (img) { img.alt = text[i] || ""; }
  };
})();
</script>"""


def _button(match: re.Match) -> str:
    attrs = dict(_ATTR.findall(match.group(1)))
    icon = _ICON.search(match.group(2))
    key = "" if icon is None else icon.group(1) + ("-flip" if icon.group(2) else "")
    label, path = _ICONS.get(key, (attrs.get("aria-label") or attrs.get("title") or key, None))
    label = html.escape(label, quote=True)
    body = (f'<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">'
            f'<path fill="currentColor" d="{path}"/></svg>' if path else label)
    onclick = html.escape(attrs.get("onclick", ""), quote=True)
    return (f'<button type="button" title="{label}" aria-label="{label}" '
            f'onclick="{onclick}">{body}</button>')


def offline_page(fragment: str, *, title: str, texts: list[str], backdrop: bytes | None = None) -> str:
    """A standalone HTML page around ``HTMLWriter``'s player, needing nothing from the web.

    Parameters
    ----------
    fragment : str
        What ``matplotlib.animation.HTMLWriter`` wrote (frames embedded).
    title : str
        The page's title.
    texts : list of str
        One narration per frame, used as the image's ``alt`` text.
    backdrop : bytes, optional
        A PNG shown behind the frames (frames may then be transparent where they equal it).

    Returns
    -------
    str
        The page, UTF-8 text starting with ``<!DOCTYPE html>``.

    Raises
    ------
    RuntimeError
        If the player still names a web address after the rewrite (a matplotlib template this
        function does not know).
    """
    page = re.sub(r"<link\b[^>]*>", "", fragment)
    page = _BUTTON.sub(_button, page)
    page = re.sub(r'<input\b(?![^>]*aria-label)([^>]*type="range")', r'<input aria-label="Frame"\1',
                  page, count=1)
    first = html.escape(texts[0] if texts else "", quote=True)
    page = re.sub(r"<img\b(?![^>]*\balt=)", f'<img alt="{first}"', page, count=1)
    if "Animation.prototype.set_frame" in page:  # after the player's class, before its use
        script = _ALT_SCRIPT % json.dumps(list(texts)).replace("</", "<\\/")
        head, sep, tail = page.partition("</script>")
        page = head + sep + "\n" + script + tail
    found = _URL.search(page)
    if found:
        near = page[max(0, found.start() - 40):found.end() + 40]
        raise RuntimeError(f"expected an offline player page; got a web address near {near!r}")
    style = _STYLE
    if backdrop is not None:
        b64 = base64.b64encode(backdrop).decode("ascii")
        style = style.replace("</style>", ".animation img { background: url(data:image/png;base64,"
                              f"{b64}) 0 0 / 100% 100% no-repeat; }}\n</style>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n{style}\n</head>\n<body>\n{page}\n"
            "</body>\n</html>\n")
