/* nonosat._core: the repair's bounds (nonosat/generate/search.py, Search.bound), many in one
 * call: `open_after` in black and white up to 126 cells a side (core.h's board) and
 * `open_after_colours` for any palette and size (colour.h's). For each one-cell change of a
 * picture: line logic resumed from the board line logic left, with the changed cell forgotten
 * and its row's and column's clues changed, from those two lines only. Python made a propagate
 * call a change: at 100x100 a call's masks crossing over took ten times the line passes it ran,
 * and at 140x100 in colour's form the repair took 7 minutes (bench/README.md). */
#include "colour.h"

/* The cells of the rows that are neither known filled nor known empty. */
static long open_cells(const Grid *g, const Board *b)
{
    Cells full = full_mask(g->width);
    long open = 0;
    for (int r = 0; r < g->height; r++) {
        Cells unknown = full & ~(b->filled[r] | b->empty[r]);
#ifdef CORE_WIDE
        open += __builtin_popcountll((u64)unknown) + __builtin_popcountll((u64)(unknown >> 64));
#else
        open += __builtin_popcountll(unknown);
#endif
    }
    return open;
}

/* The counts as a list of ints; NULL with a Python exception. */
static PyObject *count_list(const long *counts, Py_ssize_t count)
{
    PyObject *list = PyList_New(count);
    for (Py_ssize_t i = 0; list && i < count; i++) {
        PyObject *number = PyLong_FromLong(counts[i]);
        if (!number)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, number);
    }
    return list;
}

/* One change's bound: the cells open after it, or -1 when a line then has no completion. -2
 * with a Python exception when the change is not (row, column, row_clue, column_clue). */
static long bound_of(Grid *g, const Board *board, PyObject *change)
{
    int row, column;
    PyObject *row_clue, *column_clue;
    if (!PyTuple_Check(change) || !PyArg_ParseTuple(change, "iiOO", &row, &column, &row_clue, &column_clue)) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "a change is (row, column, row_clue, column_clue)");
        }
        return -2;
    }
    if (row < 0 || row >= g->height || column < 0 || column >= g->width) {
        PyErr_SetString(PyExc_ValueError, "a change's cell is outside the grid");
        return -2;
    }
    int column_line = g->height + column;
    LineClue row_before = g->clue[row], column_before = g->clue[column_line];
    long open = -2;
    if (read_clue(row_clue, g->width, &g->clue[row]) == 0 &&
        read_clue(column_clue, g->height, &g->clue[column_line]) == 0) {
        Board trial;
        copy_board(g, &trial, board);
        Cells row_keep = ~((Cells)1 << column), column_keep = ~((Cells)1 << row);
        trial.filled[row] &= row_keep;
        trial.empty[row] &= row_keep;
        trial.filled[column_line] &= column_keep;
        trial.empty[column_line] &= column_keep;
        push(g, row);  /* as propagate(board, [(True, row), (False, column)]) */
        push(g, column_line);
        open = run_queue(g, &trial) < 0 ? open_cells(g, &trial) : -1;
    }
    g->clue[row] = row_before;
    g->clue[column_line] = column_before;
    return open;
}

PyObject *py_open_after(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *columns, *row_filled, *row_empty, *col_filled, *col_empty, *changes, *result = NULL;
    Board board;
    if (!PyArg_ParseTuple(args, "OOOOOOO:open_after", &rows, &columns, &row_filled, &row_empty, &col_filled,
                          &col_empty, &changes))
        return NULL;
    PyObject *all = PySequence_Fast(changes, "changes must be a sequence of (row, column, row_clue, column_clue)");
    if (!all)
        return NULL;
    Grid *g = new_grid(rows, columns, 2);
    if (!g || read_board(g, &board, row_filled, row_empty, col_filled, col_empty, 0) < 0)
        goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(all);
    long *open = PyMem_Malloc(sizeof(long) * ((size_t)count + 1));
    if (!open) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t made = 0;
    while (made < count && (open[made] = bound_of(g, &board, PySequence_Fast_GET_ITEM(all, made))) >= -1)
        made++;
    result = made == count ? count_list(open, count) : NULL;
    PyMem_Free(open);
done:
    Py_DECREF(all);
    free_grid(g);
    return result;
}

/* ---------------------------------------------------------------- any palette, any size ----- */

/* The cells that may still take more than one colour. */
static long open_paint_cells(const Paint *p)
{
    long open = 0;
    for (size_t i = 0; i < (size_t)p->height * (size_t)p->width; i++)
        open += (p->cells[i] & (p->cells[i] - 1)) != 0;
    return open;
}

/* Each change's row, column and two clues, read with the GIL; -1 with a Python exception. */
typedef struct {
    int row, column;
    PaintClue clue[2]; /* the row's, the column's */
} PaintChange;

static int read_paint_changes(Paint *p, PyObject *all, PaintChange *changes, int **pool_out, int *most)
{
    Py_ssize_t count = PySequence_Fast_GET_SIZE(all);
    size_t blocks = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *change = PySequence_Fast_GET_ITEM(all, i);
        Py_ssize_t sizes[2] = {-1, -1};
        if (PyTuple_Check(change) && PyTuple_GET_SIZE(change) == 6)
            for (int side = 0; side < 2; side++)
                sizes[side] = PySequence_Size(PyTuple_GET_ITEM(change, 2 + 2 * side));
        if (sizes[0] < 0 || sizes[1] < 0) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "a change is (row, column, row_clue, row_colours, column_clue, "
                                             "column_colours)");
            return -1;
        }
        blocks += (size_t)(sizes[0] + sizes[1]);
    }
    int *pool = *pool_out = PyMem_Malloc(sizeof(int) * (2 * blocks + 1));
    if (!pool) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t left = (Py_ssize_t)blocks; /* the pool's room, in blocks */
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *change = PySequence_Fast_GET_ITEM(all, i);
        PaintChange *c = &changes[i];
        long row = PyLong_AsLong(PyTuple_GET_ITEM(change, 0));
        long column = PyLong_AsLong(PyTuple_GET_ITEM(change, 1));
        if (PyErr_Occurred())
            return -1;
        if (row < 0 || row >= p->height || column < 0 || column >= p->width) {
            PyErr_SetString(PyExc_ValueError, "a change's cell is outside the grid");
            return -1;
        }
        c->row = (int)row;
        c->column = (int)column;
        for (int side = 0; side < 2; side++) {
            if (read_paint_clue(PyTuple_GET_ITEM(change, 2 + 2 * side), PyTuple_GET_ITEM(change, 3 + 2 * side),
                                side ? p->height : p->width, p->palette, pool, left, &c->clue[side]) < 0)
                return -1;
            pool += 2 * c->clue[side].count;
            left -= c->clue[side].count;
            *most = c->clue[side].count > *most ? c->clue[side].count : *most;
        }
    }
    return 0;
}

PyObject *py_open_after_colours(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *row_colours, *columns, *column_colours, *row_not, *col_not, *changes, *result = NULL;
    Paint p = {0};
    Lookout look = {0};
    PaintChange *read = NULL;
    int *pool = NULL;
    u64 *board = NULL;
    long *open = NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOO:open_after_colours", &rows, &row_colours, &columns, &column_colours,
                          &row_not, &col_not, &changes))
        return NULL;
    PyObject *all = PySequence_Fast(changes, "changes must be a sequence of tuples");
    if (!all)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(all);
    if (read_paint(&p, rows, row_colours, columns, column_colours, row_not, col_not) < 0)
        goto done;
    int most = 0;
    for (int l = 0; l < p.lines; l++)
        most = p.clue[l].count > most ? p.clue[l].count : most;
    size_t cells = (size_t)p.height * (size_t)p.width;
    p.capacity = p.lines + 3;
    p.queue = PyMem_Malloc(sizeof(int) * (size_t)p.capacity);
    read = PyMem_Calloc((size_t)count + 1, sizeof(PaintChange));
    board = PyMem_Malloc(sizeof(u64) * cells);
    open = PyMem_Malloc(sizeof(long) * ((size_t)count + 1));
    if (!p.queue || !read || !board || !open) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_paint_changes(&p, all, read, &pool, &most) < 0)
        goto done;
    free_work(&p.w); /* room for the changed clues' blocks too */
    if (new_work(&p.w, p.height > p.width ? p.height : p.width, most) < 0)
        goto done;
    memcpy(board, p.cells, sizeof(u64) * cells);
    u64 all_colours = p.palette + 1 == 64 ? ~(u64)0 : ((u64)1 << (p.palette + 1)) - 1;
    if (lookout_start(&look, 0) < 0)
        goto done;
    int stopped = 0;
    for (Py_ssize_t i = 0; i < count && !stopped; i++) {
        PaintChange *c = &read[i];
        int lines[2] = {c->row, p.height + c->column};
        PaintClue before[2] = {p.clue[lines[0]], p.clue[lines[1]]};
        p.clue[lines[0]] = c->clue[0];
        p.clue[lines[1]] = c->clue[1];
        p.cells[(size_t)c->row * p.width + c->column] = all_colours; /* forgotten */
        paint_push(&p, lines[0]); /* as propagate(board, [(True, row), (False, column)]) */
        paint_push(&p, lines[1]);
        int bad = paint_run(&p, &look);
        stopped = bad == -3;
        open[i] = bad >= 0 ? -1 : open_paint_cells(&p);
        p.clue[lines[0]] = before[0];
        p.clue[lines[1]] = before[1];
        p.head = p.count = 0; /* a contradiction leaves lines queued */
        memset(p.queued, 0, (size_t)p.lines);
        memcpy(p.cells, board, sizeof(u64) * cells);
    }
    lookout_end(&look);
    if (stopped)
        goto done; /* Ctrl-C: its KeyboardInterrupt is set */
    result = count_list(open, count);
done:
    lookout_end(&look);
    Py_DECREF(all);
    PyMem_Free(read);
    PyMem_Free(pool);
    PyMem_Free(board);
    PyMem_Free(open);
    free_paint(&p);
    return result;
}
