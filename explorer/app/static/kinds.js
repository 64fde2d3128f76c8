// Every kind of moving part the page draws (the track kinds of explorer/plots/scene.py): the 2-D
// kinds (kinds_plane.js) and the XOR figure's raster and 3-D kinds (kinds_xor.js), and how a
// track's style keys become what the canvas draws with (resolveStyle). A kind's `style` lists
// the style keys it reads; explorer.plots.scene.KIND_STYLES declares the same (a test checks:
// tests/test_kinds_agree.py). A new kind of moving part is a new entry of a kinds table.

import { FONT, PLANE_KINDS, num } from "./kinds_plane.js";
import { XOR_KINDS } from "./kinds_xor.js";

export const KINDS = { ...PLANE_KINDS, ...XOR_KINDS };

// Every style key a track may set (see explorer/app/pagefigure.py for what each means).
export const STYLE_KEYS = [...new Set(Object.values(KINDS).flatMap((k) => k.style))];

// One track's style, resolved once per scene: what the canvas draws with.
export function resolveStyle(kind, s) {
  const color = s.color || "#000000";
  const alpha = num(s.alpha, 1);
  // an arrow's head: its length, and its full width (`size` on an arrow, or head = [l, w])
  const head = Array.isArray(s.head) ? [num(s.head[0], 10), num(s.head[1], 6)]
    : [num(s.head, 10), kind === "arrow" || kind === "arrow3d" || kind === "prefix" ? num(s.size, 0.6 * num(s.head, 10))
      : 0.6 * num(s.head, 10)];
  // a text's type size: `font` when it is a number (CSS px), else `size`; a string `font` is
  // the family
  const size = kind === "text" && typeof s.font === "number" ? s.font : num(s.size, kind === "text" ? 12 : 8);
  const family = typeof s.font === "string" ? s.font : FONT;
  const box = !s.box ? null : typeof s.box === "object"
    ? { color: s.box.color || "#FFFFFF", alpha: num(s.box.alpha, 0.85), pad: num(s.box.pad, 3) }
    : { color: typeof s.box === "string" ? s.box : "#FFFFFF", alpha: 0.85, pad: 3 };
  const widths = Array.isArray(s.width) ? s.width.map(Number) : null;
  return {
    color, alpha, head, size, widths,
    width: widths ? (widths[0] || 1) : num(s.width, kind === "polygon" ? 0 : 1.5),
    dash: Array.isArray(s.dash) ? s.dash.map(Number) : [],
    fill: s.fill === "none" ? null : s.fill || (kind === "polygon" ? color : null),
    ring: s.fill === "none",
    fillAlpha: num(s.fill_alpha, alpha),
    hatch: s.hatch ? String(s.hatch === true ? "/" : s.hatch) : "",
    hatchGap: Math.max(2, num(s.hatch_gap, 8)),
    hatchColor: s.hatch_color || color,
    hatchAlpha: num(s.hatch_alpha, 1),
    hatchWidth: num(s.hatch_width, 1),
    marker: s.marker || "o",
    arrows: kind === "prefix" && s.head !== undefined,
    colors: Array.isArray(s.colors) ? s.colors.map(String) : null,
    box,
    font: `${s.weight === undefined ? "normal" : String(s.weight)} ${size}px ${family}`,
  };
}
