// The page's painting and undo times, for tests/test_web_studio.py (evaluated with the board's side).
(async (side) => {
  // A stroke along the middle row, one pointermove a cell, then Ctrl-Z: the main thread's time
  // for each, as the page's own handlers spend it (synchronously, before any paint).
  // Only the cells in view are stroked (a board wider than the window scrolls).
  const row = Math.ceil(side / 2);
  const at = (c) => document.querySelector(`#board td.cell[data-row='${row}'][data-col='${c}']`).getBoundingClientRect();
  let cells = 1;
  while (cells < side && at(cells + 1).right <= Math.min(window.innerWidth, document.querySelector(".board-wrap").getBoundingClientRect().right)) cells += 1;
  const first = at(1);
  const down = { clientX: first.x + first.width / 2, clientY: first.y + first.height / 2, button: 0, bubbles: true };
  const start = performance.now();
  document.querySelector(`#board td.cell[data-row='${row}'][data-col='1']`).dispatchEvent(new PointerEvent("pointerdown", down));
  for (let c = 2; c <= cells; c += 1) {
    const box = at(c);
    window.dispatchEvent(new PointerEvent("pointermove", { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, bubbles: true }));
  }
  window.dispatchEvent(new PointerEvent("pointerup", { bubbles: true }));
  document.querySelector("#board").offsetHeight; // the style and layout the stroke needs
  const painted = performance.now() - start;
  const filled = document.querySelectorAll("#board td.cell.filled").length;
  const before = performance.now();
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "z", ctrlKey: true, bubbles: true }));
  document.querySelector("#board").offsetHeight;
  const undo = performance.now() - before;
  return { cells, perCell: painted / cells, undo, filled, left: document.querySelectorAll("#board td.cell.filled").length };
})
