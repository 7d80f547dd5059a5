/* nonosat._core: the block-position encoding of one line, for lines of any length, clause for
 * clause as nonosat/solver/encodings/blocks.py writes it (and encodings/blocks.md specifies it):
 * the SAT engine builds its formula here, where the Python encoder took most of a small puzzle's
 * time.
 *
 *   blocks(clue, starts, cells, bases) -> clauses                              black and white
 *   blocks_colour(clue, colours, starts, choices, bases, solid) -> clauses     colour
 *
 * starts[j] lists the cells where block j can start (ascending, as line logic left them);
 * cells[i] is cell i's literal, or True / False when it is known; bases[j] is the variable of
 * "block j starts at cell low + 1 or later" (low = starts[j][0]), the next cells' following it.
 * A literal known true is TRUE here and one known false 0; a clause with TRUE in it is dropped,
 * its 0s are left out.
 */
#include "core.h"

#define TRUE_LIT (1LL << 62)
#define MAX_COLOURS_LITS 64 /* the longest clause: a cell's literals, one per colour */

typedef struct {
    int low, high, size, colour;
    long long base;
    char *feasible; /* per cell: a start of this block */
} Block;

typedef struct {
    int n, k;
    Block *blocks;
    long long *unknown, *uncell; /* per cell: its literal if open (else TRUE); its negation (0: filled, TRUE: empty) */
    int palette;                 /* colour: the colours besides the background */
    long long *choice;           /* colour: cell i has colour c (1..palette) is choice[i * palette + c - 1] */
    char *solid;                 /* colour: per cell, 1 if it cannot be blank */
} Encoding;

#define NEG(lit) ((lit) == TRUE_LIT ? 0 : (lit) == 0 ? TRUE_LIT : -(lit))

/* "block j starts at cell t or later", and its negation. */
static long long at(const Encoding *e, int j, int t)
{
    const Block *b = &e->blocks[j];
    return t <= b->low ? TRUE_LIT : t <= b->high ? b->base + (t - b->low - 1) : 0;
}

static long long off(const Encoding *e, int j, int t)
{
    const Block *b = &e->blocks[j];
    return t <= b->low ? 0 : t <= b->high ? -(b->base + (t - b->low - 1)) : TRUE_LIT;
}

/* Append the clause unless a literal in it is true, without its false ones; -1 on error. */
static int emit(PyObject *clauses, const long long *lits, int count)
{
    long long kept[MAX_COLOURS_LITS];
    int m = 0;
    for (int i = 0; i < count; i++) {
        if (lits[i] == TRUE_LIT)
            return 0;
        if (lits[i])
            kept[m++] = lits[i];
    }
    PyObject *clause = PyList_New(m);
    if (!clause)
        return -1;
    for (int i = 0; i < m; i++) {
        PyObject *literal = PyLong_FromLongLong(kept[i]);
        if (!literal) {
            Py_DECREF(clause);
            return -1;
        }
        PyList_SET_ITEM(clause, i, literal);
    }
    int failed = PyList_Append(clauses, clause) < 0;
    Py_DECREF(clause);
    return failed ? -1 : 0;
}

#define EMIT(...)                                                                                  \
    do {                                                                                           \
        long long lits_[] = {__VA_ARGS__};                                                         \
        if (emit(clauses, lits_, (int)(sizeof lits_ / sizeof lits_[0])) < 0)                       \
            return -1;                                                                             \
    } while (0)

/* The clauses, in blocks.py's order: per block (O), (H), (G); then (E); then per block (V), (R). */
static int write_clauses(const Encoding *e, PyObject *clauses)
{
    int n = e->n, k = e->k;
    for (int j = 0; j < k; j++) {
        const Block *b = &e->blocks[j];
        for (int t = b->low + 1; t <= b->high; t++) {
            if (t + 1 <= b->high)
                EMIT(off(e, j, t + 1), at(e, j, t));                  /* (O) order */
            if (!b->feasible[t])
                EMIT(off(e, j, t), at(e, j, t + 1));                  /* (H) never exactly t */
            if (j + 1 < k)
                EMIT(off(e, j, t), at(e, j + 1, t + b->size + 1));    /* (G) the gap after block j */
        }
    }
    for (int i = 0; i < n; i++)                                       /* (E) before the first block */
        if (e->uncell[i] != TRUE_LIT)
            EMIT(k ? off(e, 0, i + 1) : 0, e->uncell[i]);
    for (int j = 0; j < k; j++) {
        const Block *b = &e->blocks[j];
        int last = j == k - 1, size = b->size;
        int stop = b->high + size < n ? b->high + size : n;
        for (int i = b->low; i < stop; i++)                           /* (V) block j covering cell i fills it */
            EMIT(off(e, j, i - size + 1), at(e, j, i + 1), e->unknown[i]);
        int end = last ? n : (e->blocks[j + 1].high < n ? e->blocks[j + 1].high : n);
        for (int i = b->low + size; i < end; i++)                     /* (R) the last block to start reaches i */
            EMIT(at(e, j, i + 1), last ? 0 : off(e, j + 1, i + 1), e->uncell[i], at(e, j, i - size + 1));
    }
    return 0;
}

/* A colour line's clauses, in blocks.py's encode_colours order: per block (O), (H), (G); per
 * cell (E) and (F); per block (V) and (R). */
static int write_colour_clauses(const Encoding *e, PyObject *clauses)
{
    int n = e->n, k = e->k, palette = e->palette;
    for (int j = 0; j < k; j++) {
        const Block *b = &e->blocks[j];
        int gap = b->size + (j + 1 < k && e->blocks[j + 1].colour == b->colour);
        for (int t = b->low + 1; t <= b->high; t++) {
            EMIT(off(e, j, t + 1), at(e, j, t));                       /* (O) */
            if (!b->feasible[t])
                EMIT(off(e, j, t), at(e, j, t + 1));                   /* (H) */
            if (j + 1 < k)
                EMIT(off(e, j, t), at(e, j + 1, t + gap));             /* (G) */
        }
    }
    for (int i = 0; i < n; i++) {
        const long long *cell = e->choice + (size_t)i * palette;
        long long not_before = k ? off(e, 0, i + 1) : 0;
        for (int c = 0; c < palette; c++)
            EMIT(not_before, NEG(cell[c]));                            /* (E) */
        if (e->solid[i] && emit(clauses, cell, palette) < 0)         /* (F) */
            return -1;
    }
    for (int j = 0; j < k; j++) {
        const Block *b = &e->blocks[j];
        int size = b->size, end = j + 1 == k ? n : (e->blocks[j + 1].high < n ? e->blocks[j + 1].high : n);
        int stop = b->high + size > end ? b->high + size : end;
        stop = stop < n ? stop : n;
        for (int i = b->low; i < stop; i++) {
            const long long *cell = e->choice + (size_t)i * palette;
            long long not_later = j + 1 < k ? off(e, j + 1, i + 1) : 0;
            EMIT(off(e, j, i - size + 1), at(e, j, i + 1), cell[b->colour - 1]); /* (V) */
            for (int c = 1; c <= palette; c++) {                      /* (R) */
                if (c == b->colour)
                    EMIT(at(e, j, i + 1), not_later, NEG(cell[c - 1]), at(e, j, i - size + 1));
                else
                    EMIT(at(e, j, i + 1), not_later, NEG(cell[c - 1]));
            }
        }
    }
    return 0;
}

/* A literal from Python: True and False as TRUE_LIT and 0; -1 with a Python exception is left
 * to PyErr_Occurred. */
static long long read_literal(PyObject *item)
{
    return item == Py_True ? TRUE_LIT : item == Py_False ? 0 : PyLong_AsLongLong(item);
}

/* Read the arguments into `e` (its arrays on the heap); -1 with a Python exception. */
static int read_encoding(Encoding *e, PyObject *clue, PyObject *starts, PyObject *cells, PyObject *bases,
                         Py_ssize_t n)
{
    Py_ssize_t k = PySequence_Size(clue);
    if (n < 0 || k < 0 || PySequence_Size(starts) != k || PySequence_Size(bases) != k) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "clue, starts and bases must be as long as each other");
        return -1;
    }
    e->n = (int)n;
    e->k = (int)k;
    e->unknown = PyMem_Calloc((size_t)n + 1, sizeof(long long));
    e->uncell = PyMem_Calloc((size_t)n + 1, sizeof(long long));
    e->blocks = PyMem_Calloc((size_t)k + 1, sizeof(Block));
    if (!e->unknown || !e->uncell || !e->blocks) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; cells && i < n; i++) { /* colour (no cells): read_colours reads them */
        PyObject *cell = PySequence_GetItem(cells, i);
        if (!cell)
            return -1;
        long long literal = (cell == Py_True || cell == Py_False) ? 0 : PyLong_AsLongLong(cell);
        e->unknown[i] = cell == Py_True || cell == Py_False ? TRUE_LIT : literal;
        e->uncell[i] = cell == Py_True ? 0 : cell == Py_False ? TRUE_LIT : -literal;
        Py_DECREF(cell);
        if (PyErr_Occurred())
            return -1;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        Block *b = &e->blocks[j];
        PyObject *size = PySequence_GetItem(clue, j), *base = PySequence_GetItem(bases, j);
        PyObject *where = PySequence_GetItem(starts, j);
        b->size = size ? (int)PyLong_AsLong(size) : 0;
        b->base = base ? PyLong_AsLongLong(base) : 0;
        Py_XDECREF(size);
        Py_XDECREF(base);
        Py_ssize_t count = where ? PySequence_Size(where) : -1;
        b->feasible = PyMem_Calloc((size_t)n + 2, 1);
        if (!b->feasible || count < 1) {
            Py_XDECREF(where);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "every block needs at least one start");
            return -1;
        }
        for (Py_ssize_t s = 0; s < count; s++) {
            PyObject *item = PySequence_GetItem(where, s);
            long t = item ? PyLong_AsLong(item) : -1;
            Py_XDECREF(item);
            if (t < 0 || t >= n) {
                Py_DECREF(where);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a start must be a cell of the line");
                return -1;
            }
            b->feasible[t] = 1;
            if (s == 0)
                b->low = (int)t;
            b->high = (int)t;
        }
        Py_DECREF(where);
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* Read a colour line's block colours, its cells' literals and which cells cannot be blank. */
static int read_colours(Encoding *e, PyObject *colours, PyObject *choices, PyObject *solid)
{
    int n = e->n, k = e->k;
    if (PySequence_Size(colours) != k || PySequence_Size(choices) != n || PySequence_Size(solid) != n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "colours must be as long as the clue, choices and solid as the line");
        return -1;
    }
    PyObject *first = n ? PySequence_GetItem(choices, 0) : NULL;
    e->palette = first ? (int)PySequence_Size(first) : 1;
    Py_XDECREF(first);
    if (e->palette < 1 || e->palette > MAX_COLOURS_LITS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a cell has one literal for each of 1 to 64 colours");
        return -1;
    }
    e->choice = PyMem_Calloc((size_t)n * (size_t)e->palette + 1, sizeof(long long));
    e->solid = PyMem_Calloc((size_t)n + 1, 1);
    if (!e->choice || !e->solid) {
        PyErr_NoMemory();
        return -1;
    }
    for (int j = 0; j < k; j++) {
        PyObject *colour = PySequence_GetItem(colours, j);
        long value = colour ? PyLong_AsLong(colour) : -1;
        Py_XDECREF(colour);
        if (value < 1 || value > e->palette) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a block's colour must be one of the cells' colours");
            return -1;
        }
        e->blocks[j].colour = (int)value;
    }
    for (int i = 0; i < n; i++) {
        PyObject *cell = PySequence_GetItem(choices, i), *flag = PySequence_GetItem(solid, i);
        PyObject *literals = cell ? PySequence_Fast(cell, "a cell's choices must be a sequence") : NULL;
        int truth = flag ? PyObject_IsTrue(flag) : -1;
        Py_XDECREF(cell);
        Py_XDECREF(flag);
        if (!literals || truth < 0 || PySequence_Fast_GET_SIZE(literals) != e->palette) {
            Py_XDECREF(literals);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "every cell needs one literal a colour");
            return -1;
        }
        for (int c = 0; c < e->palette; c++)
            e->choice[(size_t)i * e->palette + c] = read_literal(PySequence_Fast_GET_ITEM(literals, c));
        Py_DECREF(literals);
        e->solid[i] = (char)truth;
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

static void free_encoding(Encoding *e)
{
    for (int j = 0; e->blocks && j < e->k; j++)
        PyMem_Free(e->blocks[j].feasible);
    PyMem_Free(e->blocks);
    PyMem_Free(e->unknown);
    PyMem_Free(e->uncell);
    PyMem_Free(e->choice);
    PyMem_Free(e->solid);
}

PyObject *py_blocks(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *clue, *starts, *cells, *bases, *clauses = NULL;
    if (!PyArg_ParseTuple(args, "OOOO:blocks", &clue, &starts, &cells, &bases))
        return NULL;
    Encoding e;
    memset(&e, 0, sizeof e);
    Py_ssize_t n = PySequence_Size(cells);
    if (n >= 0 && read_encoding(&e, clue, starts, cells, bases, n) == 0) {
        clauses = PyList_New(0);
        if (clauses && write_clauses(&e, clauses) < 0)
            Py_CLEAR(clauses);
    }
    free_encoding(&e);
    return clauses;
}

PyObject *py_blocks_colour(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *clue, *colours, *starts, *choices, *bases, *solid, *clauses = NULL;
    if (!PyArg_ParseTuple(args, "OOOOOO:blocks_colour", &clue, &colours, &starts, &choices, &bases, &solid))
        return NULL;
    Encoding e;
    memset(&e, 0, sizeof e);
    Py_ssize_t n = PySequence_Size(choices);
    if (n >= 0 && read_encoding(&e, clue, starts, NULL, bases, n) == 0 &&
        read_colours(&e, colours, choices, solid) == 0) {
        clauses = PyList_New(0);
        if (clauses && write_colour_clauses(&e, clauses) < 0)
            Py_CLEAR(clauses);
    }
    free_encoding(&e);
    return clauses;
}
