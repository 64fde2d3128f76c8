// One panel, large (issue 33; explorer/plots/enlarge.py): a click on a panel's title, or the
// key z, asks the kernel for that panel over the whole figure; z again, Escape or a click on
// its title goes back. The kernel draws the new scene (crisp at every size), and a room's
// followers draw the scenes their presenter's page gets. The page figure's input (input.js)
// calls these pure rules; tests/js/enlarge.test.mjs imports them in Node.

import { pageWord } from "./words.js";

export const ENLARGE_KEYS = ["z", "Z"];  // the panel under the pointer (or the first) large
export const BACK_KEY = "Escape";        // every panel again (z does too)
export const TITLE_PAD = 4;              // CSS px around a title's box that count as on it

// the name of the panel of `panels` (the scene's panels, each maybe with its `title` box
// [x, y, w, h] in CSS px) whose title holds (px, py), of those named in `names` (the panels
// that may be shown large); null when none
export function titleAt(panels, names, px, py) {
  for (const p of panels) {
    const t = p.title;
    if (!Array.isArray(t) || t.length < 4 || !names.includes(p.name)) continue;
    const [x, y, w, h] = t;
    if (px >= x - TITLE_PAD && px <= x + w + TITLE_PAD && py >= y - TITLE_PAD
        && py <= y + h + TITLE_PAD) return p.name;
  }
  return null;
}

// What the key `key` asks for: a panel's name (that panel large), "" (every panel again), or
// null (not a key of this, or nothing to do). `enlarged`: the panel large now ("" none);
// `names`: the panels that may be shown large, in the scene's order (the first is the data
// plane); `hover`: the panel under the pointer (null when it is not on the figure).
export function keyRequest(key, { enlarged, names, hover }) {
  if (key === BACK_KEY) return enlarged ? "" : null;
  if (!ENLARGE_KEYS.includes(key)) return null;
  if (enlarged) return "";
  if (!names.length) return null;
  return hover && names.includes(hover) ? hover : names[0];
}

// What a click on the title of panel `title` asks for (null: not on a title): that panel
// large, or every panel again when it is the one large
export function clickRequest(title, enlarged) {
  if (!title) return null;
  return title === enlarged ? "" : title;
}

// the words of a title's tooltip, for the panel under the pointer: what a click does there
export function titleTip(title, enlarged) {
  if (!title) return "";
  return title === enlarged ? pageWord("enlarge_back", "Click (or press z or Esc): every panel again")
    : pageWord("enlarge", "Click (or press z): this panel large");
}
