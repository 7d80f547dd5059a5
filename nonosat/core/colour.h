/* nonosat._core: what the files of line logic for any palette share (colour_logic.c, one line's
 * deduction; colour_grid.c, line logic over a grid; colour_search.c, the depth-first search). */
#ifndef NONOSAT_COLOUR_H
#define NONOSAT_COLOUR_H

#include "core.h"

#define MAX_PAINT_SIDE 4096
#define MAX_PAINT_COLOURS 64 /* the background and 63 colours: one bit each */

typedef struct {
    int length, count; /* cells, blocks */
    int *size, *colour;
} PaintClue;

typedef struct {
    int longest, most_blocks;
    unsigned char *P, *Pbg, *S, *Sbg; /* the bands of the cuts: (most_blocks + 1) x (longest + 2) at most */
    int *bad;                         /* per colour slot: cells not allowing it among the first i */
    int *lo, *hi, *start, *slot;      /* per cut or block: longest + 1 */
    size_t *at;
    u64 *cells;                       /* one line's cells, longest */
} Work;

typedef struct {
    int height, width, lines, palette;
    PaintClue *clue; /* rows, then columns */
    int *pool;
    u64 *cells;      /* row-major: the colours each cell may have */
    u64 *line, *old; /* one line's cells during a pass, and before it */
    int *queue;      /* a ring of line numbers */
    char *queued;
    int capacity, head, count;
    long long passes;
    Work w;
    /* The search's undo log (colour_search.c): each cell changed, and what it was; `logging`
     * off, nothing is logged. */
    int logging, log_failed;
    size_t *log_at;
    u64 *log_was;
    size_t log_size, log_room;
} Paint;

/* The cells of line `l` (rows first, then columns) as a stride into the grid. */
static inline u64 *line_cell(Paint *p, int l, int i)
{
    return l < p->height ? &p->cells[(size_t)l * p->width + i] : &p->cells[(size_t)i * p->width + (l - p->height)];
}

int new_work(Work *w, int longest, int most_blocks);
void free_work(Work *w);
int settle_paint(const PaintClue *clue, u64 *cells, Work *w);
int read_paint_clue(PyObject *sizes, PyObject *colours, int length, int palette, int *pool, Py_ssize_t room,
                    PaintClue *clue);
const unsigned char *mask_bytes(PyObject *item, int count, int length, Py_buffer *view);

/* colour_grid.c */
int read_paint(Paint *p, PyObject *rows, PyObject *row_colours, PyObject *columns, PyObject *column_colours,
               PyObject *row_not, PyObject *col_not);
void free_paint(Paint *p);
void paint_push(Paint *p, int line);
void paint_enqueue(Paint *p, int line);
int paint_run(Paint *p, Lookout *look);
void paint_assign(Paint *p, u64 *cell, u64 value);
PyObject *paint_masks(Paint *p, int rows, int colour);

/* colour_search.c */
PyObject *painted_grids(const unsigned char *grids, int found, size_t cells);

#endif
