// The side of the board's cells: fitted to the window, or the zoom the author chose.

import { state, clues } from "./model.js";
import { view } from "./view.js";

const table = () => document.getElementById("board");

export const MIN_CELL = 6;
export const MAX_CELL = 48;
const LEGIBLE = 18; // a cell's side below which the clues' digits get hard to read

/** The board's layout and cell size: a board over 30 cells a side takes the page's full width,
 * and so does a smaller one that the middle of three columns would show below legible (a review:
 * Forever, 25x25, at 10 px a cell in a 1024 px window, where a 768 px one gave 23 px). */
export function fitBoard() {
  const board = table();
  const large = Math.max(state.width, state.height) > 30;
  document.body.toggleAttribute("data-large", large);
  let size = view.zoom ?? cellSize(board.parentElement.clientWidth || 640);
  if (view.zoom === null && !large && size < LEGIBLE && window.matchMedia("(min-width: 1001px)").matches) {
    document.body.toggleAttribute("data-large", true);
    size = cellSize(board.parentElement.clientWidth || 640);
  }
  setCellSide(size);
  const fit = document.getElementById("zoom-fit");
  if (fit) fit.setAttribute("aria-pressed", String(view.zoom === null));
}

function setCellSide(size) {
  table().style.setProperty("--cell", `${size}px`);
  const output = document.getElementById("zoom-size");
  if (output) output.textContent = `${size} px`;
}

/** Fit: the clues' width is an estimate (`cellSize`), so the cells shrink until the board fits its
 * frame (a review: 6 px too wide, the last column cut off, on a phone and on a 71x35 board). */
export function fitWidth() {
  if (view.zoom !== null || !table().querySelector("td.cell")) return;
  const wrap = table().parentElement;
  let size = cellSide();
  while (size > MIN_CELL && wrap.scrollWidth > wrap.clientWidth) {
    size -= 1;
    setCellSide(size);
  }
}

/** The side of a cell now, in pixels. */
export function cellSide() {
  return parseFloat(table().style.getPropertyValue("--cell")) || 24;
}

/** Zoom: `side` pixels a cell (null fits the board to the window again). */
export function zoomTo(side) {
  view.zoom = side === null ? null : Math.max(MIN_CELL, Math.min(MAX_CELL, Math.round(side)));
  fitBoard();
  fitWidth();
}

/** The side of a cell in pixels when the board fits the window: the grid and its clues fit
 * `available` pixels across and the window's height down, but never smaller than legible when the
 * width allows it (a tall board then scrolls with the page). */
function cellSize(available) {
  const { rows, cols } = clues();
  const across = (clue) => (clue || []).reduce((sum, [n]) => sum + String(n).length + 1, 1);
  const clueWidth = Math.max(2, ...rows.map(across)) * 0.42; // in cells: a digit is about 0.33 cell wide, plus spacing
  const clueHeight = Math.max(1, ...cols.map((clue) => (clue || []).length)) * 0.7;
  const wide = available / (state.width + clueWidth);
  const high = Math.max(640, window.innerHeight - 200) / (state.height + clueHeight);
  const size = Math.max(Math.min(wide, high), Math.min(wide, LEGIBLE));
  return Math.max(MIN_CELL, Math.min(32, Math.floor(size)));
}
