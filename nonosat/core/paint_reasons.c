/* nonosat._core: why line logic removed a colour from a cell, for the analysis of the
 * conflict-driven search for any palette and size (see paint_cdcl.h; the automaton and its
 * steps: paint_chain.c, paint_steps.h).
 *
 * A removal is explained as black and white's are (cdcl_reasons.c): the line's removals made
 * before it are dropped one at a time, latest first, while the rest still make it (or, for a
 * line in contradiction, still leave it no completion), so that learnt clauses are short and
 * reach back to early levels. Each test walks the automaton only from the dropped removal's
 * cell towards the target, until it meets the state sets it had: from there on nothing changes.
 * Removals at level 0 are facts: they stay, and are not named.
 */
#include "paint_steps.h"

static void forward(const Chain *ch, const u64 *dom, u64 *reach, int upto)
{
    forward_in(ch, dom, reach, upto, ch->words);
}

static void backward(const Chain *ch, const u64 *dom, u64 *alive, int from, int n)
{
    backward_in(ch, dom, alive, from, n, ch->words);
}

static int local_colour(const Chain *ch, int colour)
{
    for (int k = 0; k < ch->colours; k++)
        if (ch->colour[k] == colour)
            return k;
    return -1;
}

/* Whether the domains dom[] leave colour k of cell t no completion (t < 0: leave the line none). */
static int holds(const Chain *ch, const u64 *dom, u64 *reach, u64 *alive, int n, int t, int k)
{
    const int W = ch->words;
    if (t < 0) {
        forward(ch, dom, reach, n);
        return !meets(reach + (size_t)n * W, ch->accept, W);
    }
    forward(ch, dom, reach, t);
    backward(ch, dom, alive, t + 1, n);
    u64 *next = reach + (size_t)(t + 1) * W;
    memset(next, 0, W * sizeof(u64));
    step_into(next, reach + (size_t)t * W, ch, k, W);
    return !meets(next, alive + (size_t)(t + 1) * W, W);
}

static int keep(PaintCdcl *s, int line, int j, int colour, PVec *out)
{
    return pvec_push(out, P_LIT(p_line_cell(s, line, j) * s->colours + colour, 1));
}

/* The removals (false literals "cell j has colour c") that explain the removal of `colour` from
 * cell `index` of the line at trail position `before` (index < 0: the line's contradiction),
 * appended to out (see the top of the file). 0, or -1 when memory ran out. */
INLINE int shrunk_in(PaintCdcl *s, int line, int before, int index, int colour, PVec *out, const int W)
{
    const Chain *ch = &s->chain[line];
    const int n = s->p.clue[line].length, t = index, end = t < 0 ? n : t;
    u64 *reach = s->work, *alive = reach + (size_t)(n + 1) * W, *walk = alive + (size_t)(n + 1) * W;
    u64 *tmp = walk + (size_t)(n + 1) * W, *dom = tmp + 4 * (size_t)W;
    s->explanations++;
    int k = t < 0 ? 0 : local_colour(ch, colour);
    if (k < 0)
        return 0;
    const int *removals = s->line_trail + s->line_base[line];
    int top = s->line_top[line];
    while (top > 0) {
        int r = removals[top - 1];
        if (s->pos[p_line_cell(s, line, r >> 6) * s->colours + (r & 63)] < before)
            break;
        top--;
    }
    /* dom: the colours given, but the removals before `before` */
    for (int j = 0; j < n; j++)
        dom[j] = s->root[p_line_cell(s, line, j)];
    for (int r = 0; r < top; r++)
        dom[removals[r] >> 6] &= ~((u64)1 << (removals[r] & 63));
    forward_in(ch, dom, reach, end, W);
    if (t >= 0)
        backward_in(ch, dom, alive, t + 1, n, W);
    for (int r = top - 1; r >= 0; r--) { /* latest first */
        int j = removals[r] >> 6, c = removals[r] & 63, var = p_line_cell(s, line, j) * s->colours + c;
        if (s->level[var] == 0)
            continue; /* a fact: it stays, and the analysis needs no literal for it */
        int kc = local_colour(ch, c), holds;
        if (kc < 0 || j == t) {
            holds = 1; /* the clue has no such colour, or the target's own cell: it plays no part */
        } else if (j < end) {
            int i = j + 1;
            u64 *w0 = walk + (size_t)i * W;
            memcpy(w0, reach + (size_t)i * W, W * sizeof(u64));
            step_into(w0, reach + (size_t)j * W, ch, kc, W);
            for (; i < end && !same_set(walk + (size_t)i * W, reach + (size_t)i * W, W); i++) {
                u64 *next = walk + (size_t)(i + 1) * W;
                memset(next, 0, W * sizeof(u64));
                step_cell(next, walk + (size_t)i * W, ch, dom[i], W);
            }
            if (same_set(walk + (size_t)i * W, reach + (size_t)i * W, W))
                holds = 1;
            else if (t < 0)
                holds = !meets(walk + (size_t)n * W, ch->accept, W);
            else {
                memset(tmp, 0, W * sizeof(u64));
                step_into(tmp, walk + (size_t)t * W, ch, k, W);
                holds = !meets(tmp, alive + (size_t)(t + 1) * W, W);
            }
            if (holds)
                memcpy(reach + (size_t)(j + 1) * W, walk + (size_t)(j + 1) * W, (size_t)(i - j) * W * sizeof(u64));
        } else {
            int i = j;
            u64 *w0 = walk + (size_t)i * W;
            memcpy(w0, alive + (size_t)i * W, W * sizeof(u64));
            back_into(w0, alive + (size_t)(j + 1) * W, ch, kc, W);
            for (; i > t + 1 && !same_set(walk + (size_t)i * W, alive + (size_t)i * W, W); i--) {
                u64 *prev = walk + (size_t)(i - 1) * W;
                memset(prev, 0, W * sizeof(u64));
                back_cell(prev, walk + (size_t)i * W, ch, dom[i - 1], W);
            }
            if (same_set(walk + (size_t)i * W, alive + (size_t)i * W, W))
                holds = 1;
            else {
                memset(tmp, 0, W * sizeof(u64));
                step_into(tmp, reach + (size_t)t * W, ch, k, W);
                holds = !meets(tmp, walk + (size_t)(t + 1) * W, W);
            }
            if (holds)
                memcpy(alive + (size_t)i * W, walk + (size_t)i * W, (size_t)(j - i + 1) * W * sizeof(u64));
        }
        if (holds)
            dom[j] |= (u64)1 << c;
        else if (keep(s, line, j, c, out) < 0)
            return -1;
    }
    return 0;
}

int explain_shrunk(PaintCdcl *s, int line, int before, int index, int colour, PVec *out)
{
    int W = s->chain[line].words;
    return W == 1   ? shrunk_in(s, line, before, index, colour, out, 1)
           : W == 2 ? shrunk_in(s, line, before, index, colour, out, 2)
                    : shrunk_in(s, line, before, index, colour, out, W);
}

/* For tests (s->check): whether the removals in lits[0..count) and the line's facts (the colours
 * given, and its removals at level 0) alone, every other colour left, still remove `colour` from cell `index`
 * (or leave the line no completion). */
int explanation_holds(PaintCdcl *s, int line, int index, int colour, const Lit *lits, int count)
{
    const Chain *ch = &s->chain[line];
    const int n = s->p.clue[line].length, W = ch->words;
    u64 *reach = s->work, *alive = reach + (size_t)(n + 1) * W, *dom = alive + (size_t)(n + 1) * W + 3 * (size_t)W;
    const int *removals = s->line_trail + s->line_base[line];
    for (int j = 0; j < n; j++)
        dom[j] = s->root[p_line_cell(s, line, j)];
    for (int r = 0; r < s->line_top[line]; r++) {
        int j = removals[r] >> 6, c = removals[r] & 63;
        if (s->level[p_line_cell(s, line, j) * s->colours + c] == 0)
            dom[j] &= ~((u64)1 << c);
    }
    for (int i = 0; i < count; i++) {
        int var = P_VAR(lits[i]), cell = var / s->colours;
        dom[p_line_index(s, line, cell)] &= ~((u64)1 << (var % s->colours));
    }
    int k = index < 0 ? 0 : local_colour(ch, colour);
    return k < 0 || holds(ch, dom, reach, alive, n, index, k);
}
