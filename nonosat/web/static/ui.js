// Small helpers shared by the page's parts: the status line and buttons that wait for the server.

export const $ = (id) => document.getElementById(id);

/** Show a line in the status area; `kind` is "info", "busy" or "error". */
export function say(text, kind = "info") {
  const status = $("status");
  status.textContent = text;
  status.dataset.kind = kind;
}

/** Run `work` with `button` disabled and a busy line; report an error in the status area. Returns work's result or null. */
export async function whileBusy(button, busyText, work) {
  if (button) button.disabled = true;
  say(busyText, "busy");
  try {
    return await work();
  } catch (error) {
    if (error.name !== "AbortError") say(error.message, "error");
    return null;
  } finally {
    if (button) button.disabled = false;
  }
}

/** The first line name ("row 3", "column 2") of a line of text, as [isRow, index from 0], or null. */
export function parseLineName(name) {
  const match = /^(row|column|col)\s+(\d+)$/i.exec(String(name).trim());
  return match ? [match[1].toLowerCase() === "row", Number(match[2]) - 1] : null;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
