// A question asked over the page figure (issue 33, item 1: predict, then reveal): the card
// with the question, its big answer buttons and Reveal, drawn from the figure's `question`
// trait (explorer/app/question_state.py, QuestionState.page_json), and veils over the panels
// that would give the answer away until the reveal. The kernel decides everything; the card
// sends the clicks (answer, reveal, close) and draws what comes back. The pure parts
// (cardView, questionMessage, sketchGeometry, followerQuestion) are tested in Node
// (tests/js/question.test.mjs).
//
// In a lecture's room (lecture.js, follow.js) followers' pages draw the same card from the
// presenter's published trait, in the "follower" role (followerQuestion): their own answer,
// kept on their page and changeable until the reveal, goes to the hall server as a count;
// Reveal and Withdraw are the presenter's.
//
// A question answered by a place (kind "point": "Where will the boundary move?") has no answer
// buttons: a click or tap on its panel (the data plane) answers, and place.js draws the place
// as a dot over the plane (at the reveal: every answer's dot, and the old boundary dashed).

import { drawPlaces, isPlace, placeGeometry, roundPlace, sweptOver } from "./place.js";
import { pageWord } from "./words.js";

export const SKETCH_PX = 170;     // the card's drawing of a labelling, CSS px a side
const SHORT_PX = 420;             // a figure shorter than this gets the card's smaller type

// what the card shows for the question `q` (the `question` trait), or null for none
export function cardView(q) {
  if (!q || typeof q !== "object" || !Number.isInteger(q.id) || !Array.isArray(q.choices)) return null;
  const revealed = q.phase === "revealed";
  const tally = q.tally && typeof q.tally === "object" ? q.tally : {};
  const choices = q.choices.filter((c) => Array.isArray(c) && typeof c[0] === "string");
  const answers = choices.reduce((a, [k]) => a + Math.max(0, tally[k] | 0), 0);
  const mine = choices.some(([k]) => k === q.answer) ? 1 : 0;
  const label = (key) => String((choices.find(([k]) => k === key) || [key, key])[1]);
  const follower = q.role === "follower";
  const point = q.kind === "point" && q.point && typeof q.point === "object" ? q.point : null;
  if (q.kind === "point") return point ? placeView(q, point, revealed, follower, label) : null;
  let verdict = "";
  if (revealed) {
    const truth = { answer: label(q.truth) };
    verdict = q.verdict === "right" ? pageWord("q_right", "Right: {answer}.", truth)
      : q.verdict === "wrong" ? pageWord("q_wrong", "Not this time: the answer is {answer}.", truth)
        : pageWord("q_told", "The answer: {answer}.", truth);
  }
  return {
    id: q.id,
    words: String(q.words || ""),
    detail: String(q.detail || ""),
    buttons: choices.map(([key, text]) => ({ key, label: String(text), pressed: q.answer === key,
      truth: revealed && q.truth === key, disabled: revealed, count: Math.max(0, tally[key] | 0) })),
    // others' answers (a room's): shown when there are more than this page's own
    answers: answers > mine ? answers : 0,
    revealed,
    prompt: revealed ? "" : follower
      ? (q.answer ? pageWord("q_change_follower", "You may change your answer until the lecturer reveals.")
        : pageWord("q_tap", "Tap your answer; the lecturer reveals."))
      : q.answer ? pageWord("q_change", "You may change your answer, then Reveal.")
        : pageWord("q_answer", "Answer, then Reveal."),
    // the card's own buttons below the answers (none for a follower: the presenter's)
    actions: follower ? [] : revealed ? ["close"] : ["reveal", "close"],
    follower,
    verdict,
    right: revealed ? q.verdict || "" : "",
    explain: revealed ? String(q.explain || "") : "",
    hide: revealed || !Array.isArray(q.hide) ? [] : q.hide.filter((h) => typeof h === "string"),
    sketch: q.sketch && typeof q.sketch === "object" ? q.sketch : null,
    side: q.side === "left" ? "left" : "right",
  };
}

// cardView of a question answered by a place: no buttons before the reveal (a click on the
// plane answers), the tally of places swept over or not after it
function placeView(q, point, revealed, follower, label) {
  const mine = isPlace(q.answer) ? q.answer : null;
  const count = Math.max(0, q.count | 0);
  const tally = q.tally && typeof q.tally === "object" ? q.tally : {};
  const choices = Array.isArray(q.choices) ? q.choices.filter((c) => Array.isArray(c)) : [];
  let verdict = "";
  if (revealed) {
    const swept = { k: Math.max(0, tally[q.truth] | 0), n: count };
    verdict = q.verdict === "right" ? pageWord("q_place_right", "Right: the boundary swept over your place.")
      : q.verdict === "wrong" ? pageWord("q_place_wrong", "Not this time: the boundary did not sweep over your place.")
        : count === 1 ? pageWord("q_swept_1", "The boundary swept over {k} of {n} place.", swept)
          : pageWord("q_swept", "The boundary swept over {k} of {n} places.", swept);
  }
  return {
    id: q.id, words: String(q.words || ""), detail: String(q.detail || ""),
    buttons: revealed && count ? choices.map(([key, text]) => ({ key, label: String(text), pressed: false,
      truth: q.truth === key, disabled: true, count: Math.max(0, tally[key] | 0) })) : [],
    answers: count > (mine ? 1 : 0) || (revealed && count) ? count : 0,
    revealed,
    prompt: revealed ? "" : mine
      ? (follower ? pageWord("q_dot_follower", "Your dot is on the plane: tap elsewhere to move it until the lecturer reveals.")
        : pageWord("q_dot", "Your dot is on the plane: click elsewhere to move it, then Reveal."))
      : follower ? pageWord("q_tap_place", "Tap a place on the data plane; the lecturer reveals.")
        : pageWord("q_click_place", "Click a place on the data plane, then Reveal."),
    actions: follower ? [] : revealed ? ["close"] : ["reveal", "close"],
    follower, verdict, right: revealed ? q.verdict || "" : "",
    explain: revealed ? String(q.explain || "") : "", hide: [], sketch: null,
    side: q.side === "left" ? "left" : "right",
    point, mine, dots: revealed && Array.isArray(q.dots) ? q.dots : [], label,
  };
}

// the message a click on the card sends ("answer" with a choice's key, "reveal", "close"), or
// null when the question shown does not take it (revealed already, not one of its choices)
export function questionMessage(q, type, choice) {
  const v = cardView(q);
  if (!v) return null;
  if (type === "answer" && v.point) {  // a place [x, y] on the plane, rounded
    const at = v.revealed || !isPlace(choice) ? null : roundPlace(choice[0], choice[1], v.point.box);
    return at ? { type, id: v.id, point: at } : null;
  }
  if (type === "answer") {
    if (v.revealed || !v.buttons.some((b) => b.key === choice)) return null;
    return { type, id: v.id, choice };
  }
  if (!v.actions.includes(type)) return null;
  return { type, id: v.id };
}

// the question as a follower's card shows it (`q`: the presenter's published trait; `mine`:
// this follower's answer, kept on its page): the follower's role, its own answer (not the
// presenter's), its own verdict once revealed
export function followerQuestion(q, mine) {
  if (!q || typeof q !== "object" || !Number.isInteger(q.id)) return q;
  if (q.kind === "point") {
    const p = q.point || {}, answer = isPlace(mine) ? mine : null;
    const judged = q.phase === "revealed" && answer && Array.isArray(p.before) && Array.isArray(p.after);
    return { ...q, role: "follower", answer,
      verdict: judged ? (sweptOver(p.before, p.after, answer) ? "right" : "wrong") : "" };
  }
  const keys = Array.isArray(q.choices) ? q.choices.map((c) => (Array.isArray(c) ? c[0] : null)) : [];
  const answer = typeof mine === "string" && keys.includes(mine) ? mine : null;
  const verdict = q.phase !== "revealed" || answer === null ? ""
    : answer === q.truth ? "right" : "wrong";
  return { ...q, role: "follower", answer, verdict };
}

// the key a follower's page keeps its answer by: the figure and the question (its id and
// words: a presenter's page loaded again counts its ids from 1 again)
export function answerKey(fig, q) {
  return JSON.stringify([fig, q.id, q.name, q.detail]);
}

// a sketch's points and line in px of a `size` square: {points: [{x, y, label, n}], line:
// [x1, y1, x2, y2] or null}; the box [x0, x1, y0, y1] fills it, y upwards
export function sketchGeometry(sketch, size) {
  const [x0, x1, y0, y1] = Array.isArray(sketch && sketch.box) ? sketch.box : [-1, 1, -1, 1];
  const sx = size / (x1 - x0 || 1), sy = size / (y1 - y0 || 1);
  const px = (x) => (x - x0) * sx, py = (y) => size - (y - y0) * sy;
  const points = (sketch && Array.isArray(sketch.points) ? sketch.points : [])
    .map(([x, y, label], i) => ({ x: px(x), y: py(y), label: label > 0 ? 1 : -1, n: i + 1 }));
  let line = null;
  const l = sketch && sketch.line;
  if (Array.isArray(l) && l.length === 3 && (l[0] || l[1])) {
    const [a, b, c] = l, ends = [];  // a x + b y + c = 0 where it crosses the box's edges
    if (b) for (const x of [x0, x1]) { const y = -(a * x + c) / b; if (y >= y0 && y <= y1) ends.push([x, y]); }
    if (a) for (const y of [y0, y1]) { const x = -(b * y + c) / a; if (x >= x0 && x <= x1) ends.push([x, y]); }
    const far = ends.find((e) => Math.hypot(e[0] - ends[0][0], e[1] - ends[0][1]) > 1e-9);
    if (ends.length && far) line = [px(ends[0][0]), py(ends[0][1]), px(far[0]), py(far[1])];
  }
  return { points, line };
}

function qEl(doc, tag, cls, text) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// the labelling drawn small on a canvas: +1 blue discs, −1 vermillion squares, numbered, and
// the separating line once revealed
function sketchCanvas(doc, sketch, px) {
  const pad = 14, side = px + 2 * pad;
  const ratio = (doc.defaultView && doc.defaultView.devicePixelRatio) || 1;
  const c = qEl(doc, "canvas", "pe-q-sketch");
  c.width = Math.round(side * ratio);
  c.height = Math.round(side * ratio);
  c.style.width = `${side}px`;
  c.style.height = `${side}px`;
  c.setAttribute("role", "img");
  c.setAttribute("aria-label", pageWord("q_sketch",
    "The labelling asked about: +1 discs, −1 squares, numbered"));
  const ctx = c.getContext("2d");
  if (!ctx) return c;
  const { points, line } = sketchGeometry(sketch, px);
  ctx.setTransform(ratio, 0, 0, ratio, pad * ratio, pad * ratio);
  ctx.fillStyle = "#FFFFFF";
  ctx.fillRect(-pad, -pad, side, side);
  ctx.strokeStyle = "#BDBDBD";
  ctx.strokeRect(-pad + 0.5, -pad + 0.5, side - 1, side - 1);
  if (line) {
    ctx.strokeStyle = "#222222";
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.moveTo(line[0], line[1]);
    ctx.lineTo(line[2], line[3]);
    ctx.stroke();
  }
  ctx.font = "600 15px \"Noto Sans SC PE\", system-ui, sans-serif";
  for (const p of points) {
    ctx.fillStyle = p.label > 0 ? "#0072B2" : "#D55E00";
    ctx.beginPath();
    if (p.label > 0) ctx.arc(p.x, p.y, 8, 0, 2 * Math.PI);
    else ctx.rect(p.x - 7.5, p.y - 7.5, 15, 15);
    ctx.fill();
    ctx.fillStyle = "#111111";
    ctx.fillText(String(p.n), p.x + 9, p.y - 9);
  }
  return c;
}

export class QuestionCard {
  // `host`: the page figure's element (position: relative), `send(msg)`: to the kernel
  constructor(host, send) {
    this.doc = host.ownerDocument || document;
    // a layer over the figure that lets clicks through but for the card and the veils
    this.layer = qEl(this.doc, "div", "pe-q-layer");
    host.appendChild(this.layer);
    this.send = send;
    this.q = null;
    this.view = null;
    this.drawnKey = "";
  }

  // whether a question waits for its reveal (the transport waits with it)
  waiting() { return !!(this.view && !this.view.revealed); }

  // an unanswered question is open: q again asks another
  unanswered() { return this.waiting() && !this.view.buttons.some((b) => b.pressed); }

  // show the question `q` over the figure; `panels`: the scene's panels, `scale`: CSS px of the
  // canvas on screen per figure px, `at`: the canvas's offset in the host; `top` and `height`:
  // where the figure starts in it and its height on screen, which the card keeps to
  show(q, panels, scale, at, top = 0, height = 0) {
    const key = JSON.stringify([q, scale, at, top, height, [...panels.keys()]]);
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    this.q = q;
    const v = this.view = cardView(q);
    if (!v) { this.layer.replaceChildren(); return; }
    const veils = [];
    for (const name of v.hide) {
      const p = panels.get(name);
      if (!p) continue;
      const veil = qEl(this.doc, "div", "pe-q-veil", pageWord("q_hidden", "Hidden until the reveal"));
      Object.assign(veil.style, { left: `${at[0] + p.x * scale}px`, top: `${at[1] + p.y * scale}px`,
        width: `${p.w * scale}px`, height: `${p.h * scale}px` });
      veils.push(veil);
    }
    if (v.point) veils.push(...this.places(v, panels, scale, at));
    const room = height > 0 ? height - 16 : 0;
    const card = this.build(this.doc, v, room ? Math.round(Math.min(SKETCH_PX,
      Math.max(70, 0.35 * room))) : SKETCH_PX);
    card.style.top = `${top + 8}px`;
    if (room) card.style.maxHeight = `${room}px`;
    if (room && room < SHORT_PX) card.classList.add("pe-q-short");  // a short figure: smaller type
    this.layer.replaceChildren(...veils, card);
  }

  // a question answered by a place: the dots over its panel (a canvas that lets clicks through)
  places(v, panels, scale, at) {
    const g = placeGeometry({ point: v.point, mine: v.mine, dots: v.dots, revealed: v.revealed,
      panel: panels.get(v.point.panel), scale, at });
    if (!g || (!g.mine && !g.dots.length && !g.old)) return [];
    const c = qEl(this.doc, "canvas", "pe-q-places");
    Object.assign(c.style, { left: `${g.box[0]}px`, top: `${g.box[1]}px`, width: `${g.box[2]}px`,
      height: `${g.box[3]}px` });
    c.dataset.dots = String(g.dots.length + (g.mine ? 1 : 0));
    drawPlaces(c, g, (this.doc.defaultView && this.doc.defaultView.devicePixelRatio) || 1);
    return [c];
  }

  // the panel a click answers in, while a question answered by a place is open (else null)
  placePanel() {
    return this.view && this.view.point && !this.view.revealed ? this.view.point.panel : null;
  }

  build(doc, v, sketchPx = SKETCH_PX) {
    const card = qEl(doc, "div", `pe-q-card${v.side === "left" ? " pe-q-left" : ""}`
      + `${v.follower ? " pe-q-follower" : ""}`);
    card.setAttribute("role", "dialog");
    card.setAttribute("aria-label", v.words);
    card.dataset.phase = v.revealed ? "revealed" : "open";
    card.append(qEl(doc, "div", "pe-q-words", v.words), qEl(doc, "div", "pe-q-detail", v.detail));
    const row = qEl(doc, "div", "pe-q-choices");
    for (const b of v.buttons) {
      const button = qEl(doc, "button", `pe-q-choice${b.truth ? " pe-q-truth" : ""}`,
        v.revealed && v.answers ? `${b.label} · ${b.count}` : b.label);
      button.type = "button";
      button.dataset.choice = b.key;
      button.setAttribute("aria-pressed", b.pressed ? "true" : "false");
      button.disabled = b.disabled;
      button.addEventListener("click", () => this.click("answer", b.key));
      row.appendChild(button);
    }
    if (v.sketch) {  // the labelling beside the answers: the card stays short
      const body = qEl(doc, "div", "pe-q-body");
      body.append(sketchCanvas(doc, v.sketch, sketchPx), row);
      card.appendChild(body);
    } else card.appendChild(row);
    if (v.answers) {
      card.appendChild(qEl(doc, "div", "pe-q-count", v.answers === 1
        ? pageWord("q_answers_1", "{n} answer", { n: v.answers })
        : pageWord("q_answers", "{n} answers", { n: v.answers })));
    }
    if (v.revealed) {
      card.append(qEl(doc, "div", `pe-q-verdict pe-q-${v.right || "told"}`, v.verdict),
        qEl(doc, "div", "pe-q-explain", v.explain));
    } else {
      card.appendChild(qEl(doc, "div", "pe-q-prompt", v.prompt));
    }
    if (!v.actions.length) return card;
    const foot = qEl(doc, "div", "pe-q-foot");
    const words = { reveal: [pageWord("q_reveal", "Reveal"),
      pageWord("q_reveal_tip", "Take the step and show the answer")],
    close: v.revealed ? [pageWord("q_close", "Close"), pageWord("q_close_tip", "Close the question (Esc)")]
      : [pageWord("q_withdraw", "Withdraw"), pageWord("q_withdraw_tip", "Close the question unanswered (Esc)")] };
    for (const type of v.actions) {
      const [text, tip] = words[type];
      const b = qEl(doc, "button", `pe-q-${type}`, text);
      b.type = "button";
      b.title = tip;
      b.addEventListener("click", () => this.click(type));
      foot.appendChild(b);
    }
    card.appendChild(foot);
    return card;
  }

  click(type, choice) {
    const msg = questionMessage(this.q, type, choice);
    if (msg) this.send(msg);
  }
}
