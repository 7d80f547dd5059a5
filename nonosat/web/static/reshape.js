// Reshaping the drawing: resize from any side, shift the picture, recolour a palette entry.

import { state, at, MAX_SIDE, NAMES, settlePalette } from "./model.js";

/** Where the picture stays when the size changes: the new lines go to the other sides. */
export const ANCHORS = ["top-left", "top-right", "bottom-left", "bottom-right", "centre"];

/** How far the old picture moves, down and right, when `from` lines become `to` with `anchor`. */
function offset(from, to, anchor, far, near) {
  if (anchor.includes(far)) return to - from;
  if (anchor.includes(near)) return 0;
  return Math.trunc((to - from) / 2);
}

/** Change the size, keeping the picture at `anchor` (new cells blank, new clue lines empty; what
 * falls outside is dropped). */
export function resize(width, height, anchor = "top-left") {
  width = Math.max(1, Math.min(MAX_SIDE, width | 0));
  height = Math.max(1, Math.min(MAX_SIDE, height | 0));
  const down = offset(state.height, height, anchor, "bottom", "top");
  const right = offset(state.width, width, anchor, "right", "left");
  const grid = new Array(width * height).fill(0);
  for (let r = 0; r < state.height; r += 1) {
    for (let c = 0; c < state.width; c += 1) {
      const [nr, nc] = [r + down, c + right];
      if (nr >= 0 && nr < height && nc >= 0 && nc < width) grid[nr * width + nc] = at(r, c);
    }
  }
  const moved = (texts, n, by) => Array.from({ length: n }, (_, i) => texts[i - by] ?? "");
  state.rowText = moved(state.rowText, height, down);
  state.colText = moved(state.colText, width, right);
  state.grid = grid;
  state.width = width;
  state.height = height;
}

/** Move the drawing `down` rows and `right` columns (negative: up, left); blank cells come in,
 * what goes past the edge is dropped. */
export function shift(down, right) {
  const grid = new Array(state.width * state.height).fill(0);
  for (let r = 0; r < state.height; r += 1) {
    for (let c = 0; c < state.width; c += 1) {
      const [nr, nc] = [r + down, c + right];
      if (nr >= 0 && nr < state.height && nc >= 0 && nc < state.width) grid[nr * state.width + nc] = at(r, c);
    }
  }
  state.grid = grid;
}

/** Give palette entry `index` (not the background) the colour "#rrggbb"; its name follows when it
 * was the old colour's name. Throws when another entry has that colour already. */
export function recolour(index, rgb) {
  rgb = rgb.toLowerCase();
  if (index < 1 || index >= state.palette.length) return;
  const taken = state.palette.findIndex((p, i) => i !== index && p.rgb === rgb);
  if (taken >= 0) throw new Error(`${state.palette[taken].name} has that colour already`);
  const entry = state.palette[index];
  let name = entry.name;
  if (NAMES[entry.rgb] === entry.name && NAMES[rgb] && !state.palette.some((p) => p.name === NAMES[rgb])) name = NAMES[rgb];
  state.palette[index] = { ...entry, rgb, name };
  settlePalette();
}
