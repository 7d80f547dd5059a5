/* nonosat._core: line logic over a grid for any palette and any size (see colour_logic.c for one
 * line's deduction). The grid is the colours each cell may have, row by row; a queue of lines runs
 * as propagation._propagate_colours does (and in black and white as propagation.propagate), pass
 * for pass, so the passes counted are the same. Without Python's lock while it works: it looks at
 * Ctrl-C and the clock every 64 passes.
 */
#include "colour.h"

void free_paint(Paint *p)
{
    PyMem_Free(p->clue);
    PyMem_Free(p->pool);
    PyMem_Free(p->cells);
    PyMem_Free(p->line);
    PyMem_Free(p->old);
    PyMem_Free(p->queue);
    PyMem_Free(p->queued);
    PyMem_RawFree(p->log_at);
    PyMem_RawFree(p->log_was);
    free_work(&p->w);
}

void paint_push(Paint *p, int line)
{
    p->queue[(p->head + p->count++) % p->capacity] = line;
    p->queued[line] = 1;
}

void paint_enqueue(Paint *p, int line)
{
    if (!p->queued[line])
        paint_push(p, line);
}

/* Set a cell, logging what it was when the search asks for it (log_failed: no room). */
void paint_assign(Paint *p, u64 *cell, u64 value)
{
    if (p->logging) {
        if (p->log_size == p->log_room) {
            size_t room = p->log_room ? 2 * p->log_room : 4096;
            size_t *at = PyMem_RawRealloc(p->log_at, room * sizeof(size_t));
            u64 *was = at ? PyMem_RawRealloc(p->log_was, room * sizeof(u64)) : NULL;
            if (at)
                p->log_at = at;
            if (!was) {
                p->log_failed = 1; /* the search stops: it could not undo this */
                return;
            }
            p->log_was = was;
            p->log_room = room;
        }
        p->log_at[p->log_size] = (size_t)(cell - p->cells);
        p->log_was[p->log_size++] = *cell;
    }
    *cell = value;
}

/* Line logic to a fixed point. Returns the line found in contradiction, -1 for none, -2 when
 * the deadline passed, -3 when a Python exception is set (Ctrl-C), -4 when the undo log could
 * not grow (no memory). */
int paint_run(Paint *p, Lookout *look)
{
    while (p->count) {
        int l = p->queue[p->head];
        p->head = (p->head + 1) % p->capacity;
        p->count--;
        p->queued[l] = 0;
        p->passes++;
        if (!(p->passes % 64)) {
            int stop = lookout_look(look);
            if (stop)
                return stop < 0 ? -3 : -2;
        }
        const PaintClue *clue = &p->clue[l];
        const int n = clue->length, other = l < p->height ? p->height : 0;
        for (int i = 0; i < n; i++)
            p->line[i] = p->old[i] = *line_cell(p, l, i);
        if (!settle_paint(clue, p->line, &p->w))
            return l;
        if (p->palette == 1) { /* as propagation.propagate: the cells filled, then those emptied */
            for (int i = 0; i < n; i++)
                if ((p->old[i] & 1) && !(p->line[i] & 1))
                    paint_enqueue(p, other + i);
            for (int i = 0; i < n; i++)
                if ((p->old[i] & 2) && !(p->line[i] & 2))
                    paint_enqueue(p, other + i);
        }
        for (int i = 0; i < n; i++)
            if (p->line[i] != p->old[i]) {
                paint_assign(p, line_cell(p, l, i), p->line[i]);
                if (p->palette > 1)
                    paint_enqueue(p, other + i);
            }
        if (p->log_failed)
            return -4;
    }
    return -1;
}

/* One colour's masks of the rows (or the columns) as bytes, (length + 7) / 8 a line. */
PyObject *paint_masks(Paint *p, int rows, int colour)
{
    int count = rows ? p->height : p->width, length = rows ? p->width : p->height, size = (length + 7) / 8;
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)count * size);
    if (!bytes)
        return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(bytes);
    memset(out, 0, (size_t)count * (size_t)size);
    for (int l = 0; l < count; l++)
        for (int i = 0; i < length; i++)
            if (!((*line_cell(p, rows ? l : p->height + l, i) >> colour) & 1))
                out[(size_t)l * size + (i >> 3)] |= (unsigned char)(1 << (i & 7));
    return bytes;
}

int read_paint(Paint *p, PyObject *rows, PyObject *row_colours, PyObject *columns, PyObject *column_colours,
                      PyObject *row_not, PyObject *col_not)
{
    Py_ssize_t height = PySequence_Size(rows), width = PySequence_Size(columns);
    Py_ssize_t palette = PySequence_Size(row_not) - 1;
    if (height < 0 || width < 0 || palette < -1)
        return -1;
    if (height < 1 || width < 1 || height > MAX_PAINT_SIDE || width > MAX_PAINT_SIDE) {
        PyErr_Format(PyExc_ValueError, "a grid has 1 to %d cells a side", MAX_PAINT_SIDE);
        return -1;
    }
    if (palette < 1 || palette >= MAX_PAINT_COLOURS || PySequence_Size(col_not) != palette + 1 ||
        PySequence_Size(row_colours) != height || PySequence_Size(column_colours) != width) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "row_not and col_not need the background and 1 to 63 colours; "
                                              "the colours one tuple a line");
        return -1;
    }
    p->height = (int)height;
    p->width = (int)width;
    p->lines = p->height + p->width;
    p->palette = (int)palette;
    size_t blocks = 0;
    int most = 0;
    for (int l = 0; l < p->lines; l++) {
        PyObject *clue = PySequence_GetItem(l < p->height ? rows : columns, l < p->height ? l : l - p->height);
        Py_ssize_t count = clue ? PySequence_Size(clue) : -1;
        Py_XDECREF(clue);
        if (count < 0)
            return -1;
        blocks += (size_t)count;
        most = count > most ? (int)count : most;
    }
    p->clue = PyMem_Calloc((size_t)p->lines, sizeof(PaintClue));
    p->pool = PyMem_Malloc(sizeof(int) * (2 * blocks + 1));
    p->cells = PyMem_Malloc(sizeof(u64) * (size_t)p->height * (size_t)p->width);
    p->line = PyMem_Malloc(sizeof(u64) * MAX_PAINT_SIDE);
    p->old = PyMem_Malloc(sizeof(u64) * MAX_PAINT_SIDE);
    p->queued = PyMem_Calloc((size_t)p->lines, 1);
    if (!p->clue || !p->pool || !p->cells || !p->line || !p->old || !p->queued) {
        PyErr_NoMemory();
        return -1;
    }
    if (new_work(&p->w, p->height > p->width ? p->height : p->width, most) < 0)
        return -1;
    int *pool = p->pool;
    Py_ssize_t left = (Py_ssize_t)blocks; /* the pool's room, in blocks; a line takes `most` at most */
    for (int l = 0; l < p->lines; l++) {
        int is_row = l < p->height, index = is_row ? l : l - p->height;
        PyObject *clue = PySequence_GetItem(is_row ? rows : columns, index);
        PyObject *colours = PySequence_GetItem(is_row ? row_colours : column_colours, index);
        int failed = !clue || !colours ||
                     read_paint_clue(clue, colours, is_row ? p->width : p->height, p->palette, pool,
                                     left < most ? left : most, &p->clue[l]) < 0;
        Py_XDECREF(clue);
        Py_XDECREF(colours);
        if (failed)
            return -1;
        pool += 2 * p->clue[l].count;
        left -= p->clue[l].count;
    }
    u64 all = p->palette + 1 == 64 ? ~(u64)0 : ((u64)1 << (p->palette + 1)) - 1;
    for (size_t i = 0; i < (size_t)p->height * (size_t)p->width; i++)
        p->cells[i] = all;
    for (int side = 0; side < 2; side++) {
        int count = side ? p->width : p->height, length = side ? p->height : p->width, size = (length + 7) / 8;
        for (int c = 0; c <= p->palette; c++) {
            Py_buffer view;
            PyObject *item = PySequence_GetItem(side ? col_not : row_not, c);
            const unsigned char *bytes = item ? mask_bytes(item, count, length, &view) : NULL;
            Py_XDECREF(item);
            if (!bytes)
                return -1;
            for (int l = 0; l < count; l++)
                for (int i = 0; i < length; i++)
                    if ((bytes[(size_t)l * size + (i >> 3)] >> (i & 7)) & 1)
                        *line_cell(p, side ? p->height + l : l, i) &= ~((u64)1 << c);
            PyBuffer_Release(&view);
        }
    }
    return 0;
}

PyObject *py_propagate_colours(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *row_colours, *columns, *column_colours, *row_not, *col_not, *lines, *result = NULL;
    double seconds;
    Paint p = {0};
    Lookout look = {0};
    if (!PyArg_ParseTuple(args, "OOOOOOOd:propagate_colours", &rows, &row_colours, &columns, &column_colours,
                          &row_not, &col_not, &lines, &seconds))
        return NULL;
    PyObject *start = PySequence_Fast(lines, "lines must be a sequence of (is_row, index)");
    if (!start)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(start);
    if (read_paint(&p, rows, row_colours, columns, column_colours, row_not, col_not) < 0)
        goto done;
    p.capacity = p.lines + (int)count + 1;
    p.queue = PyMem_Malloc(sizeof(int) * (size_t)p.capacity);
    if (!p.queue) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        int line = line_number(start, i, p.height, p.width);
        if (line < 0)
            goto done;
        paint_push(&p, line); /* as deque(lines) */
    }
    if (lookout_start(&look, seconds) < 0)
        goto done;
    int bad = paint_run(&p, &look);
    lookout_end(&look);
    if (bad == -3)
        goto done;
    PyObject *bad_line = bad < 0 ? (Py_INCREF(Py_None), Py_None)
                                 : Py_BuildValue("(Oi)", bad < p.height ? Py_True : Py_False,
                                                 bad < p.height ? bad : bad - p.height);
    PyObject *row_masks = PyList_New(p.palette + 1), *col_masks = PyList_New(p.palette + 1);
    for (int c = 0; row_masks && col_masks && c <= p.palette; c++) {
        PyObject *r = paint_masks(&p, 1, c), *k = paint_masks(&p, 0, c);
        if (!r || !k) {
            Py_XDECREF(r);
            Py_XDECREF(k);
            Py_CLEAR(row_masks);
            break;
        }
        PyList_SET_ITEM(row_masks, c, r);
        PyList_SET_ITEM(col_masks, c, k);
    }
    if (bad_line && row_masks && col_masks)
        result = Py_BuildValue("(LNONN)", p.passes, bad_line, bad == -2 ? Py_True : Py_False, row_masks, col_masks);
    else {
        Py_XDECREF(bad_line);
        Py_XDECREF(row_masks);
        Py_XDECREF(col_masks);
    }
done:
    lookout_end(&look);
    Py_DECREF(start);
    free_paint(&p);
    return result;
}
