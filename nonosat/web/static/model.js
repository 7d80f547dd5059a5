// The puzzle being edited: size, palette, drawing or typed clues, and undo/redo; to and from nonosat's JSON.

export const WHITE = { name: "white", rgb: "#ffffff", char: "." };
export const BLACK = { name: "black", rgb: "#000000", char: "#" };
const CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
export const NAMES = {
  "#000000": "black", "#ff0000": "red", "#008000": "green", "#0000ff": "blue", "#ffff00": "yellow",
  "#ffa500": "orange", "#800080": "purple", "#a52a2a": "brown", "#808080": "grey", "#ffc0cb": "pink",
  "#00ffff": "cyan", "#ff00ff": "magenta", "#00ff00": "lime",
};
export const MAX_SIDE = 200;

/** The editor's state. `grid` holds palette indices row by row (0 = background). */
export const state = {
  mode: "draw", // "draw": the clues come from the drawing; "clues": the author types them
  width: 10,
  height: 10,
  palette: [WHITE, BLACK],
  grid: new Array(100).fill(0),
  colour: 1,
  rowText: new Array(10).fill(""),
  colText: new Array(10).fill(""),
  meta: { title: "" },
  /** The drawing left when the author switched to typing clues (grid, width, height, and the
   * clues' texts then), for the way back; kept with the rest, so a reload does not lose it. */
  drawn: null,
};

export const at = (r, c) => state.grid[r * state.width + c];

export function isColour(palette = state.palette) {
  return !(palette.length === 2 && palette[0].rgb === "#ffffff" && palette[1].rgb === "#000000");
}

/** A palette that is white and black alone is black and white, with its characters `.` and `#`
 * (a review found "X" for black, left by removing a puzzle's other colour: the page then wrote
 * the drawing in X where black and white reads #, and its verdict, export and reveal went wrong).
 * The grid holds palette indices, so it needs no change. */
export function settlePalette() {
  if (!isColour(state.palette) && (state.palette[0].char !== "." || state.palette[1].char !== "#")) {
    state.palette = [{ ...WHITE }, { ...BLACK }];
  }
}

/** A line's clue: its runs of one colour, as [length, colour index] (blocks of two colours may touch). */
export function lineClue(cells) {
  const clue = [];
  let run = 0;
  cells.forEach((cell, i) => {
    if (cell) run += 1;
    if (cell && cells[i + 1] !== cell) {
      clue.push([run, cell]);
      run = 0;
    }
  });
  return clue;
}

export function rowCells(r) {
  return state.grid.slice(r * state.width, (r + 1) * state.width);
}

export function colCells(c) {
  return Array.from({ length: state.height }, (_, r) => at(r, c));
}

/** A block as people type it: its size and its colour's character ("3r"), with a colon between
 * when the character could be read as part of the number or the text around it ("2:0", "1:,"). */
function blockText(n, char) {
  return /^[^\d\s,:]$/u.test(char) ? `${n}${char}` : `${n}:${char}`;
}

/** A clue as people type it: "3 1", or in colour "3r 1b" with the palette's characters ("2:0"
 * for a colour whose character is a digit). parseClue reads it back. */
export function clueText(clue, palette = state.palette) {
  if (!isColour(palette)) return clue.map(([n]) => n).join(" ");
  return clue.map(([n, colour]) => blockText(n, palette[colour].char)).join(" ");
}

/** Read a typed clue ("2 1", "2r 1b", "2:0", "0" or nothing for an empty line); throws naming
 * `what`. A block is a number, then its colour's character (after a colon, any character; right
 * after the number, any but a digit); a bare number is the first colour. */
export function parseClue(text, what, palette = state.palette) {
  const clue = [];
  for (const token of tokens(text)) {
    const match = /^(\d+)(?::(.)|([^\d:]))?$/u.exec(token);
    const char = match ? match[2] ?? match[3] : undefined;
    const colour = char !== undefined ? palette.findIndex((p, i) => i > 0 && p.char === char) : 1;
    if (!match || colour < 1 || (char !== undefined && !isColour(palette) && char !== "#")) {
      const shape = isColour(palette) ? `numbers with a colour's character, such as ${blockText(2, palette[1].char)}` : "numbers such as 3 1";
      throw new Error(`${what}: cannot read "${token}"; expected ${shape}`);
    }
    if (Number(match[1]) > 0) clue.push([Number(match[1]), colour]);
  }
  return clue;
}

/** A typed clue's tokens: split at spaces and commas, but a colon keeps the character after it
 * ("1:," is one token, the colour ","). */
function tokens(text) {
  return [...text.matchAll(/\d+:[^\s]|[^\s,]+/gu)].map((m) => m[0]);
}

export function typedClues() {
  const rows = state.rowText.map((text, i) => parseClue(text, `row ${i + 1}`));
  const cols = state.colText.map((text, i) => parseClue(text, `column ${i + 1}`));
  return { rows, cols };
}

/** The clues the page shows and sends: from the drawing, or as typed (null where one cannot be read). */
export function clues() {
  if (state.mode === "draw") {
    return {
      rows: Array.from({ length: state.height }, (_, r) => lineClue(rowCells(r))),
      cols: Array.from({ length: state.width }, (_, c) => lineClue(colCells(c))),
    };
  }
  const read = (texts, kind) =>
    texts.map((text, i) => {
      try {
        return parseClue(text, `${kind} ${i + 1}`);
      } catch (_) {
        return null;
      }
    });
  return { rows: read(state.rowText, "row"), cols: read(state.colText, "column") };
}

/** The rows of a grid of palette indices as strings (`#`/`.` in black and white, else palette chars). */
export function gridRows(grid = state.grid, width = state.width) {
  const rows = [];
  for (let r = 0; r * width < grid.length; r += 1) {
    rows.push(grid.slice(r * width, (r + 1) * width).map((cell) => state.palette[cell].char).join(""));
  }
  return rows;
}

/** Row strings from the server (`#`/`.`, `1`/`0` or palette chars) as palette indices, row by row. */
export function parseRows(rows, palette = state.palette) {
  const index = new Map(palette.map((p, i) => [p.char, i]));
  if (!isColour(palette)) {
    index.set("1", 1).set("0", 0);
  }
  return rows.flatMap((row) => (Array.isArray(row) ? row : [...row]).map((cell) => (typeof cell === "number" ? cell : index.get(cell) ?? 0)));
}

/** nonosat's JSON puzzle for the current state; `withGoal` adds the drawing (in draw mode). Throws on a bad typed clue. */
export function toPuzzle(withGoal = true) {
  const colour = isColour();
  const { rows, cols } = state.mode === "draw" ? clues() : typedClues();
  const block = ([n, c]) => (colour ? [n, state.palette[c].name] : n);
  const puzzle = { rows: rows.map((clue) => clue.map(block)), cols: cols.map((clue) => clue.map(block)) };
  if (colour) puzzle.palette = state.palette.map(({ name, rgb, char }) => ({ name, rgb, char }));
  for (const [key, value] of Object.entries(state.meta)) {
    if (value) puzzle[key] = value;
  }
  if (withGoal && state.mode === "draw") puzzle.goal = gridRows();
  return puzzle;
}

/** Load nonosat's JSON puzzle: its palette, size, and the goal as the drawing (draw mode) or its clues (clues mode). */
export function loadPuzzle(puzzle, { preferClues = false } = {}) {
  const palette = puzzle.palette && puzzle.palette.length >= 2 ? puzzle.palette.map(normalColour) : [WHITE, BLACK];
  const names = new Map(palette.map((p, i) => [p.name, i]));
  const block = (b) => (Array.isArray(b) ? [b[0], names.get(b[1]) ?? 1] : [b, 1]);
  const rows = puzzle.rows.map((clue) => clue.map(block).filter(([n]) => n > 0));
  const cols = (puzzle.cols || puzzle.columns).map((clue) => clue.map(block).filter(([n]) => n > 0));
  state.palette = palette;
  state.height = rows.length;
  state.width = cols.length;
  state.colour = Math.min(Math.max(state.colour, 1), palette.length - 1);
  state.meta = {};
  for (const key of ["title", "author", "copyright", "license", "catalogue", "description"]) {
    if (typeof puzzle[key] === "string") state.meta[key] = puzzle[key];
  }
  state.meta.title = state.meta.title || "";
  state.rowText = rows.map((clue) => clueText(clue, palette));
  state.colText = cols.map((clue) => clueText(clue, palette));
  state.drawn = null; // another puzzle's drawing is not this one's way back
  if (puzzle.goal && !preferClues) {
    state.mode = "draw";
    state.grid = parseRows(puzzle.goal, palette);
  } else {
    state.mode = "clues";
    state.grid = new Array(state.width * state.height).fill(0);
  }
  settlePalette(); // after the goal is read in the file's own characters
}

function normalColour({ name, rgb, char }) {
  return { name: String(name), rgb: String(rgb).toLowerCase(), char: String(char) };
}

/** Add a colour by its "#rrggbb" value (or choose it if it is there already); returns its index. */
export function addColour(rgb) {
  rgb = rgb.toLowerCase();
  const found = state.palette.findIndex((p, i) => i > 0 && p.rgb === rgb);
  if (found > 0) return found;
  const chars = new Set(state.palette.map((p) => p.char));
  const names = new Set(state.palette.map((p) => p.name));
  const char = [...CHARS].find((ch) => !chars.has(ch));
  if (!char) throw new Error("no more colours: nonosat holds at most 62");
  let name = NAMES[rgb] || char;
  if (names.has(name)) name = `${name}-${char}`;
  state.palette.push({ name, rgb, char });
  return state.palette.length - 1;
}

/** Remove colour `index` (not the background nor the last colour); its cells become background,
 * and its blocks leave the typed clues (a clue that cannot be read is left as typed). */
export function removeColour(index) {
  if (index < 1 || state.palette.length <= 2) return;
  const before = state.palette.slice();
  const read = (text) => {
    try {
      return parseClue(text, "", before);
    } catch (_) {
      return null;
    }
  };
  const typed = [state.rowText, state.colText].map((texts) => texts.map(read));
  state.palette.splice(index, 1);
  const remap = (cell) => (cell === index ? 0 : cell > index ? cell - 1 : cell);
  state.grid = state.grid.map(remap);
  if (state.drawn) state.drawn.grid = state.drawn.grid.map(remap); // the way back from typed clues, too
  settlePalette();
  const retyped = (texts, clues) =>
    texts.map((text, i) => {
      if (clues[i] === null || (isColour() && !clues[i].some(([, colour]) => colour === index))) return text;
      return clueText(clues[i].filter(([, colour]) => colour !== index).map(([n, colour]) => [n, remap(colour)]));
    });
  state.rowText = retyped(state.rowText, typed[0]);
  state.colText = retyped(state.colText, typed[1]);
  state.colour = Math.min(state.colour, state.palette.length - 1);
}

// Undo and redo: whole snapshots of what the author edits (small: a grid and a few strings).
const undoStack = [];
const redoStack = [];
const LIMIT = 300;

/** The whole state as text (for undo, and for the drafts kept in the browser). */
export function snapshot() {
  return JSON.stringify({
    mode: state.mode, width: state.width, height: state.height, palette: state.palette, grid: state.grid,
    rowText: state.rowText, colText: state.colText, meta: state.meta, drawn: state.drawn,
  });
}

/** Put back a state `snapshot` made. */
export function restore(text) {
  Object.assign(state, { drawn: null }, JSON.parse(text));
  state.colour = Math.min(state.colour, state.palette.length - 1);
}

/** Remember the state before an edit; returns a token for `abandon` when the edit changed nothing. */
export function remember() {
  const shot = snapshot();
  undoStack.push(shot);
  if (undoStack.length > LIMIT) undoStack.shift();
  redoStack.length = 0;
  return shot;
}

/** Forget the last `remember` if nothing changed since. */
export function forgetIfUnchanged(shot) {
  if (undoStack[undoStack.length - 1] === shot && snapshot() === shot) undoStack.pop();
}

export function undo() {
  if (!undoStack.length) return false;
  redoStack.push(snapshot());
  restore(undoStack.pop());
  return true;
}

export function redo() {
  if (!redoStack.length) return false;
  undoStack.push(snapshot());
  restore(redoStack.pop());
  return true;
}

/** Forget undo and redo: another draft was opened, and undoing into this one would write it there. */
export function forgetHistory() {
  undoStack.length = 0;
  redoStack.length = 0;
}

/** The undo and redo snapshots, oldest first (kept over a reload by drafts.js). */
export const history = () => ({ undo: [...undoStack], redo: [...redoStack] });

/** Take up undo and redo snapshots that `history` gave (the latest LIMIT of each). */
export function takeHistory(undo, redo) {
  const texts = (list) => (Array.isArray(list) ? list.filter((shot) => typeof shot === "string").slice(-LIMIT) : []);
  undoStack.splice(0, undoStack.length, ...texts(undo));
  redoStack.splice(0, redoStack.length, ...texts(redo));
}

export const canUndo = () => undoStack.length > 0;
export const canRedo = () => redoStack.length > 0;
