// The question over the page figure (explorer/app/static/question.js, issue 33 item 1): what
// the card shows for each phase, the messages its clicks send (and the clicks it refuses), the
// labelling's sketch, and the page figure's part: q sends the step shown and stops Play, the
// transport waits while a question is open, Escape closes it. `node --test tests/js/`.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import {
  QuestionCard, answerKey, cardView, followerQuestion, questionMessage, sketchGeometry,
} from "../../explorer/app/static/question.js";
import { PageFigure } from "../../explorer/app/static/pagefigure.js";
import { FakeElement, chunkMessage, installPage, modelFor, sceneHeader, settle } from "./fakes.mjs";

// a question as the kernel sends it (QuestionState.page_json)
function asked(extra = {}) {
  return { id: 3, name: "next_update", tab: "perceptron", kind: "yes/no",
    words: "Will the next point trigger an update?", detail: "Step 1 visits point 5 (−1).",
    choices: [["yes", "Yes"], ["no", "No"]], phase: "open", answer: null,
    tally: { yes: 0, no: 0 }, hide: [], truth: null, explain: "", verdict: "", sketch: null, ...extra };
}

let page;
beforeEach(() => { page = installPage(); });
afterEach(() => page.restore());

test("the card shows nothing for no question, and the question's words, choices and prompt", () => {
  for (const none of [null, {}, { id: 1 }, { id: "1", choices: [] }, "text"]) assert.equal(cardView(none), null);
  const v = cardView(asked());
  assert.equal(v.words, "Will the next point trigger an update?");
  assert.deepEqual(v.buttons.map((b) => [b.key, b.label, b.pressed, b.disabled]),
    [["yes", "Yes", false, false], ["no", "No", false, false]]);
  assert.equal(v.prompt, "Answer, then Reveal.");
  assert.equal(v.verdict, "");
  assert.equal(v.answers, 0);  // alone: no count of the room's answers
  assert.equal(v.side, "right");
  assert.equal(cardView(asked({ side: "left" })).side, "left");  // the answer's side kept clear
});

test("an answer is pressed and may change; the room's count shows only with others' answers", () => {
  const v = cardView(asked({ answer: "no", tally: { yes: 0, no: 1 } }));
  assert.deepEqual(v.buttons.map((b) => b.pressed), [false, true]);
  assert.match(v.prompt, /change your answer/);
  assert.equal(v.answers, 0);
  assert.equal(cardView(asked({ tally: { yes: 7, no: 5 } })).answers, 12);
});

test("revealed: the truth is marked, the verdict says right or wrong, the choices are off", () => {
  const right = cardView(asked({ phase: "revealed", answer: "yes", truth: "yes", verdict: "right",
    explain: "Yes: y·f(x) = −1." }));
  assert.equal(right.verdict, "Right: Yes.");
  assert.equal(right.right, "right");
  assert.deepEqual(right.buttons.map((b) => [b.truth, b.disabled]), [[true, true], [false, true]]);
  assert.equal(right.explain, "Yes: y·f(x) = −1.");
  const wrong = cardView(asked({ phase: "revealed", answer: "no", truth: "yes", verdict: "wrong" }));
  assert.equal(wrong.verdict, "Not this time: the answer is Yes.");
  const told = cardView(asked({ phase: "revealed", truth: "no", verdict: "" }));
  assert.equal(told.verdict, "The answer: No.");
  // veils go at the reveal
  assert.deepEqual(cardView(asked({ hide: ["tiles"] })).hide, ["tiles"]);
  assert.deepEqual(cardView(asked({ hide: ["tiles"], phase: "revealed", truth: "no" })).hide, []);
});

test("clicks send the question's id; a revealed question or an unknown choice sends nothing", () => {
  assert.deepEqual(questionMessage(asked(), "answer", "no"), { type: "answer", id: 3, choice: "no" });
  assert.equal(questionMessage(asked(), "answer", "maybe"), null);
  assert.deepEqual(questionMessage(asked(), "reveal"), { type: "reveal", id: 3 });
  const revealed = asked({ phase: "revealed", truth: "yes" });
  assert.equal(questionMessage(revealed, "answer", "no"), null);
  assert.equal(questionMessage(revealed, "reveal"), null);
  assert.deepEqual(questionMessage(revealed, "close"), { type: "close", id: 3 });
  assert.equal(questionMessage({}, "close"), null);
});

test("the sketch maps the box to the square, y upwards, and clips the line to the box", () => {
  const g = sketchGeometry({ box: [-1, 1, -1, 1], points: [[-1, -1, 1], [1, 1, -1], [0, 0, 1]],
    line: [1, 0, -0.5] }, 100);  // the line x = 0.5
  assert.deepEqual(g.points.map((p) => [p.x, p.y, p.label, p.n]),
    [[0, 100, 1, 1], [100, 0, -1, 2], [50, 50, 1, 3]]);
  assert.deepEqual(g.line.map((v) => Math.round(v)).sort(), [0, 100, 75, 75].sort());
  assert.equal(g.line[0], g.line[2]);  // vertical
  assert.equal(sketchGeometry({ box: [-1, 1, -1, 1], points: [], line: [0, 0, 1] }, 100).line, null);
  assert.equal(sketchGeometry({ box: [-1, 1, -1, 1], points: [], line: [1, 1, -5] }, 100).line, null);
});

test("the card's buttons send their messages; veils cover the hidden panels", () => {
  const host = new FakeElement("div");
  const sent = [];
  const card = new QuestionCard(host, (m) => sent.push(m));
  const panels = new Map([["tiles", { x: 100, y: 10, w: 200, h: 150 }]]);
  card.show(asked({ hide: ["tiles"] }), panels, 1, [0, 0]);
  const layer = host.children[0];
  const veil = layer.find("pe-q-veil");
  assert.deepEqual([veil.style.left, veil.style.width], ["100px", "200px"]);
  const no = [...layer.walk()].find((e) => e.dataset && e.dataset.choice === "no");
  no.click();
  layer.find("pe-q-reveal").click();
  assert.deepEqual(sent, [{ type: "answer", id: 3, choice: "no" }, { type: "reveal", id: 3 }]);
  assert.ok(card.waiting() && card.unanswered());
  card.show({}, panels, 1, [0, 0]);
  assert.deepEqual(layer.children, []);
  assert.ok(!card.waiting());
});

test("the page figure: q stops Play and sends the step shown; the transport waits; Esc closes", async () => {
  const root = new FakeElement("div");
  const model = modelFor(sceneHeader(), { ask_keys: ["q", "Q"], key_actions: { ArrowRight: "step" } });
  const fig = new PageFigure(model, root);
  for (const i of [0, 1, 2, 3, 4]) model.message(...chunkMessage({ index: i }));
  await settle();
  fig.go(4);
  fig.play();
  assert.ok(fig.playing);
  const key = (k) => fig.key({ key: k, target: null, preventDefault() {}, stopPropagation() {} });
  fig.active = () => true;
  key("q");
  assert.ok(!fig.playing);
  assert.deepEqual(model.sent.at(-1), { type: "ask", step: 4, again: false });
  model.kernel({ question: asked() });
  await settle();
  assert.equal(root.dataset.question, "open");
  key("q");  // unanswered: another question
  assert.deepEqual(model.sent.at(-1), { type: "ask", step: 4, again: true });
  key("ArrowRight");
  fig.act("step");
  fig.act("play");
  assert.equal(fig.want, 4);
  assert.ok(!fig.playing);
  key("Escape");
  assert.deepEqual(model.sent.at(-1), { type: "close", id: 3 });
  model.kernel({ question: {} });
  await settle();
  assert.equal(root.dataset.question, "");
  fig.act("step");
  assert.equal(fig.want, 5);
  fig.destroy();
});

// ------------------------------------------------------------------ a room's follower
test("a follower's card: its own answer, no Reveal or Withdraw, its own verdict", () => {
  // the presenter answered "no" on its own card: a follower sees its own answer (none yet)
  const theirs = asked({ answer: "no", tally: { yes: 0, no: 1 } });
  const none = cardView(followerQuestion(theirs, undefined));
  assert.deepEqual(none.buttons.map((b) => b.pressed), [false, false]);
  assert.deepEqual(none.actions, []);
  assert.equal(none.follower, true);
  assert.equal(none.prompt, "Tap your answer; the lecturer reveals.");
  const mine = cardView(followerQuestion(asked({ tally: { yes: 3, no: 2 } }), "yes"));
  assert.deepEqual(mine.buttons.map((b) => b.pressed), [true, false]);
  assert.equal(mine.prompt, "You may change your answer until the lecturer reveals.");
  assert.equal(mine.answers, 5);  // the room's count shows
  assert.equal(cardView(followerQuestion(asked(), "maybe")).buttons.some((b) => b.pressed), false);
  // revealed: the verdict is the follower's, whatever the presenter's was
  const shown = asked({ phase: "revealed", truth: "yes", answer: "no", verdict: "wrong",
    tally: { yes: 3, no: 2 } });
  assert.equal(cardView(followerQuestion(shown, "yes")).verdict, "Right: Yes.");
  assert.equal(cardView(followerQuestion(shown, "no")).verdict, "Not this time: the answer is Yes.");
  assert.equal(cardView(followerQuestion(shown, undefined)).verdict, "The answer: Yes.");
  assert.deepEqual(cardView(followerQuestion(shown, "yes")).actions, []);
  // the presenter keeps Reveal and Withdraw, then Close
  assert.deepEqual(cardView(asked()).actions, ["reveal", "close"]);
  assert.deepEqual(cardView(shown).actions, ["close"]);
  for (const nothing of [null, {}, "x"]) assert.equal(followerQuestion(nothing, "yes"), nothing);
});

test("a follower's clicks: answers until the reveal, never Reveal or Close", () => {
  const q = followerQuestion(asked(), "no");
  assert.deepEqual(questionMessage(q, "answer", "yes"), { type: "answer", id: 3, choice: "yes" });
  assert.equal(questionMessage(q, "reveal"), null);
  assert.equal(questionMessage(q, "close"), null);
  const revealed = followerQuestion(asked({ phase: "revealed", truth: "no" }), "no");
  assert.equal(questionMessage(revealed, "answer", "yes"), null);
  assert.equal(questionMessage(revealed, "close"), null);
});

test("a follower's card has the answers and no foot; the keys of its answers differ", () => {
  const host = new FakeElement("div");
  const sent = [];
  const card = new QuestionCard(host, (m) => sent.push(m));
  card.show(followerQuestion(asked(), undefined), new Map(), 1, [0, 0]);
  const layer = host.children[0];
  assert.equal(layer.find("pe-q-reveal"), null);
  assert.equal(layer.find("pe-q-close"), null);
  assert.equal(layer.find("pe-q-foot"), null);
  assert.ok(layer.find("pe-q-follower"));
  const yes = [...layer.walk()].find((e) => e.dataset && e.dataset.choice === "yes");
  yes.click();
  assert.deepEqual(sent, [{ type: "answer", id: 3, choice: "yes" }]);
  card.click("close");  // Escape on a follower's page
  assert.equal(sent.length, 1);
  // a presenter's page loaded again asks its question 3 again: another key
  assert.notEqual(answerKey(1, asked()), answerKey(1, asked({ detail: "Step 4 visits point 2." })));
  assert.notEqual(answerKey(1, asked()), answerKey(2, asked()));
});
