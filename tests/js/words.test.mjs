// The page's own words in the page's language (issue 35; explorer/app/static/words.js): a word
// is looked up by key in the kernel's dictionary, with the English as the fallback, its
// placeholders filled after the lookup; the page figure writes its words again when the
// kernel sends a new dictionary (a change of language), and a follower's page keeps its own.
// Run by Node's own test runner: `node --test tests/js/`.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { titleTip } from "../../explorer/app/static/enlarge.js";
import { PageFigure } from "../../explorer/app/static/pagefigure.js";
import { cardView } from "../../explorer/app/static/question.js";
import { waitingWords } from "../../explorer/app/static/transport.js";
import { fillWords, pageWord, setPageWords } from "../../explorer/app/static/words.js";
import { FakeElement, chunkMessage, installPage, modelFor, sceneHeader, settle } from "./fakes.mjs";

// a part of what the kernel sends in German (explorer.shared.page_words.page_words())
const DE = {
  enlarge: "Klicken (oder z drücken): dieses Feld groß",
  waiting: " · warte auf die Schritte {first}–{last} vom Kernel…",
  speed: "Abspielgeschwindigkeit, Schritte pro Sekunde",
  steps_per_s: "Schritte/s",
  step: "Schritt",
  step_of: "Schritt {k} von {n}",
  pause: "Pause",
  q_reveal: "Auflösen",
  q_answers: "{n} Antworten",
};

afterEach(() => { setPageWords({}); setPageWords({}, "follow"); });

test("a word is the dictionary's, else the English; placeholders are filled after the lookup", () => {
  assert.equal(pageWord("step_of", "step {k} of {n}", { k: 3, n: 9 }), "step 3 of 9");
  setPageWords(DE);
  assert.equal(pageWord("step_of", "step {k} of {n}", { k: 3, n: 9 }), "Schritt 3 von 9");
  assert.equal(pageWord("nope", "Nothing {x}", { x: 1 }), "Nothing 1");  // a key missing
  setPageWords({ step: "", speed: 7 });  // empty or not text: the English
  assert.equal(pageWord("step", "step"), "step");
  assert.equal(pageWord("speed", "Play speed"), "Play speed");
  setPageWords(null);
  assert.equal(pageWord("step", "step"), "step");
  setPageWords(["Schritt"]);
  assert.equal(pageWord("0", "zero"), "zero");
  assert.equal(fillWords("{a} and {b}", { a: "x" }), "x and {b}");  // an unknown one stays
  assert.equal(fillWords("{a}", undefined), "{a}");
});

test("the follower page's own words come first; the kernel's fill in the rest", () => {
  setPageWords({ q_reveal: "Revelar" }, "follow");
  setPageWords(DE);
  assert.equal(pageWord("q_reveal", "Reveal"), "Revelar");
  assert.equal(pageWord("step", "step"), "Schritt");
});

test("the pure rules' words follow the dictionary", () => {
  assert.equal(titleTip("plane", ""), "Click (or press z): this panel large");
  assert.equal(waitingWords(12, 10, 95), " · waiting for steps 10–19 from the kernel…");
  setPageWords(DE);
  assert.equal(titleTip("plane", ""), "Klicken (oder z drücken): dieses Feld groß");
  assert.equal(waitingWords(12, 10, 95), " · warte auf die Schritte 10–19 vom Kernel…");
  const q = { id: 1, kind: "choice", words: "?", choices: [["a", "A"], ["b", "B"]],
    tally: { a: 2, b: 1 }, revealed: false };
  assert.deepEqual(cardView(q).actions, ["reveal", "close"]);
});

let page;
beforeEach(() => { page = installPage(); });
afterEach(() => page.restore());

test("the page figure writes its words again when the kernel sends them in another language", async () => {
  const model = modelFor(sceneHeader({ n: 20, chunk: 5 }), { words: {} });
  const root = new FakeElement("div");
  const fig = new PageFigure(model, root);
  await settle();
  model.message(...chunkMessage({ index: 0 }));
  page.clock.frame();
  const speed = root.find("pe-pf-speed");
  assert.equal(speed.title, "Play speed, steps per second");
  assert.equal(fig.slider.getAttribute("aria-label"), "step");
  const play = root.find("pe-play");
  const controls = model.get("controls").map(([a, label, tip, css]) =>
    a === "play" ? [a, "▶ Abspielen", "Abspielen oder anhalten (Leertaste)", css] : [a, label, tip, css]);
  model.kernel({ words: DE });  // the words first, the buttons' labels in a second message
  await settle();
  assert.equal(play.textContent, "▶ Play");
  model.kernel({ controls });
  await settle();
  assert.equal(speed.title, "Abspielgeschwindigkeit, Schritte pro Sekunde");
  assert.equal(fig.speedUnit.textContent, "Schritte/s");
  assert.equal(fig.slider.getAttribute("aria-label"), "Schritt");
  assert.equal(fig.stepWord.textContent, "Schritt");
  assert.equal(play.textContent, "▶ Abspielen");
  assert.equal(play.title, "Abspielen oder anhalten (Leertaste)");
  model.kernel({ words: {}, controls: model.get("controls") });  // back to English
  await settle();
  assert.equal(speed.title, "Play speed, steps per second");
});

test("the presenter view's words follow the dictionary it is shown with", async () => {
  const { presenterTexts } = await import("../../explorer/app/static/presenter.js");
  assert.equal(presenterTexts({ k: 2, n: 3 }).where, "Slide 2 of 3");
  setPageWords({ pv_slide: "Folie {k} von {n}", pv_slides: "{n} Folien, noch keine geöffnet" });
  assert.equal(presenterTexts({ k: 2, n: 3 }).where, "Folie 2 von 3");
  assert.equal(presenterTexts({ k: 0, n: 3 }).where, "3 Folien, noch keine geöffnet");
  assert.equal(presenterTexts({ k: 0, n: 1 }).where, "1 slide, none opened yet");  // no key: English
});
