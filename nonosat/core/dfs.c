/* nonosat._core: the depth-first search, with line logic and probing at every node. */
#include "core.h"

/* Every LOOK_EVERY passes, take the GIL back to hear Ctrl-C and read the clock. Returns
 * s->stopped: nonzero when the search must end. */
static int must_stop(Search *s)
{
    if (s->stopped || s->g->passes < s->next_look)
        return s->stopped;
    s->next_look = s->g->passes + LOOK_EVERY;
    if (s->stop && *s->stop)
        return s->stopped = 1;
    return s->stopped = lookout_look(&s->look);
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

/* The board changed on `lines`: the records that share one of them no longer hold. */
static void forget(Search *s, const u64 lines[LINE_WORDS])
{
    const ProbeRecord *record = s->records;
    unsigned char *holds = s->holds;
#if LINE_WORDS == 2  /* the narrow build: written out, the compiler vectorises it (14% faster) */
    const u64 first = lines[0], second = lines[1];
    for (int i = 0; i < 2 * s->cells; i++)
        holds[i] &= ((record[i].lines[0] & first) | (record[i].lines[1] & second)) == 0;
#else
    for (int i = 0; i < 2 * s->cells; i++) {  /* without a branch */
        u64 shared = 0;
        for (int w = 0; w < LINE_WORDS; w++)
            shared |= record[i].lines[w] & lines[w];
        holds[i] &= shared == 0;
    }
#endif
}

/* Probe one cell with one value on board b, into `guess`; keeps the record when it fits. */
static int probe_cell(Search *s, const Board *b, Board *guess, int r, int c, int v)
{
    Grid *g = s->g;
    int i = 2 * (r * g->width + c) + v;
    long long before = g->fixed;
    copy_board(g, guess, b);
    memset(g->touched, 0, sizeof g->touched);
    if (!set_cell(g, guess, r, c, v))
        return 0;
    s->records[i].fixed = g->fixed - before;
    memcpy(s->records[i].lines, g->touched, sizeof g->touched);
    mark_line(s->records[i].lines, r);  /* the probed cell's own lines */
    mark_line(s->records[i].lines, g->height + c);
    s->holds[i] = (unsigned char)s->reuse;
    return 1;
}

/* Probe every unknown cell both ways, with line logic after each guess. A cell whose one value
 * leads to a contradiction takes the other one, until no probe fixes anything; a cell with no
 * value left fails the node (FAILED). Otherwise the node branches (BRANCH) on the best cell by
 * the strategy; with no unknown cell left the board is a solution (SOLVED). A probe whose record
 * still holds is not made again: it would fix the same cells (see ProbeRecord). */
static int probe(Search *s, Board *b, Strategy how, int *row, int *column, int *value)
{
    Grid *g = s->g;
    Board guess[2];
    const Cells full = full_mask(g->width);
    for (;;) {
        int changed = 0;
        long long best = -1;
        for (int r = 0; r < g->height; r++) {
            for (Cells unknown = full & ~(b->filled[r] | b->empty[r]); unknown; unknown &= unknown - 1) {
                int c = first_cell(unknown);
                if (((b->filled[r] | b->empty[r]) >> c) & 1)
                    continue;  /* fixed by an earlier probe of this round */
                int cell = 2 * (r * g->width + c);
                int fits[2], made[2];
                for (int v = 0; v < 2; v++) {
                    made[v] = !s->holds[cell + v];
                    fits[v] = made[v] ? probe_cell(s, b, &guess[v], r, c, v) : 1;
                }
                if (must_stop(s))
                    return FAILED;
                if (!fits[0] && !fits[1])
                    return FAILED;
                if (!fits[0] || !fits[1]) {
                    int v = fits[1];  /* the value that fits */
                    if (!made[v] && !probe_cell(s, b, &guess[v], r, c, v))
                        return FAILED;  /* made afresh, it fails too: no value fits */
                    u64 lines[LINE_WORDS];
                    memcpy(lines, s->records[cell + v].lines, sizeof lines);
                    copy_board(g, b, &guess[v]);
                    forget(s, lines);
                    changed = 1;
                    continue;
                }
                long long fixed[2] = {s->records[cell].fixed, s->records[cell + 1].fixed};
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

/* Keep the records of the board at the choice of this depth, or give them back. */
static void keep_records(Search *s, int depth)
{
    if (depth >= s->levels)
        return;
    size_t n = 2 * (size_t)s->cells;
    memcpy(s->saved + (size_t)depth * n, s->records, n * sizeof(ProbeRecord));
    memcpy(s->saved_holds + (size_t)depth * n, s->holds, n);
}

static void restore_records(Search *s, int depth)
{
    size_t n = 2 * (size_t)s->cells;
    if (depth >= s->levels) {
        memset(s->holds, 0, n);
        return;
    }
    memcpy(s->records, s->saved + (size_t)depth * n, n * sizeof(ProbeRecord));
    memcpy(s->holds, s->saved_holds + (size_t)depth * n, n);
}

/* Set a cell the search chose, and forget the records its probe's lines touch. */
static int choose(Search *s, Board *b, int row, int column, int value)
{
    int i = 2 * (row * s->g->width + column) + value;
    u64 lines[LINE_WORDS];
    memcpy(lines, s->records[i].lines, sizeof lines);
    if (!s->holds[i])
        memset(lines, 0xff, sizeof lines);  /* no record: forget them all */
    if (!set_cell(s->g, b, row, column, value))
        return 0;
    forget(s, lines);
    return 1;
}

static void record_solution(Search *s, const Board *b)
{
    memcpy(s->solutions + (size_t)s->found++ * s->g->height, b->filled, (size_t)s->g->height * sizeof(Cells));
    lookout_kept(&s->look);
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
    memset(s->holds, 0, 2 * (size_t)s->cells);  /* records of another run's boards */
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
            keep_records(s, depth - 1);
            choice->row = row;
            choice->column = column;
            choice->value = !value;
            if (choose(s, b, row, column, value))
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
            restore_records(s, depth);
            if (choose(s, b, choice->row, choice->column, choice->value))
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

