// Small helpers shared by the page's parts: the status line and buttons that wait for the server.

export const $ = (id) => document.getElementById(id);

/** Show a line in the status area; `kind` is "info", "busy" or "error"; `about` names what an
 * error is about ("size", "picture"), so that it goes once that is put right (`mended`). */
export function say(text, kind = "info", about = "") {
  const status = $("status");
  status.textContent = text;
  status.dataset.kind = kind;
  status.dataset.about = about;
}

/** What an error shown was `about` is put right: the error goes (any other line stays). */
export function mended(about) {
  const status = $("status");
  if (status.dataset.kind === "error" && status.dataset.about === about) say("");
}

let cancelling = null; // the AbortController of the work the Cancel button stops

/** Run `work(signal)` with `button` disabled, a busy line and the Cancel button, which aborts
 * `signal` (the server stops the work when its request is dropped); report an error in the
 * status area. Returns work's result, or null when it failed or was cancelled. */
export async function whileBusy(button, busyText, work) {
  if (button) button.disabled = true;
  const mine = new AbortController();
  cancelling = mine;
  $("cancel").hidden = false;
  say(busyText, "busy");
  try {
    return await work(mine.signal);
  } catch (error) {
    if (error.name === "AbortError" || mine.signal.aborted) say("Cancelled.");
    else say(error.message, "error");
    return null;
  } finally {
    if (button) button.disabled = false;
    if (cancelling === mine) {
      cancelling = null;
      $("cancel").hidden = true;
    }
  }
}

/** The Cancel button: stop the work under way. */
export function cancelWork() {
  if (cancelling) cancelling.abort();
}

/** The first line name ("row 3", "column 2") of a line of text, as [isRow, index from 0], or null. */
export function parseLineName(name) {
  const match = /^(row|column|col)\s+(\d+)$/i.exec(String(name).trim());
  return match ? [match[1].toLowerCase() === "row", Number(match[2]) - 1] : null;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
