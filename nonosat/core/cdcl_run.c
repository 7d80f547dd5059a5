/* nonosat._core: the conflict-driven search's main loop (see cdcl_trail.c): decide,
 * propagate, learn from each conflict, restart, halve the learnt clauses now and then, and
 * block each solution found to look for the next.
 */
#include "cdcl.h"

#define RESTART_UNIT 300   /* conflicts between restarts, times Luby's sequence */
#define FIRST_REDUCE 2000  /* conflicts before the learnt clauses are first halved */
#define REDUCE_STEP 300    /* and how much longer each next wait is */
#define LOOK_SETTLES 4096  /* line settles between looks at Ctrl-C and the clock */
#define CLAUSE_DECAY 0.999f

/* Luby's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..., its x-th term from 0. */
static long long luby(long long x)
{
    long long size = 1;
    int seq = 0;
    while (size < x + 1) {
        seq++;
        size = 2 * size + 1;
    }
    while (size - 1 != x) {
        size = (size - 1) >> 1;
        seq--;
        x = x % size;
    }
    return 1LL << seq;
}

/* Now and then take the GIL back to hear Ctrl-C and read the clock. Returns s->stopped. */
static int must_stop(Cdcl *s)
{
    if (s->stopped || s->settles < s->next_look)
        return s->stopped;
    if (s->stop && *s->stop)
        return s->stopped = 1;
    s->next_look = s->settles + LOOK_SETTLES;
    if (s->conflict_budget > 0 && s->conflicts >= s->conflict_budget)
        return s->stopped = 1;
    return s->stopped = lookout_look(&s->look);
}

/* Every cell is known: keep the grid, and unless it was the last one wanted, block it. The
 * blocking clause denies the decisions that led here (propagation from them makes this grid, so
 * every other solution differs in one of them). Returns 1 when the search is over. */
static int solution(Cdcl *s)
{
    if (s->found == s->room) {  /* room for more grids, as they come: max_solutions may be huge */
        int room = s->room ? 2 * s->room : 4;
        Cells *grids = PyMem_RawRealloc(s->solutions, (size_t)room * (size_t)s->height * sizeof(Cells));
        if (!grids)
            return s->stopped = -2, 1;
        s->solutions = grids;
        s->room = room;
    }
    memcpy(s->solutions + (size_t)s->found++ * (size_t)s->height, s->board.filled, (size_t)s->height * sizeof(Cells));
    lookout_kept(&s->look);
    if (s->found >= s->max_solutions || s->depth == 0)
        return 1;
    memcpy(s->target, s->value, (size_t)s->cells);  /* the next grid: as near this one as can be */
    s->target_size = s->cells;
    s->learnt.size = 0;
    for (int level = s->depth - 1; level >= 0; level--)  /* the latest decision first */
        if (vec_push(&s->learnt, NEG(s->trail[s->trail_lim[level]])) < 0)
            return s->stopped = -2, 1;
    backtrack(s, s->depth - 1);
    s->rewarded_from = s->trail_size;
    int c = NO_REASON;
    if (s->learnt.size > 1 && (c = add_clause(s, s->learnt.data, s->learnt.size, s->learnt.size, 1)) < 0)
        return s->stopped = -2, 1;
    assign(s, s->learnt.data[0], c, -1);
    return 0;
}

/* At a restart, turn to the grid's beliefs (beliefs.c) from the board at level 0: each cell's
 * phase its likelier value, the order of decisions how sure that is (a score far below any
 * the search gives, so that the cells it meets in conflicts go first again as they are met),
 * and no target. Unless a grid was found already: the next is looked for near it. */
static void follow_beliefs(Cdcl *s)
{
    double *belief = PyMem_RawMalloc((size_t)s->cells * sizeof(double));
    if (belief && grid_beliefs(s->g, &s->board, belief) == 0) {
        s->turned = 1;
        s->heap_size = 0;
        for (int cell = 0; cell < s->cells; cell++) {
            double sure = belief[cell] > 0.5 ? belief[cell] - 0.5 : 0.5 - belief[cell];
            s->phase[cell] = belief[cell] > 0.5;
            s->target[cell] = -1;
            s->activity[cell] = 1e-3 * sure;
            s->heap_at[cell] = -1;
        }
        for (int cell = 0; cell < s->cells; cell++)
            if (s->value[cell] < 0)
                heap_insert(s, cell);
    }
    PyMem_RawFree(belief);
}

/* Learn from a conflict below level 0 and go back to where the learnt clause asserts. */
static int learn(Cdcl *s, int conflict)
{
    if (s->trail_size - 1 > s->target_size) {  /* the run's longest trail yet, its last literal aside */
        s->target_size = s->trail_size - 1;
        memcpy(s->target, s->value, (size_t)s->cells);
    }
    int back_to, lbd = analyze(s, conflict, &back_to);
    if (lbd < 0)
        return -1;
    backtrack(s, back_to);
    s->rewarded_from = s->trail_size;
    int c = NO_REASON;
    if (s->learnt.size > 1 && (c = add_clause(s, s->learnt.data, s->learnt.size, lbd, 0)) < 0)
        return -1;
    assign(s, s->learnt.data[0], c, -1);
    s->clause_inc /= CLAUSE_DECAY;
    return 0;
}

/* The search, to the end or until it must stop. Returns 1 if complete: the solutions found are
 * all there are, or max_solutions of them. */
int cdcl_run(Cdcl *s)
{
    Grid *g = s->g;
    for (int line = 0; line < g->lines; line++)
        enqueue(g, line);
    long long run_end = RESTART_UNIT * luby(s->restarts);
    for (;;) {
        int conflict = propagate_all(s);
        if (s->stopped || must_stop(s))
            return 0;
        reward_cells(s, conflict != NO_CONFLICT);
        if (conflict != NO_CONFLICT) {
            s->conflicts++;
            if (s->depth == 0)
                return 1;  /* nothing (more) fits */
            if (learn(s, conflict) < 0) {
                s->stopped = -2;
                return 0;
            }
            if (s->conflicts >= s->next_reduce) {
                s->next_reduce = s->conflicts + FIRST_REDUCE + REDUCE_STEP * (s->reduced + 1);
                if (reduce_clauses(s) < 0) {
                    s->stopped = -2;
                    return 0;
                }
            }
            continue;
        }
        if (s->conflicts >= run_end) {
            s->restarts++;
            run_end = s->conflicts + RESTART_UNIT * luby(s->restarts);
            s->target_size = 0;  /* the next target: the longest trail of the next run */
            backtrack(s, 0);
            if (s->beliefs_after && s->conflicts >= s->beliefs_after && !s->found) {
                s->beliefs_after = 0;
                follow_beliefs(s);
            }
            continue;
        }
        int cell = -1;
        while (s->heap_size && cell < 0) {
            int top = heap_pop(s);
            if (s->value[top] < 0)
                cell = top;
        }
        if (cell < 0) {
            if (solution(s))
                return s->stopped ? 0 : 1;
            continue;
        }
        s->trail_lim[s->depth++] = s->trail_size;
        s->rewarded_from = s->trail_size;
        assign(s, LIT(cell, s->target[cell] >= 0 ? s->target[cell] : s->phase[cell]), NO_REASON, -1);
    }
}

/* Set up the search from a board at level 0 (its known cells are facts). 0, or -1 when memory
 * ran out. */
int cdcl_init(Cdcl *s, Grid *g, const Board *root, int max_solutions)
{
    int n = g->height * g->width;
    s->g = g;
    s->height = g->height;
    s->width = g->width;
    s->cells = n;
    s->max_solutions = max_solutions;
    s->step_size = 0.4;
    s->clause_inc = 1.0f;
    s->next_reduce = FIRST_REDUCE;
    s->next_look = LOOK_SETTLES;
    s->value = PyMem_RawMalloc((size_t)n);
    s->lit_value = PyMem_RawMalloc(2 * (size_t)n);
    s->phase = PyMem_RawCalloc((size_t)n, 1);  /* empty first */
    s->target = PyMem_RawMalloc((size_t)n);
    s->level = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->cell_row = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->cell_col = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->line_trail = PyMem_RawMalloc((size_t)g->lines * MAX_SIDE * sizeof(int));
    s->pos = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->reason = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->why = PyMem_RawMalloc(2 * (size_t)n * sizeof(Cells));
    s->explained = PyMem_RawCalloc((size_t)n, 1);
    s->trail = PyMem_RawMalloc((size_t)n * sizeof(Lit));
    s->trail_lim = PyMem_RawMalloc(((size_t)n + 1) * sizeof(int));
    s->watches = PyMem_RawCalloc(2 * (size_t)n, sizeof(Watches));
    s->activity = PyMem_RawCalloc((size_t)n, sizeof(double));
    s->last_conflict = PyMem_RawCalloc((size_t)n, sizeof(long long));
    s->heap = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->heap_at = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->seen = PyMem_RawCalloc((size_t)n, 1);
    s->level_seen = PyMem_RawCalloc((size_t)n + 1, 1);
    g->memo = PyMem_RawCalloc((size_t)1 << MEMO_BITS, sizeof(MemoEntry));
    if (!s->value || !s->lit_value || !s->phase || !s->target || !s->level || !s->cell_row ||
        !s->cell_col || !s->line_trail || !s->pos || !s->reason || !s->why || !s->explained ||
        !s->trail || !s->trail_lim || !s->watches || !s->activity || !s->last_conflict || !s->heap || !s->heap_at ||
        !s->seen || !s->level_seen || !g->memo)
        return -1;
    memset(s->value, -1, (size_t)n);
    memset(s->lit_value, -1, 2 * (size_t)n);
    memset(s->target, -1, (size_t)n);
    memset(&s->board, 0, sizeof s->board);
    memset(s->line_top, 0, sizeof s->line_top);
    for (int cell = 0; cell < n; cell++) {
        int row = cell / g->width, column = cell % g->width;
        s->cell_row[cell] = row;
        s->cell_col[cell] = column;
        s->heap_at[cell] = -1;
        heap_insert(s, cell);
        if ((root->filled[row] >> column) & 1)
            assign(s, LIT(cell, 1), NO_REASON, -1);
        else if ((root->empty[row] >> column) & 1)
            assign(s, LIT(cell, 0), NO_REASON, -1);
    }
    return 0;
}

void cdcl_free(Cdcl *s)
{
    if (s->watches)
        for (int lit = 0; lit < 2 * s->cells; lit++)
            PyMem_RawFree(s->watches[lit].data);
    void *blocks[] = {s->value, s->lit_value, s->phase, s->target, s->level, s->cell_row, s->cell_col, s->line_trail, s->pos, s->reason, s->why, s->explained, s->trail,
                      s->trail_lim, s->watches, s->activity, s->last_conflict, s->heap, s->heap_at, s->seen, s->level_seen,
                      s->solutions, s->arena, s->clauses.data, s->learnt.data, s->stack.data, s->lits.data};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        PyMem_RawFree(blocks[i]);
    if (s->g) {
        PyMem_RawFree(s->g->memo);
        s->g->memo = NULL;
    }
}
