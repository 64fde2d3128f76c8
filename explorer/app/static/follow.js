// The follower's page (the hall's /follow; explorer/serving/lecture_web.py): the presenter's
// figure drawn by the page figure's own modules from the frames the hall server sends on
// (lecture.js), with no kernel. Served as files: the browser imports the modules itself, so
// there is no build step.

import { FLAG_COOKIE, FollowerModel, REDIAL_MS, TOO_FAST, decodeFrame } from "./lecture.js";
import { PageFigure } from "./pagefigure.js";
import { pageWord, setPageWords } from "./words.js";

export class Follower {
  // `host`: {doc, base (the hall's path), figure, state, title, dark, explore: elements};
  // `make`: (model, element) -> a page figure
  constructor(host, make = (model, el) => new PageFigure(model, el)) {
    this.host = host;
    this.make = make;
    this.fig = null;      // the presenter's figure followed
    this.model = null;
    this.figure = null;
  }

  // one frame from the server (an ArrayBuffer)
  take(data) {
    const { header, buffers } = decodeFrame(data);
    if (header.t === "focus") return this.focus(header);
    if (header.fig !== this.fig) return;
    this.model.take(header, buffers);
    if (!this.figure && this.model.attrs.controls && this.model.attrs.scene) {
      const el = this.host.doc.createElement("div");
      this.host.figure.replaceChildren(el);
      this.figure = this.make(this.model, el);
    }
  }

  focus({ fig, blackout, title, link }) {
    this.host.dark.hidden = !blackout;
    if (this.host.explore) {  // the dashboard at the presenter's state: the hall's own link
      this.host.explore.setAttribute("href", this.host.base + (link || ""));
      this.host.explore.hidden = !link;
    }
    this.host.title.textContent = title ? pageWord("following_title", "Following the lecture: {title}", { title })
      : pageWord("following_lecture", "Following the lecture");
    if (fig === this.fig) return;
    if (this.figure) this.figure.destroy();
    this.figure = null;
    this.host.figure.replaceChildren();
    this.fig = fig;
    if (!this.host.answers) this.host.answers = new Map();
    this.model = new FollowerModel({ fig, answers: this.host.answers,
      tell: (msg) => { if (this.host.send) this.host.send(JSON.stringify({ ...msg, fig })); } });
    this.say(fig === null ? pageWord("no_figure", "The lecturer shows no figure just now.")
      : pageWord("following_figure", "Following the lecturer's figure."));
  }

  say(text) { this.host.state.textContent = text; }
}

// how many places the hall has for those who explore (its /hall/status), every 15 s
// (a preheated kernel waits for a visitor, so it is a free place; one starting is not)
export function placesText({ pages, starting, max_pages: cap }) {
  if (!cap) return "";
  const free = Math.max(0, cap - (pages | 0) - (starting | 0));
  return free ? pageWord("places_free", "{free} of {cap} places free", { free, cap })
    : pageWord("places_taken", "all {cap} places are taken just now", { cap });
}

function places(base, el) {
  if (!el) return;
  const ask = () => fetch(base + "hall/status").then((r) => r.json())
    .then((st) => { el.textContent = placesText(st); }).catch(() => { el.textContent = ""; });
  ask();
  setInterval(ask, 15000);
}

// connect a page's follower to the hall server, again after a lost connection
export function follow(doc, WebSocketClass = globalThis.WebSocket) {
  const base = doc.body.dataset.base || "/";
  // the page's own words, in the language the hall chose for it (lang=, Accept-Language)
  try { setPageWords(JSON.parse(doc.body.dataset.words || "{}"), "follow"); } catch { /* English */ }
  const host = { doc, base, figure: doc.querySelector(".pe-follow-figure"),
    state: doc.querySelector(".pe-follow-state"), title: doc.querySelector(".pe-follow-title"),
    dark: doc.querySelector(".pe-follow-dark"), explore: doc.querySelector(".pe-follow-explore"),
    places: doc.querySelector(".pe-follow-places") };
  // leaving to explore: the dashboard there offers the way back (lecture.js, offerReturn)
  if (host.explore) {
    host.explore.addEventListener("click", () => {
      doc.cookie = `${FLAG_COOKIE}=explore; path=${base}; SameSite=Strict`;
    });
  }
  places(base, host.places);
  const url = new URL(base + "lecture/follow", doc.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  // the follower's answers, kept by this page across reconnections (question.js, answerKey)
  host.answers = new Map();
  let follower = new Follower(host);
  const dial = () => {
    const s = new WebSocketClass(url);
    s.binaryType = "arraybuffer";
    host.send = (text) => { if (s.readyState === 1) s.send(text); };
    s.onmessage = (ev) => { if (ev.data instanceof ArrayBuffer) follower.take(ev.data); };
    s.onopen = () => follower.say(pageWord("waiting_lecturer", "Waiting for the lecturer…"));
    s.onclose = (ev) => {
      if (ev.code === 4029) {
        follower.say(pageWord("sorry", "Sorry: {reason}. Try again in a minute.", { reason: ev.reason }));
        return;
      }
      if (ev.code === TOO_FAST || ev.code === 1009) {  // too many messages, or one too large
        follower.say(pageWord("disconnected", "Disconnected: {reason}. Reload the page to follow again.",
          { reason: ev.reason || pageWord("too_large", "this page sent a message too large") }));
        return;
      }
      follower.say(pageWord("lost", "The connection to the lecture was lost; trying again…"));
      if (follower.figure) follower.figure.destroy();
      follower = new Follower(host);
      setTimeout(dial, REDIAL_MS);
    };
  };
  dial();
  return () => follower;
}

if (typeof document !== "undefined" && document.body && document.body.dataset.base !== undefined) {
  const current = follow(document);
  Object.defineProperty(document.body, "peFollower", { get: current });  // for tests
}
