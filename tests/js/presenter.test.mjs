// The presenter view's window (explorer/app/static/presenter.js): its clock, its texts for what
// the kernel gives, and the window it builds, with the stand-in elements of fakes.mjs.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PresenterView, clockText, presenterTexts, previewOf, shippedFontFaces } from "../../explorer/app/static/presenter.js";
import { STATE_KEYS } from "../../explorer/app/static/lecture.js";
import { FakeElement } from "./fakes.mjs";

test("the clock reads minutes and seconds, then hours", () => {
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(59_999), "0:59");
  assert.equal(clockText(61_000), "1:01");
  assert.equal(clockText(3_599_000), "59:59");
  assert.equal(clockText(3_723_000), "1:02:03");
  assert.equal(clockText(-5000), "0:00");
});

test("the texts say where the lecture is and what comes next", () => {
  const info = { k: 2, n: 3, title: "The bound", notes: "Ask first.\nThen show it.",
    next: { title: "Margins", where: "Margins, step 0" } };
  assert.deepEqual(presenterTexts(info), { where: "Slide 2 of 3", title: "The bound",
    notes: "Ask first.\nThen show it.", next: "Margins", nextWhere: "Margins, step 0" });
  assert.equal(presenterTexts({ ...info, k: 3, next: null }).next, "This is the last slide.");
  assert.equal(presenterTexts({ k: 0, n: 3, next: info.next }).where, "3 slides, none opened yet");
  assert.equal(presenterTexts({ k: 0, n: 0 }).where, "No playlist yet");
  for (const bad of [null, undefined, 7, "x", { k: "2", n: [], title: 5, notes: {}, next: 3 }]) {
    const t = presenterTexts(bad);  // nothing malformed shows, nothing throws
    assert.deepEqual([t.title, t.notes, t.next, t.nextWhere], ["", "", "", ""]);
  }
});

function fakeWindow() {
  const doc = { title: "", head: new FakeElement("head"), body: new FakeElement("body"),
    createElement: (tag) => new FakeElement(tag) };
  return { document: doc, closed: false };
}

test("the window shows the slide, its notes and the next one, and its clock runs and restarts", () => {
  const win = fakeWindow();
  let now = 10_000;
  const view = new PresenterView(win, () => now);
  const body = win.document.body;
  assert.match(win.document.title, /Presenter view/);
  view.show({ k: 1, n: 2, title: "Koski", notes: "Count the updates.",
    next: { title: "XOR", where: "XOR, step 0" } });
  assert.equal(body.find("pe-pv-where").textContent, "Slide 1 of 2");
  assert.equal(body.find("pe-pv-title").textContent, "Koski");
  assert.equal(body.find("pe-pv-notes").textContent, "Count the updates.");
  assert.equal(body.find("pe-pv-next-title").textContent, "XOR");
  assert.equal(body.find("pe-pv-next-where").textContent, "(XOR, step 0)");
  assert.equal(body.find("pe-pv-clock").textContent, "0:00");
  now += 125_000;
  view.tick();
  assert.equal(body.find("pe-pv-clock").textContent, "2:05");
  body.find("pe-pv-restart").click();
  assert.equal(body.find("pe-pv-clock").textContent, "0:00");
  assert.equal(view.open, true);
  win.closed = true;
  assert.equal(view.open, false);
});

const PNG = "data:image/png;base64,iVBORw0KGgo=";
const NEXT = { k: 1, n: 2, title: "Koski", notes: "", next: { title: "XOR", where: "XOR, step 0", id: "abc" } };

test("the next slide's picture is the kernel's PNG of that slide, else a short reason", () => {
  assert.deepEqual(previewOf(NEXT, { id: "abc", src: PNG, reason: "" }), { src: PNG, note: "" });
  // drawn for another slide (the lecturer moved on meanwhile): not shown yet
  assert.deepEqual(previewOf(NEXT, { id: "old", src: PNG }), { src: "", note: "Drawing the next slide…" });
  assert.deepEqual(previewOf(NEXT, { id: "abc", src: "", reason: "No picture of this slide: bad." }),
    { src: "", note: "No picture of this slide: bad." });
  // only a data: PNG, never another address
  assert.equal(previewOf(NEXT, { id: "abc", src: "https://example.org/x.png" }).src, "");
  assert.equal(previewOf(NEXT, { id: "abc", src: "javascript:alert(1)" }).src, "");
  assert.deepEqual(previewOf({ ...NEXT, k: 2, next: null }, { id: "abc", src: PNG }), { src: "", note: "" });
  for (const bad of [null, undefined, 7, "x", { next: 3 }]) {
    assert.deepEqual(previewOf(bad, { id: "abc", src: PNG }), { src: "", note: "" });
    assert.equal(previewOf(NEXT, bad).src, "");
  }
});

test("the window shows the next slide's picture once drawn, and none after the last slide", () => {
  const win = fakeWindow();
  const view = new PresenterView(win, () => 0);
  const body = win.document.body;
  const img = body.find("pe-pv-next-image");
  view.show(NEXT, {});
  assert.equal(img.hidden, true);
  assert.equal(body.find("pe-pv-next-note").textContent, "Drawing the next slide…");
  view.show(NEXT, { id: "abc", src: PNG, reason: "" });
  assert.equal(img.hidden, false);
  assert.equal(img.getAttribute("src"), PNG);
  assert.equal(body.find("pe-pv-next-note").textContent, "");
  view.show({ ...NEXT, k: 2, next: null }, { id: "abc", src: PNG });
  assert.equal(img.hidden, true);
  assert.equal(img.getAttribute("src"), null);
  assert.equal(body.find("pe-pv-next-title").textContent, "This is the last slide.");
});

test("the room's followers are never sent the presenter's notes or picture", () => {
  for (const key of ["presenter", "preview", "notes"]) assert.ok(!STATE_KEYS.includes(key));
});

test("the presenter's window gets the page's shipped Chinese font, nothing else of its style", () => {
  class CSSFontFaceRule {
    constructor(family, text) { this.style = { getPropertyValue: () => family }; this.cssText = text; }
  }
  class CSSStyleRule { constructor(text) { this.cssText = text; this.style = { getPropertyValue: () => "" }; } }
  const denied = { get cssRules() { throw new Error("SecurityError"); } };
  const doc = { styleSheets: [
    denied,
    { cssRules: [new CSSStyleRule(".pe-root { color: red }"),
                 new CSSFontFaceRule('"Noto Sans SC PE"', '@font-face { font-family: "Noto Sans SC PE"; }'),
                 new CSSFontFaceRule("Other", "@font-face { font-family: Other; }")] },
  ] };
  assert.equal(shippedFontFaces(doc), '@font-face { font-family: "Noto Sans SC PE"; }');
  assert.equal(shippedFontFaces(null), "");
});
