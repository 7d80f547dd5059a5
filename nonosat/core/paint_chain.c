/* nonosat._core: a line's clue as an automaton, its line logic, and why line logic removed a
 * colour from one of its cells, for the conflict-driven search's analysis (see paint_cdcl.h).
 *
 * Each cell's colours left (its domain) let the automaton reach, from the start, the state sets
 * reach[j] at each boundary j, and reach the end from alive[j]. A colour stays in cell j when
 * some state of reach[j] steps on it to a state of alive[j + 1]: the same deduction as
 * settle_paint (colour_logic.c), which the tests compare it with, a pass as cheap as a few word
 * operations a cell where the clue's states fit in a word or two.
 *
 * A removal is explained as black and white's are (cdcl_reasons.c): the line's removals made
 * before it are dropped one at a time, latest first, while the rest still make it (or, for a
 * line in contradiction, still leave it no completion), so that learnt clauses are short and
 * reach back to early levels. Each test walks the automaton only from the dropped removal's
 * cell towards the target, until it meets the state sets it had: from there on nothing changes.
 * Removals at level 0 are facts: they stay, and are not named.
 */
#include "paint_cdcl.h"

#define INLINE static inline __attribute__((always_inline))

INLINE void step_into(u64 *out, const u64 *x, const Chain *ch, int k, int words)
{
    const u64 *stay = ch->stay + (size_t)k * words, *one = ch->one + (size_t)k * words,
              *two = ch->two + (size_t)k * words;
    u64 carry1 = 0, carry2 = 0;
    for (int w = 0; w < words; w++) {
        u64 a = x[w] & one[w], b = x[w] & two[w];
        out[w] |= (x[w] & stay[w]) | (a << 1) | carry1 | (b << 2) | carry2;
        carry1 = a >> 63;
        carry2 = b >> 62;
    }
}

INLINE void back_into(u64 *out, const u64 *y, const Chain *ch, int k, int words)
{
    const u64 *stay = ch->stay + (size_t)k * words, *one = ch->one + (size_t)k * words,
              *two = ch->two + (size_t)k * words;
    for (int w = 0; w < words; w++) {
        u64 next = w + 1 < words ? y[w + 1] : 0;
        u64 by1 = (y[w] >> 1) | (next << 63), by2 = (y[w] >> 2) | (next << 62);
        out[w] |= (y[w] & stay[w]) | (by1 & one[w]) | (by2 & two[w]);
    }
}

INLINE int meets(const u64 *a, const u64 *b, int words)
{
    for (int w = 0; w < words; w++)
        if (a[w] & b[w])
            return 1;
    return 0;
}

#define SET(set, state) ((set)[(state) >> 6] |= (u64)1 << ((state) & 63))

/* Every line's automaton; 0, or -1 when memory ran out. */
int build_chains(PaintCdcl *s)
{
    Paint *p = &s->p;
    size_t pool = 0;
    int longest = 0, widest = 0;
    s->chain = PyMem_RawCalloc((size_t)p->lines, sizeof(Chain));
    if (!s->chain)
        return -1;
    for (int l = 0; l < p->lines; l++) {
        const PaintClue *clue = &p->clue[l];
        Chain *ch = &s->chain[l];
        u64 named = 1;
        ch->states = 1;
        for (int j = 0; j < clue->count; j++) {
            named |= (u64)1 << clue->colour[j];
            ch->states += clue->size[j] + 1;
        }
        ch->words = (ch->states + 63) / 64;
        ch->colours = __builtin_popcountll(named);
        pool += (size_t)ch->words * (3 * (size_t)ch->colours + 1) + (size_t)ch->colours;
        longest = clue->length > longest ? clue->length : longest;
        widest = ch->words > widest ? ch->words : widest;
    }
    s->chain_pool = PyMem_RawCalloc(pool ? pool : 1, sizeof(u64));
    s->work = PyMem_RawMalloc(((size_t)3 * (size_t)(longest + 1) + 4) * (size_t)widest * sizeof(u64) +
                              (size_t)(longest + 1) * sizeof(u64));
    if (!s->chain_pool || !s->work)
        return -1;
    u64 *at = s->chain_pool;
    for (int l = 0; l < p->lines; l++) {
        const PaintClue *clue = &p->clue[l];
        Chain *ch = &s->chain[l];
        int W = ch->words, K = 0, local[MAX_PAINT_COLOURS];
        ch->colour = (int *)at; /* ints in the pool: `colours` of them fit in as many words */
        at += ch->colours;
        ch->stay = at;
        ch->one = at + (size_t)ch->colours * W;
        ch->two = at + 2 * (size_t)ch->colours * W;
        ch->accept = at + 3 * (size_t)ch->colours * W;
        at += (3 * (size_t)ch->colours + 1) * W;
        for (int c = 0; c < MAX_PAINT_COLOURS; c++)
            local[c] = -1;
        local[0] = K;
        ch->colour[K++] = 0;
        for (int j = 0; j < clue->count; j++)
            if (local[clue->colour[j]] < 0) {
                local[clue->colour[j]] = K;
                ch->colour[K++] = clue->colour[j];
            }
        u64 *bg_stay = ch->stay, *bg_one = ch->one;
        int state = 0; /* the gap before block j */
        SET(bg_stay, 0);
        for (int j = 0; j < clue->count; j++) {
            int c = local[clue->colour[j]], first = state + 1, end = first + clue->size[j] - 1;
            SET(ch->one + (size_t)c * W, state); /* the gap to the block's first cell */
            for (int q = first; q < end; q++)
                SET(ch->one + (size_t)c * W, q);
            SET(bg_one, end); /* the block's end to the gap after it */
            if (j + 1 < clue->count && clue->colour[j + 1] != clue->colour[j])
                SET(ch->two + (size_t)local[clue->colour[j + 1]] * W, end);
            state = end + 1;
            SET(bg_stay, state);
        }
        SET(ch->accept, state);
        if (clue->count)
            SET(ch->accept, state - 1);
    }
    return 0;
}

/* reach[0..upto] from the start through the cells' domains dom[]. */
INLINE void forward_in(const Chain *ch, const u64 *dom, u64 *reach, int upto, const int W)
{
    memset(reach, 0, (size_t)(upto + 1) * W * sizeof(u64));
    reach[0] = 1;
    for (int j = 0; j < upto; j++)
        for (int k = 0; k < ch->colours; k++)
            if ((dom[j] >> ch->colour[k]) & 1)
                step_into(reach + (size_t)(j + 1) * W, reach + (size_t)j * W, ch, k, W);
}

/* alive[from..n] back from the end through dom[]. */
INLINE void backward_in(const Chain *ch, const u64 *dom, u64 *alive, int from, int n, const int W)
{
    memset(alive + (size_t)from * W, 0, (size_t)(n - from + 1) * W * sizeof(u64));
    memcpy(alive + (size_t)n * W, ch->accept, W * sizeof(u64));
    for (int j = n - 1; j >= from; j--)
        for (int k = 0; k < ch->colours; k++)
            if ((dom[j] >> ch->colour[k]) & 1)
                back_into(alive + (size_t)j * W, alive + (size_t)(j + 1) * W, ch, k, W);
}

static void forward(const Chain *ch, const u64 *dom, u64 *reach, int upto)
{
    forward_in(ch, dom, reach, upto, ch->words);
}

static void backward(const Chain *ch, const u64 *dom, u64 *alive, int from, int n)
{
    backward_in(ch, dom, alive, from, n, ch->words);
}

/* Line logic on the automaton: narrow each cell of the line (dom[j], its colours left) to the
 * colours some completion gives it, as settle_paint does. 0 when no completion fits (dom is then
 * as it was). */
INLINE int settle_in(PaintCdcl *s, int line, u64 *dom, const int W)
{
    const Chain *ch = &s->chain[line];
    const int n = s->p.clue[line].length;
    u64 *reach = s->work, *alive = reach + (size_t)(n + 1) * W, *tmp = alive + 2 * (size_t)(n + 1) * W;
    forward_in(ch, dom, reach, n, W);
    if (!meets(reach + (size_t)n * W, ch->accept, W))
        return 0;
    backward_in(ch, dom, alive, 0, n, W);
    for (int j = 0; j < n; j++) {
        u64 left = 0;
        for (int q = 0; q < ch->colours; q++) {
            u64 bit = (u64)1 << ch->colour[q];
            if (!(dom[j] & bit))
                continue;
            memset(tmp, 0, W * sizeof(u64));
            step_into(tmp, reach + (size_t)j * W, ch, q, W);
            if (meets(tmp, alive + (size_t)(j + 1) * W, W))
                left |= bit;
        }
        dom[j] = left;
    }
    return 1;
}

int chain_settle(PaintCdcl *s, int line, u64 *dom)
{
    int W = s->chain[line].words;
    return W == 1 ? settle_in(s, line, dom, 1) : W == 2 ? settle_in(s, line, dom, 2) : settle_in(s, line, dom, W);
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

INLINE int same_set(const u64 *a, const u64 *b, int words)
{
    for (int w = 0; w < words; w++)
        if (a[w] != b[w])
            return 0;
    return 1;
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
    /* dom: every colour but the removals before `before` */
    for (int j = 0; j < n; j++)
        dom[j] = ~(u64)0;
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
                for (int q = 0; q < ch->colours; q++)
                    if ((dom[i] >> ch->colour[q]) & 1)
                        step_into(next, walk + (size_t)i * W, ch, q, W);
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
                for (int q = 0; q < ch->colours; q++)
                    if ((dom[i - 1] >> ch->colour[q]) & 1)
                        back_into(prev, walk + (size_t)i * W, ch, q, W);
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

/* For tests (s->check): whether the removals in lits[0..count) and the line's facts (its removals
 * at level 0) alone, every other colour left everywhere, still remove `colour` from cell `index`
 * (or leave the line no completion). */
int explanation_holds(PaintCdcl *s, int line, int index, int colour, const Lit *lits, int count)
{
    const Chain *ch = &s->chain[line];
    const int n = s->p.clue[line].length, W = ch->words;
    u64 *reach = s->work, *alive = reach + (size_t)(n + 1) * W, *dom = alive + (size_t)(n + 1) * W + 3 * (size_t)W;
    const int *removals = s->line_trail + s->line_base[line];
    for (int j = 0; j < n; j++)
        dom[j] = ~(u64)0;
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
