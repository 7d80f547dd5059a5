// Calls to nonosat's JSON API: one function per endpoint, errors as ApiError with the server's text.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** The server's `{"error": ...}` text, or a line saying what went wrong. */
async function errorOf(response) {
  const text = await response.text();
  try {
    const data = JSON.parse(text);
    if (data && typeof data.error === "string") return data.error;
  } catch (_) {
    // not JSON: fall through
  }
  const retry = response.headers.get("Retry-After");
  const busy = retry ? ` (try again in ${retry} s)` : "";
  return `the server answered ${response.status} ${response.statusText}${busy}`;
}

/** What an error says when the server does not answer at all. */
export const UNREACHABLE = "cannot reach the nonosat server: is `nonosat serve` still running?";
let answered = () => {};

/** Call `callback` whenever the server answers (the page clears a "cannot reach" line then). */
export function setOnAnswer(callback) {
  answered = callback;
}

/** POST to `path` with query `params` and `body` (a puzzle object sent as JSON, or FormData). */
async function post(path, params, body, signal) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== "") query.set(key, String(value));
  }
  const url = query.toString() ? `${path}?${query}` : path;
  const init = { method: "POST", signal };
  if (body instanceof FormData) {
    init.body = body;
  } else {
    init.body = JSON.stringify(body);
    init.headers = { "Content-Type": "application/json" };
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(UNREACHABLE, 0);
  }
  answered();
  if (!response.ok) throw new ApiError(await errorOf(response), response.status);
  return response;
}

async function postJson(path, params, body, signal) {
  return (await post(path, params, body, signal)).json();
}

/** The live check's seconds, and a longer check's (the server's most, by default). */
export const CHECK_SECONDS = 5;
export const LONGER_SECONDS = 60;

export const check = (puzzle, signal, timeout = CHECK_SECONDS) => postJson("/api/check", { timeout }, puzzle, signal);
export const solve = (puzzle, count = 1, signal) => postJson("/api/solve", { count, timeout: 10 }, puzzle, signal);
export const explain = (puzzle, signal) => postJson("/api/explain", { timeout: 10 }, puzzle, signal);
export const suggest = (puzzle, signal) => postJson("/api/suggest", { count: 5, timeout: 10 }, puzzle, signal);
export const repair = (puzzle, require, signal) => postJson("/api/repair", { require, timeout: 30 }, puzzle, signal);

/** The next logical step from the player's `state` (rows of `#`, `.`, `?` or palette chars). */
export function hint(puzzle, state) {
  const form = new FormData();
  form.append("file", puzzleBlob(puzzle), "puzzle.json");
  form.append("state", state.join("\n"));
  return postJson("/api/hint", { timeout: 10 }, form);
}

/** A picture as a puzzle, its goal the thresholded (or quantised) grid; `options` are query parameters. */
export function picture(file, options, signal) {
  return named(file, postJson("/api/picture", options, pictureForm(file), signal));
}

function pictureForm(file) {
  const form = new FormData();
  form.append("file", file, file.name || "picture.png");
  return form;
}

/** A line-solvable puzzle made from a picture, as `nonosat generate --require line` makes it: each
 * change weighed by the picture (a cell near the threshold is cheap); `options` as `picture`'s. */
export function generate(file, options, signal) {
  return named(file, postJson("/api/generate", { ...options, require: "line", timeout: 30 }, pictureForm(file), signal));
}

/** The answer to an upload of the user's `file`; a refusal of its size names it (the server
 * refuses it by its length, before it knows the file's name). */
async function named(file, answer) {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ApiError && error.status === 413 && file.name) error.message = `${file.name}: ${error.message}`;
    throw error;
  }
}

/** Any puzzle file nonosat reads, as nonosat's JSON text (puzzle `number` of a file of several). */
export async function readPuzzleFile(file, number) {
  const form = new FormData();
  form.append("file", file, file.name || "puzzle");
  const response = await named(file, post("/api/convert", { to: "json", number }, form));
  return JSON.parse(await response.text());
}

/** The puzzles a file holds: { count, puzzles: [{ number, title, width, height, colours }] }. */
export function contents(file) {
  const form = new FormData();
  form.append("file", file, file.name || "puzzle");
  return named(file, postJson("/api/contents", { timeout: 10 }, form));
}

/** The puzzle in format `to`, as a Blob and the file name the server gives it. */
export async function convert(puzzle, to) {
  const response = await post("/api/convert", { to }, puzzle);
  const dropped = response.headers.get("X-Nonosat-Dropped");
  return { blob: await response.blob(), name: fileName(response, `puzzle.${to}`), dropped };
}

/** The printed sheet, `as` svg or png, empty or solved. */
export async function render(puzzle, as, solution) {
  const response = await post("/api/render", { as, solution: solution ? 1 : 0 }, puzzle);
  return { blob: await response.blob(), name: fileName(response, `puzzle${solution ? "-solved" : ""}.${as}`) };
}

export async function formats() {
  const response = await fetch("/api/formats");
  if (!response.ok) throw new ApiError(await errorOf(response), response.status);
  return response.json();
}

export function puzzleBlob(puzzle) {
  return new Blob([JSON.stringify(puzzle)], { type: "application/json" });
}

/** The file name in a Content-Disposition header, or `fallback`. */
function fileName(response, fallback) {
  const header = response.headers.get("Content-Disposition") || "";
  const encoded = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(header);
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ""));
    } catch (_) {
      // a malformed name: try the plain one
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : fallback;
}

/** Save a Blob under `name` through a temporary link. */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
