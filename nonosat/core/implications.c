/* nonosat._core: a line's implications, for lines of any length.
 *
 *   implications(clue, length, filled, empty, first, step, max_steps)
 *       -> (clauses, steps), or None when the known cells admit no completion
 *
 * filled and empty are bytes, bit i of byte i // 8 for cell i (int.to_bytes(..., "little")).
 * For every cell the line's clue leaves open, assumed filled and then empty, the cells after it
 * that the assumption decides give the clauses [-a, b] (cell i is the literal first + i*step,
 * negative when empty): see nonosat/solver/encodings/implications.py and encodings/implications.md.
 *
 * The clue's chain automaton (see nonosat/solver/line_logic.py) with state sets of any number of 64-bit words.
 * A first forward pass keeps the states reachable after each cell, a backward pass those some
 * completion passes through (`alive`). An assumption at cell i changes nothing before it: its
 * forward pass starts at i and stops at the first cell where it meets the first pass's set
 * again, since from there on nothing differs; the backward pass then runs from that cell's
 * alive set back to i + 1. So a probe costs the reach of its effect, not the line. `steps`
 * counts the cells so stepped over (times the words of a set); probing stops, with the clauses
 * found so far, once it passes max_steps.
 */
#include "core.h"

#define MAX_LONG_LINE 4096

typedef struct {
    int n, words;
    u64 *ones, *zeros, *valid, *accept;  /* block states, gap states, all, the final ones */
    u64 *reached, *alive, *probe;        /* n sets each: first pass, alive, a probe's pass */
    u64 *active, *start;                 /* one set each; start: before the first cell */
    char *value;                         /* per cell: 0 open, 1 filled, 2 empty */
} Chain;

#define SET(chain, base, i) ((base) + (size_t)(i) * (size_t)(chain)->words)

/* dst = the states after reading a cell of value `v` from src (0: either value). */
static void step_forward(const Chain *ch, u64 *dst, const u64 *src, int v)
{
    u64 carry = 0;
    for (int w = 0; w < ch->words; w++) {
        u64 moved = (src[w] << 1) | carry;
        carry = src[w] >> 63;
        u64 next = (moved | (src[w] & ch->zeros[w])) & ch->valid[w];
        dst[w] = v == 1 ? next & ch->ones[w] : v == 2 ? next & ch->zeros[w] : next;
    }
}

/* dst = the states before a cell, from the states at it, kept where `reached` allows. */
static void step_back(const Chain *ch, u64 *dst, const u64 *src, const u64 *reached)
{
    for (int w = 0; w < ch->words; w++) {
        u64 carry = w + 1 < ch->words ? src[w + 1] << 63 : 0;
        dst[w] = ((src[w] >> 1) | carry | (src[w] & ch->zeros[w])) & reached[w];
    }
}

static int any(const Chain *ch, const u64 *set, const u64 *mask)
{
    for (int w = 0; w < ch->words; w++)
        if (set[w] & (mask ? mask[w] : ~(u64)0))
            return 1;
    return 0;
}

/* The forward pass over the cells from `from` on, into `out`, from the states `start` before
 * cell `from`; returns the cell where it met `reached` again (n if it did not), or -1 if no
 * state is left. */
static int forward(Chain *ch, u64 *out, const u64 *start, int from, int stop_on_meeting, long long *steps)
{
    const u64 *before = start;
    for (int i = from; i < ch->n; i++) {
        u64 *at = SET(ch, out, i);
        step_forward(ch, at, before, ch->value[i]);
        *steps += ch->words;
        if (!any(ch, at, NULL))
            return -1;
        if (stop_on_meeting && i > from && !memcmp(at, SET(ch, ch->reached, i), (size_t)ch->words * sizeof(u64)))
            return i;
        before = at;
    }
    return ch->n;
}

/* Append [-a, b] for `j`, when the probe's alive states at cell j (`active`) decide it and the
 * first pass's do not; -1 on error. */
static int add_clause(const Chain *ch, PyObject *clauses, int j, long long a, long long first, long long step)
{
    int may_fill = any(ch, ch->active, ch->ones), may_empty = any(ch, ch->active, ch->zeros);
    const u64 *alive = SET(ch, ch->alive, j);
    if ((may_fill && may_empty) || !any(ch, alive, ch->ones) || !any(ch, alive, ch->zeros))
        return 0;
    long long b = first + (long long)j * step;
    PyObject *clause = Py_BuildValue("[LL]", -a, may_fill ? b : -b);
    int failed = !clause || PyList_Append(clauses, clause) < 0;
    Py_XDECREF(clause);
    return failed ? -1 : 0;
}

/* The clauses of the literal `a` at cell `cell`, whose forward pass (ch->probe) met the first
 * pass's at cell `met` (n: not at all): the probe's alive sets, from `met` back to cell + 1. */
static int add_clauses(Chain *ch, PyObject *clauses, int cell, int met, long long a, long long first,
                       long long step, long long *steps)
{
    const size_t bytes = (size_t)ch->words * sizeof(u64);
    int j = met;
    if (met == ch->n) {
        j = ch->n - 1;
        memcpy(ch->active, SET(ch, ch->probe, j), bytes);
        for (int w = 0; w < ch->words; w++)
            ch->active[w] &= ch->accept[w];
        if (j > cell && add_clause(ch, clauses, j, a, first, step) < 0)
            return -1;
    } else {
        memcpy(ch->active, SET(ch, ch->alive, met), bytes);
    }
    for (j--; j > cell; j--) {
        step_back(ch, ch->active, ch->active, SET(ch, ch->probe, j));
        *steps += ch->words;
        if (add_clause(ch, clauses, j, a, first, step) < 0)
            return -1;
    }
    return 0;
}

/* Read the clue into the chain's masks (state 0 the leading gap, then each block's cells and the
 * gap after it) and allocate its sets; 0 if the clue cannot fit, -1 on error. */
static int make_chain(Chain *ch, PyObject *clue, int n)
{
    PyObject *seq = PySequence_Fast(clue, "a clue must be a sequence of block lengths");
    if (!seq)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    long long used = k ? k - 1 : 0;
    for (Py_ssize_t j = 0; j < k && used <= n; j++) {
        long size = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        if (size < 1) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a clue's blocks must be positive");
            Py_DECREF(seq);
            return -1;
        }
        used += size;
    }
    if (used > n) {
        Py_DECREF(seq);
        return 0;
    }
    int states = (int)(used - (k ? k - 1 : 0) + k + 1);
    ch->n = n;
    ch->words = (states + 63) / 64;
    size_t w = (size_t)ch->words;
    ch->ones = PyMem_Calloc(w * (6 + 3 * (size_t)n), sizeof(u64));
    ch->value = PyMem_Calloc((size_t)n, 1);
    if (!ch->ones || !ch->value) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    ch->zeros = ch->ones + w;
    ch->valid = ch->zeros + w;
    ch->accept = ch->valid + w;
    ch->active = ch->accept + w;
    ch->start = ch->active + w;
    ch->start[0] = 1;  /* in the leading gap */
    ch->reached = ch->start + w;
    ch->alive = ch->reached + w * (size_t)n;
    ch->probe = ch->alive + w * (size_t)n;
    int state = 1;
    for (Py_ssize_t j = 0; j < k; j++) {
        long size = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        for (long c = 0; c < size; c++, state++)
            ch->ones[state / 64] |= (u64)1 << (state % 64);
        state++;  /* the gap after the block */
    }
    Py_DECREF(seq);
    for (int s = 0; s < states; s++)
        ch->valid[s / 64] |= (u64)1 << (s % 64);
    for (size_t i = 0; i < w; i++)
        ch->zeros[i] = ch->valid[i] & ~ch->ones[i];
    ch->accept[(states - 1) / 64] |= (u64)1 << ((states - 1) % 64);
    if (k)
        ch->accept[(states - 2) / 64] |= (u64)1 << ((states - 2) % 64);
    return 1;
}

PyObject *py_implications(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *clue, *clauses = NULL, *result = NULL;
    int n;
    Py_buffer filled, empty;
    long long first, step, max_steps, steps = 0;
    Chain ch;
    memset(&ch, 0, sizeof ch);
    if (!PyArg_ParseTuple(args, "Oiy*y*LLL:implications", &clue, &n, &filled, &empty, &first, &step, &max_steps))
        return NULL;
    const unsigned char *f = filled.buf, *e = empty.buf;
    if (n < 1 || n > MAX_LONG_LINE || filled.len != (n + 7) / 8 || empty.len != (n + 7) / 8) {
        PyErr_Format(PyExc_ValueError, "a line has 1..%d cells, and a byte per 8 of them in each mask", MAX_LONG_LINE);
        goto done;
    }
    int fits = make_chain(&ch, clue, n);
    if (fits <= 0) {
        result = fits < 0 ? NULL : Py_NewRef(Py_None);
        goto done;
    }
    int clash = ((f[(n - 1) / 8] | e[(n - 1) / 8]) >> ((n - 1) % 8)) >> 1;  /* bits after the line */
    for (int i = 0; i < n; i++) {
        int is_filled = (f[i / 8] >> (i % 8)) & 1, is_empty = (e[i / 8] >> (i % 8)) & 1;
        clash |= is_filled & is_empty;
        ch.value[i] = (char)(is_filled ? 1 : is_empty ? 2 : 0);
    }
    if (clash) {
        PyErr_SetString(PyExc_ValueError, "disjoint masks within the line's cells");
        goto done;
    }
    if (forward(&ch, ch.reached, ch.start, 0, 0, &steps) < 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    u64 *last = SET(&ch, ch.alive, n - 1);
    for (int w = 0; w < ch.words; w++)
        last[w] = SET(&ch, ch.reached, n - 1)[w] & ch.accept[w];
    if (!any(&ch, last, NULL)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    for (int j = n - 1; j > 0; j--)
        step_back(&ch, SET(&ch, ch.alive, j - 1), SET(&ch, ch.alive, j), SET(&ch, ch.reached, j - 1));
    clauses = PyList_New(0);
    for (int i = 0; clauses && i < n && steps <= max_steps; i++) {
        const u64 *alive = SET(&ch, ch.alive, i);
        if (!any(&ch, alive, ch.ones) || !any(&ch, alive, ch.zeros))
            continue;  /* decided by the line alone */
        for (int v = 1; v <= 2; v++) {
            ch.value[i] = (char)v;
            int met = forward(&ch, ch.probe, i ? SET(&ch, ch.reached, i - 1) : ch.start, i, 1, &steps);
            ch.value[i] = 0;
            long long a = v == 1 ? first + (long long)i * step : -(first + (long long)i * step);
            if (met >= 0 && add_clauses(&ch, clauses, i, met, a, first, step, &steps) < 0)
                Py_CLEAR(clauses);
            if (!clauses)
                break;
        }
    }
    if (clauses)
        result = Py_BuildValue("(OL)", clauses, steps);
done:
    Py_XDECREF(clauses);
    PyMem_Free(ch.ones);
    PyMem_Free(ch.value);
    PyBuffer_Release(&filled);
    PyBuffer_Release(&empty);
    return result;
}
