/* nonosat._core: where each block of a black-and-white line can start, in some completion of
 * the line, for lines of any length: the feasible starts of the block-position encoding
 * (nonosat/solver/encodings/blocks.py's feasible_starts reads them off the automaton's live
 * states, which took a small puzzle's formula a fifth of its time in Python).
 *
 *   block_starts(clue, cells) -> list of lists of cells, or None when no completion fits
 *
 * cells[i] is True (filled), False (empty) or anything else (unknown: a literal). Two tables:
 * fits_before[j][i], the first i cells can hold blocks 0..j-1 and nothing else, and
 * fits_after[j][i], the cells from i on can hold blocks j..k-1 and nothing else. Block j can
 * start at t when its cells t..t+c-1 may be filled, the cells either side may be empty, and the
 * blocks before fit before t - 1 and those after from t + c + 1.
 */
#include "core.h"

typedef struct {
    Py_ssize_t n, k;
    long *size;              /* each block's length */
    Py_ssize_t *filled_upto; /* filled cells among the first i */
    Py_ssize_t *empty_upto;  /* empty cells among the first i */
    char *before, *after;    /* (k + 1) x (n + 1) tables, row j at j * (n + 1) */
} Starts;

#define CELL_FILLED(s, i) ((s)->filled_upto[(i) + 1] - (s)->filled_upto[i])
#define NONE_FILLED(s, a, b) ((s)->filled_upto[b] == (s)->filled_upto[a]) /* cells a..b-1 */
#define NONE_EMPTY(s, a, b) ((s)->empty_upto[b] == (s)->empty_upto[a])
#define BEFORE(s, j, i) ((s)->before[(j) * ((s)->n + 1) + (i)])
#define AFTER(s, j, i) ((s)->after[(j) * ((s)->n + 1) + (i)])

/* A block of c cells may fill cells t..t+c-1: they are in the line, and none is known empty. */
static int fits_at(const Starts *s, Py_ssize_t t, long c)
{
    return t >= 0 && t + c <= s->n && NONE_EMPTY(s, t, t + c);
}

static void fill_tables(Starts *s)
{
    Py_ssize_t n = s->n, k = s->k;
    for (Py_ssize_t i = 0; i <= n; i++) {
        BEFORE(s, 0, i) = NONE_FILLED(s, 0, i);
        AFTER(s, k, i) = NONE_FILLED(s, i, n);
    }
    for (Py_ssize_t j = 1; j <= k; j++) { /* blocks 0..j-1 in the first i cells */
        long c = s->size[j - 1];
        BEFORE(s, j, 0) = 0;
        for (Py_ssize_t i = 1; i <= n; i++) {
            Py_ssize_t t = i - c; /* block j-1 ends at cell i-1 */
            int ends_here = fits_at(s, t, c) && (t == 0 ? j == 1 : !CELL_FILLED(s, t - 1) && BEFORE(s, j - 1, t - 1));
            BEFORE(s, j, i) = ends_here || (!CELL_FILLED(s, i - 1) && BEFORE(s, j, i - 1));
        }
    }
    for (Py_ssize_t j = k - 1; j >= 0; j--) { /* blocks j..k-1 in the cells from i on */
        long c = s->size[j];
        AFTER(s, j, n) = 0;
        for (Py_ssize_t i = n - 1; i >= 0; i--) {
            Py_ssize_t end = i + c; /* block j starts at cell i */
            int starts_here = fits_at(s, i, c) && (end == n ? j == k - 1 : !CELL_FILLED(s, end) && AFTER(s, j + 1, end + 1));
            AFTER(s, j, i) = starts_here || (!CELL_FILLED(s, i) && AFTER(s, j, i + 1));
        }
    }
}

/* The list of cells where block j can start. */
static PyObject *starts_of(const Starts *s, Py_ssize_t j)
{
    PyObject *found = PyList_New(0);
    long c = s->size[j];
    for (Py_ssize_t t = 0; found && t + c <= s->n; t++) {
        if (!fits_at(s, t, c))
            continue;
        int left = t == 0 ? j == 0 : !CELL_FILLED(s, t - 1) && BEFORE(s, j, t - 1);
        int right = t + c == s->n ? j == s->k - 1 : !CELL_FILLED(s, t + c) && AFTER(s, j + 1, t + c + 1);
        if (!left || !right)
            continue;
        PyObject *cell = PyLong_FromSsize_t(t);
        if (!cell || PyList_Append(found, cell) < 0)
            Py_CLEAR(found);
        Py_XDECREF(cell);
    }
    return found;
}

static int read_line(Starts *s, PyObject *clue, PyObject *cells)
{
    PyObject *line = PySequence_Fast(cells, "cells must be a sequence");
    if (!line)
        return -1;
    s->n = PySequence_Fast_GET_SIZE(line);
    s->filled_upto = PyMem_Calloc((size_t)s->n + 1, sizeof *s->filled_upto);
    s->empty_upto = PyMem_Calloc((size_t)s->n + 1, sizeof *s->empty_upto);
    for (Py_ssize_t i = 0; s->filled_upto && s->empty_upto && i < s->n; i++) {
        PyObject *cell = PySequence_Fast_GET_ITEM(line, i);
        s->filled_upto[i + 1] = s->filled_upto[i] + (cell == Py_True);
        s->empty_upto[i + 1] = s->empty_upto[i] + (cell == Py_False);
    }
    Py_DECREF(line);
    PyObject *blocks = PySequence_Fast(clue, "a clue must be a sequence of block lengths");
    if (!blocks)
        return -1;
    s->k = PySequence_Fast_GET_SIZE(blocks);
    s->size = PyMem_Calloc((size_t)s->k + 1, sizeof *s->size);
    for (Py_ssize_t j = 0; s->size && j < s->k; j++) {
        long size = PyLong_AsLong(PySequence_Fast_GET_ITEM(blocks, j));
        if (size < 1 && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a clue's blocks must be positive");
        if (PyErr_Occurred())
            break;
        s->size[j] = size > s->n ? (long)s->n + 1 : size; /* longer than the line either way */
    }
    Py_DECREF(blocks);
    size_t table = ((size_t)s->k + 1) * ((size_t)s->n + 1);
    s->before = PyMem_Malloc(table);
    s->after = PyMem_Malloc(table);
    if (!PyErr_Occurred() && (!s->size || !s->filled_upto || !s->empty_upto || !s->before || !s->after))
        PyErr_NoMemory();
    return PyErr_Occurred() ? -1 : 0;
}

PyObject *py_block_starts(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *clue, *cells, *found = NULL;
    if (!PyArg_ParseTuple(args, "OO:block_starts", &clue, &cells))
        return NULL;
    Starts s;
    memset(&s, 0, sizeof s);
    if (read_line(&s, clue, cells) == 0) {
        fill_tables(&s);
        if (!AFTER(&s, 0, 0)) {
            found = Py_None;
            Py_INCREF(found);
        } else {
            found = PyList_New(s.k);
            for (Py_ssize_t j = 0; found && j < s.k; j++) {
                PyObject *cells_of_j = starts_of(&s, j);
                if (!cells_of_j)
                    Py_CLEAR(found);
                else
                    PyList_SET_ITEM(found, j, cells_of_j);
            }
        }
    }
    PyMem_Free(s.size);
    PyMem_Free(s.filled_upto);
    PyMem_Free(s.empty_upto);
    PyMem_Free(s.before);
    PyMem_Free(s.after);
    return found;
}
