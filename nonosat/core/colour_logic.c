/* nonosat._core: line logic for any palette and any line length (up to MAX_PAINT_SIDE cells).
 *
 * A cell is the set of colours it may still have (bit 0 the background, bit c colour c), so one
 * 64-bit word holds any palette nonosat reads (MAX_COLOURS is 62). One line's deduction is two
 * passes of dynamic programming over (cell, block), as in pbnsolve's and nonogrid's colour
 * solvers: P[j][i] says the first i cells can hold exactly blocks 0..j-1, S[j][i] that cells
 * i..n-1 can hold exactly blocks j..k-1; the "bg" forms add that the cell next to the cut is
 * background (two blocks of one colour need a gap between them, of different colours they may
 * touch). A cell may be background if some j has P[j][x] and S[j][x+1]; block j may cover it if
 * some start of block j around it fits with P before and S after. The same deduction as
 * nonosat/solver/line_logic.py (settle_colour_line, and settle_line in black and white): tests
 * compare the two, and both against every completion of short lines (tests/test_colour_logic.py).
 * colour_grid.c runs it over a grid.
 */
#include "colour.h"

void free_work(Work *w)
{
    PyMem_Free(w->P);
    PyMem_Free(w->Pbg);
    PyMem_Free(w->S);
    PyMem_Free(w->Sbg);
    PyMem_Free(w->bad);
    PyMem_Free(w->lo);
    PyMem_Free(w->hi);
    PyMem_Free(w->start);
    PyMem_Free(w->slot);
    PyMem_Free(w->at);
    PyMem_Free(w->cells);
    memset(w, 0, sizeof *w);
}

int new_work(Work *w, int longest, int most_blocks)
{
    size_t table = (size_t)(most_blocks + 1) * (size_t)(longest + 2), cuts = (size_t)longest + 2;
    memset(w, 0, sizeof *w);
    w->longest = longest;
    w->most_blocks = most_blocks;
    w->P = PyMem_Malloc(table);
    w->Pbg = PyMem_Malloc(table);
    w->S = PyMem_Malloc(table);
    w->Sbg = PyMem_Malloc(table);
    w->bad = PyMem_Malloc(sizeof(int) * MAX_PAINT_COLOURS * (size_t)(longest + 1));
    w->lo = PyMem_Malloc(sizeof(int) * cuts);
    w->hi = PyMem_Malloc(sizeof(int) * cuts);
    w->start = PyMem_Malloc(sizeof(int) * cuts);
    w->slot = PyMem_Malloc(sizeof(int) * cuts);
    w->at = PyMem_Malloc(sizeof(size_t) * cuts);
    w->cells = PyMem_Malloc(sizeof(u64) * (size_t)(longest + 1));
    if (!w->P || !w->Pbg || !w->S || !w->Sbg || !w->bad || !w->lo || !w->hi || !w->start || !w->slot || !w->at || !w->cells) {
        free_work(w);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Narrow a line's cells (cells[i]: the colours cell i may have) to what its clue allows.
 * Returns 0 when no completion fits (the cells are then left as they were).
 *
 * Cut j (0..k) is the point between block j-1 and block j; in any completion it lies in the
 * band lo[j]..hi[j]: at least the cells blocks 0..j-1 need, at most block j's latest start (the
 * line's end for the last cut). The tables hold only the bands (O(k * slack) a pass, slack the
 * cells the clue leaves free), read as 0 outside them: a prefix that ends outside its band has
 * no completion, so nothing the deduction uses changes. */
int settle_paint(const PaintClue *clue, u64 *cells, Work *w)
{
    const int n = clue->length, k = clue->count;
    const int *size = clue->size, *colour = clue->colour;
    int slot_of[MAX_PAINT_COLOURS], slots = 0;
    int *lo = w->lo, *hi = w->hi, *start = w->start, *slot = w->slot;
    size_t *at = w->at;
    if (k > n)
        return 0; /* every block takes a cell */
    int need = 0;
    for (int j = 0; j < k; j++) {
        lo[j] = need;
        start[j] = need + (j > 0 && colour[j - 1] == colour[j]); /* block j's earliest start */
        need = start[j] + size[j];
        if (need > n)
            return 0;
    }
    lo[k] = need;
    const int slack = n - need;
    size_t cells_in_bands = 0;
    for (int j = 0; j <= k; j++) {
        hi[j] = j == k ? n : start[j] + slack;
        at[j] = cells_in_bands - (size_t)lo[j]; /* table[at[j] + i] is cut j at cell i */
        cells_in_bands += (size_t)(hi[j] - lo[j] + 1);
    }
    unsigned char *P = w->P, *Pbg = w->Pbg, *S = w->S, *Sbg = w->Sbg;
    memset(P, 0, cells_in_bands);
    memset(Pbg, 0, cells_in_bands);
    memset(S, 0, cells_in_bands);
    memset(Sbg, 0, cells_in_bands);
    for (int c = 0; c < MAX_PAINT_COLOURS; c++)
        slot_of[c] = -1;
    for (int j = 0; j < k; j++) {
        if (slot_of[colour[j]] < 0) {
            int *bad = w->bad + (size_t)slots * (size_t)(n + 1), c = colour[j];
            bad[0] = 0;
            for (int i = 0; i < n; i++)
                bad[i + 1] = bad[i] + !((cells[i] >> c) & 1);
            slot_of[c] = slots++;
        }
        slot[j] = slot_of[colour[j]];
    }
#define RUN_FITS(j, from, to) \
    (w->bad[(size_t)slot[j] * (size_t)(n + 1) + (to)] == w->bad[(size_t)slot[j] * (size_t)(n + 1) + (from)])
#define BG(i) ((int)(cells[i] & 1))
#define IN(j, i) ((i) >= lo[j] && (i) <= hi[j])
#define AT(T, j, i) (IN(j, i) ? T[at[j] + (size_t)(i)] : 0)
#define SEPARATE(a, b) (colour[a] == colour[b]) /* blocks a and b need a gap between them */
    /* Forward: P[j][i], cells 0..i-1 hold blocks 0..j-1; Pbg[j][i], and cell i-1 is background. */
    for (int j = 0; j <= k; j++)
        for (int i = lo[j]; i <= hi[j]; i++) {
            int bg = i == 0 ? j == 0 : BG(i - 1) && AT(P, j, i - 1);
            int fits = bg;
            if (!fits && j > 0) {
                int from = i - size[j - 1];
                if (from >= 0 && RUN_FITS(j - 1, from, i))
                    fits = j >= 2 && SEPARATE(j - 2, j - 1) ? AT(Pbg, j - 1, from) : AT(P, j - 1, from);
            }
            Pbg[at[j] + (size_t)i] = (unsigned char)bg;
            P[at[j] + (size_t)i] = (unsigned char)fits;
        }
    if (!AT(P, k, n))
        return 0;
    /* Backward: S[j][i], cells i..n-1 hold blocks j..k-1; Sbg[j][i], and cell i is background. */
    for (int j = k; j >= 0; j--)
        for (int i = hi[j]; i >= lo[j]; i--) {
            int bg = i == n ? j == k : BG(i) && AT(S, j, i + 1);
            int fits = bg;
            if (!fits && j < k) {
                int to = i + size[j];
                if (to <= n && RUN_FITS(j, i, to))
                    fits = j + 1 < k && SEPARATE(j, j + 1) ? AT(Sbg, j + 1, to) : AT(S, j + 1, to);
            }
            Sbg[at[j] + (size_t)i] = (unsigned char)bg;
            S[at[j] + (size_t)i] = (unsigned char)fits;
        }
    u64 *now = w->cells;
    memset(now, 0, sizeof(u64) * (size_t)n);
    for (int j = 0; j <= k; j++) /* cell x may be background between blocks j-1 and j */
        for (int x = lo[j]; x < hi[j] && x < n; x++)
            if (BG(x) && P[at[j] + (size_t)x] && S[at[j] + (size_t)x + 1])
                now[x] = 1;
    for (int j = 0; j < k; j++) { /* block j at each start that fits with what is around it */
        u64 bit = (u64)1 << colour[j];
        int marked = 0, any = 0; /* cells before `marked` already have the bit */
        for (int from = start[j]; from <= hi[j]; from++) {
            int to = from + size[j];
            if (to > n || !RUN_FITS(j, from, to))
                continue;
            int before = j > 0 && SEPARATE(j - 1, j) ? AT(Pbg, j, from) : AT(P, j, from);
            int after = j + 1 < k && SEPARATE(j, j + 1) ? AT(Sbg, j + 1, to) : AT(S, j + 1, to);
            if (!before || !after)
                continue;
            any = 1;
            for (int i = from > marked ? from : marked; i < to; i++)
                now[i] |= bit;
            marked = to > marked ? to : marked;
        }
        if (!any)
            return 0; /* cannot happen when the whole line fits; kept as a guard */
    }
#undef RUN_FITS
#undef BG
#undef IN
#undef AT
#undef SEPARATE
    for (int i = 0; i < n; i++)
        if (!now[i])
            return 0;
    memcpy(cells, now, sizeof(u64) * (size_t)n);
    return 1;
}

/* ------------------------------------------------------------- reading Python's values ----- */

/* Read a clue and its blocks' colours (palette indices 1..colours) into `clue`, its numbers from
 * `pool` (which must have room for the blocks). -1 with a ValueError or TypeError. */
int read_paint_clue(PyObject *sizes, PyObject *colours, int length, int palette, int *pool, Py_ssize_t room,
                    PaintClue *clue)
{
    PyObject *s = PySequence_Fast(sizes, "a clue must be a sequence of block lengths");
    PyObject *c = s ? PySequence_Fast(colours, "a clue's colours must be a sequence") : NULL;
    int failed = -1;
    if (!c)
        goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(s);
    if (count > room) { /* its length said fewer (a __len__ that lies, a list grown meanwhile) */
        PyErr_SetString(PyExc_ValueError, "a clue had more blocks than its length said");
        goto done;
    }
    if (PySequence_Fast_GET_SIZE(c) != count) {
        PyErr_SetString(PyExc_ValueError, "a clue and its colours must be as long");
        goto done;
    }
    clue->length = length;
    clue->count = (int)count;
    clue->size = pool;
    clue->colour = pool + count;
    for (Py_ssize_t j = 0; j < count; j++) {
        long size = PyLong_AsLong(PySequence_Fast_GET_ITEM(s, j));
        long colour = PyLong_AsLong(PySequence_Fast_GET_ITEM(c, j));
        if (PyErr_Occurred())
            goto done;
        if (size < 1 || colour < 1 || colour > palette) {
            PyErr_SetString(PyExc_ValueError, "a block needs a positive length and a colour of the palette");
            goto done;
        }
        clue->size[j] = size > MAX_PAINT_SIDE + 1 ? MAX_PAINT_SIDE + 1 : (int)size; /* too long either way */
        clue->colour[j] = (int)colour;
    }
    failed = 0;
done:
    Py_XDECREF(s);
    Py_XDECREF(c);
    return failed;
}

/* The bytes of one colour's masks: `count` lines of `length` bits, (length + 7) / 8 bytes each. */
const unsigned char *mask_bytes(PyObject *item, int count, int length, Py_buffer *view)
{
    if (PyObject_GetBuffer(item, view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view->len < (Py_ssize_t)count * ((length + 7) / 8)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "a colour's masks are too short for the grid");
        return NULL;
    }
    return view->buf;
}

/* ------------------------------------------------------------- one line, from Python ------- */

PyObject *py_settle_colours(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *sizes, *colours, *excluded, *result = NULL, *seq = NULL;
    int length;
    Work w = {0};
    int *pool = NULL;
    if (!PyArg_ParseTuple(args, "OOiO:settle_colours", &sizes, &colours, &length, &excluded))
        return NULL;
    if (length < 1 || length > MAX_PAINT_SIDE)
        return PyErr_Format(PyExc_ValueError, "a line has 1 to %d cells", MAX_PAINT_SIDE);
    seq = PySequence_Fast(excluded, "excluded must be a sequence of bytes, one per colour");
    if (!seq)
        return NULL;
    int palette = (int)PySequence_Fast_GET_SIZE(seq) - 1;
    Py_ssize_t count = PySequence_Size(sizes);
    if (palette < 1 || palette >= MAX_PAINT_COLOURS || count < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "excluded needs the background and 1 to 63 colours");
        goto done;
    }
    pool = PyMem_Malloc(sizeof(int) * (size_t)(2 * count + 1));
    PaintClue clue;
    if (!pool || read_paint_clue(sizes, colours, length, palette, pool, count, &clue) < 0 ||
        new_work(&w, length, (int)count) < 0)
        goto done;
    u64 cells[MAX_PAINT_SIDE];
    for (int i = 0; i < length; i++)
        cells[i] = palette + 1 == 64 ? ~(u64)0 : ((u64)1 << (palette + 1)) - 1;
    for (int c = 0; c <= palette; c++) {
        Py_buffer view;
        const unsigned char *bytes = mask_bytes(PySequence_Fast_GET_ITEM(seq, c), 1, length, &view);
        if (!bytes)
            goto done;
        for (int i = 0; i < length; i++)
            if ((bytes[i >> 3] >> (i & 7)) & 1)
                cells[i] &= ~((u64)1 << c);
        PyBuffer_Release(&view);
    }
    if (!settle_paint(&clue, cells, &w)) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    result = PyList_New(palette + 1);
    for (int c = 0; result && c <= palette; c++) {
        PyObject *bytes = PyBytes_FromStringAndSize(NULL, (length + 7) / 8);
        if (!bytes) {
            Py_CLEAR(result);
            break;
        }
        unsigned char *out = (unsigned char *)PyBytes_AS_STRING(bytes);
        memset(out, 0, (size_t)(length + 7) / 8);
        for (int i = 0; i < length; i++)
            if (!((cells[i] >> c) & 1))
                out[i >> 3] |= (unsigned char)(1 << (i & 7));
        PyList_SET_ITEM(result, c, bytes);
    }
done:
    Py_XDECREF(seq);
    PyMem_Free(pool);
    free_work(&w);
    return result;
}
