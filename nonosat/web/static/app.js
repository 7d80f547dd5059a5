// The page's wiring: the tool panels, the palette, the clue editor, undo/redo and keyboard shortcuts.

import * as model from "./model.js";
import { state } from "./model.js";
import { showBoard, paint, enableDrawing, setOnChange, markCells, view, isDark, zoomTo, cellSide, playMarks } from "./editor.js";
import { scheduleCheck, holdCheck, checkLonger, repair, suggest, setAfterLoad, lastResult, forgetVerdict } from "./verdict.js";
import { startPlay, stopPlay, stepThrough, reveal, hint, stopAnimation } from "./solve.js";
import * as files from "./files.js";
import * as drafts from "./drafts.js";
import { startKeeping } from "./keeping.js";
import { resize, shift, recolour } from "./reshape.js";
import { $, say, mended, cancelWork } from "./ui.js";
import * as api from "./api.js";

/** The puzzle's fields the page edits (nonosat's JSON names), each an input of that id. */
const META_FIELDS = ["title", "author", "copyright", "license"];

/** After anything replaced the puzzle: match the controls and the board to the state, and check it. */
function refresh() {
  if (state.mode === "clues") {
    if (!view.play || view.play.length !== state.width * state.height) startPlay();
  } else if (view.play && view.play.length !== state.width * state.height) {
    stopPlay();
  }
  document.body.classList.toggle("playing", Boolean(view.play)); // (a grid being solved came back with a draft)
  document.body.dataset.mode = state.mode;
  $("mode-draw").setAttribute("aria-pressed", String(state.mode === "draw"));
  $("mode-clues").setAttribute("aria-pressed", String(state.mode === "clues"));
  for (const id of ["make-unique", "make-line", "suggest"]) {
    $(id).disabled = state.mode !== "draw";
    $(id).title = state.mode === "draw" ? "" : "the fixes change a drawing: switch to Draw the picture";
  }
  $("width").value = state.width;
  $("height").value = state.height;
  for (const key of META_FIELDS) $(key).value = state.meta[key] || "";
  $("suggestions").replaceChildren();
  showBoard();
  renderPalette();
  if (state.mode === "clues") renderClueEditor();
  else for (const id of ["row-clues", "col-clues"]) $(id).replaceChildren(); // built when clues are typed
  updateUndo();
  scheduleCheck();
  drafts.saveSoon();
}

function updateUndo() {
  $("undo").disabled = !model.canUndo();
  $("redo").disabled = !model.canRedo();
}

// The palette: background first; the chosen colour is the one drawing uses.
function renderPalette() {
  const box = $("palette");
  box.replaceChildren();
  state.palette.forEach((colour, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "swatch";
    b.dataset.index = i;
    b.style.background = colour.rgb;
    b.style.color = isDark(colour.rgb) ? "#fff" : "#000";
    b.textContent = colour.char;
    b.title = i === 0 ? "background (erase)" : `${colour.name} (${colour.char})`;
    b.setAttribute("aria-label", b.title);
    b.setAttribute("aria-pressed", String(i === state.colour));
    b.addEventListener("click", () => {
      state.colour = i;
      renderPalette();
    });
    box.append(b);
  });
  $("remove-colour").disabled = state.colour === 0 || state.palette.length <= 2;
  $("recolour").disabled = state.colour === 0;
}

// The clue editor (clues mode): one text field per line.
function renderClueEditor() {
  for (const [kind, texts, box] of [["row", state.rowText, $("row-clues")], ["col", state.colText, $("col-clues")]]) {
    box.replaceChildren();
    texts.forEach((text, i) => {
      const label = document.createElement("label");
      label.textContent = `${kind === "row" ? "row" : "column"} ${i + 1}`;
      const input = document.createElement("input");
      input.type = "text";
      input.id = `${kind}-clue-${i + 1}`;
      input.className = "clue-input";
      input.value = text;
      input.spellcheck = false;
      input.autocomplete = "off";
      let shot = null;
      input.addEventListener("focus", () => {
        shot = model.remember();
        updateUndo();
      });
      input.addEventListener("blur", () => {
        if (shot) model.forgetIfUnchanged(shot);
        updateUndo();
      });
      input.addEventListener("input", () => {
        texts[i] = input.value;
        markInvalid(input, kind, i);
        paint();
        scheduleCheck();
        drafts.saveSoon();
      });
      markInvalid(input, kind, i);
      label.append(input);
      box.append(label);
    });
  }
}

function markInvalid(input, kind, i) {
  try {
    model.parseClue(input.value, `${kind === "row" ? "row" : "column"} ${i + 1}`);
    input.classList.remove("invalid");
    input.title = "";
  } catch (error) {
    input.classList.add("invalid");
    input.title = error.message;
  }
}

/** Switch to typing clues: the drawing's clues become the text, the grid becomes one to solve. */
function toClues() {
  if (state.mode === "clues") return;
  model.remember();
  const { rows, cols } = model.clues();
  state.rowText = rows.map((clue) => model.clueText(clue));
  state.colText = cols.map((clue) => model.clueText(clue));
  state.drawn = { grid: state.grid.slice(), width: state.width, height: state.height, texts: textsNow() };
  state.mode = "clues";
  startPlay();
  refresh();
  say("Type each line's clue: numbers separated by spaces" + (model.isColour() ? ", each followed by its colour's character (2r 1b)." : "."));
}

const textsNow = () => JSON.stringify([state.rowText, state.colText]);

/** Switch to drawing: the solution when the clues have one; else the drawing left for the clues
 * when they are unchanged since (or nothing was filled in to solve them), else what the player
 * filled in. */
function toDraw() {
  if (state.mode === "draw") {
    if (view.play) stopPlay();
    return;
  }
  // A review: an imported puzzle of clues alone with two solutions became an empty drawing, every
  // clue 0, without a word; and clues edited just before became the old clues' solution.
  // the last verdict is of other clues while these are checked, or when they cannot be read
  const unreadable = $("verdict").dataset.status === "invalid";
  const checking = unreadable || $("verdict").dataset.status === "checking";
  const first = !checking && lastResult && lastResult.solutions && lastResult.solutions[0];
  const sized = first && first.length === state.height && first[0].length === state.width;
  const solution = sized && lastResult.status === "unique" && first;
  const { open, empty } = playMarks();
  const played = view.play && view.play.some((ch) => ch !== open && ch !== empty);
  const drawn = state.drawn;
  const fits = drawn && drawn.width === state.width && drawn.height === state.height;
  if (!solution && !fits && !played && !(sized && lastResult.status === "multiple")) {
    if (unreadable) say("These clues cannot be read: mend them, then switch (the drawing comes from their solution).", "error");
    else if (checking) say("The verdict of these clues is not in yet: switch when it is (the drawing comes from their solution).", "error");
    else say("These clues have no solution to draw (none, or none found in time): they stay as they are. Clear starts a new drawing.", "error");
    return;
  }
  model.remember();
  if (solution) {
    state.grid = model.parseRows(solution);
  } else if (fits && (drawn.texts === textsNow() || !played)) {
    state.grid = drawn.grid.slice();
    if (drawn.texts !== textsNow()) {
      const why = unreadable ? "cannot be read" : checking ? "their verdict is not in yet" : "have no single solution";
      say(`The clues changed and ${why}: the drawing is as you left it.`);
    }
  } else if (played) {
    state.grid = view.play.map((ch) => Math.max(0, state.palette.findIndex((p) => p.char === ch)));
  } else {
    state.grid = model.parseRows(first);
    say("These clues have several solutions: the drawing is the first one found, and its clues are the same.");
  }
  state.drawn = null;
  state.mode = "draw";
  stopPlay();
  refresh();
}

function doUndo(redo = false) {
  stopAnimation();
  if (!(redo ? model.redo() : model.undo())) return;
  if (state.mode === "draw" && view.play) stopPlay();
  refresh();
}

function wire() {
  const on = (id, handler) => $(id).addEventListener("click", (event) => handler(event.currentTarget));
  on("mode-draw", toDraw);
  on("mode-clues", toClues);
  on("undo", () => doUndo(false));
  on("redo", () => doUndo(true));
  on("clear", () => {
    model.remember();
    if (state.mode === "draw") state.grid.fill(0);
    else {
      state.rowText.fill("");
      state.colText.fill("");
    }
    refresh();
  });
  $("size-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const width = Number($("width").value);
    const height = Number($("height").value);
    if (!(width >= 1 && height >= 1)) {
      say(`the size must be whole numbers from 1 to ${model.MAX_SIDE}`, "error", "size");
      return;
    }
    model.remember();
    resize(width, height, $("anchor").value);
    mended("size");
    if (view.play) startPlay();
    refresh();
  });
  for (const [id, down, right] of [["shift-left", 0, -1], ["shift-up", -1, 0], ["shift-down", 1, 0], ["shift-right", 0, 1]]) {
    on(id, () => {
      if (state.mode !== "draw") return say("Shift moves a drawing: switch to Draw the picture.", "error");
      model.remember();
      shift(down, right);
      refresh();
    });
  }
  on("recolour", () => {
    try {
      model.remember();
      recolour(state.colour, $("new-colour").value);
      refresh();
    } catch (error) {
      say(error.message, "error");
    }
  });
  on("add-colour", () => {
    try {
      model.remember();
      state.colour = model.addColour($("new-colour").value);
      refresh();
    } catch (error) {
      say(error.message, "error");
    }
  });
  on("remove-colour", () => {
    model.remember();
    model.removeColour(state.colour);
    refresh();
  });
  for (const key of META_FIELDS) {
    let shot = null; // one undo step for what is typed in one visit to the field
    const input = $(key);
    input.addEventListener("focus", () => {
      shot = model.remember();
      updateUndo();
    });
    input.addEventListener("input", () => {
      state.meta[key] = input.value.trim();
      drafts.saveSoon();
    });
    input.addEventListener("blur", () => {
      if (shot) model.forgetIfUnchanged(shot);
      shot = null;
      updateUndo();
    });
  }

  on("zoom-in", () => zoomTo(cellSide() * 1.25 + 1));
  on("zoom-out", () => zoomTo(cellSide() / 1.25));
  on("zoom-fit", () => zoomTo(null));
  let resized = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => view.zoom === null && zoomTo(null), 150);
  });

  for (const button of document.querySelectorAll("#tools [data-tool]")) {
    button.addEventListener("click", () => {
      view.tool = button.dataset.tool;
      for (const other of document.querySelectorAll("#tools [data-tool]")) other.setAttribute("aria-pressed", String(other === button));
    });
  }
  on("check-longer", checkLonger);
  on("cancel", cancelWork);
  on("make-unique", (b) => repair(b, "unique"));
  on("make-line", (b) => repair(b, "line"));
  on("suggest", suggest);

  on("step-through", stepThrough);
  on("stop", () => {
    stopAnimation();
    say("Stopped.");
  });
  on("reveal", reveal);
  on("hint", hint);
  on("play", () => {
    stopAnimation();
    startPlay();
    say("Solve it yourself: click to fill, again to mark empty, again to clear; right-click marks empty.");
  });
  on("back-to-drawing", toDraw);

  $("file-input").addEventListener("change", (event) => {
    files.openFile(event.target.files[0]);
    event.target.value = "";
  });
  const drop = $("drop-zone");
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  document.addEventListener("dragleave", (event) => {
    if (!event.relatedTarget) drop.classList.remove("over");
  });
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    files.openFile(event.dataTransfer.files[0]);
  });
  for (const id of ["picture-width", "picture-height", "picture-threshold", "picture-otsu", "picture-invert", "picture-colours"]) {
    $(id).addEventListener("input", () => files.schedulePreview());
  }
  on("choice-open", files.openChosen);
  on("choice-cancel", files.cancelChoice);
  $("choice-list").addEventListener("keydown", (event) => {
    if (event.key === "Enter") files.openChosen($("choice-open"));
  });
  on("picture-use", files.usePicture);
  on("picture-make", files.makePuzzle);
  on("picture-cancel", files.closePicture);
  on("picture-as-puzzle", files.pictureAsPuzzle);

  on("export", files.exportPuzzle);
  on("sheet-svg", (b) => files.exportSheet(b, "svg"));
  on("sheet-png", (b) => files.exportSheet(b, "png"));

  document.addEventListener("keydown", (event) => {
    // a field's own undo where the author types (the size's numbers too), the drawing's elsewhere
    const typing = event.target.matches && event.target.matches("input[type=text], input[type=number], textarea");
    if (!(event.ctrlKey || event.metaKey) || typing) return;
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) {
      event.preventDefault();
      doUndo(false);
    } else if (key === "y" || (key === "z" && event.shiftKey)) {
      event.preventDefault();
      doUndo(true);
    }
  });
}

let held = false; // a press stopped the check: the stroke's end starts it again, changed or not
setOnChange((kind) => {
  if (kind === "press") {
    holdCheck();
    held = true;
  } else if (kind === "draw" || kind === "stroke") {
    markCells("changed", []);
    $("suggestions").replaceChildren();
    if (kind === "draw") {
      scheduleCheck();
      held = false;
      drafts.saveSoon();
    }
    else holdCheck(); // the verdict keeps its size until the stroke ends
  } else if (kind === "done") {
    if (held) scheduleCheck(); // a stroke that changed no cell: the verdict held back is asked for again
    held = false;
  } else if (kind === "play") {
    markCells("wrong", []);
    drafts.saveSoon(); // the grid being solved is kept with the draft
  }
  updateUndo();
});
setAfterLoad(refresh);
files.setOnLoaded((changed = []) => {
  forgetVerdict(); // another puzzle: the last one's verdict is not shown while this one's is checked
  refresh();
  markCells("changed", changed); // the cells a puzzle made of a picture changed
});
api.setOnAnswer(() => {
  if ($("status").textContent.includes(api.UNREACHABLE)) say("The server answers again.");
});
enableDrawing();
wire();
startKeeping(refresh, forgetVerdict);
files.loadFormats();
