// The board: a table of cells with the clues around it; drawing by click and drag; marks from the verdict.
// What it shows is `view` (view.js); the side of its cells, `sizing.js`.

import { state, at, clues, isColour, lineClue, rowCells, colCells, remember, forgetIfUnchanged } from "./model.js";
import { lineCells, boxCells, floodCells } from "./tools.js";
import { view, playMarks } from "./view.js";
import { fitBoard, fitWidth } from "./sizing.js";

export { view, playMarks } from "./view.js";
export { cellSide, zoomTo, MIN_CELL, MAX_CELL } from "./sizing.js";

const table = () => document.getElementById("board");
let cells = []; // td elements, row by row
let shown = []; // what each td shows now ("rgb|flags"), so that a repaint touches only the cells that change
let rowHeads = [];
let colHeads = [];
const marks = new Map(); // a mark's name -> the tds that have it, so that clearing a mark is not a pass over the board
let onChange = () => {};

export function setOnChange(callback) {
  onChange = callback;
}

/** The board for the current state: rebuilt when its size changed, else repainted where it differs. */
export function showBoard() {
  if (cells.length !== state.width * state.height || colHeads.length !== state.width) return buildBoard();
  fitBoard();
  paint();
  fitWidth();
}

/** Rebuild the table for the current size. */
export function buildBoard() {
  const board = table();
  board.replaceChildren();
  marks.clear();
  shown = [];
  fitBoard();
  const head = board.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.className = "corner";
  head.append(corner);
  colHeads = [];
  for (let c = 0; c < state.width; c += 1) {
    const th = document.createElement("th");
    th.className = "col-clue";
    th.dataset.col = c + 1;
    th.title = `column ${c + 1}`;
    th.scope = "col";
    if ((c + 1) % 5 === 0 && c + 1 < state.width) th.classList.add("fifth");
    head.append(th);
    colHeads.push(th);
  }
  const body = board.createTBody();
  cells = [];
  rowHeads = [];
  for (let r = 0; r < state.height; r += 1) {
    const tr = body.insertRow();
    if ((r + 1) % 5 === 0 && r + 1 < state.height) tr.classList.add("fifth");
    const th = document.createElement("th");
    th.className = "row-clue";
    th.dataset.row = r + 1;
    th.title = `row ${r + 1}`;
    th.scope = "row";
    tr.append(th);
    rowHeads.push(th);
    for (let c = 0; c < state.width; c += 1) {
      const td = document.createElement("td");
      td.className = "cell";
      td.dataset.row = r + 1;
      td.dataset.col = c + 1;
      if ((c + 1) % 5 === 0 && c + 1 < state.width) td.classList.add("fifth");
      tr.append(td);
      cells.push(td);
    }
  }
  paint();
  fitWidth();
  if (document.activeElement === board) showCursor();
}

/** Show every cell and clue as the state and view say. */
export function paint() {
  if (cells.length !== state.width * state.height) return buildBoard();
  for (let i = 0; i < cells.length; i += 1) paintCell(i);
  paintClues();
}

function paintCell(i) {
  const td = cells[i];
  let colour = null;
  let unknown = false;
  let crossed = false;
  if (view.play) {
    const ch = view.play[i];
    const { open, empty } = playMarks();
    unknown = ch === open;
    crossed = ch === empty;
    const index = state.palette.findIndex((p) => p.char === ch);
    colour = index > 0 ? index : null;
  } else {
    colour = state.grid[i] || null;
  }
  const rgb = colour !== null ? state.palette[colour].rgb : "";
  const key = `${rgb}|${unknown}|${crossed}`;
  if (shown[i] === key) return;
  shown[i] = key;
  td.classList.toggle("crossed", crossed);
  td.classList.toggle("filled", colour !== null);
  td.classList.toggle("unknown", unknown);
  td.style.background = rgb;
}

function paintClues() {
  const { rows, cols } = clues();
  rows.forEach((clue, r) => fillClue(rowHeads[r], clue));
  cols.forEach((clue, c) => fillClue(colHeads[c], clue));
}

function fillClue(th, clue) {
  th.replaceChildren();
  th.classList.toggle("unreadable", clue === null);
  if (clue === null) {
    th.textContent = "?";
    return;
  }
  const colour = isColour();
  for (const [n, c] of clue.length ? clue : [[0, 0]]) {
    if (th.childNodes.length) th.append(" ");
    const span = document.createElement("span");
    span.textContent = n;
    if (!n) span.className = "zero";
    if (colour && n) {
      const rgb = state.palette[c].rgb;
      span.className = "block";
      span.style.background = rgb;
      span.style.color = isDark(rgb) ? "#fff" : "#000";
    }
    th.append(span);
  }
}

export function isDark(rgb) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(rgb.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}

/** Mark cells ([r, c] from 1) with `name`, taking it off every other cell. */
export function markCells(name, list) {
  const had = marks.get(name);
  if (had) for (const td of had) td.classList.remove(name);
  const now = new Set();
  for (const [r, c] of list || []) {
    const td = r >= 1 && c >= 1 && c <= state.width ? cells[(r - 1) * state.width + (c - 1)] : undefined;
    if (td) {
      td.classList.add(name);
      now.add(td);
    }
  }
  marks.set(name, now);
}

function unmark(td, ...names) {
  for (const name of names) {
    td.classList.remove(name);
    const had = marks.get(name);
    if (had) had.delete(td);
  }
}

/** Mark lines ("row 3", "column 2") as conflicting. */
export function markLines(names) {
  // names such as "row 3" or "column 2 (clue 2 1)": the line is what comes first
  const wanted = new Set((names || []).map((name) => (/^(row|column) \d+/.exec(String(name)) || [""])[0]));
  rowHeads.forEach((th, r) => th.classList.toggle("conflict", wanted.has(`row ${r + 1}`)));
  colHeads.forEach((th, c) => th.classList.toggle("conflict", wanted.has(`column ${c + 1}`)));
  for (const input of document.querySelectorAll(".clue-input")) {
    const [, kind, n] = /^(row|col)-clue-(\d+)$/.exec(input.id) || [];
    input.classList.toggle("conflict", wanted.has(`${kind === "row" ? "row" : "column"} ${n}`));
  }
  cells.forEach((td, i) => {
    const r = Math.floor(i / state.width) + 1;
    const c = (i % state.width) + 1;
    td.classList.toggle("in-conflict", wanted.has(`row ${r}`) || wanted.has(`column ${c}`));
  });
}

export function clearMarks(...names) {
  for (const name of names) markCells(name, []);
}

// Drawing: the first cell pressed decides the value the whole drag sets.
let drag = null;

function cellAt(x, y) {
  const element = document.elementFromPoint(x, y);
  const td = element && element.closest ? element.closest("td.cell") : null;
  return td && td.closest("#board") === table() ? td : null;
}

function setCell(td, value) {
  const r = Number(td.dataset.row) - 1;
  const c = Number(td.dataset.col) - 1;
  const i = r * state.width + c;
  if (view.play) {
    if (view.play[i] === value) return;
    view.play[i] = value;
    paintCell(i);
    onChange("play");
    return;
  }
  if (state.grid[i] === value) return;
  state.grid[i] = value;
  paintCell(i);
  unmark(td, "differs", "open", "changed", "fixed");
  if (drag) {
    // A clue that grows a line would move the board under the pointer: the stroke's clues
    // (and its verdict) wait for the stroke's end.
    drag.rows.add(r);
    drag.cols.add(c);
    onChange("stroke");
    return;
  }
  fillLineClues([r], [c]);
  onChange("draw");
}

function fillLineClues(rows, cols) {
  if (state.mode !== "draw") return;
  for (const r of rows) fillClue(rowHeads[r], lineClue(rowCells(r)));
  for (const c of cols) fillClue(colHeads[c], lineClue(colCells(c)));
  fitWidth(); // a clue grown by a click or a stroke's end keeps the board within its frame
}

function valueFor(td, button) {
  const i = (Number(td.dataset.row) - 1) * state.width + Number(td.dataset.col) - 1;
  const colour = state.palette[state.colour];
  if (view.play) {
    const ch = view.play[i];
    const { open, empty } = playMarks();
    if (button === 2) return ch === empty ? open : empty;
    return ch === colour.char ? empty : ch === empty ? open : colour.char;
  }
  if (button === 2) return 0;
  return at(Math.floor(i / state.width), i % state.width) === state.colour ? 0 : state.colour;
}

// Drawing by keyboard: the arrows move a cursor (Shift paints on the way), Space or Enter paints
// the cursor's cell as a click would, Delete or Backspace clears it.
let cursor = [0, 0];

function showCursor() {
  cursor = [Math.min(cursor[0], state.height - 1), Math.min(cursor[1], state.width - 1)];
  markCells("cursor", [[cursor[0] + 1, cursor[1] + 1]]);
}

function keyPaint(value) {
  const td = cells[cursor[0] * state.width + cursor[1]];
  if (!td) return;
  const shot = view.play ? null : remember();
  setCell(td, value === undefined ? valueFor(td, 0) : value);
  if (shot) forgetIfUnchanged(shot);
  onChange("done");
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (!view.play && state.mode !== "draw") return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const move = moves[event.key];
  if (move) {
    event.preventDefault();
    cursor = [
      Math.max(0, Math.min(state.height - 1, cursor[0] + move[0])),
      Math.max(0, Math.min(state.width - 1, cursor[1] + move[1])),
    ];
    showCursor();
    cells[cursor[0] * state.width + cursor[1]].scrollIntoView({ block: "nearest", inline: "nearest" });
    if (event.shiftKey) keyPaint(view.play ? state.palette[state.colour].char : state.colour);
  } else if (event.key === " " || event.key === "Enter") {
    event.preventDefault();
    keyPaint();
  } else if (event.key === "Delete" || event.key === "Backspace") {
    event.preventDefault();
    keyPaint(view.play ? "?" : 0);
  }
}

/** The cells a line or box stroke covers, from where it began to where the pointer is. */
function shape(stroke) {
  return stroke.tool === "line" ? lineCells(stroke.start, stroke.end) : boxCells(stroke.start, stroke.end, stroke.filled);
}

export function enableDrawing() {
  const board = table();
  board.tabIndex = 0;
  board.setAttribute("aria-label", "the grid: arrows move, Space paints, Delete clears");
  board.addEventListener("keydown", onKey);
  board.addEventListener("focus", showCursor);
  board.addEventListener("contextmenu", (event) => {
    if (event.target.closest("td.cell")) event.preventDefault();
  });
  board.addEventListener("pointerdown", (event) => {
    const td = event.target.closest("td.cell");
    if (!td || (event.button !== 0 && event.button !== 2)) return;
    if (!view.play && state.mode !== "draw") return;
    event.preventDefault();
    board.focus({ preventScroll: true, focusVisible: false }); // the keyboard's ring is for the keyboard
    cursor = [Number(td.dataset.row) - 1, Number(td.dataset.col) - 1];
    showCursor();
    if (!view.play) onChange("press"); // nothing of the page moves the board while a stroke lasts
    const tool = view.play ? "pen" : view.tool;
    drag = { value: valueFor(td, event.button), shot: view.play ? null : remember(), rows: new Set(), cols: new Set(), tool };
    if (tool === "fill" && !view.play) {
      drag.value = event.button === 2 ? 0 : state.colour;
      for (const [r, c] of floodCells(state.grid, state.width, state.height, cursor)) setCell(cells[r * state.width + c], drag.value);
      stop();
    } else if (tool === "line" || tool === "box") {
      drag.start = drag.end = cursor;
      drag.filled = event.shiftKey;
      markCells("stroke-preview", shape(drag).map(([r, c]) => [r + 1, c + 1]));
    } else {
      setCell(td, drag.value);
      drag.last = cursor;
    }
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const td = cellAt(event.clientX, event.clientY);
    if (!td) {
      drag.last = null; // off the board: coming back starts a new segment, not a line from where it left
      return;
    }
    const here = [Number(td.dataset.row) - 1, Number(td.dataset.col) - 1];
    if (drag.start) {
      drag.end = here;
      markCells("stroke-preview", shape(drag).map(([r, c]) => [r + 1, c + 1]));
    } else {
      // A quick hand moves several cells between two events: the pen fills the cells between
      // them too (a straight line), not only those where an event landed.
      for (const [r, c] of drag.last ? lineCells(drag.last, here) : [here]) setCell(cells[r * state.width + c], drag.value);
      drag.last = here;
    }
  });
  function stop() {
    if (!drag) return;
    if (drag.start) {
      markCells("stroke-preview", []);
      for (const [r, c] of shape(drag)) setCell(cells[r * state.width + c], drag.value);
    }
    if (drag.shot) forgetIfUnchanged(drag.shot);
    const { rows, cols } = drag;
    drag = null;
    if (rows.size) {
      fillLineClues(rows, cols);
      onChange("draw");
    }
    onChange("done");
  }
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);
}
