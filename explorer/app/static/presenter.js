// The presenter view (issue 33, item 2): a window of its own, opened by the dashboard's page
// (the page bridge, explorer/app/bridge.py) for the lecturer's screen, as slide software opens
// one: the slide on screen and its notes, the time since the lecture began and the next slide
// (its title, and a small picture the kernel draws: explorer/app/preview.py).
// The kernel gives what to show (explorer/app/playlist_ui.py presenter_info); the clock runs
// here, with no message to the kernel. The projected page and the followers never show the
// notes: they are in this window only. Its words are the page's language's (words.js: the
// bridge's `words`, sent again at a change of language). An ES module importing words.js only;
// Node's tests import it (tests/js/presenter.test.mjs) and the bridge joins it before its own
// script.

import { pageWord, setPageWords } from "./words.js";

export const PRESENTER_NAME = "pe-presenter";
export const PRESENTER_FEATURES = "width=760,height=600";

const PRESENTER_CSS = `
body { font-family: "Noto Sans SC PE", system-ui, sans-serif; margin: 0; padding: 16px 22px; color: #111;
  background: #fafafa; }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
.pe-pv-where { font-size: 20px; color: #333; }
.pe-pv-clock { font-size: 40px; font-variant-numeric: tabular-nums; font-weight: 600;
  margin-left: auto; }
h1 { font-size: 30px; margin: 10px 0 8px; }
.pe-pv-notes { font-size: 24px; line-height: 1.4; white-space: pre-wrap; min-height: 4em;
  border-left: 5px solid #0072B2; padding: 6px 14px; background: #fff; }
.pe-pv-notes:empty::before { content: attr(data-empty); color: #777; }
.pe-pv-next { margin-top: 18px; font-size: 20px; color: #333; }
.pe-pv-next b { color: #111; }
.pe-pv-next-image { display: block; margin-top: 8px; width: 480px; max-width: 100%;
  border: 1px solid #bbb; background: #fff; }
.pe-pv-next-image[hidden] { display: none; }
.pe-pv-next-note { display: block; margin-top: 6px; font-size: 16px; color: #555; }
button { font-size: 16px; padding: 4px 12px; }`;

// "m:ss" under an hour, "h:mm:ss" from one; negative times count as 0
export function clockText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (v) => String(v).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

// The texts the view shows for the kernel's `info` ({k, n, title, notes, next}); anything
// missing or malformed shows as nothing, never as an error.
export function presenterTexts(info) {
  const i = info && typeof info === "object" ? info : {};
  const text = (v) => (typeof v === "string" ? v : "");
  const n = Number.isInteger(i.n) ? i.n : 0, k = Number.isInteger(i.k) ? i.k : 0;
  const next = i.next && typeof i.next === "object" ? i.next : null;
  return {
    where: !n ? pageWord("pv_none", "No playlist yet")
      : k ? pageWord("pv_slide", "Slide {k} of {n}", { k, n })
        : n === 1 ? pageWord("pv_slides_1", "{n} slide, none opened yet", { n })
          : pageWord("pv_slides", "{n} slides, none opened yet", { n }),
    title: text(i.title),
    notes: text(i.notes),
    next: next ? text(next.title) : (n && k === n ? pageWord("pv_last", "This is the last slide.") : ""),
    nextWhere: next ? text(next.where) : "",
  };
}

// Only a picture the kernel drew (a data: PNG) is shown, never another address.
const PICTURE = /^data:image\/png;base64,[A-Za-z0-9+/=]+$/;

// The next slide's picture for the kernel's `info` and `preview` ({id, src, reason}: the
// picture of the slide `id`, or why there is none): {src, note}. A picture of another slide
// (the lecturer moved on while it was drawn) is not shown; nothing malformed throws.
export function previewOf(info, preview) {
  const next = info && typeof info === "object" && info.next && typeof info.next === "object"
    ? info.next : null;
  if (!next || typeof next.id !== "string" || !next.id) return { src: "", note: "" };
  const p = preview && typeof preview === "object" ? preview : {};
  if (p.id !== next.id) return { src: "", note: pageWord("pv_drawing", "Drawing the next slide…") };
  if (typeof p.src === "string" && PICTURE.test(p.src)) return { src: p.src, note: "" };
  return { src: "", note: typeof p.reason === "string" && p.reason ? p.reason
    : pageWord("pv_no_picture", "No picture of this slide.") };
}

// The shipped Chinese font's @font-face rules of the document `doc` (the dashboard's style
// declares it: explorer/shared/cjk_font.py), as CSS text for a window of its own, whose
// document has no style of the page's; "" without a document (Node's tests).
export function shippedFontFaces(doc) {
  const out = [];
  for (const sheet of (doc && doc.styleSheets) || []) {
    let rules = [];
    try { rules = sheet.cssRules || []; } catch (e) { continue; }  // another origin's sheet
    for (const rule of rules) {
      if (rule.constructor && rule.constructor.name === "CSSFontFaceRule"
          && String(rule.style.getPropertyValue("font-family")).includes("Noto Sans SC PE")) {
        out.push(rule.cssText);
      }
    }
  }
  return out.join("\n");
}

// The view in the window `win`: built once, then shown with each new info; `now()` gives ms.
export class PresenterView {
  constructor(win, now = () => Date.now()) {
    this.win = win;
    this.now = now;
    this.start = now();
    const d = win.document;
    const style = d.createElement("style");
    style.textContent = PRESENTER_CSS + "\n"
      + shippedFontFaces(typeof document === "undefined" ? null : document);
    d.head.appendChild(style);
    const el = (tag, cls, parent, text = "") => {
      const e = d.createElement(tag);
      if (cls) e.className = cls;
      if (text) e.textContent = text;
      parent.appendChild(e);
      return e;
    };
    d.body.textContent = "";
    const head = el("header", "", d.body);
    this.where = el("span", "pe-pv-where", head);
    this.clock = el("span", "pe-pv-clock", head, "0:00");
    this.clock.setAttribute("role", "timer");
    const restart = this.restart = el("button", "pe-pv-restart", head);
    restart.addEventListener("click", () => { this.start = this.now(); this.tick(); });
    this.title = el("h1", "pe-pv-title", d.body);
    this.notes = el("div", "pe-pv-notes", d.body);
    const next = el("section", "pe-pv-next", d.body);
    this.nextWord = el("b", "", next);
    this.next = el("span", "pe-pv-next-title", next);
    el("span", "", next, " ");
    this.nextWhere = el("span", "pe-pv-next-where", next);
    this.nextImage = el("img", "pe-pv-next-image", next);
    this.nextImage.hidden = true;
    this.nextNote = el("span", "pe-pv-next-note", next);
    this.label();
  }

  // the view's own words, in the page's language (again at each show: it may have changed)
  label() {
    this.win.document.title = pageWord("pv_title", "Presenter view · Perceptron Explorer");
    this.clock.setAttribute("aria-label", pageWord("pv_clock", "Time since the lecture began"));
    this.restart.textContent = pageWord("pv_restart", "Restart clock");
    this.nextWord.textContent = pageWord("pv_next", "Next: ");
    this.nextImage.setAttribute("alt", pageWord("pv_next_alt", "The next slide"));
    this.notes.dataset.empty = pageWord("pv_no_notes", "No notes for this slide.");
  }

  get open() { return !!this.win && !this.win.closed; }

  // `words`: the page's dictionary of words (the bridge's; none: as before)
  show(info, preview, words) {
    if (words !== undefined) { setPageWords(words); this.label(); }
    const t = presenterTexts(info);
    const p = previewOf(info, preview);
    if (p.src) {
      if (this.nextImage.getAttribute("src") !== p.src) this.nextImage.setAttribute("src", p.src);
    } else this.nextImage.removeAttribute("src");
    this.nextImage.hidden = !p.src;
    this.nextNote.textContent = p.note;
    this.where.textContent = t.where;
    this.title.textContent = t.title;
    this.notes.textContent = t.notes;
    this.next.textContent = t.next;
    this.nextWhere.textContent = t.nextWhere ? `(${t.nextWhere})` : "";
    this.tick();
  }

  tick() {
    const text = clockText(this.now() - this.start);
    if (this.clock.textContent !== text) this.clock.textContent = text;
  }
}
