// Solving on the page: step through line logic (/api/explain), reveal (/api/solve), hint (/api/hint).

import * as api from "./api.js";
import { state, toPuzzle } from "./model.js";
import { paint, markCells, view, playMarks } from "./editor.js";
import { $, say, whileBusy, parseLineName, sleep } from "./ui.js";

let running = null; // the animation under way: { stop: bool }

/** Show a grid to solve: every cell open (`?`, or another mark where a colour is `?`). */
export function startPlay() {
  view.play = new Array(state.width * state.height).fill(playMarks().open);
  $("steps").replaceChildren();
  markCells("fixed", []);
  markCells("wrong", []);
  document.body.classList.add("playing");
  paint();
}

export function stopPlay() {
  stopAnimation();
  view.play = null;
  document.body.classList.remove("playing");
  markCells("fixed", []);
  markCells("wrong", []);
  paint();
}

export function stopAnimation() {
  if (running) running.stop = true;
  running = null;
}

function ensurePlay() {
  if (!view.play || view.play.length !== state.width * state.height) startPlay();
}

/** The player's grid as rows of characters (`playMarks`' and the colours'). */
function playRows() {
  const rows = [];
  for (let r = 0; r < state.height; r += 1) rows.push(view.play.slice(r * state.width, (r + 1) * state.width).join(""));
  return rows;
}

/** Set a line ("row 3") of the player's grid to `after`. */
function applyStep(step) {
  const line = parseLineName(step.line);
  if (!line || typeof step.after !== "string") return;
  const [isRow, index] = line;
  [...step.after].forEach((ch, k) => {
    const i = isRow ? index * state.width + k : k * state.width + index;
    if (i < view.play.length) view.play[i] = ch;
  });
}

function logStep(text, extra = "") {
  const li = document.createElement("li");
  li.textContent = text.length > 160 ? `${text.slice(0, 157)}…` : text;
  li.title = text;
  if (extra) li.className = extra;
  const log = $("steps");
  log.append(li);
  li.scrollIntoView({ block: "nearest" });
}

function stepText(step) {
  const fixed = (step.fixed || []).length;
  return step.reason || `${step.line}: ${fixed} cell${fixed === 1 ? "" : "s"} fixed`;
}

/** Animate the explain steps from an empty grid. */
export async function stepThrough(button) {
  stopAnimation();
  const result = await whileBusy(button, "Working out the steps…", (signal) => api.explain(toPuzzle(false), signal));
  if (!result) return;
  startPlay();
  const me = { stop: false };
  running = me;
  const steps = result.steps || [];
  say(`${steps.length} steps; press Stop to halt.`, "busy");
  for (const step of steps) {
    if (me.stop) return;
    applyStep(step);
    paint();
    markCells("fixed", step.fixed);
    logStep(stepText(step), step.kind === "probe" ? "probe" : ""); // the list numbers the steps
    await sleep(Number($("speed").value) || 150);
  }
  if (me.stop) return;
  running = null;
  const end = [];
  if (result.contradiction) end.push(`contradiction: ${typeof result.contradiction === "string" ? result.contradiction : JSON.stringify(result.contradiction)}`);
  const open = typeof result.open_cells === "number" ? result.open_cells : (result.open_cells || []).length;
  if (open) end.push(`${open} cells left open: logic alone stops here`);
  else if (!result.contradiction) end.push("solved by logic");
  if (result.level) end.push(`level ${result.level}`);
  say(end.join(" · "));
}

/** Show the solution. */
export async function reveal(button) {
  stopAnimation();
  // two asked for: a player is told whether this is the only solution or one of several
  const result = await whileBusy(button, "Solving…", (signal) => api.solve(toPuzzle(false), 2, signal));
  if (!result) return;
  const solution = (result.solutions || [])[0];
  if (!solution) {
    say(result.status === "none" ? "No solution: these clues are impossible." : `No solution found (${result.status}).`, "error");
    return;
  }
  ensurePlay();
  view.play = [...solution.join("")];
  markCells("fixed", []);
  markCells("wrong", []);
  paint();
  const how = { line: " by line logic", cdcl: " by search", dfs: " by search", sat: " by a SAT solver" }[result.method];
  const which = { unique: ", the only solution", multiple: ": one of several solutions" }[result.status];
  say(`Solved${how || ""}${which || ""}.`);
}

/** The next logical step from the player's grid, applied and highlighted. */
export async function hint(button) {
  stopAnimation();
  ensurePlay();
  const result = await whileBusy(button, "Looking for the next step…", () => api.hint(toPuzzle(false), playRows()));
  if (!result) return;
  const conflict = result.conflict || [];
  markCells("wrong", result.wrong ? [result.wrong.cell] : conflict.map((mark) => mark.cell));
  markCells("fixed", []);
  const text = (result.text || []).join(" ");
  if (result.wrong) {
    const [r, c] = result.wrong.cell;
    say(text || `Row ${r}, column ${c} is wrong: it should be ${result.wrong.should_be}.`, "error");
    return;
  }
  if (conflict.length) {
    say(text || "The marked cells shown cannot all hold: one of them is wrong.", "error");
    return;
  }
  const steps = result.steps || [];
  if (steps.length) {
    applyStep(steps[0]);
    paint();
    markCells("fixed", steps[0].fixed);
    logStep(`hint: ${stepText(steps[0])}`, "hint");
  } else if (result.searched) {
    const [r, c] = result.searched.cell;
    view.play[(r - 1) * state.width + (c - 1)] = result.searched.value;
    paint();
    markCells("fixed", [result.searched.cell]);
    logStep(`hint: row ${r}, column ${c} (found by search)`, "hint");
  }
  say(text || (result.solved ? "Solved." : steps.length ? "One step further." : "No step found."));
}
