// What the board shows, and the characters of a grid being solved.

import { state } from "./model.js";

/** What the board shows: the drawing, or (when `play` is an array of cell chars: `playMarks`) a grid
 * being solved; `zoom` the side of a cell in pixels the author chose, or null to fit the window;
 * `tool` what a stroke draws: "pen" (the cells passed over), "line", "box" (a rectangle's outline,
 * filled with Shift) or "fill" (the region of one colour pressed on). */
export const view = { play: null, zoom: null, tool: "pen" };

const OPEN_MARKS = "?_~^-"; // as the server's explain.words.UNKNOWN_MARKS

/** The characters of a grid being solved, as the server reads and writes them: `open` a cell not
 * decided (`?`, unless a colour has that character), `empty` a cell marked blank (the background's
 * own character, `.` unless a file chose another: a colour may be `.`). */
export function playMarks() {
  const chars = state.palette.map((p) => p.char);
  return { open: [...OPEN_MARKS].find((mark) => !chars.includes(mark)), empty: state.palette[0].char };
}
