/* nonosat._core: the repair's bounds (nonosat/generate/search.py, Search.bound), many in one
 * call. For each one-cell change of a picture: line logic resumed from the board line logic left,
 * with the changed cell forgotten in its row and its column and those two lines' clues changed,
 * from those two lines only. Python made one propagate call a change: at 100x100 a call's
 * masks crossing over took ten times the line passes it ran (bench/README.md). */
#include "core.h"

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
    PyObject *found = PyList_New(count);
    for (Py_ssize_t i = 0; found && i < count; i++) {
        long open = bound_of(g, &board, PySequence_Fast_GET_ITEM(all, i));
        PyObject *number = open < -1 ? NULL : PyLong_FromLong(open);
        if (!number)
            Py_CLEAR(found);
        else
            PyList_SET_ITEM(found, i, number);
    }
    result = found;
done:
    Py_DECREF(all);
    free_grid(g);
    return result;
}
