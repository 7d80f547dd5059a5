/* nonosat._core: what the conflict-driven search learns. The reasons of a conflict as
 * literals (a line's from cdcl_reasons.c, kept until the cell is open again), the first-UIP
 * analysis of a conflict, and the clause database (see cdcl.h).
 */
#include "cdcl.h"

static inline int line_cell(const Cdcl *s, int line, int i)
{
    return line < s->height ? line * s->width + i : i * s->width + (line - s->height);
}

/* The false literals of a reason: a clause's other literals, or a line's explanation of `cell`
 * (cell < 0: of the conflict itself). Into out; -1 when memory ran out. */
int reason_lits(Cdcl *s, int reason, int cell, Vec *out)
{
    out->size = 0;
    if (reason >= 0) {
        const Lit *lits = C_LITS(s, reason);
        for (int k = cell < 0 ? 0 : 1; k < C_SIZE(s, reason); k++)
            if (vec_push(out, lits[k]) < 0)
                return -1;
        return 0;
    }
    int line = REASON_LINE(reason);
    Cells filled, empty;
    if (cell >= 0 && s->explained[cell]) {
        filled = s->why[2 * cell];
        empty = s->why[2 * cell + 1];
    } else if (cell >= 0) {
        int i = line < s->height ? cell - line * s->width : cell / s->width;
        explain_line(s, line, s->pos[cell], i, s->value[cell], &filled, &empty);
        s->why[2 * cell] = filled;
        s->why[2 * cell + 1] = empty;
        s->explained[cell] = 1;
    } else {
        explain_line(s, line, s->trail_size, -1, 0, &filled, &empty);
    }
    for (Cells bits = filled; bits; bits &= bits - 1)  /* a filled cell's false literal: empty */
        if (vec_push(out, LIT(line_cell(s, line, first_cell(bits)), 0)) < 0)
            return -1;
    for (Cells bits = empty; bits; bits &= bits - 1)
        if (vec_push(out, LIT(line_cell(s, line, first_cell(bits)), 1)) < 0)
            return -1;
    return 0;
}

static void bump_clause(Cdcl *s, int c)
{
    if (C_KEEP(s, c))
        return;
    float a = c_activity(s->arena, c) + s->clause_inc;
    set_c_activity(s->arena, c, a);
    if (a > 1e20f) {
        for (int k = 0; k < s->clauses.size; k++) {
            int d = s->clauses.data[k];
            set_c_activity(s->arena, d, c_activity(s->arena, d) * 1e-20f);
        }
        s->clause_inc *= 1e-20f;
    }
}

/* Whether a literal of the learnt clause follows from the clause's other literals: every
 * literal of its reason is in the clause (seen) or known at level 0. */
static int redundant(Cdcl *s, Lit lit)
{
    int cell = CELL(lit);
    if (s->reason[cell] == NO_REASON)
        return 0;
    if (reason_lits(s, s->reason[cell], cell, &s->lits) < 0)
        return 0;
    for (int k = 0; k < s->lits.size; k++) {
        int other = CELL(s->lits.data[k]);
        if (!s->seen[other] && s->level[other] > 0)
            return 0;
    }
    return 1;
}

/* First-UIP analysis of a conflict at the current level: the learnt clause in s->learnt (its
 * asserting literal first, then one of the highest level below), the level to go back to in
 * *back_to, and its LBD returned (-1 when memory ran out). */
int analyze(Cdcl *s, int conflict, int *back_to)
{
    Vec *learnt = &s->learnt;
    int open = 0, index = s->trail_size - 1, cell = -1, reason = conflict;
    learnt->size = 0;
    if (vec_push(learnt, 0) < 0)
        return -1;
    do {
        if (reason >= 0)
            bump_clause(s, reason);
        if (reason_lits(s, reason, cell, &s->lits) < 0)
            return -1;
        for (int k = 0; k < s->lits.size; k++) {
            Lit q = s->lits.data[k];
            int other = CELL(q);
            if (s->seen[other] || s->level[other] == 0)
                continue;
            bump_cell(s, other);
            s->seen[other] = 1;
            if (s->level[other] >= s->depth)
                open++;
            else if (vec_push(learnt, q) < 0)
                return -1;
        }
        while (!s->seen[CELL(s->trail[index])])
            index--;
        cell = CELL(s->trail[index--]);
        s->seen[cell] = 0;
        reason = s->reason[cell];
        open--;
    } while (open > 0);
    learnt->data[0] = NEG(LIT(cell, s->value[cell]));

    s->stack.size = 0;  /* the literals whose seen[] is to be cleared */
    for (int k = 1; k < learnt->size; k++)
        if (vec_push(&s->stack, learnt->data[k]) < 0)
            return -1;
    int kept = 1;
    for (int k = 1; k < learnt->size; k++)
        if (!redundant(s, learnt->data[k]))
            learnt->data[kept++] = learnt->data[k];
    learnt->size = kept;
    for (int k = 0; k < s->stack.size; k++)
        s->seen[CELL(s->stack.data[k])] = 0;

    int high = 1;  /* the literal of the highest level below the current one goes second */
    for (int k = 2; k < learnt->size; k++)
        if (s->level[CELL(learnt->data[k])] > s->level[CELL(learnt->data[high])])
            high = k;
    *back_to = 0;
    if (learnt->size > 1) {
        Lit swap = learnt->data[1];
        learnt->data[1] = learnt->data[high];
        learnt->data[high] = swap;
        *back_to = s->level[CELL(learnt->data[1])];
    }
    int lbd = 0;  /* the distinct levels of its literals */
    for (int k = 0; k < learnt->size; k++) {
        int level = s->level[CELL(learnt->data[k])];
        lbd += !s->level_seen[level];
        s->level_seen[level] = 1;
    }
    for (int k = 0; k < learnt->size; k++)
        s->level_seen[s->level[CELL(learnt->data[k])]] = 0;
    return lbd;
}

/* ---------------------------------------------------------------- the clause database ------- */

/* A clause into the arena, watched by its first two literals. Returns its offset, -1 when memory
 * ran out. */
int add_clause(Cdcl *s, const Lit *lits, int size, int lbd, int keep)
{
    size_t need = s->arena_size + HEADER + (size_t)size;
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
    C_SIZE(s, c) = size;
    C_LBD(s, c) = lbd;
    C_KEEP(s, c) = keep;
    set_c_activity(s->arena, c, s->clause_inc);
    memcpy(C_LITS(s, c), lits, (size_t)size * sizeof(Lit));
    if (vec_push(&s->clauses, c) < 0 || watch_clause(s, c) < 0)
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

/* A clause that is some cell's reason now. */
static int locked(const Cdcl *s, int c)
{
    int cell = CELL(C_LITS(s, c)[0]);
    return s->reason[cell] == c && s->value[cell] >= 0;
}

/* Delete the worse half of the learnt clauses that may go (not a reason now, not a solution's
 * blocking clause, LBD over 2), then pack the arena and watch what is left afresh. 0, or -1
 * when memory ran out. */
int reduce_clauses(Cdcl *s)
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
        if (!C_KEEP(s, c) && C_LBD(s, c) > 2 && !locked(s, c))
            ranks[candidates++] = (Rank){C_LBD(s, c), c_activity(s->arena, c), c};
    }
    qsort(ranks, (size_t)candidates, sizeof(Rank), worse_first);
    for (int k = 0; k < candidates / 2; k++)
        C_SIZE(s, ranks[k].clause) = -1;  /* deleted */
    size_t size = 0;
    int kept = 0;
    for (int k = 0; k < n; k++) {
        int c = s->clauses.data[k];
        if (C_SIZE(s, c) < 0)
            continue;
        size_t length = HEADER + (size_t)C_SIZE(s, c);
        memcpy(arena + size, s->arena + c, length * sizeof(int));
        C_LBD(s, c) = (int)size;  /* the old copy remembers where the clause went */
        s->clauses.data[kept++] = (int)size;
        size += length;
    }
    for (int i = 0; i < s->trail_size; i++) {
        int cell = CELL(s->trail[i]);
        if (s->reason[cell] >= 0)
            s->reason[cell] = C_LBD(s, s->reason[cell]);
    }
    PyMem_RawFree(ranks);
    PyMem_RawFree(s->arena);
    s->arena = arena;
    s->arena_size = size;
    s->arena_cap = s->arena_size ? s->arena_size : 1;
    s->clauses.size = kept;
    for (int lit = 0; lit < 2 * s->cells; lit++)
        s->watches[lit].size = 0;
    for (int k = 0; k < kept; k++)
        if (watch_clause(s, s->clauses.data[k]) < 0)
            return -1;
    s->reduced++;
    return 0;
}
