/* nonosat._core: the main loop of the conflict-driven search for any palette and size (see
 * paint_cdcl.h), and the Python function cdcl_colours. Decide, propagate, learn from each
 * conflict, restart (Luby), halve the learnt clauses now and then, and block each solution found
 * to look for the next, as cdcl_run.c in black and white.
 */
#include "paint_cdcl.h"

#define RESTART_UNIT 300
#define FIRST_REDUCE 2000
#define REDUCE_STEP 300
#define LOOK_SETTLES 1024
#define VAR_DECAY 0.95
#define CLAUSE_DECAY 0.999f
#define WHY_ROOM (1 << 22) /* explanations kept (literals) before they are dropped at a restart */

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

static int must_stop(PaintCdcl *s)
{
    if (s->stopped || s->settles < s->next_look)
        return s->stopped;
    if (s->stop && *s->stop)
        return s->stopped = 1;
    s->next_look = s->settles + LOOK_SETTLES;
    int stop = lookout_look(s->look);
    return s->stopped = stop < 0 ? -1 : stop;
}

/* Every cell has one colour: keep the grid and, unless it was the last one wanted, block the
 * decisions that led to it. Returns 1 when the search is over. */
static int solution(PaintCdcl *s)
{
    size_t cells = (size_t)s->cells;
    if (s->found == s->room) {
        int room = s->room ? 2 * s->room : 4;
        unsigned char *grids = PyMem_RawRealloc(s->solutions, (size_t)room * cells);
        if (!grids)
            return s->stopped = -2, 1;
        s->solutions = grids;
        s->room = room;
    }
    unsigned char *grid = s->solutions + (size_t)s->found++ * cells;
    for (size_t i = 0; i < cells; i++)
        grid[i] = (unsigned char)__builtin_ctzll(s->p.cells[i]);
    lookout_kept(s->look);
    if (s->found >= s->max_solutions || s->depth == 0)
        return 1;
    memcpy(s->target, s->value, (size_t)s->vars);
    s->target_size = s->trail_size;
    s->learnt.size = 0;
    for (int level = s->depth - 1; level >= 0; level--)
        if (pvec_push(&s->learnt, P_NEG(s->trail[s->trail_lim[level]])) < 0)
            return s->stopped = -2, 1;
    p_backtrack(s, s->depth - 1);
    int c = P_NO_REASON;
    if (s->learnt.size > 1 && (c = p_add_clause(s, s->learnt.data, s->learnt.size, s->learnt.size, 1)) < 0)
        return s->stopped = -2, 1;
    p_assign(s, s->learnt.data[0], c, -1);
    return 0;
}

static int learn(PaintCdcl *s, int conflict)
{
    if (s->trail_size - 1 > s->target_size) {
        s->target_size = s->trail_size - 1;
        memcpy(s->target, s->value, (size_t)s->vars);
    }
    int back_to, lbd = p_analyze(s, conflict, &back_to);
    if (lbd < 0)
        return -1;
    p_backtrack(s, back_to);
    int c = P_NO_REASON;
    if (s->learnt.size > 1 && (c = p_add_clause(s, s->learnt.data, s->learnt.size, lbd, 0)) < 0)
        return -1;
    p_assign(s, s->learnt.data[0], c, -1);
    s->var_inc /= VAR_DECAY;
    s->clause_inc /= CLAUSE_DECAY;
    return 0;
}

/* The search to the end or until it must stop: 1 if complete. */
static int run(PaintCdcl *s)
{
    for (int line = 0; line < s->p.lines && !s->settled; line++)
        paint_enqueue(&s->p, line);
    long long run_end = RESTART_UNIT * luby(s->restarts);
    for (;;) {
        int conflict = p_propagate(s);
        if (s->stopped || must_stop(s) || s->bad_explanation)
            return 0;
        if (conflict != P_NO_CONFLICT) {
            s->conflicts++;
            if (s->depth == 0)
                return 1;
            if (s->conflict_budget > 0 && s->conflicts > s->conflict_budget)
                return s->stopped = 1, 0;
            if (learn(s, conflict) < 0) {
                s->stopped = -2;
                return 0;
            }
            if (s->conflicts >= s->next_reduce) {
                s->next_reduce = s->conflicts + FIRST_REDUCE + REDUCE_STEP * (s->reduced + 1);
                if (p_reduce(s) < 0) {
                    s->stopped = -2;
                    return 0;
                }
            }
            continue;
        }
        if (s->conflicts >= run_end) {
            s->restarts++;
            run_end = s->conflicts + RESTART_UNIT * luby(s->restarts);
            s->target_size = 0;
            p_backtrack(s, 0);
            if (s->why.size > WHY_ROOM) { /* no literal above level 0 is set: none is explained */
                s->why.size = 0;
                memset(s->why_at, -1, (size_t)s->vars * sizeof(int));
            }
            continue;
        }
        int var = -1;
        while (s->heap_size && var < 0) {
            int top = p_heap_pop(s);
            if (s->value[top] < 0)
                var = top;
        }
        if (var < 0) {
            if (solution(s))
                return s->stopped ? 0 : 1;
            continue;
        }
        s->trail_lim[s->depth++] = s->trail_size;
        p_assign(s, P_LIT(var, s->target[var] >= 0 ? s->target[var] : s->phase[var]), P_NO_REASON, -1);
    }
}

static int init(PaintCdcl *s)
{
    Paint *p = &s->p;
    s->height = p->height;
    s->width = p->width;
    s->cells = p->height * p->width;
    s->colours = p->palette + 1;
    int n = s->vars = s->cells * s->colours;
    s->var_inc = 1.0;
    s->clause_inc = 1.0f;
    s->next_reduce = FIRST_REDUCE;
    s->next_look = LOOK_SETTLES;
    size_t removals = 0;
    s->line_base = PyMem_RawMalloc((size_t)p->lines * sizeof(size_t));
    s->line_top = PyMem_RawCalloc((size_t)p->lines, sizeof(int));
    for (int l = 0; s->line_base && l < p->lines; l++) {
        s->line_base[l] = removals;
        removals += (size_t)p->clue[l].length * (size_t)s->colours;
    }
    s->line_trail = PyMem_RawMalloc((removals ? removals : 1) * sizeof(int));
    s->value = PyMem_RawMalloc((size_t)n);
    s->lit_value = PyMem_RawMalloc(2 * (size_t)n);
    s->phase = PyMem_RawMalloc((size_t)n);
    s->root = PyMem_RawMalloc((size_t)s->cells * sizeof(u64));
    s->target = PyMem_RawMalloc((size_t)n);
    s->level = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->pos = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->reason = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->why_at = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->why_size = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->trail = PyMem_RawMalloc((size_t)n * sizeof(Lit));
    s->trail_lim = PyMem_RawMalloc(((size_t)n + 1) * sizeof(int));
    s->watches = PyMem_RawCalloc(2 * (size_t)n, sizeof(PWatches));
    s->activity = PyMem_RawCalloc((size_t)n, sizeof(double));
    s->heap = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->heap_at = PyMem_RawMalloc((size_t)n * sizeof(int));
    s->seen = PyMem_RawCalloc((size_t)n, 1);
    s->level_seen = PyMem_RawCalloc((size_t)n + 1, 1);
    if (!s->line_base || !s->line_top || !s->line_trail || !s->value || !s->lit_value || !s->phase ||
        !s->target || !s->level || !s->pos || !s->reason || !s->why_at || !s->why_size || !s->trail ||
        !s->trail_lim || !s->watches || !s->activity || !s->heap || !s->heap_at || !s->seen ||
        !s->level_seen || !s->root || build_chains(s) < 0)
        return -1;
    if (s->colours <= 8) { /* a cell's colours in a byte: line settles are remembered */
        int longest = p->height > p->width ? p->height : p->width;
        s->memo_stride = 2 * (size_t)longest;
        s->memo = PyMem_RawCalloc((size_t)1 << P_MEMO_BITS, sizeof(PMemo));
        s->memo_cells = PyMem_RawMalloc(((size_t)1 << P_MEMO_BITS) * s->memo_stride);
        if (!s->memo || !s->memo_cells)
            return -1;
        for (size_t e = 0; e < (size_t)1 << P_MEMO_BITS; e++)
            s->memo[e].line = -1;
    }
    memset(s->target, -1, (size_t)n);
    u64 all = s->colours == 64 ? ~(u64)0 : ((u64)1 << s->colours) - 1;
    for (int cell = 0; cell < s->cells; cell++) { /* the board given: facts, set at level 0 off the trail */
        u64 given = p->cells[cell] & all;
        if (!given)
            return -3; /* a cell with no colour: nothing fits */
        p->cells[cell] = s->root[cell] = given;
        int settled = !(given & (given - 1));
        for (int c = 0; c < s->colours; c++) {
            int var = cell * s->colours + c, has = (int)((given >> c) & 1);
            if (has && !settled) { /* open: the search decides it */
                s->value[var] = -1;
                s->lit_value[P_LIT(var, 0)] = s->lit_value[P_LIT(var, 1)] = -1;
                s->phase[var] = c == 0; /* the background first */
                s->heap_at[var] = -1;
                p_heap_insert(s, var);
                continue;
            }
            s->value[var] = (signed char)has;
            s->lit_value[P_LIT(var, has)] = 1;
            s->lit_value[P_LIT(var, !has)] = 0;
            s->level[var] = 0;
            s->pos[var] = -1;
            s->reason[var] = P_NO_REASON;
        }
    }
    return 0;
}

static void release(PaintCdcl *s)
{
    if (s->watches)
        for (int lit = 0; lit < 2 * s->vars; lit++)
            PyMem_RawFree(s->watches[lit].data);
    void *blocks[] = {s->root, s->chain, s->chain_pool, s->work, s->memo, s->memo_cells, s->value, s->lit_value, s->phase, s->target, s->level,
                      s->pos, s->reason, s->line_trail, s->line_base, s->line_top, s->why.data, s->why_at,
                      s->why_size, s->trail, s->trail_lim, s->arena, s->clauses.data, s->watches, s->activity,
                      s->heap, s->heap_at, s->seen, s->level_seen, s->learnt.data, s->stack.data, s->lits.data,
                      s->solutions};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        PyMem_RawFree(blocks[i]);
    free_paint(&s->p);
}

PyObject *py_cdcl_colours(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *row_colours, *columns, *column_colours, *row_not, *col_not, *stop = Py_None, *result = NULL;
    int max_solutions, check = 0, settled = 0;
    long long conflict_budget;
    double seconds;
    Lookout look = {0};
    Py_buffer flag = {0};
    PaintCdcl s;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "OOOOOOiLd|Oppd:cdcl_colours", &rows, &row_colours, &columns, &column_colours,
                          &row_not, &col_not, &max_solutions, &conflict_budget, &seconds, &stop, &check, &settled,
                          &look.each))
        return NULL;
    if (max_solutions < 1)
        return PyErr_Format(PyExc_ValueError, "max_solutions must be at least 1");
    if (stop_flag(stop, &flag, &s.stop) < 0)
        return NULL;
    if (read_paint(&s.p, rows, row_colours, columns, column_colours, row_not, col_not) < 0)
        goto done;
    s.p.capacity = s.p.lines + 1;
    s.p.queue = PyMem_Malloc(sizeof(int) * (size_t)s.p.capacity);
    if (!s.p.queue) {
        PyErr_NoMemory();
        goto done;
    }
    s.max_solutions = max_solutions;
    s.conflict_budget = conflict_budget;
    s.check = check;
    s.settled = settled;
    s.look = &look;
    int ready = init(&s), complete = 1;
    if (ready == -1) {
        PyErr_NoMemory();
        goto done;
    }
    if (lookout_start(&look, seconds) < 0)
        goto done;
    if (ready == 0)
        complete = run(&s);
    lookout_end(&look);
    if (s.stopped == -2)
        PyErr_NoMemory();
    if (s.stopped < 0)
        goto done;
    if (s.bad_explanation) {
        PyErr_SetString(PyExc_AssertionError, "an explanation did not explain its removal");
        goto done;
    }
    size_t cells = (size_t)s.cells;
    PyObject *found = painted_grids(s.solutions, s.found, cells);
    if (found)
        result = Py_BuildValue("(ON{sLsLsLsL})", complete ? Py_True : Py_False, found, "conflicts", s.conflicts,
                               "settles", s.settles, "explanations", s.explanations, "restarts", s.restarts);
done:
    lookout_end(&look);
    release(&s);
    if (flag.obj)
        PyBuffer_Release(&flag);
    return result;
}
