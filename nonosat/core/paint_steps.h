/* nonosat._core: the steps of a line's automaton (paint_cdcl.h's Chain) over state sets of W
 * words, forward (reading a cell) and back, for one colour or for a cell's set of colours left,
 * shared by paint_chain.c (line logic) and paint_reasons.c (explanations). Inline, so that the
 * callers' copies for W = 1 and W = 2 are compiled for those widths. */
#ifndef NONOSAT_CORE_PAINT_STEPS_H
#define NONOSAT_CORE_PAINT_STEPS_H

#include "paint_cdcl.h"

#define INLINE static inline __attribute__((always_inline))

INLINE void step_masks(u64 *out, const u64 *x, const u64 *stay, const u64 *one, const u64 *two, int W)
{
    u64 carry1 = 0, carry2 = 0;
    for (int w = 0; w < W; w++) {
        u64 a = x[w] & one[w], b = x[w] & two[w];
        out[w] |= (x[w] & stay[w]) | (a << 1) | carry1 | (b << 2) | carry2;
        carry1 = a >> 63;
        carry2 = b >> 62;
    }
}

INLINE void back_masks(u64 *out, const u64 *y, const u64 *stay, const u64 *one, const u64 *two, int W)
{
    for (int w = 0; w < W; w++) {
        u64 next = w + 1 < W ? y[w + 1] : 0;
        u64 by1 = (y[w] >> 1) | (next << 63), by2 = (y[w] >> 2) | (next << 62);
        out[w] |= (y[w] & stay[w]) | (by1 & one[w]) | (by2 & two[w]);
    }
}

/* out |= the states x steps to on colour[k] (step_into), or back from (back_into). */
INLINE void step_into(u64 *out, const u64 *x, const Chain *ch, int k, int W)
{
    size_t at = (size_t)k * W;
    step_masks(out, x, ch->stay + at, ch->one + at, ch->two + at, W);
}

INLINE void back_into(u64 *out, const u64 *y, const Chain *ch, int k, int W)
{
    size_t at = (size_t)k * W;
    back_masks(out, y, ch->stay + at, ch->one + at, ch->two + at, W);
}

/* The set (bit k: colour[k]) of the chain's colours in a cell's colours left. */
INLINE int set_of(const Chain *ch, u64 cell)
{
    u64 mine = cell & ch->named;
    if (ch->named == ((u64)1 << ch->colours) - 1)
        return (int)mine; /* the colours are 0 .. colours - 1 */
    int set = 0;
    for (int k = 0; k < ch->colours; k++)
        set |= (int)((mine >> ch->colour[k]) & 1) << k;
    return set;
}

/* out |= the states x steps to on any colour the cell may have (step_cell), or back from. */
INLINE void step_cell(u64 *out, const u64 *x, const Chain *ch, u64 cell, int W)
{
    if (ch->sets) {
        const u64 *masks = ch->set_masks + (size_t)set_of(ch, cell) * 3 * W;
        step_masks(out, x, masks, masks + W, masks + 2 * W, W);
        return;
    }
    for (int k = 0; k < ch->colours; k++)
        if ((cell >> ch->colour[k]) & 1)
            step_into(out, x, ch, k, W);
}

INLINE void back_cell(u64 *out, const u64 *y, const Chain *ch, u64 cell, int W)
{
    if (ch->sets) {
        const u64 *masks = ch->set_masks + (size_t)set_of(ch, cell) * 3 * W;
        back_masks(out, y, masks, masks + W, masks + 2 * W, W);
        return;
    }
    for (int k = 0; k < ch->colours; k++)
        if ((cell >> ch->colour[k]) & 1)
            back_into(out, y, ch, k, W);
}

INLINE int meets(const u64 *a, const u64 *b, int W)
{
    for (int w = 0; w < W; w++)
        if (a[w] & b[w])
            return 1;
    return 0;
}

INLINE int same_set(const u64 *a, const u64 *b, int W)
{
    for (int w = 0; w < W; w++)
        if (a[w] != b[w])
            return 0;
    return 1;
}

/* reach[0..upto] from the start through the cells' colours left, dom[]. */
INLINE void forward_in(const Chain *ch, const u64 *dom, u64 *reach, int upto, const int W)
{
    memset(reach, 0, (size_t)(upto + 1) * W * sizeof(u64));
    reach[0] = 1;
    for (int j = 0; j < upto; j++)
        step_cell(reach + (size_t)(j + 1) * W, reach + (size_t)j * W, ch, dom[j], W);
}

/* alive[from..n] back from the end through dom[]. */
INLINE void backward_in(const Chain *ch, const u64 *dom, u64 *alive, int from, int n, const int W)
{
    memset(alive + (size_t)from * W, 0, (size_t)(n - from + 1) * W * sizeof(u64));
    memcpy(alive + (size_t)n * W, ch->accept, W * sizeof(u64));
    for (int j = n - 1; j >= from; j--)
        back_cell(alive + (size_t)j * W, alive + (size_t)(j + 1) * W, ch, dom[j], W);
}

#endif
