/* nonosat._core: reading the module's Python arguments into clues, grids and boards, and
 * giving masks back (see module.c for what the module does). */
#include "core.h"

/* Read one clue (a sequence of positive block lengths) into its automaton; -1 on error. */
int read_clue(PyObject *clue, int length, LineClue *line)
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
int read_grid(Grid *g, PyObject *rows, PyObject *columns)
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

#ifdef CORE_WIDE
/* A non-negative int of up to 128 bits as Cells, through its bytes (Python's own conversion: a
 * shift and two halves took three objects a mask, most of a call's time at 100x100); -1 with a
 * Python exception when it is negative or wider. */
static int wide_from_int(PyObject *number, Cells *out)
{
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t needed = PyLong_AsNativeBytes(number, out, sizeof *out,
                                             Py_ASNATIVEBYTES_NATIVE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                                 Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (needed < 0)
        return -1;
    if ((size_t)needed > sizeof *out) {
        PyErr_SetString(PyExc_OverflowError, "cells out of range");
        return -1;
    }
    return 0;
#else
    return _PyLong_AsByteArray((PyLongObject *)number, (unsigned char *)out, sizeof *out, PY_LITTLE_ENDIAN, 0);
#endif
}
#endif

/* Read one int of `length` bits into a set of cells; -1 with a TypeError or a ValueError (whose
 * message callers may replace with one that names what the int was). */
int read_cells(PyObject *number, int length, Cells *out)
{
    if (!PyLong_Check(number)) {
        PyErr_SetString(PyExc_TypeError, "cells must be an int");
        return -1;
    }
#ifdef CORE_WIDE
    if (wide_from_int(number, out) < 0)
        *out = 0;  /* the exception is replaced below */
#else
    *out = PyLong_AsUnsignedLongLong(number);
#endif
    if (PyErr_Occurred() || (*out & ~full_mask(length))) {
        PyErr_SetString(PyExc_ValueError, "cells out of range");
        return -1;
    }
    return 0;
}

/* Read a list of `count` masks of `length` cells each; -1 on error. */
int read_masks(PyObject *list, int count, int length, Cells *out, const char *what)
{
    PyObject *seq = PySequence_Fast(list, "masks must be a sequence of ints");
    if (!seq)
        return -1;
    int ok = PySequence_Fast_GET_SIZE(seq) == count;
    for (int i = 0; ok && i < count; i++)
        ok = read_cells(PySequence_Fast_GET_ITEM(seq, i), length, &out[i]) == 0;
    Py_DECREF(seq);
    if (!ok) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be %d ints of %d bits", what, count, length);
    }
    return ok ? 0 : -1;
}

/* Make the row masks and the column masks say the same: a cell is known if either says so. */
void merge_views(Grid *g, Board *b)
{
    for (int r = 0; r < g->height; r++)
        for (int c = 0, col = g->height; c < g->width; c++, col++)
            for (Cells *masks = b->filled; masks; masks = masks == b->filled ? b->empty : NULL)
                if (((masks[r] >> c) | (masks[col] >> r)) & 1) {
                    masks[r] |= (Cells)1 << c;
                    masks[col] |= (Cells)1 << r;
                }
}

/* Read the four lists of masks into a board (merging the rows' and the columns' views if asked);
 * -1 on error, such as a cell both filled and empty. */
int read_board(Grid *g, Board *b, PyObject *row_filled, PyObject *row_empty, PyObject *col_filled,
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

/* A set of cells as an int (bit i is cell i). */
PyObject *cells_object(Cells cells)
{
#ifdef CORE_WIDE
    if (!(cells >> 64))
        return PyLong_FromUnsignedLongLong((u64)cells);
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(&cells, sizeof cells, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)&cells, sizeof cells, PY_LITTLE_ENDIAN, 0);
#endif
#else
    return PyLong_FromUnsignedLongLong(cells);
#endif
}

PyObject *mask_list(const Cells *masks, int count)
{
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        PyObject *mask = cells_object(masks[i]);
        if (!mask) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, mask);
    }
    return list;
}

/* The grids found, packed: each grid's row masks in order, each mask sizeof(Cells) bytes in the
 * machine's order (one bytes object: a count of a million grids hands over in a millisecond,
 * where as Python ints they took a quarter of a second more than Python could use). */
PyObject *grid_bytes(const Cells *solutions, int found, int height)
{
    return PyBytes_FromStringAndSize((const char *)solutions, (Py_ssize_t)found * height * (Py_ssize_t)sizeof(Cells));
}

/* Line i of `lines` (a PySequence_Fast of (is_row, index)) as a line number, rows first, then
 * columns; -1 with a Python exception (a TypeError, or a ValueError for no such line). */
int line_number(PyObject *lines, Py_ssize_t i, int height, int width)
{
    int is_row;
    Py_ssize_t index;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(lines, i), "pn", &is_row, &index))
        return -1;
    if (index < 0 || index >= (is_row ? height : width)) {
        PyErr_Format(PyExc_ValueError, "no %s %zd", is_row ? "row" : "column", index);
        return -1;
    }
    return is_row ? (int)index : height + (int)index;
}

/* With the GIL: find time.monotonic, set the deadline `seconds` from now (<= 0: none), and let
 * go of the GIL for the search. 0, or -1 with a Python exception. */
int lookout_start(Lookout *look, double seconds)
{
    PyObject *time = PyImport_ImportModule("time");
    look->clock = time ? PyObject_GetAttrString(time, "monotonic") : NULL;
    Py_XDECREF(time);
    if (!look->clock)
        return -1;
    if (seconds > 0) {
        PyObject *now = PyObject_CallNoArgs(look->clock);
        look->deadline = now ? PyFloat_AsDouble(now) + seconds : 0;
        Py_XDECREF(now);
        if (PyErr_Occurred())
            return -1;
    }
    look->thread = PyEval_SaveThread();  /* other threads run while the search does */
    return 0;
}

/* From the search: take the GIL for a moment to hear Ctrl-C and read the clock. Returns 0 to go
 * on, 1 when the deadline has passed, -1 when a Python exception is set (KeyboardInterrupt). */
int lookout_look(Lookout *look)
{
    int stop = 0;
    PyEval_RestoreThread(look->thread);
    if (PyErr_CheckSignals() < 0)
        stop = -1;
    else if (look->deadline > 0) {
        PyObject *now = PyObject_CallNoArgs(look->clock);
        double seconds = now ? PyFloat_AsDouble(now) : -1.0;
        Py_XDECREF(now);
        if (PyErr_Occurred())
            stop = -1;
        else if (seconds >= look->deadline)
            stop = 1;
    }
    look->thread = PyEval_SaveThread();
    return stop;
}

/* The search is over: take the GIL back (if it was let go) and drop the clock. */
void lookout_end(Lookout *look)
{
    if (look->thread)
        PyEval_RestoreThread(look->thread);
    look->thread = NULL;
    Py_CLEAR(look->clock);
}

/* The grid and its queue, on the heap (a Grid with its clues is about 8 KB, 16 KB wide). */
Grid *new_grid(PyObject *rows, PyObject *columns, Py_ssize_t extra_queue)
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

void free_grid(Grid *g)
{
    if (g) {
        PyMem_Free(g->queue);
        PyMem_Free(g);
    }
}

/* The stop flag a search takes: the first byte of a writable buffer, or none (Py_None). 0, or
 * -1 with a Python exception; `flag` is to be released (PyBuffer_Release) when it holds one. */
int stop_flag(PyObject *stop, Py_buffer *flag, volatile const char **out)
{
    if (stop == Py_None)
        return 0;
    if (PyObject_GetBuffer(stop, flag, PyBUF_WRITABLE) < 0)
        return -1;
    if (flag->len < 1) {
        PyBuffer_Release(flag);
        flag->obj = NULL;
        PyErr_SetString(PyExc_ValueError, "stop must be a writable buffer of at least one byte");
        return -1;
    }
    *out = flag->buf;
    return 0;
}
