/* nonosat._core: a line's clue as an automaton (paint_cdcl.h's Chain), and its line logic, for
 * the conflict-driven search for any palette and size (paint_reasons.c explains what it deduces).
 *
 * Each cell's colours left (its domain) let the automaton reach, from the start, the state sets
 * reach[j] at each boundary j, and reach the end from alive[j]. A colour stays in cell j when
 * some state of reach[j] steps on it to a state of alive[j + 1]: the same deduction as
 * settle_paint (colour_logic.c), a pass as cheap as a few word operations a cell where the
 * clue's states fit in a word or two.
 */
#include "paint_steps.h"

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
        ch->named = 1;
        ch->states = 1;
        for (int j = 0; j < clue->count; j++) {
            ch->named |= (u64)1 << clue->colour[j];
            ch->states += clue->size[j] + 1;
        }
        ch->words = (ch->states + 63) / 64;
        ch->colours = __builtin_popcountll(ch->named);
        ch->sets = ch->colours <= SET_COLOURS ? 1 << ch->colours : 0;
        pool += (size_t)ch->words * (3 * (size_t)ch->colours + 3 * (size_t)ch->sets + 1) + (size_t)ch->colours;
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
        ch->set_masks = at;
        at += 3 * (size_t)ch->sets * W;
        for (int c = 0; c < MAX_PAINT_COLOURS; c++) { /* the colours in ascending order */
            local[c] = (ch->named >> c) & 1 ? K : -1;
            if (local[c] >= 0)
                ch->colour[K++] = c;
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
        for (int set = 0; set < ch->sets; set++) /* each set's masks: the union of its colours' */
            for (int k = 0; k < K; k++)
                if ((set >> k) & 1)
                    for (int w = 0; w < W; w++) {
                        ch->set_masks[((size_t)set * 3 + 0) * W + w] |= ch->stay[(size_t)k * W + w];
                        ch->set_masks[((size_t)set * 3 + 1) * W + w] |= ch->one[(size_t)k * W + w];
                        ch->set_masks[((size_t)set * 3 + 2) * W + w] |= ch->two[(size_t)k * W + w];
                    }
    }
    return 0;
}

/* Line logic on the automaton: narrow each cell of the line (dom[j], its colours left) to the
 * colours some completion gives it, as settle_paint does. 0 when no completion fits (dom is then
 * as it was). */
INLINE int settle_in(PaintCdcl *s, int line, u64 *dom, const int W)
{
    const Chain *ch = &s->chain[line];
    const int n = s->p.clue[line].length;
    u64 *reach = s->work, *alive = reach + (size_t)(n + 1) * W, *back = alive + (size_t)(n + 1) * W;
    forward_in(ch, dom, reach, n, W);
    if (!meets(reach + (size_t)n * W, ch->accept, W))
        return 0;
    /* back from the end: a colour stays in cell j when the states it steps back to from alive[j + 1]
     * meet reach[j]; alive[j] is every such step's states */
    memcpy(alive + (size_t)n * W, ch->accept, W * sizeof(u64));
    for (int j = n - 1; j >= 0; j--) {
        u64 left = 0, *here = alive + (size_t)j * W;
        memset(here, 0, W * sizeof(u64));
        for (int q = 0; q < ch->colours; q++) {
            u64 bit = (u64)1 << ch->colour[q];
            if (!(dom[j] & bit))
                continue;
            memset(back, 0, W * sizeof(u64));
            back_into(back, alive + (size_t)(j + 1) * W, ch, q, W);
            if (meets(back, reach + (size_t)j * W, W))
                left |= bit;
            for (int w = 0; w < W; w++)
                here[w] |= back[w];
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

