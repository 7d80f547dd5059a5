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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
__extension__ typedef unsigned __int128 u128;

#define MAX_SIDE 64
#define MAX_LINES (2 * MAX_SIDE)

/* ---------------------------------------------------------------- one line ------------------ */

/* A line's clue, compiled to its chain automaton: bit p of each mask is state p. */
typedef struct {
    int length;      /* cells in the line */
    int impossible;  /* the clue cannot fit the line at all */
    int wide;        /* more than 64 states: use 128-bit state sets */
    u128 ones;       /* states that read a filled cell (the cells of the blocks) */
    u128 zeros;      /* gap states, which read an empty cell and may repeat */
    u128 accept;     /* states a complete line may end in: the last gap or the last block's end */
} LineClue;

static u64 full_mask(int length) { return length >= 64 ? ~(u64)0 : ((u64)1 << length) - 1; }

/* Build the automaton of a clue of `count` blocks: Z0, the cells of block 1, Z1, ..., Zk. */
static void compile_clue(LineClue *line, const long *blocks, int count, int length)
{
    long used = count ? count - 1 : 0;  /* the cells the clue needs: blocks and one-cell gaps */
    memset(line, 0, sizeof *line);
    line->length = length;
    for (int j = 0; j < count; j++)
        used += blocks[j];
    if (used > length) {
        line->impossible = 1;
        return;
    }
    int state = 1;  /* state 0 is the leading gap */
    for (int j = 0; j < count; j++) {
        line->ones |= (((u128)1 << blocks[j]) - 1) << state;
        state += (int)blocks[j] + 1;  /* the block's cells, then the gap after it */
    }
    u128 everything = ((u128)1 << state) - 1;  /* state <= 66 */
    u128 last_gap = (u128)1 << (state - 1);
    line->zeros = everything & ~line->ones;
    line->accept = last_gap | (count ? last_gap >> 1 : 0);
    line->wide = state > 64;
}

/* Settle one line with state sets of type T: a forward pass keeps the states reachable after
 * each cell, a backward pass those from which the line can still be completed. A cell must be
 * filled if no surviving state there is a gap state, empty if none is a block state. */
#define DEFINE_SETTLE(NAME, T)                                                                 \
    static int NAME(const LineClue *line, u64 filled, u64 empty, u64 *out_filled,             \
                    u64 *out_empty)                                                           \
    {                                                                                          \
        const T ones = (T)line->ones, zeros = (T)line->zeros, accept = (T)line->accept;        \
        T reached[MAX_SIDE];                                                                   \
        T active = 1; /* before the first cell: in the leading gap */                          \
        const int n = line->length;                                                            \
        for (int i = 0; i < n; i++) {                                                          \
            T is_filled = (T)0 - (T)((filled >> i) & 1); /* all ones if the cell is filled */  \
            T is_empty = (T)0 - (T)((empty >> i) & 1);                                         \
            active = ((active << 1) | (active & zeros)) & ~(zeros & is_filled)                 \
                     & ~(ones & is_empty) & (ones | zeros);                                    \
            if (!active)                                                                       \
                return 0;                                                                      \
            reached[i] = active;                                                               \
        }                                                                                      \
        active &= accept;                                                                      \
        if (!active)                                                                           \
            return 0;                                                                          \
        u64 may_fill = 0, may_empty = 0;                                                       \
        for (int i = n - 1;; i--) {                                                            \
            may_fill |= (u64)((active & ones) != 0) << i;                                      \
            may_empty |= (u64)((active & zeros) != 0) << i;                                    \
            if (i == 0)                                                                        \
                break;                                                                         \
            active = ((active >> 1) | (active & zeros)) & reached[i - 1];                      \
        }                                                                                      \
        *out_filled = full_mask(n) & ~may_empty;                                               \
        *out_empty = full_mask(n) & ~may_fill;                                                 \
        return 1;                                                                              \
    }

DEFINE_SETTLE(settle_narrow, u64)
DEFINE_SETTLE(settle_wide, u128)

/* Every cell the clue decides from the line's known cells: 1 with the masks, 0 if none fits. */
static int settle_line(const LineClue *line, u64 filled, u64 empty, u64 *out_filled, u64 *out_empty)
{
    if (line->impossible || (filled & empty))
        return 0;
    if (line->wide)
        return settle_wide(line, filled, empty, out_filled, out_empty);
    return settle_narrow(line, filled, empty, out_filled, out_empty);
}

/* ---------------------------------------------------------------- a grid's line logic ------- */

/* What one line pass concluded, remembered by (line, known cells) as pbnsolve does. */
typedef struct {
    u64 filled, empty;          /* the known cells asked about */
    u64 new_filled, new_empty;  /* the answer */
    int line;                   /* the line's number plus one; 0 marks a free slot */
    int fits;                   /* 0: the known cells admit no completion */
} MemoEntry;

#define MEMO_BITS 14  /* 16,384 entries (640 KB): measured faster than 2^12 or 2^16 */

/* A board: for every line (rows, then columns), the cells known filled and known empty. */
typedef struct {
    u64 filled[MAX_LINES];
    u64 empty[MAX_LINES];
} Board;

/* A grid's clues, and the queue of lines to pass over. */
typedef struct {
    int height, width, lines;  /* lines = height + width */
    LineClue clue[MAX_LINES];
    int *queue;                /* a ring of line numbers */
    int capacity, head, count;
    char queued[MAX_LINES];    /* the lines waiting in the queue (by the rule of enqueue) */
    long long passes;          /* line passes made */
    long long fixed;           /* cells fixed by line passes */
    MemoEntry *memo;           /* NULL: no memo */
} Grid;

static void copy_board(const Grid *g, Board *to, const Board *from)
{
    memcpy(to->filled, from->filled, (size_t)g->lines * sizeof(u64));
    memcpy(to->empty, from->empty, (size_t)g->lines * sizeof(u64));
}

static int line_length(const Grid *g, int line) { return line < g->height ? g->width : g->height; }

static void push(Grid *g, int line)
{
    g->queue[(g->head + g->count++) % g->capacity] = line;
    g->queued[line] = 1;
}

/* Queue a line unless it is already waiting. */
static void enqueue(Grid *g, int line)
{
    if (!g->queued[line])
        push(g, line);
}

static int settle_cached(Grid *g, int line, u64 filled, u64 empty, u64 *out_filled, u64 *out_empty)
{
    if (!g->memo)
        return settle_line(&g->clue[line], filled, empty, out_filled, out_empty);
    u64 hash = ((filled * 0x9E3779B97F4A7C15u) ^ (empty * 0xC2B2AE3D27D4EB4Fu)) + (u64)line * 0x165667B19E3779F9u;
    MemoEntry *entry = &g->memo[(hash ^ (hash >> 29)) >> (64 - MEMO_BITS)];
    if (entry->line != line + 1 || entry->filled != filled || entry->empty != empty) {
        entry->line = line + 1;
        entry->filled = filled;
        entry->empty = empty;
        entry->fits = settle_line(&g->clue[line], filled, empty, &entry->new_filled, &entry->new_empty);
    }
    *out_filled = entry->new_filled;
    *out_empty = entry->new_empty;
    return entry->fits;
}

/* Pass over the queued lines until none is left, as linesolve.propagate does: take the first
 * line, settle it, and queue the crossing line of every cell it fixed (filled cells first, then
 * empty ones, each by ascending index). Returns -1, or the line found in contradiction (the
 * queue is then emptied and the board half done). */
static int run_queue(Grid *g, Board *b)
{
    while (g->count) {
        int line = g->queue[g->head];
        g->head = (g->head + 1) % g->capacity;
        g->count--;
        g->queued[line] = 0;
        g->passes++;
        u64 filled = b->filled[line], empty = b->empty[line], new_filled, new_empty;
        if (!settle_cached(g, line, filled, empty, &new_filled, &new_empty)) {
            g->head = g->count = 0;  /* empty the queue */
            memset(g->queued, 0, sizeof g->queued);
            return line;
        }
        new_filled &= ~filled;
        new_empty &= ~empty;
        if (!(new_filled | new_empty))
            continue;
        g->fixed += __builtin_popcountll(new_filled | new_empty);
        b->filled[line] = filled | new_filled;
        b->empty[line] = empty | new_empty;
        int is_row = line < g->height;
        int crossing = is_row ? g->height : 0;  /* the first crossing line's number */
        u64 bit = (u64)1 << (is_row ? line : line - g->height);
        for (u64 news = new_filled; news; news &= news - 1) {
            int j = crossing + __builtin_ctzll(news);
            b->filled[j] |= bit;
            enqueue(g, j);
        }
        for (u64 news = new_empty; news; news &= news - 1) {
            int j = crossing + __builtin_ctzll(news);
            b->empty[j] |= bit;
            enqueue(g, j);
        }
    }
    return -1;
}

/* Fix one cell (row, column) to filled or empty, and propagate from its row and column.
 * Returns 1, or 0 on a contradiction. */
static int set_cell(Grid *g, Board *b, int row, int column, int filled)
{
    int col_line = g->height + column;
    u64 *masks = filled ? b->filled : b->empty;
    u64 *others = filled ? b->empty : b->filled;
    if ((others[row] >> column) & 1)
        return 0;
    masks[row] |= (u64)1 << column;
    masks[col_line] |= (u64)1 << row;
    enqueue(g, row);
    enqueue(g, col_line);
    return run_queue(g, b) < 0;
}

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

/* ---------------------------------------------------------------- search() ------------------ */

/* One choice of the depth-first search: the board before it, and the value still to try. */
typedef struct {
    Board before;
    int row, column, value;
} Choice;

typedef struct {
    Grid *g;
    int max_solutions, found;
    u64 *solutions;              /* the grids found, `height` row masks each */
    Choice *choices;             /* the stack of open choices, one per level */
    long long nodes, node_budget;  /* choices made, and allowed (<= 0: no limit) */
    double deadline;             /* time.monotonic() at which to stop; 0: never */
    PyObject *clock;             /* time.monotonic */
    PyThreadState *thread;       /* saved while the search runs without the GIL */
    long long next_look;         /* look at signals and the clock when passes reach this */
    int stopped;                 /* 1: out of nodes or time; -1: a Python exception is set */
} Search;

#define LOOK_EVERY 2048  /* line passes between looks at Ctrl-C and the clock (~0.1 ms) */

/* Every LOOK_EVERY passes, take the GIL back to hear Ctrl-C and read the clock. Returns
 * s->stopped: nonzero when the search must end. */
static int must_stop(Search *s)
{
    if (s->stopped || s->g->passes < s->next_look)
        return s->stopped;
    s->next_look = s->g->passes + LOOK_EVERY;
    PyEval_RestoreThread(s->thread);
    if (PyErr_CheckSignals() < 0)
        s->stopped = -1;
    else if (s->deadline > 0) {
        PyObject *now = PyObject_CallNoArgs(s->clock);
        double seconds = now ? PyFloat_AsDouble(now) : -1.0;
        Py_XDECREF(now);
        if (PyErr_Occurred())
            s->stopped = -1;
        else if (seconds >= s->deadline)
            s->stopped = 1;
    }
    s->thread = PyEval_SaveThread();
    return s->stopped;
}

enum { FAILED, BRANCH, SOLVED };

/* How a run of the search picks its branch: the cell that maximises `score` over the cells
 * fixed by its two guesses, and the value tried first. Restarts take them in turn. */
typedef enum { BALANCED, PRODUCT } Score;      /* the smaller count first, or their product */
typedef enum { FIXES_MORE, FILLED } Order;     /* the guess that fixes more, or filled */
typedef struct {
    Score score;
    Order order;
} Strategy;

static const Strategy strategies[] = {{BALANCED, FIXES_MORE}, {PRODUCT, FILLED}, {BALANCED, FILLED}, {PRODUCT, FIXES_MORE}};
#define FIRST_BUDGET 64  /* dead ends allowed to each run of the first round of restarts */

/* Probe every unknown cell both ways, with line logic after each guess. A cell whose one value
 * leads to a contradiction takes the other one, until no probe fixes anything; a cell with no
 * value left fails the node (FAILED). Otherwise the node branches (BRANCH) on the best cell by
 * the strategy; with no unknown cell left the board is a solution (SOLVED). */
static int probe(Search *s, Board *b, Strategy how, int *row, int *column, int *value)
{
    Grid *g = s->g;
    Board guess[2];
    const u64 full = full_mask(g->width);
    for (;;) {
        int changed = 0;
        long long best = -1;
        for (int r = 0; r < g->height; r++) {
            for (u64 unknown = full & ~(b->filled[r] | b->empty[r]); unknown; unknown &= unknown - 1) {
                int c = __builtin_ctzll(unknown);
                if (((b->filled[r] | b->empty[r]) >> c) & 1)
                    continue;  /* fixed by an earlier probe of this round */
                long long fixed[2];
                int fits[2];
                for (int v = 0; v < 2; v++) {
                    long long before = g->fixed;
                    copy_board(g, &guess[v], b);
                    fits[v] = set_cell(g, &guess[v], r, c, v);
                    fixed[v] = g->fixed - before;
                }
                if (must_stop(s))
                    return FAILED;
                if (!fits[0] && !fits[1])
                    return FAILED;
                if (!fits[0] || !fits[1]) {
                    copy_board(g, b, &guess[fits[1]]);  /* the value that fits */
                    changed = 1;
                    continue;
                }
                long long low = fixed[0] < fixed[1] ? fixed[0] : fixed[1];
                long long score = how.score == BALANCED ? (low << 16) + fixed[0] + fixed[1]
                                                        : (fixed[0] + 1) * (fixed[1] + 1);
                if (score > best) {
                    best = score;
                    *row = r;
                    *column = c;
                    *value = how.order == FILLED || fixed[1] >= fixed[0];
                }
            }
        }
        if (!changed)
            return best < 0 ? SOLVED : BRANCH;
    }
}

static void record_solution(Search *s, const Board *b)
{
    memcpy(s->solutions + (size_t)s->found++ * s->g->height, b->filled, (size_t)s->g->height * sizeof(u64));
}

/* One depth-first search from the root board (at a fixed point of line logic): probing and a
 * choice of one cell, filled or empty, at every node. Returns 1 if it searched the whole tree
 * or found max_solutions solutions, 0 if it met more than `budget` dead ends first (<= 0: no
 * limit), ran out of s->node_budget, or must stop (s->stopped). */
static int run_search(Search *s, const Board *root, Strategy how, long long budget)
{
    Grid *g = s->g;
    Board board, *b = &board;
    int depth = 0;
    long long failures = 0;  /* dead ends met by this run */
    copy_board(g, b, root);
    for (;;) {
        int row = 0, column = 0, value = 0;
        int node = probe(s, b, how, &row, &column, &value);
        if (s->stopped)
            return 0;
        if (node == SOLVED) {
            record_solution(s, b);
            if (s->found >= s->max_solutions)
                return 1;
        } else if (node == BRANCH) {
            if (s->node_budget > 0 && s->nodes >= s->node_budget)
                return 0;
            s->nodes++;
            Choice *choice = &s->choices[depth++];
            copy_board(g, &choice->before, b);
            choice->row = row;
            choice->column = column;
            choice->value = !value;
            if (set_cell(g, b, row, column, value))
                continue;
        }
        /* A dead end (or a solution): the deepest open choice takes its other value. Once a
         * solution is found the run goes on to the end, so no other run finds it again. */
        if (node != SOLVED && budget > 0 && !s->found && ++failures > budget)
            return 0;
        for (;;) {
            if (depth == 0)
                return 1;  /* the whole tree is searched: every solution is found */
            Choice *choice = &s->choices[--depth];
            copy_board(g, b, &choice->before);
            if (set_cell(g, b, choice->row, choice->column, choice->value))
                break;
            if (must_stop(s))
                return 0;
        }
    }
}

/* The search, restarted: a random puzzle with many solutions can hide them all from an early
 * bad choice, and another strategy often finds them at once. Runs take the strategies in turn,
 * with a budget of dead ends that doubles every round, so a puzzle that needs its whole tree
 * searched costs a few times one run. The run that finds a solution has no budget left to
 * meet. Leaves s->stopped 0 if the search is complete. */
static void search_grid(Search *s, Board *root)
{
    Grid *g = s->g;
    for (int line = 0; line < g->lines; line++)
        enqueue(g, line);
    if (run_queue(g, root) >= 0)
        return;  /* no solution at all */
    for (long long budget = FIRST_BUDGET;; budget *= 2)
        for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
            if (run_search(s, root, strategies[i], budget) || s->stopped)
                return;
            if (s->node_budget > 0 && s->nodes >= s->node_budget) {
                s->stopped = 1;  /* out of nodes */
                return;
            }
        }
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
