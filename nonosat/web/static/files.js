// Import (puzzle files through /api/convert, pictures through /api/picture with a live preview) and export.

import * as api from "./api.js";
import { state, toPuzzle, loadPuzzle, remember, parseRows, snapshot } from "./model.js";
import { $, say, mended, whileBusy, cancelWork } from "./ui.js";
import { keepApart } from "./drafts.js";

const PICTURE = /\.(png|jpe?g|gif|bmp|webp)$/i;
let picture = null; // the picture being previewed: { file, result, controller }
let previewTimer = 0;
let onLoaded = () => {};

export function setOnLoaded(callback) {
  onLoaded = callback;
}

/** A file chosen or dropped: a picture opens the picture panel, anything else is read as a puzzle. */
export function openFile(file) {
  if (!file) return;
  if (PICTURE.test(file.name) || /^image\/(png|jpeg|gif|bmp|webp)$/.test(file.type)) {
    openPicture(file);
  } else {
    readPuzzle(file);
  }
}

/** A puzzle file: opened at once when it holds one puzzle, else the choice of one is offered. */
async function readPuzzle(file) {
  await whileBusy(null, `Reading ${file.name}…`, async () => {
    const listed = await api.contents(file);
    if (listed.count > 1) {
      offerChoice(file, listed);
      return;
    }
    await openPuzzle(file, undefined);
  });
}

async function openPuzzle(file, number) {
  const puzzle = await api.readPuzzleFile(file, number);
  remember();
  keepApart(); // the work it replaces stays under "Kept in this browser"
  loadPuzzle(puzzle);
  closePicture();
  closeChoice();
  onLoaded();
  const which = number ? ` #${number}` : "";
  say(`Read ${file.name}${which}: ${state.width}×${state.height}${puzzle.goal ? ", with its picture" : ", clues only"}.`);
}

let choosing = null; // the file of several puzzles whose choice is offered

function offerChoice(file, listed) {
  choosing = file;
  const select = $("choice-list");
  select.replaceChildren();
  for (const p of listed.puzzles) {
    const option = document.createElement("option");
    option.value = p.number;
    const colours = p.colours > 1 ? `, ${p.colours} colours` : "";
    const title = p.title && p.title !== `#${p.number}` ? ` ${p.title}` : ""; // a tournament's puzzle is titled by its number
    option.textContent = `#${p.number}${title} (${p.width}×${p.height}${colours})`;
    select.append(option);
  }
  $("choice-name").textContent = file.name;
  $("choice-count").textContent = listed.count > listed.puzzles.length ? `${listed.count} (the first ${listed.puzzles.length} listed)` : String(listed.count);
  $("puzzle-choice").hidden = false;
  select.focus();
  say(`${file.name} holds ${listed.count} puzzles: choose one and press Open.`);
}

export function closeChoice() {
  choosing = null;
  $("puzzle-choice").hidden = true;
}

/** "Cancel" on the choice of a puzzle: the line asking for it goes too. */
export function cancelChoice() {
  const file = choosing;
  closeChoice();
  if (file) say(`Nothing opened from ${file.name}.`);
}

/** "Open": the puzzle chosen from a file of several. */
export async function openChosen(button) {
  if (!choosing) return;
  const file = choosing;
  const number = Number($("choice-list").value);
  await whileBusy(button, `Reading ${file.name} #${number}…`, () => openPuzzle(file, number));
}

function openPicture(file) {
  if (choosing) cancelChoice();
  picture = { file, result: null, controller: null };
  $("picture-panel").hidden = false;
  $("picture-name").textContent = file.name;
  usable(false);
  schedulePreview(0);
}

export function closePicture() {
  if (picture && picture.controller) picture.controller.abort();
  if (picture && picture.making) cancelWork(); // a puzzle being made of it: its request ends too (a review)
  picture = null;
  $("picture-panel").hidden = true;
  mended("picture");
}

/** "Use it" and "Make a puzzle of it", once the preview shows the settings they would use. */
function usable(ready) {
  for (const id of ["picture-use", "picture-make"]) $(id).disabled = !ready;
}

/** The picture panel's controls as /api/picture's query parameters. */
function pictureOptions() {
  const options = { width: $("picture-width").value, height: $("picture-height").value };
  options.threshold = $("picture-otsu").checked ? "otsu" : $("picture-threshold").value;
  options.invert = $("picture-invert").checked ? 1 : 0;
  const colours = Number($("picture-colours").value) || 1;
  if (colours > 1) options.colours = colours;
  return options;
}

export function schedulePreview(delay = 300) {
  clearTimeout(previewTimer);
  $("picture-threshold").disabled = $("picture-otsu").checked;
  $("picture-threshold-value").textContent = $("picture-otsu").checked ? "otsu" : $("picture-threshold").value;
  if (!picture) return;
  picture.result = null; // the preview shown is of the settings before: "Use it" waits for the new one
  usable(false);
  previewTimer = setTimeout(preview, delay);
}

async function preview() {
  if (!picture) return;
  if (picture.controller) picture.controller.abort();
  const mine = picture;
  const controller = new AbortController();
  mine.controller = controller;
  $("picture-preview").dataset.state = "loading";
  try {
    const result = await api.picture(mine.file, pictureOptions(), controller.signal);
    if (controller.signal.aborted || picture !== mine) return;
    if (!result.puzzle) throw new Error(`the picture was not read in time (${result.cut_short || result.status})`);
    mine.result = result;
    drawPreview(result.puzzle);
    usable(true);
    const t = result.threshold;
    $("picture-info").textContent = `${result.puzzle.cols.length}×${result.puzzle.rows.length} cells` + (t !== null && t !== undefined ? `, threshold ${Math.round(t * 10) / 10}` : "");
    $("picture-preview").dataset.state = "ready";
    mended("picture"); // an error of settings put right since
  } catch (error) {
    if (error.name === "AbortError" || controller.signal.aborted) return;
    $("picture-preview").dataset.state = "error";
    usable(false);
    say(error.message, "error", "picture");
  }
}

function drawPreview(puzzle) {
  const palette = puzzle.palette && puzzle.palette.length >= 2 ? puzzle.palette : [{ char: ".", rgb: "#ffffff" }, { char: "#", rgb: "#000000" }];
  const width = puzzle.cols.length;
  const height = puzzle.rows.length;
  const grid = parseRows(puzzle.goal, palette);
  const canvas = $("picture-preview");
  const size = Math.max(2, Math.min(12, Math.floor(260 / Math.max(width, height))));
  canvas.width = width * size;
  canvas.height = height * size;
  const g = canvas.getContext("2d");
  grid.forEach((cell, i) => {
    g.fillStyle = palette[cell] ? palette[cell].rgb : "#ffffff";
    g.fillRect((i % width) * size, Math.floor(i / width) * size, size, size);
  });
}

/** "Use it": the thresholded picture becomes the drawing. */
export function usePicture() {
  if (!picture || !picture.result) return;
  const title = picture.file.name.replace(/\.[^.]*$/, "");
  remember();
  keepApart();
  loadPuzzle(picture.result.puzzle);
  if (!state.meta.title) state.meta.title = title;
  closePicture();
  onLoaded();
  say(`The picture is now the drawing: ${state.width}×${state.height}.`);
}

/** "Make a puzzle of it": the picture made into a line-solvable puzzle, its changed cells marked.
 * Each change is weighed by the picture's own grey levels or colours, which "Use it" then
 * "Make it line-solvable" no longer has (a review: 16 cells and a blank row, where the command
 * line changes 13). */
export async function makePuzzle(button) {
  if (!picture) return;
  const mine = picture;
  const options = pictureOptions();
  const settings = JSON.stringify(options);
  mine.making = true;
  await whileBusy(button, "Making a line-solvable puzzle of the picture…", async (signal) => {
    const before = snapshot();
    const result = await api.generate(mine.file, options, signal);
    if (!result.puzzle) throw new Error(`no line-solvable puzzle found in time (${result.cut_short || result.status})`);
    if (picture !== mine) return; // the panel was closed, or another picture opened, meanwhile
    const changed = snapshot() !== before ? "drawing" : JSON.stringify(pictureOptions()) !== settings ? "picture's settings" : null;
    if (changed) { // an edit meanwhile is kept, and the puzzle of settings since changed is not the one asked for
      say(`The ${changed} changed while the puzzle was made, so it was not applied: press Make a puzzle of it again.`, "error");
      return;
    }
    remember();
    keepApart();
    loadPuzzle(result.puzzle);
    if (!state.meta.title) state.meta.title = mine.file.name.replace(/\.[^.]*$/, "");
    mine.making = false; // done: closing the panel cancels nothing
    closePicture();
    const n = (result.changed || []).length;
    onLoaded(result.changed || []);
    const distance = Number(result.distance).toFixed(2);
    const changes = n ? `${n} cell${n === 1 ? "" : "s"} changed from the picture (outlined in green), picture distance ${distance}` : "nothing changed";
    say(`The picture is now a line-solvable puzzle, ${state.width}×${state.height}: ${changes}.`);
  });
  mine.making = false;
  if (picture === mine) usable(Boolean(mine.result)); // (whileBusy enabled the button again: not before the new preview)
}

/** "Read it as a puzzle file": for pictures of a puzzle grid that nonosat reads. */
export function pictureAsPuzzle() {
  if (picture) readPuzzle(picture.file);
}

// Export.

/** Fill the format list from /api/formats. */
export async function loadFormats() {
  const select = $("export-format");
  try {
    const { write } = await api.formats();
    select.replaceChildren();
    for (const format of write) {
      const option = document.createElement("option");
      option.value = format.name;
      const suffix = format.suffix || (format.suffixes || [])[0] || `.${format.name}`;
      option.textContent = format.description ? `${suffix} (${format.description})` : `${format.name} (${suffix})`;
      if (format.colour === false) option.textContent += ", black and white only";
      select.append(option);
    }
  } catch (error) {
    say(`Cannot list the file formats: ${error.message}`, "error");
  }
}

export async function exportPuzzle(button) {
  const to = $("export-format").value;
  await whileBusy(button, `Writing ${to}…`, async () => {
    const { blob, name, dropped } = await api.convert(toPuzzle(true), to);
    api.download(blob, name);
    say(`Downloaded ${name}.` + (dropped ? ` The format cannot hold: ${dropped}.` : ""));
  });
}

export async function exportSheet(button, as) {
  const solved = $("sheet-solved").checked;
  await whileBusy(button, `Drawing the ${solved ? "solved" : "empty"} sheet…`, async () => {
    const { blob, name } = await api.render(toPuzzle(true), as, solved);
    api.download(blob, name);
    say(`Downloaded ${name}.`);
  });
}

