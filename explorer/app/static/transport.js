// The page figure's transport as pure functions (pagefigure.js runs them on its state): where
// each button goes, which buttons are off or hidden, which chunks a step needs, and what the
// status line says while the page waits for a chunk (its words: words.js). No DOM.

import { pageWord } from "./words.js";

export const SETTLE_MS = 150;        // a step unchanged this long is "settled": the kernel learns it
export const PUSHED_WAIT_MS = 1500;  // a chunk the kernel said it pushed, asked for if it has not come
export const RETRY_MS = 8000;        // a chunk asked for and not come: asked again
export const MAX_SPEED = 30;         // Play's fastest: steps per second

// a step asked for, as a step of the run 0..n (rounded; anything not a number is 0)
export function clampStep(k, n) {
  k = Math.round(Number(k));
  return Number.isFinite(k) ? Math.min(Math.max(k, 0), n) : 0;
}

// where `action` goes from step k of a run of n steps: `updates` the (sorted) steps that
// update, `epoch` a pass's length (0: none), `cycleStart` the cycle's first step (null: none);
// unclamped (a step forward from n is n + 1: the caller clamps)
export function target(action, { k, n, updates = [], epoch = 0, cycleStart = null }) {
  switch (action) {
    case "step": return k + 1;
    case "back": return k - 1;
    case "reset": return 0;
    case "end": return n;
    case "next_update": { for (const u of updates) if (u > k) return u; return n; }
    case "prev_update": { let p = 0; for (const u of updates) { if (u < k) p = u; else break; } return p; }
    case "epoch_end": return epoch <= 0 ? n : Math.min((Math.floor(k / epoch) + 1) * epoch, n);
    case "cycle_start": return cycleStart === null || cycleStart === undefined ? k : Math.min(cycleStart, n);
  }
  return k;
}

// the buttons' and the slider's state at step k: {disabled: {action: bool}, hidden: {action:
// bool}, slider: {min, max, disabled}}; `empty`: no run, or a run of no steps
export function controlStates({ k, n, empty, playing, updates = [], epoch = 0, cycleStart = null }) {
  const noCycle = cycleStart === null || cycleStart === undefined;
  return {
    disabled: {
      step: empty || k >= n,
      end: empty || k >= n,
      play: empty || (k >= n && !playing),
      back: k <= 0,
      reset: k <= 0,
      prev_update: k <= 0 || !(updates.length && updates[0] < k),
      next_update: empty || !(updates.length && updates[updates.length - 1] > k),
      epoch_end: empty || k >= n,
      cycle_start: noCycle || k === cycleStart,
    },
    hidden: { epoch_end: !((epoch | 0) > 0), cycle_start: noCycle || cycleStart > n },
    slider: { min: 0, max: Math.max(n, 1), disabled: empty },
  };
}

// the chunks to have at step k (chunks of C steps, the last holding step n): its own, then the
// neighbour on the side of the chunk k is nearer to (asked for ahead of need)
export function chunksFor(k, C, n) {
  const c = Math.floor(k / C), other = k - c * C >= C / 2 ? c + 1 : c - 1;
  return [c, other].filter((i) => i >= 0 && i * C <= n);
}

// the status line's words while the page waits for the chunk of step `next`
export function waitingWords(next, C, n) {
  const c0 = Math.floor(next / C) * C;
  return pageWord("waiting", " · waiting for steps {first}–{last} from the kernel…",
    { first: c0, last: Math.min(c0 + C - 1, n) });
}
