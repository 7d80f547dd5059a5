/* nonosat._linecore: black-and-white line logic and search, compiled.
 *
 * The same deduction as nonosat/linelogic.py and nonosat/linesolve.py, for grids whose rows and
 * columns have at most 64 cells, so that a line's cells fit one 64-bit mask (bit i is cell i):
 *
 *   settle(clue, length, filled, empty)   every cell one line's clue decides, or None
 *   propagate(rows, columns, ...)         line logic to a fixed point, pass for pass as
 *                                         linesolve.propagate does it
 *   search(rows, columns, ..., max_solutions, node_budget, seconds)
 *                                         depth-first search with line logic at every node
 *
 * A line's clue is read by its chain automaton (see linelogic.py): one state per cell of every
 * block and one gap state before, between and after the blocks. A clue that fits 64 cells has at
 * most 66 states, so state sets are 128-bit masks, or 64-bit ones when the clue is short enough.
 *
 * Inside, a board numbers its lines: rows 0..height-1, then columns height..height+width-1.
 * This file is the module (reading its arguments, the three functions); _linecore_lines.c holds
 * the line logic and _linecore_search.c the search, over the types of _linecore.h.
 */
#include "_linecore.h"

/* ---------------------------------------------------------------- reading Python input ------ */

/* Read one clue (a sequence of positive block lengths) into its automaton; -1 on error. */
static int read_clue(PyObject *clue, int length, LineClue *line)
{
    long blocks[MAX_SIDE];
    PyObject *seq = PySequence_Fast(clue, "a clue must be a sequence of block lengths");
    if (!seq)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    int too_many = count > MAX_SIDE;  /* more blocks than cells: cannot fit */
    for (Py_ssize_t j = 0; j < count && !too_many; j++) {
        long size = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        if (size == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (size < 1) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a clue's blocks must be positive");
            return -1;
        }
        blocks[j] = size > 2 * MAX_SIDE ? 2 * MAX_SIDE : size;  /* too long either way */
    }
    Py_DECREF(seq);
    compile_clue(line, blocks, too_many ? 0 : (int)count, length);
    line->impossible |= too_many;
    return 0;
}

/* Read the clues of rows and columns into a grid; -1 (ValueError) on error. */
static int read_grid(Grid *g, PyObject *rows, PyObject *columns)
{
    Py_ssize_t height = PySequence_Size(rows), width = PySequence_Size(columns);
    if (height < 0 || width < 0)
        return -1;
    if (height < 1 || width < 1 || height > MAX_SIDE || width > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "sides must be 1..%d cells, not %zd x %zd", MAX_SIDE, width, height);
        return -1;
    }
    g->height = (int)height;
    g->width = (int)width;
    g->lines = g->height + g->width;
    for (int line = 0; line < g->lines; line++) {
        int is_row = line < g->height;
        PyObject *clue = PySequence_GetItem(is_row ? rows : columns, is_row ? line : line - g->height);
        if (!clue)
            return -1;
        int failed = read_clue(clue, line_length(g, line), &g->clue[line]);
        Py_DECREF(clue);
        if (failed)
            return -1;
    }
    return 0;
}

/* Read a list of `count` masks of `length` cells each; -1 on error. */
static int read_masks(PyObject *list, int count, int length, u64 *out, const char *what)
{
    PyObject *seq = PySequence_Fast(list, "masks must be a sequence of ints");
    if (!seq)
        return -1;
    int ok = PySequence_Fast_GET_SIZE(seq) == count;
    for (int i = 0; ok && i < count; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        ok = PyLong_Check(item);
        if (ok) {
            out[i] = PyLong_AsUnsignedLongLong(item);
            ok = !PyErr_Occurred() && (out[i] & ~full_mask(length)) == 0;
        }
    }
    Py_DECREF(seq);
    if (!ok) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be %d ints of %d bits", what, count, length);
    }
    return ok ? 0 : -1;
}

/* Make the row masks and the column masks say the same: a cell is known if either says so. */
static void merge_views(Grid *g, Board *b)
{
    for (int r = 0; r < g->height; r++)
        for (int c = 0, col = g->height; c < g->width; c++, col++)
            for (u64 *masks = b->filled; masks; masks = masks == b->filled ? b->empty : NULL)
                if (((masks[r] >> c) | (masks[col] >> r)) & 1) {
                    masks[r] |= (u64)1 << c;
                    masks[col] |= (u64)1 << r;
                }
}

/* Read the four lists of masks into a board (merging the rows' and the columns' views if asked);
 * -1 on error, such as a cell both filled and empty. */
static int read_board(Grid *g, Board *b, PyObject *row_filled, PyObject *row_empty, PyObject *col_filled,
                      PyObject *col_empty, int merge)
{
    memset(b, 0, sizeof *b);
    if (read_masks(row_filled, g->height, g->width, b->filled, "row_filled") ||
        read_masks(row_empty, g->height, g->width, b->empty, "row_empty") ||
        read_masks(col_filled, g->width, g->height, b->filled + g->height, "col_filled") ||
        read_masks(col_empty, g->width, g->height, b->empty + g->height, "col_empty"))
        return -1;
    if (merge)
        merge_views(g, b);
    for (int line = 0; line < g->lines; line++)
        if (b->filled[line] & b->empty[line]) {
            PyErr_SetString(PyExc_ValueError, "a cell cannot be both filled and empty");
            return -1;
        }
    return 0;
}

static PyObject *mask_list(const u64 *masks, int count)
{
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        PyObject *mask = PyLong_FromUnsignedLongLong(masks[i]);
        if (!mask) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, mask);
    }
    return list;
}

/* The grid and its queue, on the heap (a Grid with its clues is about 6 KB). */
static Grid *new_grid(PyObject *rows, PyObject *columns, Py_ssize_t extra_queue)
{
    Grid *g = PyMem_Calloc(1, sizeof(Grid));
    if (!g)
        return (Grid *)PyErr_NoMemory();
    if (read_grid(g, rows, columns) < 0) {
        PyMem_Free(g);
        return NULL;
    }
    g->capacity = g->lines + 1 + (int)extra_queue;
    g->queue = PyMem_Calloc((size_t)g->capacity, sizeof(int));
    if (!g->queue) {
        PyMem_Free(g);
        return (Grid *)PyErr_NoMemory();
    }
    return g;
}

static void free_grid(Grid *g)
{
    if (g) {
        PyMem_Free(g->queue);
        PyMem_Free(g);
    }
}

/* ---------------------------------------------------------------- settle(), propagate() ----- */

static PyObject *py_settle(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *clue;
    int length;
    unsigned long long filled, empty;
    LineClue line;
    u64 new_filled, new_empty;
    if (!PyArg_ParseTuple(args, "OiKK:settle", &clue, &length, &filled, &empty))
        return NULL;
    if (length < 1 || length > MAX_SIDE || ((filled | empty) & ~full_mask(length)) || (filled & empty)) {
        PyErr_SetString(PyExc_ValueError, "a line has 1..64 cells, and disjoint masks within them");
        return NULL;
    }
    if (read_clue(clue, length, &line) < 0)
        return NULL;
    if (!settle_line(&line, filled, empty, &new_filled, &new_empty))
        Py_RETURN_NONE;
    return Py_BuildValue("(KK)", (unsigned long long)new_filled, (unsigned long long)new_empty);
}

static PyObject *py_propagate(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *columns, *row_filled, *row_empty, *col_filled, *col_empty, *lines, *result = NULL;
    Board board;
    if (!PyArg_ParseTuple(args, "OOOOOOO:propagate", &rows, &columns, &row_filled, &row_empty,
                          &col_filled, &col_empty, &lines))
        return NULL;
    PyObject *start = PySequence_Fast(lines, "lines must be a sequence of (is_row, index)");
    if (!start)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(start);
    Grid *g = new_grid(rows, columns, count);  /* duplicates in `lines` may wait twice */
    if (!g || read_board(g, &board, row_filled, row_empty, col_filled, col_empty, 0) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        int is_row;
        Py_ssize_t index;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(start, i), "pn", &is_row, &index))
            goto done;
        if (index < 0 || index >= (is_row ? g->height : g->width)) {
            PyErr_Format(PyExc_ValueError, "no %s %zd", is_row ? "row" : "column", index);
            goto done;
        }
        push(g, is_row ? (int)index : g->height + (int)index);  /* as deque(lines) */
    }
    int bad = run_queue(g, &board);
    PyObject *bad_line = bad < 0 ? (Py_INCREF(Py_None), Py_None)
                       : Py_BuildValue("(Oi)", bad < g->height ? Py_True : Py_False,
                                       bad < g->height ? bad : bad - g->height);
    result = Py_BuildValue("(LNNNNN)", g->passes, bad_line, mask_list(board.filled, g->height),
                           mask_list(board.empty, g->height), mask_list(board.filled + g->height, g->width),
                           mask_list(board.empty + g->height, g->width));
done:
    Py_DECREF(start);
    free_grid(g);
    return result;
}


static PyObject *py_search(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *columns, *row_filled, *row_empty, *col_filled, *col_empty, *result = NULL;
    int max_solutions;
    long long node_budget;
    double seconds;
    Board board;
    Search s;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "OOOOOOiLd:search", &rows, &columns, &row_filled, &row_empty, &col_filled,
                          &col_empty, &max_solutions, &node_budget, &seconds))
        return NULL;
    if (max_solutions < 1) {
        PyErr_SetString(PyExc_ValueError, "max_solutions must be at least 1");
        return NULL;
    }
    Grid *g = new_grid(rows, columns, 0);
    if (!g || read_board(g, &board, row_filled, row_empty, col_filled, col_empty, 1) < 0)
        goto done;
    s.g = g;
    s.max_solutions = max_solutions;
    s.node_budget = node_budget;
    s.next_look = LOOK_EVERY;
    g->memo = PyMem_Calloc((size_t)1 << MEMO_BITS, sizeof(MemoEntry));
    s.solutions = PyMem_Calloc((size_t)max_solutions * (size_t)g->height, sizeof(u64));
    s.choices = PyMem_Malloc(((size_t)g->height * (size_t)g->width + 1) * sizeof(Choice));
    if (!g->memo || !s.solutions || !s.choices) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *time = PyImport_ImportModule("time");
    s.clock = time ? PyObject_GetAttrString(time, "monotonic") : NULL;
    Py_XDECREF(time);
    if (!s.clock)
        goto done;
    if (seconds > 0) {
        PyObject *now = PyObject_CallNoArgs(s.clock);
        s.deadline = now ? PyFloat_AsDouble(now) + seconds : 0;
        Py_XDECREF(now);
        if (PyErr_Occurred())
            goto done;
    }
    s.thread = PyEval_SaveThread();  /* other threads run while the search does */
    search_grid(&s, &board);
    PyEval_RestoreThread(s.thread);
    if (s.stopped < 0)
        goto done;
    PyObject *found = PyList_New(s.found);
    for (int i = 0; found && i < s.found; i++) {
        PyObject *masks = mask_list(s.solutions + (size_t)i * (size_t)g->height, g->height);
        PyObject *grid = masks ? PyList_AsTuple(masks) : NULL;
        Py_XDECREF(masks);
        if (!grid)
            Py_CLEAR(found);
        else
            PyList_SET_ITEM(found, i, grid);
    }
    if (found)
        result = Py_BuildValue("(ONL)", s.stopped ? Py_False : Py_True, found, s.nodes);
done:
    Py_XDECREF(s.clock);
    if (g)
        PyMem_Free(g->memo);
    PyMem_Free(s.solutions);
    PyMem_Free(s.choices);
    free_grid(g);
    return result;
}

/* ---------------------------------------------------------------- the module ---------------- */

static PyMethodDef methods[] = {
    {"settle", py_settle, METH_VARARGS,
     "settle(clue, length, filled, empty) -> (filled, empty), or None if no completion fits.\n\n"
     "Every cell one line's clue decides from its known cells, as linelogic.settle_line."},
    {"propagate", py_propagate, METH_VARARGS,
     "propagate(rows, columns, row_filled, row_empty, col_filled, col_empty, lines)\n"
     "-> (passes, bad_line, row_filled, row_empty, col_filled, col_empty)\n\n"
     "Line logic to a fixed point from the queue `lines` of (is_row, index), pass for pass as\n"
     "linesolve.propagate. bad_line is the (is_row, index) found in contradiction, else None.\n"
     "Returns new lists; the arguments are not changed."},
    {"search", py_search, METH_VARARGS,
     "search(rows, columns, row_filled, row_empty, col_filled, col_empty, max_solutions,\n"
     "       node_budget, seconds) -> (complete, solutions, nodes)\n\n"
     "Depth-first search with line logic and probing at every node, for up to max_solutions\n"
     "solutions (tuples of row masks). complete: the solutions are all there are, or\n"
     "max_solutions of them; False when node_budget choices or `seconds` ran out first (either\n"
     "<= 0: no limit). Releases the GIL while it works; Ctrl-C stops it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_linecore",
    "Black-and-white line logic and search for grids of up to 64x64 cells (see _linecore.c).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__linecore(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "MAX_SIDE", MAX_SIDE) < 0)
        Py_CLEAR(m);
    return m;
}
