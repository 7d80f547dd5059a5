/* nonosat._core: what the conflict-driven search for any palette learns (see paint_cdcl.h): a
 * reason as false literals (a cell's exactly-one, a learnt clause, or a line's explanation from
 * paint_chain.c, kept while its literal is set), the first-UIP analysis of a conflict, and the
 * clause database. As cdcl_learn.c in black and white.
 */
#include "paint_cdcl.h"

/* The false literals of the reason of var (var < 0: of a conflict), into out. 0, or -1 when
 * memory ran out. */
int p_reason_lits(PaintCdcl *s, int reason, int var, PVec *out)
{
    out->size = 0;
    if (reason >= 0) {
        const Lit *lits = s->arena + reason + P_HEADER;
        for (int k = var < 0 ? 0 : 1; k < s->arena[reason]; k++)
            if (pvec_push(out, lits[k]) < 0)
                return -1;
        return 0;
    }
    int cell = var / s->colours, first = cell * s->colours;
    if (reason == P_ONE_COLOUR) { /* the cell's colour that is true */
        for (int other = first; other < first + s->colours; other++)
            if (s->value[other] == 1)
                return pvec_push(out, P_LIT(other, 0));
        return 0;
    }
    if (reason == P_LAST_COLOUR) { /* every other colour, removed */
        for (int other = first; other < first + s->colours; other++)
            if (other != var && pvec_push(out, P_LIT(other, 1)) < 0)
                return -1;
        return 0;
    }
    int line = P_LINE_OF(reason);
    if (var >= 0 && s->why_at[var] >= 0) {
        for (int k = 0; k < s->why_size[var]; k++)
            if (pvec_push(out, s->why.data[s->why_at[var] + k]) < 0)
                return -1;
        return 0;
    }
    int index = var < 0 ? -1 : p_line_index(s, line, cell), colour = var < 0 ? 0 : var % s->colours;
    if (explain_shrunk(s, line, var < 0 ? s->trail_size : s->pos[var], index, colour, out) < 0)
        return -1;
    if (s->check && !explanation_holds(s, line, index, colour, out->data, out->size))
        s->bad_explanation = 1;
    if (var >= 0) {
        s->why_at[var] = s->why.size;
        s->why_size[var] = out->size;
        for (int k = 0; k < out->size; k++)
            if (pvec_push(&s->why, out->data[k]) < 0)
                return -1;
    }
    return 0;
}

static float activity_of(const int *arena, int c)
{
    float a;
    memcpy(&a, &arena[c + 3], sizeof a);
    return a;
}

static void set_activity(int *arena, int c, float a) { memcpy(&arena[c + 3], &a, sizeof a); }

static void bump_clause(PaintCdcl *s, int c)
{
    if (s->arena[c + 2])
        return;
    float a = activity_of(s->arena, c) + s->clause_inc;
    set_activity(s->arena, c, a);
    if (a > 1e20f) {
        for (int k = 0; k < s->clauses.size; k++) {
            int d = s->clauses.data[k];
            set_activity(s->arena, d, activity_of(s->arena, d) * 1e-20f);
        }
        s->clause_inc *= 1e-20f;
    }
}

/* Whether a literal of the learnt clause follows from its other literals: every literal of its
 * reason is in the clause (seen) or known at level 0. */
static int redundant(PaintCdcl *s, Lit lit)
{
    int var = P_VAR(lit);
    if (s->reason[var] == P_NO_REASON || p_reason_lits(s, s->reason[var], var, &s->lits) < 0)
        return 0;
    for (int k = 0; k < s->lits.size; k++) {
        int other = P_VAR(s->lits.data[k]);
        if (!s->seen[other] && s->level[other] > 0)
            return 0;
    }
    return 1;
}

/* First-UIP analysis of a conflict: the learnt clause in s->learnt (its asserting literal first,
 * then one of the highest level below), the level to go back to, and its LBD (-1: no memory). */
int p_analyze(PaintCdcl *s, int conflict, int *back_to)
{
    PVec *learnt = &s->learnt;
    int open = 0, index = s->trail_size - 1, var = -1, reason = conflict;
    learnt->size = 0;
    if (pvec_push(learnt, 0) < 0)
        return -1;
    do {
        if (reason >= 0)
            bump_clause(s, reason);
        if (p_reason_lits(s, reason, var, &s->lits) < 0)
            return -1;
        for (int k = 0; k < s->lits.size; k++) {
            Lit q = s->lits.data[k];
            int other = P_VAR(q);
            if (s->seen[other] || s->level[other] == 0)
                continue;
            p_bump(s, other);
            s->seen[other] = 1;
            if (s->level[other] >= s->depth)
                open++;
            else if (pvec_push(learnt, q) < 0)
                return -1;
        }
        while (!s->seen[P_VAR(s->trail[index])])
            index--;
        var = P_VAR(s->trail[index--]);
        s->seen[var] = 0;
        reason = s->reason[var];
        open--;
    } while (open > 0);
    learnt->data[0] = P_NEG(P_LIT(var, s->value[var]));

    s->stack.size = 0;
    for (int k = 1; k < learnt->size; k++)
        if (pvec_push(&s->stack, learnt->data[k]) < 0)
            return -1;
    int kept = 1;
    for (int k = 1; k < learnt->size; k++)
        if (!redundant(s, learnt->data[k]))
            learnt->data[kept++] = learnt->data[k];
    learnt->size = kept;
    for (int k = 0; k < s->stack.size; k++)
        s->seen[P_VAR(s->stack.data[k])] = 0;

    int high = 1;
    for (int k = 2; k < learnt->size; k++)
        if (s->level[P_VAR(learnt->data[k])] > s->level[P_VAR(learnt->data[high])])
            high = k;
    *back_to = 0;
    if (learnt->size > 1) {
        Lit swap = learnt->data[1];
        learnt->data[1] = learnt->data[high];
        learnt->data[high] = swap;
        *back_to = s->level[P_VAR(learnt->data[1])];
    }
    int lbd = 0;
    for (int k = 0; k < learnt->size; k++) {
        int level = s->level[P_VAR(learnt->data[k])];
        lbd += !s->level_seen[level];
        s->level_seen[level] = 1;
    }
    for (int k = 0; k < learnt->size; k++)
        s->level_seen[s->level[P_VAR(learnt->data[k])]] = 0;
    return lbd;
}

/* ---------------------------------------------------------------- the clause database ------- */

/* A clause into the arena, watched by its first two literals: its offset, -1 when memory ran out. */
int p_add_clause(PaintCdcl *s, const Lit *lits, int size, int lbd, int keep)
{
    size_t need = s->arena_size + P_HEADER + (size_t)size;
    if (need > s->arena_cap) {
        size_t cap = s->arena_cap * 2 > need ? s->arena_cap * 2 : need;
        int *arena = PyMem_RawRealloc(s->arena, cap * sizeof(int));
        if (!arena)
            return -1;
        s->arena = arena;
        s->arena_cap = cap;
    }
    int c = (int)s->arena_size;
    s->arena_size = need;
    s->arena[c] = size;
    s->arena[c + 1] = lbd;
    s->arena[c + 2] = keep;
    set_activity(s->arena, c, s->clause_inc);
    memcpy(s->arena + c + P_HEADER, lits, (size_t)size * sizeof(Lit));
    if (pvec_push(&s->clauses, c) < 0 || p_watch_clause(s, c) < 0)
        return -1;
    return c;
}

typedef struct {
    int lbd;
    float activity;
    int clause;
} Rank;

static int worse_first(const void *a, const void *b)
{
    const Rank *x = a, *y = b;
    if (x->lbd != y->lbd)
        return x->lbd > y->lbd ? -1 : 1;
    return x->activity < y->activity ? -1 : x->activity > y->activity;
}

static int locked(const PaintCdcl *s, int c)
{
    int var = P_VAR(s->arena[c + P_HEADER]);
    return s->reason[var] == c && s->value[var] >= 0;
}

/* Delete the worse half of the learnt clauses that may go (not a reason now, not a blocking
 * clause, LBD over 2), pack the arena and watch what is left afresh. 0, or -1: no memory. */
int p_reduce(PaintCdcl *s)
{
    int n = s->clauses.size, candidates = 0;
    Rank *ranks = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(Rank));
    int *arena = PyMem_RawMalloc((s->arena_size ? s->arena_size : 1) * sizeof(int));
    if (!ranks || !arena) {
        PyMem_RawFree(ranks);
        PyMem_RawFree(arena);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        int c = s->clauses.data[k];
        if (!s->arena[c + 2] && s->arena[c + 1] > 2 && !locked(s, c))
            ranks[candidates++] = (Rank){s->arena[c + 1], activity_of(s->arena, c), c};
    }
    qsort(ranks, (size_t)candidates, sizeof(Rank), worse_first);
    for (int k = 0; k < candidates / 2; k++)
        s->arena[ranks[k].clause] = -1;
    size_t size = 0;
    int kept = 0;
    for (int k = 0; k < n; k++) {
        int c = s->clauses.data[k];
        if (s->arena[c] < 0)
            continue;
        size_t length = P_HEADER + (size_t)s->arena[c];
        memcpy(arena + size, s->arena + c, length * sizeof(int));
        s->arena[c + 1] = (int)size; /* the old copy remembers where the clause went */
        s->clauses.data[kept++] = (int)size;
        size += length;
    }
    for (int i = 0; i < s->trail_size; i++) {
        int var = P_VAR(s->trail[i]);
        if (s->reason[var] >= 0)
            s->reason[var] = s->arena[s->reason[var] + 1];
    }
    PyMem_RawFree(ranks);
    PyMem_RawFree(s->arena);
    s->arena = arena;
    s->arena_size = size;
    s->arena_cap = size ? size : 1;
    s->clauses.size = kept;
    for (int lit = 0; lit < 2 * s->vars; lit++)
        s->watches[lit].size = 0;
    for (int k = 0; k < kept; k++)
        if (p_watch_clause(s, s->clauses.data[k]) < 0)
            return -1;
    s->reduced++;
    return 0;
}
