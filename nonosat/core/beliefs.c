/* nonosat._core: belief propagation over a black-and-white grid, for the conflict-driven
 * search's phases and the order of its decisions (cdcl_run.c, follow_beliefs).
 *
 * The lines are the factors and the cells the variables. A line's message to one of its
 * cells is how likely the cell is filled over the line's completions, each completion weighed
 * by the crossing lines' messages to its other cells: the line's chain automaton read forward
 * and backward (as settle_line reads it), with sums in place of unions. A few rounds, each
 * line in turn, damped, give every cell a belief: the chance that it is filled in a solution,
 * as far as the lines can tell one by one and through each other. On random grids that line
 * logic leaves open, a search that takes the likeliest values first, in the order of how sure
 * they are, finds a grid in a fraction of the conflicts (bench/README.md, "Beliefs").
 */
#include "core.h"

#define MAX_STATES 130      /* a clue's chain automaton on a line of MAX_SIDE cells, and room */
#define BELIEF_WORK 4000000 /* state steps the rounds may take in all, counting 64 states a
                             * line (128 wide): 50 rounds on 25x25, 3 on 126x126 */
#define DAMPING 0.5         /* how much of a message's last value each round keeps */
#define SETTLED 1e-4        /* the rounds stop when no message moves further */

/* Line `line`'s message to each of its cells, into p: the chance the cell is filled, from the
 * weights w1 (filled) and w0 (empty) of every cell, the cell's own left out but for a weight of
 * 0 (a known cell). fwd and bwd hold MAX_SIDE * MAX_STATES doubles each. 0, or -1 when no
 * completion has any weight. */
static int line_message(const LineClue *line, const double *w1, const double *w0, double *p, double *fwd,
                        double *bwd)
{
    const u128 used = line->ones | line->zeros;
    const u64 high = (u64)(used >> 64), low = (u64)used;
    const int n = line->length, states = high ? 128 - __builtin_clzll(high) : low ? 64 - __builtin_clzll(low) : 0;
    char one[MAX_STATES], gap[MAX_STATES];
    for (int s = 0; s < states; s++) {
        one[s] = (char)((line->ones >> s) & 1);
        gap[s] = (char)((line->zeros >> s) & 1);
    }
    double before[MAX_STATES] = {1.0}; /* before the first cell: in the leading gap, state 0 */
    for (int i = 0; i < n; i++) {
        double total = 0, from_left = 0, *f = fwd + i * MAX_STATES;
        for (int s = 0; s < states; s++) {  /* state s: from s - 1, or staying in a gap */
            f[s] = from_left + (gap[s] ? before[s] : 0);
            from_left = before[s];
            before[s] = f[s] * (one[s] ? w1[i] : w0[i]);
            total += before[s];
        }
        if (!(total > 0))
            return -1;
        for (int s = 0; s < states; s++) {
            before[s] /= total;
            f[s] /= total;
        }
    }
    double *b = bwd + (n - 1) * MAX_STATES;
    for (int s = 0; s < states; s++)
        b[s] = (double)((line->accept >> s) & 1);
    for (int i = n - 1; i > 0; i--) {
        const double *after = bwd + i * MAX_STATES;
        double total = 0, *here = bwd + (i - 1) * MAX_STATES;
        for (int s = 0; s < states; s++) {
            double v = gap[s] ? after[s] * w0[i] : 0;
            if (s + 1 < states)
                v += after[s + 1] * (one[s + 1] ? w1[i] : w0[i]);
            here[s] = v;
            total += v;
        }
        if (!(total > 0))
            return -1;
        for (int s = 0; s < states; s++)
            here[s] /= total;
    }
    for (int i = 0; i < n; i++) {
        const double *f = fwd + i * MAX_STATES, *bk = bwd + i * MAX_STATES;
        double filled = 0, empty = 0;
        for (int s = 0; s < states; s++) {
            if (one[s])
                filled += f[s] * bk[s];
            else
                empty += f[s] * bk[s];
        }
        filled = w1[i] > 0 ? filled : 0; /* a known cell: its own value, whatever the others say */
        empty = w0[i] > 0 ? empty : 0;
        if (!(filled + empty > 0))
            return -1;
        p[i] = filled / (filled + empty);
    }
    return 0;
}

/* One line's round: its weights from the crossing lines' messages (`cross`, row-major) and the
 * board's known cells, its messages into `mine` (damped). Returns the largest move, or -1. */
static double line_round(const Grid *g, const Board *board, int line, const double *cross, double *mine,
                         double *fwd, double *bwd, double *w1)
{
    const LineClue *clue = &g->clue[line];
    int h = g->height, w = g->width, row = line < h, n = clue->length, index = row ? line : line - h;
    double *w0 = w1 + MAX_SIDE, *p = w0 + MAX_SIDE, moved = 0;
    for (int i = 0; i < n; i++) {
        int cell = row ? index * w + i : i * w + index;
        double q = cross[cell];
        q = q < 1e-6 ? 1e-6 : q > 1 - 1e-6 ? 1 - 1e-6 : q;
        w1[i] = ((board->empty[line] >> i) & 1) ? 0 : q;
        w0[i] = ((board->filled[line] >> i) & 1) ? 0 : 1 - q;
    }
    if (line_message(clue, w1, w0, p, fwd, bwd) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        int cell = row ? index * w + i : i * w + index;
        double next = DAMPING * mine[cell] + (1 - DAMPING) * p[i], move = next - mine[cell];
        mine[cell] = next;
        moved = move > moved ? move : -move > moved ? -move : moved;
    }
    return moved;
}

/* Every cell's belief (row-major: the chance it is filled), the known cells of `board` held.
 * 0; -1 when a line has no completion left, -2 when memory ran out. */
int grid_beliefs(const Grid *g, const Board *board, double *belief)
{
    int h = g->height, w = g->width, n = h * w, rounds = 60;
    long long per_round = 0;
    for (int line = 0; line < g->lines; line++) {
        if (g->clue[line].impossible)
            return -1;
        per_round += (long long)line_length(g, line) * (g->clue[line].wide ? 128 : 64);
    }
    if (per_round * rounds > BELIEF_WORK)
        rounds = (int)(BELIEF_WORK / per_round) > 3 ? (int)(BELIEF_WORK / per_round) : 3;
    double *from_rows = PyMem_RawMalloc(sizeof(double) * (2 * (size_t)n + 2 * MAX_SIDE * MAX_STATES + 3 * MAX_SIDE));
    if (!from_rows)
        return -2;
    double *from_columns = from_rows + n, *fwd = from_columns + n, *bwd = fwd + MAX_SIDE * MAX_STATES;
    double *weights = bwd + MAX_SIDE * MAX_STATES; /* a line's w1, w0 and messages, MAX_SIDE each */
    for (int cell = 0; cell < n; cell++)
        from_rows[cell] = from_columns[cell] = 0.5;
    int status = 0;
    for (int round = 0; round < rounds && status == 0; round++) {
        double moved = 0;
        for (int line = 0; line < g->lines && status == 0; line++) {
            double m = line < h ? line_round(g, board, line, from_columns, from_rows, fwd, bwd, weights)
                                : line_round(g, board, line, from_rows, from_columns, fwd, bwd, weights);
            status = m < 0 ? -1 : 0;
            moved = m > moved ? m : moved;
        }
        if (moved < SETTLED)
            break;
    }
    for (int cell = 0; cell < n && status == 0; cell++) {
        int r = cell / w, c = cell % w;
        double filled = from_rows[cell] * from_columns[cell];
        double empty = (1 - from_rows[cell]) * (1 - from_columns[cell]);
        belief[cell] = ((board->filled[r] >> c) & 1) ? 1.0 : ((board->empty[r] >> c) & 1) ? 0.0
                       : filled + empty > 0 ? filled / (filled + empty) : 0.5;
    }
    PyMem_RawFree(from_rows);
    return status;
}

/* ---------------------------------------------------------------- the module's functions ---- */

static PyObject *float_list(const double *values, int count)
{
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        PyObject *x = PyFloat_FromDouble(values[i]);
        if (!x)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* line_beliefs(clue, length, filled, empty, chances): one line's message to each of its cells
 * (a list of floats), the crossing lines' chances that each cell is filled given; None when no
 * completion fits. */
PyObject *py_line_beliefs(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *clue, *filled_object, *empty_object, *chances;
    int n;
    if (!PyArg_ParseTuple(args, "OiOOO:line_beliefs", &clue, &n, &filled_object, &empty_object, &chances))
        return NULL;
    if (n < 1 || n > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "a line has 1..%d cells", MAX_SIDE);
        return NULL;
    }
    LineClue line;
    Cells filled, empty;
    if (read_clue(clue, n, &line) < 0 || read_cells(filled_object, n, &filled) < 0 ||
        read_cells(empty_object, n, &empty) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(chances, "chances must be a sequence of floats");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one chance a cell");
        return NULL;
    }
    double w1[MAX_SIDE], w0[MAX_SIDE], p[MAX_SIDE];
    for (int i = 0; i < n; i++) {
        double q = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (q == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        w1[i] = ((empty >> i) & 1) ? 0 : q;
        w0[i] = ((filled >> i) & 1) ? 0 : 1 - q;
    }
    Py_DECREF(seq);
    double *buffers = PyMem_RawMalloc(sizeof(double) * 2 * MAX_SIDE * MAX_STATES);
    if (!buffers)
        return PyErr_NoMemory();
    int fits = !line.impossible && !(filled & empty) &&
               line_message(&line, w1, w0, p, buffers, buffers + MAX_SIDE * MAX_STATES) == 0;
    PyMem_RawFree(buffers);
    if (!fits)
        return Py_NewRef(Py_None);
    return float_list(p, n);
}

/* beliefs(rows, columns, row_filled, row_empty, col_filled, col_empty): every cell's belief,
 * row by row (a list of floats), the known cells held; None when a line has no completion. */
PyObject *py_beliefs(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *columns, *row_filled, *row_empty, *col_filled, *col_empty, *result = NULL;
    Board board;
    if (!PyArg_ParseTuple(args, "OOOOOO:beliefs", &rows, &columns, &row_filled, &row_empty, &col_filled, &col_empty))
        return NULL;
    Grid *g = new_grid(rows, columns, 0);
    if (!g || read_board(g, &board, row_filled, row_empty, col_filled, col_empty, 1) < 0) {
        free_grid(g);
        return NULL;
    }
    int n = g->height * g->width;
    double *belief = PyMem_RawMalloc(sizeof(double) * (size_t)n);
    int status = belief ? grid_beliefs(g, &board, belief) : -2;
    if (status == -2)
        result = PyErr_NoMemory();
    else if (status < 0)
        result = Py_NewRef(Py_None);
    else
        result = float_list(belief, n);
    PyMem_RawFree(belief);
    free_grid(g);
    return result;
}
