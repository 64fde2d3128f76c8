// Whose key press it is: the dashboard's shortcut keys, or the control that has the focus.
// Read by the page figure's keys (input.js) and the page bridge's (explorer/app/bridge.py,
// which sends this module, joined by explorer/app/esm_join.py, before its own script); an ES
// module with no imports and no DOM of its own beyond the listeners of watchFocus
// (tests/js/keys.test.mjs imports it in Node).
//
// A lecturer mixes mouse and keys: after a click on a button, a slider, a toggle, a drop-down or
// a tab, the documented keys still step, play and jump, and the control clicked does not act on
// them too (the caller prevents its default: a button's click on space, a slider's move on an
// arrow). Two exceptions:
//   - a text box (text and number inputs, text areas, editable text): typing types;
//   - a control reached with the keyboard (Tab) keeps the keys it works itself (space presses a
//     button or ticks a box, arrows move a slider, a drop-down, a radio group or a tab bar), so
//     the dashboard stays usable without a mouse; letters are always the dashboard's.

const NOT_TYPED = new Set(["button", "checkbox", "radio", "range", "color", "file", "submit",
  "reset", "image", "hidden"]);
const MOVE_KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp",
  "PageDown"];
// the keys a control reached with the keyboard works itself: [CSS of the control, keys]
export const OWN_KEYS = [
  ['input[type="range"], [role="slider"], [role="spinbutton"]', MOVE_KEYS],
  ['select, [role="listbox"], [role="combobox"]', [...MOVE_KEYS, " "]],
  ['input[type="radio"], [role="radio"], [role="tab"], [role="menuitem"], [role="option"]',
    [...MOVE_KEYS, " "]],
  ['button, input[type="checkbox"], input[type="button"], input[type="submit"], ' +
    'input[type="reset"], input[type="file"], [role="button"], [role="checkbox"], ' +
    '[role="switch"], summary, a[href]', [" "]],
];

// whether `t` (a key event's target) is a place to type text in
export function typingIn(t) {
  if (!t || !t.closest) return false;
  if (t.isContentEditable || t.closest("textarea")) return true;
  const input = t.closest("input");
  return !!input && !NOT_TYPED.has(String(input.getAttribute("type") || "text").toLowerCase());
}

// the keys the control `t` works itself (an empty list for anything else)
export function ownKeys(t) {
  if (!t || !t.closest) return [];
  for (const [css, keys] of OWN_KEYS) if (t.closest(css)) return keys;
  return [];
}

// Which element has the focus because of the keyboard (Tab, or a control's own arrows), shared
// by every script of the page: {keyboard: element or null}. A pointer press ends it; a focus
// that a click or a script gives is not the keyboard's.
export function watchFocus(win) {
  if (win.peKeyFocus) return win.peKeyFocus;
  const focus = { keyboard: null };
  let keying = false;  // a key is being pressed: a focus moved now is the keyboard's
  win.addEventListener("keydown", () => {
    keying = true;
    setTimeout(() => { keying = false; }, 0);  // after the key's default action (a Tab's move)
  }, true);
  win.addEventListener("focusin", (ev) => { focus.keyboard = keying ? ev.target : null; }, true);
  win.addEventListener("pointerdown", () => { keying = false; focus.keyboard = null; }, true);
  win.peKeyFocus = focus;
  return focus;
}

// Whether the key press `ev` is the dashboard's (when `ev.key` is one of its keys): not with
// Ctrl, Alt or Meta, not while typing, not a key that a control reached with the keyboard
// (`focus`, from watchFocus) works itself.
export function dashboardKey(ev, focus) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
  const t = ev.target;
  if (typingIn(t)) return false;
  const byKeyboard = focus && focus.keyboard && t && focus.keyboard === t;
  return !(byKeyboard && ownKeys(t).includes(ev.key));
}

// Undo and redo (explorer/app/history.py): Ctrl+Z (Cmd+Z on a Mac) gives "Undo", Ctrl+Shift+Z
// or Ctrl+Y "Redo" (the KeyboardEvent.key names of the keys some keyboards have); null for any
// other key, and while typing: a text box undoes its own typing.
export function historyKey(ev) {
  if (!(ev.ctrlKey || ev.metaKey) || ev.altKey || typingIn(ev.target)) return null;
  const k = String(ev.key).toLowerCase();
  if (k === "z") return ev.shiftKey ? "Redo" : "Undo";
  return k === "y" && !ev.shiftKey ? "Redo" : null;
}
