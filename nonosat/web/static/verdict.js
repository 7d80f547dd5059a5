// The live verdict (a debounced /api/check, the previous one aborted) and the fixes: repair and suggest.

import * as api from "./api.js";
import { state, toPuzzle, loadPuzzle, parseRows, remember, gridRows, clues } from "./model.js";
import { paint, buildBoard, markCells, markLines, view } from "./editor.js";
import { $, say, whileBusy } from "./ui.js";

const DELAY = 300;
let timer = 0;
let controller = null;
let afterLoad = () => {};
let changes = 0; // edits so far: a longer check's answer is shown only if none came after it began
/** The last answer of /api/check, for the page's other parts (null while none). */
export let lastResult = null;
let answered = -1; // the edits so far when lastResult was asked for: it is the board's now when no edit came since

export function setAfterLoad(callback) {
  afterLoad = callback;
}

const LEVELS = {
  line: "line logic solves it",
  probe: "needs probing (trying a cell and following it)",
  search: "needs search (guessing deeper)",
  ambiguous: "ambiguous",
};

/** Ask for a verdict ~300 ms after the last change; the answer being waited for is abandoned. */
export function scheduleCheck() {
  changes += 1;
  clearTimeout(timer);
  if (controller) controller.abort();
  const verdict = $("verdict");
  verdict.dataset.status = "checking";
  verdict.classList.add("stale");
  timer = setTimeout(runCheck, DELAY);
}

/** Another puzzle came in (a file, a picture, kept work): the verdict and its marks were the
 * last puzzle's, so none is shown until this one's comes. */
export function forgetVerdict() {
  lastResult = null;
  showVerdict("checking", "Checking…", "");
  clearMarks();
}

/** No verdict for the board as it is: the cells, lines and other solution marked for the last
 * one go, with it. */
function clearMarks() {
  markCells("differs", []);
  markCells("open", []);
  markLines([]);
  showOtherSolution(null);
}

/** Stop the check under way or waiting, and show the verdict as out of date (its text stays). */
export function holdCheck() {
  clearTimeout(timer);
  if (controller) controller.abort();
  controller = null;
  $("verdict").classList.add("stale");
}

/** "Check longer": the same check with the server's most time; Cancel stops it. */
export async function checkLonger(button) {
  clearTimeout(timer);
  if (controller) controller.abort();
  controller = null;
  $("check-longer").hidden = true;
  const verdict = $("verdict");
  verdict.dataset.status = "checking";
  $("verdict-status").textContent = `Checking for up to ${api.LONGER_SECONDS} s…`;
  const asked = changes;
  const result = await whileBusy(button, `Checking for up to ${api.LONGER_SECONDS} s (Cancel stops it)…`, (signal) =>
    api.check(toPuzzle(true), signal, api.LONGER_SECONDS),
  );
  if (asked !== changes) return; // the puzzle changed meanwhile: the live check answers for it
  if (!result) {
    // cancelled or failed: the verdict it began from (with "Check longer" again) if that was
    // this board's, else a check of the board as it is
    if (lastResult && answered === changes) showResult(lastResult);
    else scheduleCheck();
    return;
  }
  lastResult = result;
  answered = asked;
  showResult(result);
  say(result.status === "unknown" ? "Not decided in the longer time either." : "Decided.");
}

async function runCheck() {
  if (controller) controller.abort();
  const mine = new AbortController();
  controller = mine;
  const asked = changes;
  let puzzle;
  try {
    puzzle = toPuzzle(true);
  } catch (error) {
    lastResult = null;
    showVerdict("invalid", error.message, "");
    clearMarks();
    return;
  }
  try {
    const result = await api.check(puzzle, mine.signal);
    if (mine.signal.aborted) return;
    lastResult = result;
    answered = asked;
    showResult(result);
  } catch (error) {
    if (error.name === "AbortError" || mine.signal.aborted) return;
    lastResult = null;
    showVerdict("error", error.message, "");
    clearMarks();
  }
}

function showVerdict(status, headline, details) {
  $("check-longer").hidden = true;
  const verdict = $("verdict");
  verdict.dataset.status = status;
  verdict.classList.remove("stale");
  $("verdict-status").textContent = headline;
  $("verdict-details").textContent = details;
}

function showResult(result) {
  const status = result.status;
  const parts = [];
  if (result.level && LEVELS[result.level]) parts.push(LEVELS[result.level]);
  if (result.difficulty) parts.push(`difficulty ${result.difficulty}/5`);
  const other = status === "multiple" ? otherSolution(result) : null;
  if (other) parts.push(`${other.differences.length} cells differ ${other.fromDrawing ? "from another solution" : "between two solutions"}`);
  const open = result.line_open || [];
  if (open.length && status !== "none") {
    const share = Math.round((100 * open.length) / (state.width * state.height));
    parts.push(`${open.length} cells line logic leaves open (${share}% of the grid, shaded)`);
  }
  parts.push(...lineHints());
  const lines = (result.diagnosis && result.diagnosis.lines) || [];
  if (status === "none") {
    if (lines.length) parts.push(`conflicting lines: ${lines.join(", ")}`);
    for (const problem of result.problems || (result.diagnosis && result.diagnosis.problems) || []) parts.push(problem);
  }
  if (result.cut_short) parts.push(result.cut_short); // the server says it whole ("time limit reached while …")
  if (result.goal_satisfies_clues === false) parts.push("the drawing does not fit these clues");
  const headline = {
    unique: "Unique: one solution",
    multiple: "Multiple solutions",
    none: "No solution",
    unknown: "Unknown: not decided in time",
  }[status] || status;
  showVerdict(status, headline, parts.join(" · "));
  $("check-longer").hidden = status !== "unknown";
  markCells("differs", other ? other.differences : []);
  markCells("open", status === "none" ? [] : open);
  markLines(status === "none" ? lines : []);
  showOtherSolution(other);
}

/** Quality hints as webpbn's checker gives them: lines with no block (unless every line is: an
 * empty grid), and lines one block fills. */
function lineHints() {
  const { rows, cols } = clues();
  const named = (found, kind) => found.map((i) => `${kind} ${i + 1}`);
  const pick = (lines, length, test) => lines.map((clue, i) => (clue && test(clue, length) ? i : -1)).filter((i) => i >= 0);
  const blank = [...named(pick(rows, state.width, (c) => c.length === 0), "row"), ...named(pick(cols, state.height, (c) => c.length === 0), "column")];
  const full = (c, length) => c.length === 1 && c[0][0] === length;
  const filled = [...named(pick(rows, state.width, full), "row"), ...named(pick(cols, state.height, full), "column")];
  const list = (names) => (names.length > 4 ? `${names.slice(0, 4).join(", ")} and ${names.length - 4} more` : names.join(", "));
  const hints = [];
  if (blank.length && blank.length < state.width + state.height) hints.push(`${blank.length} blank line${blank.length === 1 ? "" : "s"} (${list(blank)})`);
  if (filled.length) hints.push(`${filled.length} full line${filled.length === 1 ? "" : "s"} (${list(filled)})`);
  return hints;
}

/** With several solutions, one to show beside the board and the cells ([r, c] from 1) where it
 * differs: in draw mode a solution that is not the drawing, compared with the drawing (where the
 * author's own picture is not forced); typing clues, the server's two solutions, side by side
 * (`first`: the board shows the grid being solved, not a solution). */
function otherSolution(result) {
  const solutions = result.solutions || [];
  if (solutions.length < 2) return null;
  if (state.mode !== "draw") return { first: solutions[0], rows: solutions[1], differences: result.differences || [], fromDrawing: false };
  const drawing = gridRows();
  const rows = solutions.find((candidate) => candidate.join("\n") !== drawing.join("\n")) || solutions[1];
  const grid = parseRows(rows);
  const differences = [];
  grid.forEach((cell, i) => {
    if (cell !== state.grid[i]) differences.push([Math.floor(i / state.width) + 1, (i % state.width) + 1]);
  });
  return { rows, differences, fromDrawing: true };
}

/** A small picture of the other solution, the cells where it differs outlined. */
function showOtherSolution(other) {
  const box = $("other-solution");
  if (!other) {
    box.hidden = true;
    return;
  }
  drawSolution($("other-canvas"), other.rows, other.differences);
  $("first-canvas").hidden = !other.first;
  if (other.first) drawSolution($("first-canvas"), other.first, other.differences);
  const caption = $("other-caption");
  if (other.fromDrawing) {
    // (the board hides its outlines while a player solves the puzzle: then only "here")
    const onBoard = Object.assign(document.createElement("span"), { className: "on-board", textContent: " and on the board" });
    caption.replaceChildren("Another solution; the cells where it differs from the drawing are outlined here", onBoard, ".");
  } else {
    caption.textContent = "Two solutions; the cells where they differ are outlined on both.";
  }
  box.hidden = false;
}

/** Draw a solution's `rows` on `canvas`, the cells `differences` outlined. */
function drawSolution(canvas, rows, differences) {
  const grid = parseRows(rows);
  canvas.dataset.rows = rows.join("/");
  const size = Math.max(3, Math.min(20, Math.floor(240 / Math.max(state.width, state.height))));
  // drawn at twice the pixels (or the screen's own density), so that an outline is never blurred
  // away; each outline red inside white, at least 2 px, so that it shows on any cell's colour (a
  // review: at 40x40, 6 px cells with a 1 px dark red line, not one red pixel on a filled cell)
  const scale = Math.max(2, Math.ceil(window.devicePixelRatio || 1));
  canvas.width = state.width * size * scale;
  canvas.height = state.height * size * scale;
  canvas.style.width = `${state.width * size}px`;
  canvas.style.height = `${state.height * size}px`;
  const g = canvas.getContext("2d");
  g.scale(scale, scale);
  grid.forEach((cell, i) => {
    g.fillStyle = state.palette[cell] ? state.palette[cell].rgb : "#ffffff";
    g.fillRect((i % state.width) * size, Math.floor(i / state.width) * size, size, size);
  });
  const line = Math.max(2, size / 8);
  for (const [colour, width] of [["#ffffff", line + 2], ["#e0182d", line]]) {
    g.strokeStyle = colour;
    g.lineWidth = width;
    for (const [r, c] of differences) g.strokeRect((c - 1) * size + line / 2, (r - 1) * size + line / 2, size - line, size - line);
  }
}

/** What a fix works on, as text: the drawing, its size and palette and the mode. */
function drawingNow() {
  return JSON.stringify([state.mode, state.width, state.height, state.palette, state.grid]);
}

function needDrawing() {
  if (state.mode !== "draw") throw new Error("the fixes change a drawing: switch to Draw first");
  return toPuzzle(true);
}

/** "Make it unique" / "make it line-solvable": load the repaired drawing and mark what changed. */
export async function repair(button, require) {
  const what = require === "line" ? "line-solvable" : "unique";
  await whileBusy(button, `Looking for the fewest changes that make it ${what}…`, async (signal) => {
    const before = drawingNow();
    const result = await api.repair(needDrawing(), require, signal);
    if (!result.puzzle) throw new Error(`no ${what} puzzle found in time (${result.cut_short || result.status})`);
    if (drawingNow() !== before) {
      say(`The drawing changed while the fix ran, so its result was not applied: press the button again to fix the drawing as it is now.`, "error");
      return;
    }
    remember();
    const title = state.meta.title;
    loadPuzzle(result.puzzle);
    if (!state.meta.title) state.meta.title = title;
    view.play = null;
    buildBoard();
    afterLoad();
    markCells("changed", result.changed);
    const n = (result.changed || []).length;
    say(n ? `Changed ${n} cell${n === 1 ? "" : "s"} (outlined in green): now ${what}.` : `Already ${what}: nothing changed.`);
    scheduleCheck();
  });
}

/** "Suggest": the best one-cell edits, each a button that applies it. */
export async function suggest(button) {
  await whileBusy(button, "Looking for the best one-cell edits…", async (signal) => {
    const before = drawingNow();
    const result = await api.suggest(needDrawing(), signal);
    if (!result.edits) throw new Error(`no edits found in time (${result.cut_short || result.status})`);
    if (drawingNow() !== before) {
      say("The drawing changed while the edits were weighed, so they are not listed: press Suggest again.", "error");
      return;
    }
    const list = $("suggestions");
    list.replaceChildren();
    for (const edit of result.edits || []) list.append(suggestionItem(edit));
    const n = (result.edits || []).length;
    say(n ? `${n} edits, best first: click one to apply it.` : "No one-cell edit frees a cell: Make it unique changes several.", "info");
  });
}

function suggestionItem(edit) {
  const [r, c] = edit.cell;
  // the palette's own character first: in a colour palette "#" may be green (a review found black set)
  const found = state.palette.findIndex((p) => p.char === edit.colour);
  const colour = found >= 0 ? found : edit.colour === "#" ? 1 : 0;
  const name = colour === 0 ? "empty" : state.palette.length === 2 ? "filled" : state.palette[colour].name;
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.className = "suggestion";
  b.textContent = `row ${r}, column ${c} → ${name}: ${edit.open} cells left open`;
  b.addEventListener("mouseenter", () => markCells("suggested", [[r, c]]));
  b.addEventListener("mouseleave", () => markCells("suggested", []));
  b.addEventListener("click", () => {
    remember();
    state.grid[(r - 1) * state.width + (c - 1)] = colour;
    paint();
    markCells("suggested", []);
    markCells("changed", [[r, c]]);
    li.parentElement.replaceChildren();
    say(`Set row ${r}, column ${c} to ${name}.`);
    scheduleCheck();
  });
  li.append(b);
  return li;
}
