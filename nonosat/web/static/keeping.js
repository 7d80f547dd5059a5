// The page's side of the drafts (drafts.js): the work of other tabs and visits to open or
// forget ("Kept in this browser"), and what the status line says of them.

import * as drafts from "./drafts.js";
import { $, say } from "./ui.js";

/** When a draft was saved, as people read it: the time today, else the date too. */
function when(savedAt) {
  if (!savedAt) return "an earlier visit";
  const date = new Date(savedAt);
  const today = date.toDateString() === new Date().toDateString();
  return today ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : date.toLocaleString();
}

/** The work of other tabs and visits, to open or forget ("Kept in this browser"). */
function renderDrafts() {
  const list = drafts.otherDrafts();
  const chosen = $("draft-list").value; // kept through the list's rebuilding as other tabs save
  $("drafts").hidden = !list.length;
  $("draft-list").replaceChildren(
    ...list.map((draft) => {
      const option = document.createElement("option");
      option.value = draft.id;
      option.textContent = `${draft.title || "untitled"} · ${draft.width}×${draft.height} · ${when(draft.savedAt)}`;
      return option;
    }),
  );
  if (list.some((draft) => draft.id === chosen)) $("draft-list").value = chosen;
}

/** Take up this tab's draft (or the latest), show it with `refresh`, and say what came back. */
export function startKeeping(refresh, forgetVerdict) {
  const on = (id, handler) => $(id).addEventListener("click", handler);
  on("draft-open", () => {
    if (!drafts.open($("draft-list").value)) {
      renderDrafts();
      say("That work could not be opened: it is no longer kept, or this tab's own could not be kept first.", "error");
      return;
    }
    forgetVerdict();
    refresh();
    renderDrafts();
    say("Opened; the work this tab had is kept in the list.");
  });
  on("draft-forget", () => {
    const option = $("draft-list").selectedOptions[0];
    if (!option || !window.confirm(`Forget "${option.textContent}"? It cannot be brought back.`)) return;
    drafts.forget(option.value);
    renderDrafts();
  });
  drafts.setOnChanged((forked) => {
    renderDrafts();
    if (forked) say('This puzzle was changed in another tab too: this tab goes on with its own copy, and the other is under "Kept in this browser".');
  });
  drafts.setOnFailed(() =>
    say("This browser's storage is full: the latest changes are not kept here. Download the puzzle (Export) to keep it, or forget old work (Import).", "error"),
  );
  window.addEventListener("pagehide", () => {
    drafts.saveNow();
    drafts.keepHistory();
  });
  window.addEventListener("beforeunload", (event) => {
    if (!drafts.saveNow()) {
      event.preventDefault(); // not kept: the browser asks before the work is lost
      event.returnValue = ""; // (older browsers ask only so)
    }
  });
  const began = drafts.start();
  refresh();
  renderDrafts();
  const others = drafts.otherDrafts().length;
  const more = others ? ` ${others} more ${others === 1 ? "is" : "are"} kept: Import, "Kept in this browser".` : "";
  say(
    began.how === "reload"
      ? `Your work is back as last saved, at ${when(began.savedAt)} (this browser keeps it as you edit; Clear starts afresh).${more}`
      : began.how === "latest"
        ? `Your latest work is back, as saved at ${when(began.savedAt)}.${more}`
        : window.matchMedia("(pointer: coarse)").matches
          ? "Draw by touching and dragging; a stroke that starts on a filled cell clears. The verdict follows every change."
          : "Draw by clicking and dragging; right-click clears. The verdict follows every change.",
  );
}
