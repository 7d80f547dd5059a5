// The drawing tools' shapes: the cells ([row, column] from 0) a line, a rectangle or a flood fill covers.

/** The cells of a straight line from a to b (Bresenham's: one cell a step along the longer axis). */
export function lineCells([r0, c0], [r1, c1]) {
  const cells = [];
  const dr = Math.abs(r1 - r0);
  const dc = Math.abs(c1 - c0);
  const sr = r0 < r1 ? 1 : -1;
  const sc = c0 < c1 ? 1 : -1;
  let error = dc - dr;
  let [r, c] = [r0, c0];
  for (;;) {
    cells.push([r, c]);
    if (r === r1 && c === c1) return cells;
    const twice = 2 * error;
    if (twice > -dr) {
      error -= dr;
      c += sc;
    }
    if (twice < dc) {
      error += dc;
      r += sr;
    }
  }
}

/** The cells of the rectangle with corners a and b: its outline, or all of it when `filled`. */
export function boxCells([r0, c0], [r1, c1], filled = false) {
  const [top, bottom] = [Math.min(r0, r1), Math.max(r0, r1)];
  const [left, right] = [Math.min(c0, c1), Math.max(c0, c1)];
  const cells = [];
  for (let r = top; r <= bottom; r += 1) {
    for (let c = left; c <= right; c += 1) {
      if (filled || r === top || r === bottom || c === left || c === right) cells.push([r, c]);
    }
  }
  return cells;
}

/** The cells of the region of one colour around [r, c] (neighbours across sides, not corners). */
export function floodCells(grid, width, height, [r, c]) {
  const colour = grid[r * width + c];
  const seen = new Uint8Array(width * height);
  const cells = [];
  const todo = [r * width + c];
  seen[todo[0]] = 1;
  while (todo.length) {
    const i = todo.pop();
    cells.push([Math.floor(i / width), i % width]);
    const row = Math.floor(i / width);
    const col = i % width;
    for (const [nr, nc] of [[row - 1, col], [row + 1, col], [row, col - 1], [row, col + 1]]) {
      const j = nr * width + nc;
      if (nr >= 0 && nr < height && nc >= 0 && nc < width && !seen[j] && grid[j] === colour) {
        seen[j] = 1;
        todo.push(j);
      }
    }
  }
  return cells;
}
