/* nonosat._linecore: the depth-first search, with line logic and probing at every node. */
#include "_linecore.h"

/* Every LOOK_EVERY passes, take the GIL back to hear Ctrl-C and read the clock. Returns
 * s->stopped: nonzero when the search must end. */
static int must_stop(Search *s)
{
    if (s->stopped || s->g->passes < s->next_look)
        return s->stopped;
    s->next_look = s->g->passes + LOOK_EVERY;
    PyEval_RestoreThread(s->thread);
    if (PyErr_CheckSignals() < 0)
        s->stopped = -1;
    else if (s->deadline > 0) {
        PyObject *now = PyObject_CallNoArgs(s->clock);
        double seconds = now ? PyFloat_AsDouble(now) : -1.0;
        Py_XDECREF(now);
        if (PyErr_Occurred())
            s->stopped = -1;
        else if (seconds >= s->deadline)
            s->stopped = 1;
    }
    s->thread = PyEval_SaveThread();
    return s->stopped;
}

enum { FAILED, BRANCH, SOLVED };

/* How a run of the search picks its branch: the cell that maximises `score` over the cells
 * fixed by its two guesses, and the value tried first. Restarts take them in turn. */
typedef enum { BALANCED, PRODUCT } Score;      /* the smaller count first, or their product */
typedef enum { FIXES_MORE, FILLED } Order;     /* the guess that fixes more, or filled */
typedef struct {
    Score score;
    Order order;
} Strategy;

static const Strategy strategies[] = {{BALANCED, FIXES_MORE}, {PRODUCT, FILLED}, {BALANCED, FILLED}, {PRODUCT, FIXES_MORE}};
#define FIRST_BUDGET 64  /* dead ends allowed to each run of the first round of restarts */

/* Probe every unknown cell both ways, with line logic after each guess. A cell whose one value
 * leads to a contradiction takes the other one, until no probe fixes anything; a cell with no
 * value left fails the node (FAILED). Otherwise the node branches (BRANCH) on the best cell by
 * the strategy; with no unknown cell left the board is a solution (SOLVED). */
static int probe(Search *s, Board *b, Strategy how, int *row, int *column, int *value)
{
    Grid *g = s->g;
    Board guess[2];
    const u64 full = full_mask(g->width);
    for (;;) {
        int changed = 0;
        long long best = -1;
        for (int r = 0; r < g->height; r++) {
            for (u64 unknown = full & ~(b->filled[r] | b->empty[r]); unknown; unknown &= unknown - 1) {
                int c = __builtin_ctzll(unknown);
                if (((b->filled[r] | b->empty[r]) >> c) & 1)
                    continue;  /* fixed by an earlier probe of this round */
                long long fixed[2];
                int fits[2];
                for (int v = 0; v < 2; v++) {
                    long long before = g->fixed;
                    copy_board(g, &guess[v], b);
                    fits[v] = set_cell(g, &guess[v], r, c, v);
                    fixed[v] = g->fixed - before;
                }
                if (must_stop(s))
                    return FAILED;
                if (!fits[0] && !fits[1])
                    return FAILED;
                if (!fits[0] || !fits[1]) {
                    copy_board(g, b, &guess[fits[1]]);  /* the value that fits */
                    changed = 1;
                    continue;
                }
                long long low = fixed[0] < fixed[1] ? fixed[0] : fixed[1];
                long long score = how.score == BALANCED ? (low << 16) + fixed[0] + fixed[1]
                                                        : (fixed[0] + 1) * (fixed[1] + 1);
                if (score > best) {
                    best = score;
                    *row = r;
                    *column = c;
                    *value = how.order == FILLED || fixed[1] >= fixed[0];
                }
            }
        }
        if (!changed)
            return best < 0 ? SOLVED : BRANCH;
    }
}

static void record_solution(Search *s, const Board *b)
{
    memcpy(s->solutions + (size_t)s->found++ * s->g->height, b->filled, (size_t)s->g->height * sizeof(u64));
}

/* One depth-first search from the root board (at a fixed point of line logic): probing and a
 * choice of one cell, filled or empty, at every node. Returns 1 if it searched the whole tree
 * or found max_solutions solutions, 0 if it met more than `budget` dead ends first (<= 0: no
 * limit), ran out of s->node_budget, or must stop (s->stopped). */
static int run_search(Search *s, const Board *root, Strategy how, long long budget)
{
    Grid *g = s->g;
    Board board, *b = &board;
    int depth = 0;
    long long failures = 0;  /* dead ends met by this run */
    copy_board(g, b, root);
    for (;;) {
        int row = 0, column = 0, value = 0;
        int node = probe(s, b, how, &row, &column, &value);
        if (s->stopped)
            return 0;
        if (node == SOLVED) {
            record_solution(s, b);
            if (s->found >= s->max_solutions)
                return 1;
        } else if (node == BRANCH) {
            if (s->node_budget > 0 && s->nodes >= s->node_budget)
                return 0;
            s->nodes++;
            Choice *choice = &s->choices[depth++];
            copy_board(g, &choice->before, b);
            choice->row = row;
            choice->column = column;
            choice->value = !value;
            if (set_cell(g, b, row, column, value))
                continue;
        }
        /* A dead end (or a solution): the deepest open choice takes its other value. Once a
         * solution is found the run goes on to the end, so no other run finds it again. */
        if (node != SOLVED && budget > 0 && !s->found && ++failures > budget)
            return 0;
        for (;;) {
            if (depth == 0)
                return 1;  /* the whole tree is searched: every solution is found */
            Choice *choice = &s->choices[--depth];
            copy_board(g, b, &choice->before);
            if (set_cell(g, b, choice->row, choice->column, choice->value))
                break;
            if (must_stop(s))
                return 0;
        }
    }
}

/* The search, restarted: a random puzzle with many solutions can hide them all from an early
 * bad choice, and another strategy often finds them at once. Runs take the strategies in turn,
 * with a budget of dead ends that doubles every round, so a puzzle that needs its whole tree
 * searched costs a few times one run. The run that finds a solution has no budget left to
 * meet. Leaves s->stopped 0 if the search is complete. */
void search_grid(Search *s, Board *root)
{
    Grid *g = s->g;
    for (int line = 0; line < g->lines; line++)
        enqueue(g, line);
    if (run_queue(g, root) >= 0)
        return;  /* no solution at all */
    for (long long budget = FIRST_BUDGET;; budget *= 2)
        for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
            if (run_search(s, root, strategies[i], budget) || s->stopped)
                return;
            if (s->node_budget > 0 && s->nodes >= s->node_budget) {
                s->stopped = 1;  /* out of nodes */
                return;
            }
        }
}

