// Style resolution (explorer/app/static/kinds.js: resolveStyle): a track's style keys become what
// the canvas draws with; and each kind of moving part reads exactly the style keys it declares
// (its `style`, which tests/test_kinds_agree.py compares with explorer.plots.scene.KIND_STYLES):
// a key is read when changing it changes what the kind paints.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { FONT } from "../../explorer/app/static/kinds_plane.js";
import { KINDS, STYLE_KEYS, resolveStyle } from "../../explorer/app/static/kinds.js";
import { PageFigureDrawing } from "../../explorer/app/static/drawing.js";
import { FakeContext, installPage } from "./fakes.mjs";

let page;
beforeEach(() => { page = installPage(); });  // the raster draws into a canvas of its own
afterEach(() => page.restore());

// ------------------------------------------------------------------ resolveStyle
test("a style with no keys: black, opaque, 1.5 px solid lines; a polygon filled, unedged", () => {
  const line = resolveStyle("polyline", {});
  assert.deepEqual([line.color, line.alpha, line.width, line.dash, line.fill, line.marker],
    ["#000000", 1, 1.5, [], null, "o"]);
  assert.equal(line.font, `normal 8px ${FONT}`);
  const area = resolveStyle("polygon", { color: "#123456" });
  assert.deepEqual([area.width, area.fill, area.fillAlpha, area.hatch], [0, "#123456", 1, ""]);
  assert.equal(resolveStyle("polygon3d", {}).fill, null, "a 3-D polygon is filled only if told");
});

test("fill and its opacity; 'none' draws a ring", () => {
  const s = resolveStyle("points", { color: "#111111", alpha: 0.4, fill: "#222222" });
  assert.deepEqual([s.fill, s.fillAlpha, s.ring], ["#222222", 0.4, false]);
  assert.equal(resolveStyle("points", { alpha: 0.4, fill_alpha: 0.9 }).fillAlpha, 0.9);
  const ring = resolveStyle("points", { fill: "none" });
  assert.deepEqual([ring.fill, ring.ring], [null, true]);
});

test("a text's type: `font` a number is its size, a string its family; `weight`", () => {
  assert.equal(resolveStyle("text", {}).font, `normal 12px ${FONT}`);
  assert.equal(resolveStyle("text", { font: 20, size: 9 }).font, `normal 20px ${FONT}`);
  assert.equal(resolveStyle("text", { font: "serif", size: 9, weight: "bold" }).font, "bold 9px serif");
  assert.equal(resolveStyle("text", { size: 9 }).size, 9);
});

test("an arrow's head: its length, and its width (`size` on arrows and prefixes, or head = [l, w])", () => {
  assert.deepEqual(resolveStyle("arrow", {}).head, [10, 6]);
  assert.deepEqual(resolveStyle("arrow", { head: 12, size: 5 }).head, [12, 5]);
  assert.deepEqual(resolveStyle("arrow", { head: [8, 4] }).head, [8, 4]);
  assert.deepEqual(resolveStyle("points", { head: 12, size: 5 }).head, [12, 12 * 0.6]);
  assert.equal(resolveStyle("prefix", {}).arrows, false);
  assert.equal(resolveStyle("prefix", { head: 6 }).arrows, true, "a prefix with a head: arrows");
});

test("a box behind a text: white by default, or the colour, opacity and padding given", () => {
  assert.equal(resolveStyle("text", {}).box, null);
  assert.deepEqual(resolveStyle("text", { box: true }).box, { color: "#FFFFFF", alpha: 0.85, pad: 3 });
  assert.deepEqual(resolveStyle("text", { box: "#EEEEEE" }).box, { color: "#EEEEEE", alpha: 0.85, pad: 3 });
  assert.deepEqual(resolveStyle("text", { box: { alpha: 0.5 } }).box, { color: "#FFFFFF", alpha: 0.5, pad: 3 });
});

test("hatching, widths per colour code, colours", () => {
  const h = resolveStyle("polygon", { hatch: true, hatch_gap: 1, color: "#333333" });
  assert.deepEqual([h.hatch, h.hatchGap, h.hatchColor, h.hatchAlpha, h.hatchWidth], ["/", 2, "#333333", 1, 1]);
  const w = resolveStyle("points", { width: [0, 3], colors: ["#000000", "#FFFFFF"] });
  assert.deepEqual([w.widths, w.width, w.colors], [[0, 3], 1, ["#000000", "#FFFFFF"]]);
  assert.equal(resolveStyle("points", { width: "wide" }).width, 1.5, "not a number: the default");
});

test("resolveStyle reads exactly the declared style keys", () => {
  const read = new Set();
  for (const kind of Object.keys(KINDS)) {
    resolveStyle(kind, new Proxy({}, { get: (o, k) => { read.add(k); return undefined; } }));
  }
  assert.deepEqual([...read].sort(), [...STYLE_KEYS].sort());
});

// ------------------------------------------------------------------ each kind's keys
// What the canvas is told when it paints (each painting call with the state it uses).
function relevant(e) {
  const out = { op: e.op, alpha: e.globalAlpha };
  if (e.op === "stroke" || e.op === "strokeRect") {
    Object.assign(out, { color: e.strokeStyle, width: e.lineWidth, dash: e.dash, path: e.path });
  }
  if (e.op === "fill" || e.op === "fillRect" || e.op === "fillText") Object.assign(out, { color: e.fillStyle });
  if (e.op === "fill") out.path = e.path;
  if (e.op === "fillText") Object.assign(out, { font: e.font, align: e.textAlign, base: e.textBaseline });
  if (e.op === "fillRect" || e.op === "fillText") out.args = e.args;
  if (e.op === "drawImage") {  // an image drawn from a canvas of its own: what that canvas holds
    const src = e.args[0];
    out.args = e.args.slice(1);
    out.image = src && src.context ? src.context.painted().map((p) => [...p.args[0].data]) : null;
  }
  return out;
}

const PANEL = { name: "p", x: 0, y: 0, w: 100, h: 100, clip: true, ax: 10, bx: 50, ay: -10, by: 50,
  view3d: { azim: 30, elev: 20, lo: [0, 0, 0], hi: [1, 1, 1],
    labels: [[0, 0, 1.2, "z", "name"], [1, 0, -1, "0.5", "tick"]] } };
const square = Float32Array.from([0, 0, 2, 0, 2, 2, 0, 2]);
const cube = Float32Array.from([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1]);
// one or more sample frames of each kind (arrays of one step; static data)
const SAMPLES = {
  polyline: [{ a: { xy: square, xy_per: 8 } }],
  polygon: [{ a: { xy: square, xy_per: 8 } }],
  arrow: [{ a: { xy: Float32Array.from([0, 0, 3, 1]), xy_per: 4 } }],
  points: [{ a: { xy: square, xy_per: 8 } },
    { a: { xy: square, xy_per: 8, c: Uint8Array.from([0, 1, 1, 0]), c_per: 4 } }],
  text: [{ a: { xy: Float32Array.from([1, 1]), xy_per: 2, t: Int32Array.from([0]) }, strings: ["two\nlines"] }],
  prefix: [{ a: { n: Int32Array.from([3]), tail: Float32Array.from([3, 3]) }, data: [[0, 0], [1, 0], [1, 1]] }],
  vline: [{ a: { x: Float32Array.from([1]) } }],
  raster: [{ a: { bits: Uint8Array.from([0b10100000, 0b01010000]), bits_per: 2 }, data: [[0, 0], [2, 2], [4, 2]] }],
  points3d: [{ a: { xyz: cube, xyz_per: 12 } },
    { a: { xyz: cube, xyz_per: 12, c: Uint8Array.from([0, 1, 1, 0]), c_per: 4 } }],
  polyline3d: [{ a: { xyz: cube, xyz_per: 12 } }],
  polygon3d: [{ a: { xyz: cube, xyz_per: 12 } }],
  axes3d: [{ a: null }],
  hull3d: [{ a: { xyz: cube, xyz_per: 12 } }],
  arrow3d: [{ a: { xyz: Float32Array.from([0, 0, 0, 1, 1, 0]), xyz_per: 6 } }],
};
// every style key at a first value, and a second one to change it to
const A = { color: "#112233", alpha: 0.5, width: 2, dash: [4, 2], fill: "#778899", fill_alpha: 0.3,
  hatch: "/", hatch_gap: 6, hatch_color: "#010101", hatch_alpha: 0.2, hatch_width: 1.5, head: 7,
  size: 9, marker: "o", colors: ["#AA0000", "#00AA00"], font: 15, weight: "bold", box: true };
const B = { color: "#445566", alpha: 0.7, width: 3, dash: [1, 1], fill: "#AABBCC", fill_alpha: 0.6,
  hatch: "x", hatch_gap: 9, hatch_color: "#020202", hatch_alpha: 0.4, hatch_width: 2.5, head: 12,
  size: 14, marker: "s", colors: ["#0000AA", "#AAAA00"], font: 17, weight: "300",
  box: { color: "#EEEEEE", alpha: 0.5, pad: 5 } };
// bases: every key set; an open marker (its edge is dashed); a font family (`size` sizes a text)
const BASES = [A, { ...A, marker: "ring" }, { ...A, font: "serif" }];

// what the kind paints for a sample frame in style `raw`, as the page draws a track
function paint(kindName, raw, sample) {
  const kind = KINDS[kindName];
  const tr = { name: "t", kind: kindName, panel: PANEL, style: resolveStyle(kindName, raw) };
  if (kindName === "prefix") tr.data = Float64Array.from(sample.data.flat());
  if (kind.init) kind.init(tr, { name: "t", kind: kindName, style: raw, data: sample.data });
  const ctx = new FakeContext();
  const f = { ctx, buf: new Float64Array(256), a: sample.a, i: 0, strings: sample.strings || [] };
  const nv = kind.geom(f, tr);
  assert.ok(nv > 0 && kind.visible(f, tr, nv), `${kindName}: the sample is drawn`);
  PageFigureDrawing.prototype.drawTrack.call({ ctx }, kind, f, tr, nv);
  assert.ok(ctx.painted().length > 0, `${kindName}: it paints`);
  return JSON.stringify(ctx.painted().map(relevant));
}

// the style keys that change what `kind` paints
function keysRead(kind) {
  const read = new Set();
  for (const sample of SAMPLES[kind]) {
    for (const base of BASES) {
      const drawn = paint(kind, base, sample);
      for (const key of STYLE_KEYS) {
        const other = key === "marker" && base.marker === "ring" ? "x" : B[key];
        if (paint(kind, { ...base, [key]: other }, sample) !== drawn) read.add(key);
      }
    }
  }
  return read;
}

test("every kind has a sample here and declares its style keys", () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), Object.keys(KINDS).sort());
  for (const [name, kind] of Object.entries(KINDS)) {
    assert.ok(Array.isArray(kind.style) && kind.style.every((k) => STYLE_KEYS.includes(k)), name);
  }
});

for (const kind of Object.keys(SAMPLES)) {
  test(`a ${kind} track paints with exactly the style keys it declares`, () => {
    assert.deepEqual([...keysRead(kind)].sort(), [...KINDS[kind].style].sort());
  });
}

test("a track in a panel is clipped to the panel's box; the figure's texts are not", () => {
  const kind = KINDS.polyline, sample = SAMPLES.polyline[0];
  for (const [panel, clipped] of [[PANEL, true], [{ ...PANEL, clip: false }, false]]) {
    const ctx = new FakeContext();
    const f = { ctx, buf: new Float64Array(64), a: sample.a, i: 0, strings: [] };
    const tr = { kind: "polyline", panel, style: resolveStyle("polyline", {}) };
    PageFigureDrawing.prototype.drawTrack.call({ ctx }, kind, f, tr, kind.geom(f, tr));
    assert.equal(ctx.log.some((e) => e.op === "clip"), clipped);
    assert.deepEqual(ctx.log.find((e) => e.op === "rect")?.args ?? null, clipped ? [0, 0, 100, 100] : null);
    assert.deepEqual(ctx.log.at(-1).op, "restore", "the style does not leak to the next track");
  }
});

test("a points track's colour codes index its `colors`; without them every marker is its fill", () => {
  const sample = SAMPLES.points[1];  // codes 0, 1, 1, 0
  const fills = (raw) => JSON.parse(paint("points", raw, sample)).filter((e) => e.op === "fill").map((e) => e.color);
  assert.deepEqual(fills({ fill: "#00FF00", colors: ["#AA0000", "#0000AA"] }), ["#AA0000", "#0000AA", "#0000AA", "#AA0000"]);
  assert.deepEqual(fills({ fill: "#00FF00" }), ["#00FF00", "#00FF00", "#00FF00", "#00FF00"]);
  assert.deepEqual(fills({ color: "#123456", colors: ["#AA0000"] }), ["#AA0000", "#123456", "#123456", "#AA0000"],
    "a code with no colour: the track's colour");
});
