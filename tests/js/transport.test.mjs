// The transport's rules (explorer/app/static/transport.js): where each button goes, which are
// off or hidden, the slider's bounds, the chunks a step needs and the words while waiting.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  chunksFor, clampStep, controlStates, target, waitingWords,
} from "../../explorer/app/static/transport.js";

const run = { n: 30, updates: [2, 9, 17], epoch: 10, cycleStart: 12 };

test("step, back, reset and end", () => {
  assert.equal(target("step", { ...run, k: 5 }), 6);
  assert.equal(target("back", { ...run, k: 5 }), 4);
  assert.equal(target("reset", { ...run, k: 5 }), 0);
  assert.equal(target("end", { ...run, k: 5 }), 30);
  assert.equal(target("nonsense", { ...run, k: 5 }), 5);
});

test("the update buttons go to the next and previous update only", () => {
  const next = (k) => target("next_update", { ...run, k });
  const prev = (k) => target("prev_update", { ...run, k });
  assert.deepEqual([0, 1, 2, 8, 9, 16, 17, 29].map(next), [2, 2, 9, 9, 17, 17, 30, 30]);
  assert.deepEqual([0, 2, 3, 9, 10, 17, 30].map(prev), [0, 0, 2, 2, 9, 9, 17]);
  assert.equal(target("next_update", { n: 30, k: 4 }), 30, "no updates: the end");
  assert.equal(target("prev_update", { n: 30, k: 4 }), 0, "no updates: the start");
});

test("epoch end is the end of the pass the step is in (the next one's at a pass's end)", () => {
  const end = (k, epoch = 10, n = 30) => target("epoch_end", { n, k, epoch });
  assert.deepEqual([0, 9, 10, 25, 29].map((k) => end(k)), [10, 10, 20, 30, 30]);
  assert.equal(end(4, 0), 30, "no epoch: the end");
  assert.equal(end(21, 10, 24), 24, "the last pass is cut at the run's end");
});

test("cycle start goes to the cycle's first step, clamped to the run; none: stay", () => {
  assert.equal(target("cycle_start", { ...run, k: 25 }), 12);
  assert.equal(target("cycle_start", { ...run, k: 25, cycleStart: 99 }), 30);
  assert.equal(target("cycle_start", { ...run, k: 25, cycleStart: null }), 25);
  assert.equal(target("cycle_start", { n: 30, k: 25 }), 25);
});

test("a step is clamped to the run and rounded; anything else is 0", () => {
  assert.deepEqual([-3, 0, 4.4, 4.6, 30, 31, "7", "x", NaN, Infinity].map((k) => clampStep(k, 30)),
    [0, 0, 4, 5, 30, 30, 7, 0, 0, 0]);
});

test("buttons off at the run's bounds; the slider spans 0..n", () => {
  const at = (k, extra = {}) => controlStates({ k, n: 30, empty: false, playing: false,
    updates: run.updates, epoch: 10, cycleStart: 12, ...extra });
  const start = at(0).disabled, end = at(30).disabled, mid = at(12).disabled;
  assert.deepEqual([start.back, start.reset, start.prev_update, start.step, start.play], [true, true, true, false, false]);
  assert.deepEqual([end.step, end.end, end.play, end.epoch_end, end.next_update], [true, true, true, true, true]);
  assert.equal(at(30, { playing: true }).disabled.play, false, "Pause stays on at the end");
  assert.deepEqual([mid.back, mid.step, mid.cycle_start, at(13).disabled.cycle_start], [false, false, true, false]);
  assert.deepEqual([at(2).disabled.prev_update, at(3).disabled.prev_update], [true, false]);
  assert.deepEqual([at(16).disabled.next_update, at(17).disabled.next_update], [false, true]);
  assert.deepEqual(at(5).slider, { min: 0, max: 30, disabled: false });
  assert.deepEqual(controlStates({ k: 0, n: 0, empty: true }).slider, { min: 0, max: 1, disabled: true });
  const none = controlStates({ k: 0, n: 0, empty: true }).disabled;
  assert.ok(Object.values(none).every((v) => v === true), JSON.stringify(none));
});

test("epoch end and cycle start are hidden when the run has none", () => {
  assert.deepEqual(controlStates({ k: 0, n: 30, empty: false }).hidden, { epoch_end: true, cycle_start: true });
  assert.deepEqual(controlStates({ k: 0, n: 30, empty: false, epoch: 5, cycleStart: 4 }).hidden,
    { epoch_end: false, cycle_start: false });
  assert.equal(controlStates({ k: 0, n: 30, empty: false, cycleStart: 31 }).hidden.cycle_start, true);
});

test("a step needs its chunk and the neighbour it is nearer to, within the run", () => {
  assert.deepEqual(chunksFor(0, 10, 95), [0]);
  assert.deepEqual(chunksFor(4, 10, 95), [0]);
  assert.deepEqual(chunksFor(5, 10, 95), [0, 1]);
  assert.deepEqual(chunksFor(14, 10, 95), [1, 0]);
  assert.deepEqual(chunksFor(92, 10, 95), [9, 8]);
  assert.deepEqual(chunksFor(95, 10, 95), [9], "no chunk 10: step 100 is past the run");
  assert.deepEqual(chunksFor(89, 10, 85), [8]);
});

test("the words while waiting name the chunk's steps, cut at the run's end", () => {
  assert.equal(waitingWords(12, 10, 95), " · waiting for steps 10–19 from the kernel…");
  assert.equal(waitingWords(93, 10, 95), " · waiting for steps 90–95 from the kernel…");
});
