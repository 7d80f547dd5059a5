/* nonosat._core: what the two files of line logic for any palette share (colour_logic.c, one
 * line's deduction; colour_grid.c, line logic over a grid). */
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

int new_work(Work *w, int longest, int most_blocks);
void free_work(Work *w);
int settle_paint(const PaintClue *clue, u64 *cells, Work *w);
int read_paint_clue(PyObject *sizes, PyObject *colours, int length, int palette, int *pool, PaintClue *clue);
const unsigned char *mask_bytes(PyObject *item, int count, int length, Py_buffer *view);

#endif
