// A question answered by a place on the plane (explorer/app/static/place.js and question.js,
// issue 33 item 1: "Where will the boundary move?"): the place a click gives (rounded, in the
// box), swept or not, the dots mapped through the scene's panel, the card's words and
// messages, a follower's own verdict. `node --test tests/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { clipLine, placeGeometry, roundPlace, sweptOver } from "../../explorer/app/static/place.js";
import { cardView, followerQuestion, questionMessage } from "../../explorer/app/static/question.js";
import { FollowerModel, toldAnswer } from "../../explorer/app/static/lecture.js";

const BOX = [-2, 2, -1, 3];
const BEFORE = [1, 0.5, 0], AFTER = [0.6, 0.9, -0.2];

function placeQ(extra = {}) {
  return { id: 4, name: "boundary", tab: "perceptron", kind: "point",
    words: "Where will the boundary move?", detail: "Step 1 visits point 5 (−1) and updates w.",
    choices: [["swept", "Swept over"], ["kept", "Not swept"]], phase: "open", answer: null,
    tally: { swept: 0, kept: 0 }, hide: [], truth: null, explain: "", verdict: "", sketch: null,
    point: { panel: "plane", box: BOX, before: BEFORE }, count: 0, dots: [], ...extra };
}

test("a click's place is rounded as the kernel keeps it, and refused outside the box", () => {
  assert.deepEqual(roundPlace(0.123456789, 2.0, BOX), [0.1235, 2]);
  assert.equal(roundPlace(2.5, 0, BOX), null);
  assert.equal(roundPlace(0, -1.01, BOX), null);
  assert.equal(roundPlace(NaN, 0, BOX), null);
  assert.equal(roundPlace(0, 0, [1, 0, 0, 1]), null);
});

test("swept over: on one side of the old line and the other of the new", () => {
  assert.equal(sweptOver(BEFORE, AFTER, [0.1, 0]), true);
  assert.equal(sweptOver(BEFORE, AFTER, [1.5, 1.5]), false);
  assert.deepEqual(clipLine([1, 0, 0], [-1, 1, -1, 1]), [[0, -1], [0, 1]]);
  assert.equal(clipLine([1, 0, -5], [-1, 1, -1, 1]), null);  // misses the box
});

test("the dots are mapped through the panel: data -> figure px -> CSS px in the host", () => {
  // a panel 200x100 figure px at (10, 20), data x in [0, 4] -> [10, 210], y in [0, 2] -> [120, 20]
  const panel = { name: "plane", x: 10, y: 20, w: 200, h: 100, ax: 50, bx: 10, ay: -50, by: 120 };
  const point = { box: [0, 4, 0, 2], before: [1, 0, -1], after: [1, 0, -3] };
  const g = placeGeometry({ point, mine: [2, 1], dots: [[0, 0, 1], [4, 2, 0]], revealed: true,
    panel, scale: 0.5, at: [3, 7] });
  assert.deepEqual(g.box, [3 + 5, 7 + 10, 100, 50]);
  assert.deepEqual(g.mine, { x: 50, y: 25, swept: true });  // x=2: between x=1 and x=3
  assert.deepEqual(g.dots, [{ x: 0, y: 50, swept: false }, { x: 100, y: 0, swept: false }]);
  assert.deepEqual(g.old, [25, 50, 25, 0]);  // the old boundary x = 1, dashed at the reveal
  const open = placeGeometry({ point: { box: [0, 4, 0, 2], before: [1, 0, -1] }, mine: [2, 1],
    dots: [], revealed: false, panel, scale: 1, at: [0, 0] });
  assert.equal(open.mine.swept, null);  // no truth before the reveal
  assert.equal(open.old, null);
});

test("the card: no answer buttons, a click answers with a rounded place, the verdict after", () => {
  const v = cardView(placeQ());
  assert.equal(v.buttons.length, 0);
  assert.equal(v.prompt, "Click a place on the data plane, then Reveal.");
  assert.deepEqual(v.actions, ["reveal", "close"]);
  assert.deepEqual(questionMessage(placeQ(), "answer", [0.123456789, 1]),
    { type: "answer", id: 4, point: [0.1235, 1] });
  assert.equal(questionMessage(placeQ(), "answer", [5, 1]), null);  // off the plane
  assert.equal(questionMessage(placeQ(), "answer", "swept"), null);  // not a place
  const mine = cardView(placeQ({ answer: [0.1, 0], count: 1 }));
  assert.match(mine.prompt, /click elsewhere to move it/);
  assert.equal(mine.answers, 0);  // alone: no room's count
  const done = placeQ({ phase: "revealed", answer: [0.1, 0], verdict: "right", truth: "swept",
    point: { panel: "plane", box: BOX, before: BEFORE, after: AFTER }, count: 3,
    tally: { swept: 2, kept: 1 }, dots: [[0.1, 0, 1], [1.5, 1.5, 0]] });
  const r = cardView(done);
  assert.equal(r.verdict, "Right: the boundary swept over your place.");
  assert.deepEqual(r.buttons.map((b) => [b.label, b.count, b.truth]),
    [["Swept over", 2, true], ["Not swept", 1, false]]);
  assert.equal(questionMessage(done, "answer", [0, 0]), null);  // after the reveal
  assert.equal(cardView({ ...done, verdict: "" }).verdict, "The boundary swept over 2 of 3 places.");
});

test("a follower's place: kept on its page, told as a point, judged by its own page", () => {
  const told = [];
  const m = new FollowerModel({ fig: 1, tell: (msg) => told.push(msg) });
  m.take({ t: "state", set: { question: placeQ() } }, []);
  m.send({ type: "answer", id: 4, point: [0.1, 0] });
  assert.deepEqual(told, [{ t: "answer", id: 4, point: [0.1, 0] }]);
  assert.deepEqual(m.get("question").answer, [0.1, 0]);
  assert.equal(m.get("question").role, "follower");
  assert.deepEqual(toldAnswer(4, "yes"), { t: "answer", id: 4, choice: "yes" });
  const shown = placeQ({ phase: "revealed", truth: "swept",
    point: { panel: "plane", box: BOX, before: BEFORE, after: AFTER } });
  assert.equal(followerQuestion(shown, [0.1, 0]).verdict, "right");
  assert.equal(followerQuestion(shown, [1.5, 1.5]).verdict, "wrong");
  assert.equal(followerQuestion(shown, null).verdict, "");
});
