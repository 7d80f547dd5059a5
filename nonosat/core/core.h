/* nonosat._core's shared parts: the types of a line, a board and a grid, and the functions
 * the module's files call across (see module.c for what the module does). One concept a file:
 *
 *   module.c          the Python module: settle, implications, propagate, search, cdcl
 *   arguments.c       reading the module's arguments, giving masks back, hearing Ctrl-C
 *   line_logic.c      one line's deduction, and line logic over a grid (a queue of lines)
 *   colour_logic.c    one line's deduction for any palette and any length (a cell: its colours),
 *   colour_grid.c     and over a grid; colour_search.c a depth-first search on it; colour.h
 *                     what the three share
 *   implications.c    a line's implications, for lines of any length
 *   blocks.c          the block-position encoding of a line, for lines of any length
 *   dfs.c             the depth-first search with line logic and probing at every node
 *   cdcl.h            the conflict-driven search's types, shared by its four files:
 *   cdcl_trail.c      the trail and propagation, cdcl_reasons.c why line logic fixed a cell,
 *   cdcl_learn.c      conflict analysis and the clause database, cdcl_run.c the main loop;
 *   beliefs.c         belief propagation over the lines, where that search turns when stuck
 *   paint_cdcl.h      the same search for any palette and size (a variable a cell and colour),
 *                     in paint_chain.c (a line's automaton), paint_trail.c, paint_learn.c and
 *                     paint_run.c
 *   clue_check.c      a grid checked against its clues, for any palette and size
 */
#ifndef NONOSAT_CORE_H
#define NONOSAT_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
__extension__ typedef unsigned __int128 u128;

/* The module is built twice from these files (pyproject.toml): _core, whose lines have up to
 * 64 cells, each line's cells one 64-bit word, and with CORE_WIDE defined _core_wide,
 * whose lines have up to 126 cells in a 128-bit word (a clue of 126 cells has at most 128
 * automaton states). The narrow one is the faster where both fit. */
#ifdef CORE_WIDE
typedef u128 Cells; /* a line's cells: bit i is cell i */
#define MAX_SIDE 126
#define MODULE_NAME "_core_wide"
#define MODULE_INIT PyInit__core_wide
#define MODULE_DOC "Black-and-white line logic and search for grids of up to 126x126 cells (see module.c)."
#else
typedef u64 Cells;
#define MAX_SIDE 64
#define MODULE_NAME "_core"
#define MODULE_INIT PyInit__core
#define MODULE_DOC "Black-and-white line logic and search for grids of up to 64x64 cells (see module.c)."
#endif
#define MAX_LINES (2 * MAX_SIDE)
#define LINE_WORDS ((MAX_LINES + 63) / 64) /* a set of lines: bit l of word l / 64 */

/* The lowest cell of a nonempty set of cells. */
static inline int first_cell(Cells cells)
{
#ifdef CORE_WIDE
    u64 low = (u64)cells;
    return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((u64)(cells >> 64));
#else
    return __builtin_ctzll(cells);
#endif
}

/* A set of cells folded to 64 bits, for hashing. */
static inline u64 cells_fold(Cells cells)
{
#ifdef CORE_WIDE
    return (u64)cells ^ ((u64)(cells >> 64) * 0x9FB21C651E98DF25u);
#else
    return cells;
#endif
}

/* A line's clue, compiled to its chain automaton: bit p of each mask is state p. */
typedef struct {
    int length;      /* cells in the line */
    int impossible;  /* the clue cannot fit the line at all */
    int wide;        /* more than 64 states: use 128-bit state sets */
    u128 ones;       /* states that read a filled cell (the cells of the blocks) */
    u128 zeros;      /* gap states, which read an empty cell and may repeat */
    u128 accept;     /* states a complete line may end in: the last gap or the last block's end */
} LineClue;

static inline Cells full_mask(int length)
{
    return length >= (int)(8 * sizeof(Cells)) ? ~(Cells)0 : ((Cells)1 << length) - 1;
}

/* Add line l to a set of lines (bit l of lines[l / 64]). */
static inline void mark_line(u64 lines[LINE_WORDS], int line) { lines[line >> 6] |= (u64)1 << (line & 63); }

/* What one line pass concluded, remembered by (line, known cells) as pbnsolve does. */
typedef struct {
    Cells filled, empty;          /* the known cells asked about */
    Cells new_filled, new_empty;  /* the answer */
    int line;                     /* the line's number plus one; 0 marks a free slot */
    int fits;                     /* 0: the known cells admit no completion */
} MemoEntry;

#define MEMO_BITS 14  /* 16,384 entries (640 KB): measured faster than 2^12 or 2^16 */

/* A board: for every line (rows, then columns), the cells known filled and known empty. */
typedef struct {
    Cells filled[MAX_LINES];
    Cells empty[MAX_LINES];
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
    u64 touched[LINE_WORDS];   /* lines the passes changed (bit l of touched[l / 64]); callers reset it */
    MemoEntry *memo;           /* NULL: no memo */
} Grid;

static inline int line_length(const Grid *g, int line) { return line < g->height ? g->width : g->height; }

/* How a search that runs without the GIL hears Ctrl-C and keeps its deadline (arguments.c):
 * lookout_start with the GIL, then lookout_look now and then from the search. */
typedef struct {
    PyObject *clock;        /* time.monotonic */
    double deadline;        /* time.monotonic() at which to stop; 0: never */
    PyThreadState *thread;  /* saved while the search runs without the GIL */
    double each;            /* seconds the deadline comes sooner for each grid kept: what Python then
                             * takes to hand it over (making it a grid, checking it, writing it) */
} Lookout;

/* A grid kept: the deadline comes `each` sooner (a core that finds grids far faster than Python
 * hands them over stopped only at its deadline, with no time left to hand them over). */
static inline void lookout_kept(Lookout *look)
{
    if (look->deadline > 0 && (look->deadline -= look->each) <= 0)
        look->deadline = 1e-9;  /* passed, yet not 0 ("never") */
}

/* One choice of the depth-first search: the board before it, and the value still to try. */
typedef struct {
    Board before;
    int row, column, value;
} Choice;

/* What probing one cell with one value gave, kept while it holds: the lines the probe changed
 * (bit l of lines[l / 64] is line l) and how many cells line logic fixed besides the probed one.
 * The probe from board B ends on B', a fixed point of line logic. When the board has grown to
 * B2 (also a fixed point) and none of the lines that changed since B is one of the probe's lines,
 * every line of B' + B2 reads as it does in B' or as in B2, so B' + B2 is a fixed point too: the
 * probe from B2 ends there, without a contradiction, having fixed as many cells. So the record
 * holds until the board changes on one of its lines (forget() in dfs.c). */
typedef struct {
    u64 lines[LINE_WORDS];
    long long fixed;
} ProbeRecord;

typedef struct {
    Grid *g;
    int max_solutions, found;
    int cells;                   /* height * width: cell r * width + c has records 2n and 2n + 1 */
    int reuse;                   /* 0: probe every cell again at every round (the records unused) */
    ProbeRecord *records;        /* the current board's probes, 2 per cell */
    unsigned char *holds;        /* records[i] holds on the current board */
    ProbeRecord *saved;          /* records and holds at each open choice, levels deep */
    unsigned char *saved_holds;
    int levels;                  /* choices that have room for their records (the rest: none kept) */
    Cells *solutions;            /* the grids found, `height` row masks each */
    Choice *choices;             /* the stack of open choices, one per level */
    long long nodes, node_budget;  /* choices made, and allowed (<= 0: no limit) */
    Lookout look;
    long long next_look;         /* look at signals and the clock when passes reach this */
    volatile const char *stop;   /* nonzero: stop (another thread sets it); may be NULL */
    int stopped;                 /* 1: out of nodes or time, or stopped; -1: a Python exception is set */
} Search;

#define SAVED_BYTES ((size_t)32 << 20)  /* the most the records kept at open choices may take */
#define LOOK_EVERY 2048  /* line passes between looks at Ctrl-C and the clock (~0.1 ms) */

/* line_logic.c */
void compile_clue(LineClue *line, const long *blocks, int count, int length);
int settle_line(const LineClue *line, Cells filled, Cells empty, Cells *out_filled, Cells *out_empty);
void memo_prefetch(Grid *g, int line, Cells filled, Cells empty);
int settle_memo(Grid *g, int line, Cells filled, Cells empty, Cells *out_filled, Cells *out_empty);
void copy_board(const Grid *g, Board *to, const Board *from);
void push(Grid *g, int line);
void enqueue(Grid *g, int line);
int run_queue(Grid *g, Board *b);
int set_cell(Grid *g, Board *b, int row, int column, int filled);

/* dfs.c */
void search_grid(Search *s, Board *root);

/* implications.c */
PyObject *py_implications(PyObject *self, PyObject *args);

/* beliefs.c (grid_beliefs itself: cdcl.h) */
PyObject *py_line_beliefs(PyObject *self, PyObject *args);
PyObject *py_beliefs(PyObject *self, PyObject *args);

/* blocks.c */
PyObject *py_blocks(PyObject *self, PyObject *args);
PyObject *py_blocks_colour(PyObject *self, PyObject *args);

/* starts.c */
PyObject *py_block_starts(PyObject *self, PyObject *args);

/* colour_logic.c, colour_grid.c, colour_search.c */
PyObject *py_settle_colours(PyObject *self, PyObject *args);
PyObject *py_propagate_colours(PyObject *self, PyObject *args);
PyObject *py_search_colours(PyObject *self, PyObject *args);

/* paint_run.c (the conflict-driven search for any palette: paint_cdcl.h) */
PyObject *py_cdcl_colours(PyObject *self, PyObject *args);
PyObject *py_broken_lines(PyObject *self, PyObject *args);

/* bounds.c */
PyObject *py_open_after(PyObject *self, PyObject *args);
PyObject *py_open_after_colours(PyObject *self, PyObject *args);

/* arguments.c */
int read_clue(PyObject *clue, int length, LineClue *line);
int read_grid(Grid *g, PyObject *rows, PyObject *columns);
int read_cells(PyObject *number, int length, Cells *out);
int read_masks(PyObject *list, int count, int length, Cells *out, const char *what);
void merge_views(Grid *g, Board *b);
int read_board(Grid *g, Board *b, PyObject *row_filled, PyObject *row_empty, PyObject *col_filled,
               PyObject *col_empty, int merge);
PyObject *cells_object(Cells cells);
int stop_flag(PyObject *stop, Py_buffer *flag, volatile const char **out);
PyObject *mask_list(const Cells *masks, int count);
PyObject *grid_bytes(const Cells *solutions, int found, int height);
int line_number(PyObject *lines, Py_ssize_t i, int height, int width);
int lookout_start(Lookout *look, double seconds);
int lookout_look(Lookout *look);
void lookout_end(Lookout *look);
Grid *new_grid(PyObject *rows, PyObject *columns, Py_ssize_t extra_queue);
void free_grid(Grid *g);

#endif
