// Nothing lost: the author's work is kept in the browser as it changes, one draft a tab, and
// comes back on reload. Two tabs never write over each other's work: each tab keeps its own
// draft (its key in sessionStorage, which a reload keeps), a new tab starts from the latest
// draft, and a tab that finds another one writing its draft goes on under a key of its own.
// When the browser's storage is full the author is told at once, and asked before leaving.
// Undo and redo come back after a reload too: the tab's history is kept in sessionStorage as
// the page goes (as much of it as fits, the latest steps first). So does a grid being solved
// (the cells filled in to solve typed clues, or "Solve it yourself"), with the draft.

import { state, snapshot, restore, forgetHistory, history, takeHistory } from "./model.js";
import { view } from "./view.js";

const PREFIX = "nonosat-studio/";
const LEGACY = "nonosat-studio"; // the one draft of earlier versions, taken over as a draft
const TAB = "nonosat-studio-tab";
const HISTORY = "nonosat-studio-history"; // this tab's undo and redo, kept over a reload

let id = null; // this tab's draft's key (after PREFIX)
let timer = 0;
let base = null; // the state as last kept (or taken up): a save of the same is not made
let takenUp = null; // the state as this tab took its draft up: this tab's own work is what differs
let failed = false; // the last save did not fit
let onChanged = () => {}; // the list of drafts changed (another tab saved, or this one forked)
let onFailed = () => {}; // a save failed: the storage is full or refused

export function setOnChanged(callback) {
  onChanged = callback;
}

export function setOnFailed(callback) {
  onFailed = callback;
}

const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function useId(value) {
  id = value;
  try {
    sessionStorage.setItem(TAB, value);
  } catch (_) {
    // no session storage: a reload starts from the latest draft instead
  }
}

/** Keep the state soon (after a quiet 200 ms, so a stroke is saved once). */
export function saveSoon() {
  clearTimeout(timer);
  timer = setTimeout(saveNow, 200);
}

/** Keep the state now if it changed: true when it is kept, false when it could not be (the
 * storage is full or refused; `onFailed` is told). */
export function saveNow() {
  clearTimeout(timer);
  const text = snapshot();
  const play = view.play; // (written out at once: no copy needed)
  if (kept(text, play) === base) return true;
  try {
    const record = { version: 1, savedAt: Date.now(), colour: state.colour, state: JSON.parse(text), play };
    localStorage.setItem(PREFIX + id, JSON.stringify(record));
    base = kept(text, play);
    failed = false;
  } catch (_) {
    failed = true;
    onFailed();
  }
  return !failed;
}

/** What a save keeps, as text: the state and the grid being solved (a save of the same is not made). */
const kept = (text, play) => `${text}\n${JSON.stringify(play)}`;

/** The grid being solved that a draft kept, if it fits its state: cells of one character each. */
function playOf(play, saved) {
  const fits = Array.isArray(play) && play.length === saved.width * saved.height;
  return fits && play.every((ch) => typeof ch === "string" && ch.length === 1) ? play : null;
}

/** As the page goes (a reload): keep this tab's undo and redo for the draft it shows, the
 * oldest steps dropped until it fits. */
export function keepHistory() {
  let { undo, redo } = history();
  try {
    sessionStorage.removeItem(HISTORY);
    for (;;) {
      try {
        sessionStorage.setItem(HISTORY, JSON.stringify({ id, at: snapshot(), undo, redo }));
        return;
      } catch (_) {
        if (!undo.length && !redo.length) return; // not even the draft's key fits
        if (undo.length) undo = undo.slice(Math.ceil(undo.length / 2));
        else redo = redo.slice(Math.ceil(redo.length / 2)); // (redo's next step is its last too)
      }
    }
  } catch (_) {
    // no session storage: undo starts afresh after a reload
  }
}

/** After a reload: the undo and redo kept for this draft, if it is as they left it. */
function takeUpHistory() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(HISTORY) || "null");
    sessionStorage.removeItem(HISTORY);
    if (kept && kept.id === id && kept.at === snapshot()) takeHistory(kept.undo, kept.redo);
  } catch (_) {
    // none kept, or not readable: undo starts afresh
  }
}

function read(key) {
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    const saved = kept && kept.version === 1 && kept.state;
    if (!saved || !Array.isArray(saved.grid) || saved.grid.length !== saved.width * saved.height) return null;
    if (!Array.isArray(saved.palette) || saved.palette.length < 2) return null;
    const drawn = saved.drawn;
    if (drawn && !(Array.isArray(drawn.grid) && drawn.grid.length === drawn.width * drawn.height)) saved.drawn = null;
    return { savedAt: Number(kept.savedAt) || 0, colour: kept.colour, state: saved, play: playOf(kept.play, saved) };
  } catch (_) {
    return null;
  }
}

function keys() {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && key.startsWith(PREFIX)) found.push(key);
    }
  } catch (_) {
    // no storage: no drafts
  }
  return found;
}

/** Whether a draft holds nothing of the author's: no title, no cell drawn, no clue typed. */
function blank(saved) {
  const texts = [...(saved.rowText || []), ...(saved.colText || [])];
  return !(saved.meta && saved.meta.title) && saved.grid.every((v) => !v) && texts.every((t) => !t) && !saved.drawn;
}

/** The drafts of other tabs and visits, newest first: { id, savedAt, title, width, height }. */
export function otherDrafts() {
  const found = [];
  for (const key of keys()) {
    if (key === PREFIX + id) continue;
    const draft = read(key);
    if (draft && !blank(draft.state)) {
      const { meta, width, height } = draft.state;
      found.push({ id: key.slice(PREFIX.length), savedAt: draft.savedAt, title: (meta && meta.title) || "", width, height });
    }
  }
  return found.sort((a, b) => b.savedAt - a.savedAt);
}

function put(draft) {
  restore(JSON.stringify(draft.state));
  state.colour = Math.max(1, Math.min(Number(draft.colour) || 1, state.palette.length - 1));
  view.play = draft.play ? draft.play.slice() : null;
  base = takenUp = kept(snapshot(), view.play);
}

/** Take up this tab's draft (a reload), else the latest one: how ("reload", "latest" or null for
 * none) and when it was saved. */
export function start() {
  try {
    const legacy = localStorage.getItem(LEGACY);
    if (legacy !== null) {
      localStorage.setItem(PREFIX + newId(), legacy); // savedAt 0: older than any draft of today's
      localStorage.removeItem(LEGACY);
    }
  } catch (_) {
    // no storage, or full: the old draft stays where it is
  }
  let mine = null;
  try {
    mine = sessionStorage.getItem(TAB);
  } catch (_) {
    mine = null;
  }
  const own = mine && read(PREFIX + mine);
  if (own) {
    useId(mine);
    put(own);
    takeUpHistory();
    return { how: "reload", savedAt: own.savedAt };
  }
  useId(newId());
  base = takenUp = kept(snapshot(), view.play);
  const latest = otherDrafts()[0];
  if (!latest) return { how: null, savedAt: 0 };
  useId(latest.id); // the latest draft, taken up: a tab still writing it makes this one go on apart
  put(read(PREFIX + latest.id));
  return { how: "latest", savedAt: latest.savedAt };
}

/** Open another draft in this tab once this tab's own is kept; false when it is not (or there is
 * no such draft). */
export function open(other) {
  const draft = read(PREFIX + other);
  if (!draft || !saveNow()) return false; // this tab's work not kept: it stays open
  useId(other);
  put(draft);
  forgetHistory();
  return true;
}

/** Before another puzzle replaces this tab's work (a file read, a picture used): keep the work
 * as it is under "Kept in this browser", and go on under a new draft, so that a reload, which
 * forgets the undo history, does not lose it. Nothing is kept of a blank board. */
export function keepApart() {
  if (blank(JSON.parse(snapshot()))) return;
  if (!saveNow()) return; // not kept (storage full, and said): the undo history still has it
  useId(newId());
  base = null;
  onChanged(false);
}

/** Forget a draft of another tab or visit. */
export function forget(other) {
  if (other === id) return;
  try {
    localStorage.removeItem(PREFIX + other);
  } catch (_) {
    // nothing to forget
  }
}

/** What another tab wrote under a key, as `kept` makes it of a state and the grid being solved
 * (null if it is not a draft): a tab that solves differs from one that shows the same clues. */
function written(value) {
  try {
    const record = JSON.parse(value);
    return record && record.state ? kept(JSON.stringify(record.state), record.play ?? null) : null;
  } catch (_) {
    return null;
  }
}

window.addEventListener("storage", (event) => {
  const mine = event.key === PREFIX + id;
  if (mine && event.newValue !== null) {
    // Another tab wrote this draft: unless it wrote exactly what this tab shows, this tab's
    // work goes on as a draft of its own, kept now (a tab that had changed nothing kept nothing).
    const text = snapshot();
    const forked = written(event.newValue) !== kept(text, view.play);
    if (forked) {
      useId(newId());
      base = null;
      if (!blank(JSON.parse(text))) saveNow();
    }
    onChanged(forked);
  } else if (mine || event.key === null) {
    base = null; // another tab forgot this draft (or cleared the storage): it is kept again
    saveNow();
    onChanged(false);
  } else if (event.key && event.key.startsWith(PREFIX)) {
    onChanged(false);
  }
});
