/* nonosat._core: a conflict-driven search over the cells, with line logic as the propagator
 * of every line (lazy clause generation; types and layout in cdcl.h).
 *
 * As in MiniSat: decisions from a heap of cell scores with saved phases, first-UIP learning, Luby
 * restarts, and learnt clauses watched by two literals. The scores are not VSIDS's but CHB's
 * (conflict history-based branching, Liang et al., AAAI 2016): each cell a propagation fixes is
 * rewarded by how recently it met a conflict's analysis, more when the propagation ends in a
 * conflict. Measured against VSIDS on the 8,000 puzzles of eight fresh tuning sets, each alone
 * both ways up: 30% fewer conflicts, and the race's slowest puzzles faster too (bench/README.md,
 * issue 40). The clues are not clauses: a line whose known cells changed is settled
 * (settle_line, memoised), and the cells it fixes carry the line as reason.
 * Their explanations are made only when an analysis needs them (cdcl_learn.c).
 */
#include "cdcl.h"

/* Double a growing array's room (to `first` items at first): 0, or -1 when memory ran out. */
static int grow(void **data, int *cap, size_t item, int first)
{
    int more = *cap ? 2 * *cap : first;
    void *moved = PyMem_RawRealloc(*data, (size_t)more * item);
    if (!moved)
        return -1;
    *data = moved;
    *cap = more;
    return 0;
}

int vec_grow(Vec *v) { return grow((void **)&v->data, &v->cap, sizeof(int), 64); }

/* ---------------------------------------------------------------- the order of decisions ---- */

static void heap_up(Cdcl *s, int i)
{
    int x = s->heap[i];
    while (i > 0) {
        int parent = (i - 1) >> 1;
        if (!(s->activity[x] > s->activity[s->heap[parent]]))
            break;
        s->heap[i] = s->heap[parent];
        s->heap_at[s->heap[i]] = i;
        i = parent;
    }
    s->heap[i] = x;
    s->heap_at[x] = i;
}

static void heap_down(Cdcl *s, int i)
{
    int x = s->heap[i];
    for (;;) {
        int child = 2 * i + 1;
        if (child >= s->heap_size)
            break;
        if (child + 1 < s->heap_size && s->activity[s->heap[child + 1]] > s->activity[s->heap[child]])
            child++;
        if (!(s->activity[s->heap[child]] > s->activity[x]))
            break;
        s->heap[i] = s->heap[child];
        s->heap_at[s->heap[i]] = i;
        i = child;
    }
    s->heap[i] = x;
    s->heap_at[x] = i;
}

void heap_insert(Cdcl *s, int cell)
{
    if (s->heap_at[cell] >= 0)
        return;
    s->heap[s->heap_size] = cell;
    s->heap_at[cell] = s->heap_size++;
    heap_up(s, s->heap_at[cell]);
}

int heap_pop(Cdcl *s)
{
    int top = s->heap[0];
    s->heap_at[top] = -1;
    if (--s->heap_size) {
        s->heap[0] = s->heap[s->heap_size];
        s->heap_at[s->heap[0]] = 0;
        heap_down(s, 0);
    }
    return top;
}

/* A cell met in a conflict's analysis: its rewards grow (they shrink with the conflicts since). */
void bump_cell(Cdcl *s, int cell) { s->last_conflict[cell] = s->conflicts; }

#define REWARD_NO_CONFLICT 0.9 /* a propagation that ends without a conflict rewards less (CHB's) */
#define LAST_STEP_SIZE 0.06    /* the step size falls from 0.4 by 1e-6 a conflict to this */

/* CHB's update after a propagation (`conflict`: whether it ended in one): each cell fixed since
 * rewarded_from moves its score toward 1 / (conflicts since it last met an analysis + 1). */
void reward_cells(Cdcl *s, int conflict)
{
    double multiplier = conflict ? 1.0 : REWARD_NO_CONFLICT, step = s->step_size;
    for (int i = s->rewarded_from; i < s->trail_size; i++) {
        int cell = CELL(s->trail[i]);
        double before = s->activity[cell];
        double reward = multiplier / (double)(s->conflicts - s->last_conflict[cell] + 1);
        s->activity[cell] = (1 - step) * before + step * reward;
        if (s->heap_at[cell] < 0)
            continue;
        if (s->activity[cell] > before)
            heap_up(s, s->heap_at[cell]);
        else
            heap_down(s, s->heap_at[cell]);
    }
    s->rewarded_from = s->trail_size;
    if (conflict && s->step_size > LAST_STEP_SIZE)
        s->step_size -= 1e-6;
}

/* ---------------------------------------------------------------- the trail ----------------- */

/* Make lit true at the current level, and queue its row and column (but from_line, whose
 * settle fixed it). */
void assign(Cdcl *s, Lit lit, int reason, int from_line)
{
    int cell = CELL(lit), filled = lit & 1;
    int row = s->cell_row[cell], column = s->cell_col[cell], col_line = s->height + column;
    s->line_trail[row * MAX_SIDE + s->line_top[row]++] = column << 1 | filled;
    s->line_trail[col_line * MAX_SIDE + s->line_top[col_line]++] = row << 1 | filled;
    s->value[cell] = (signed char)filled;
    s->lit_value[lit] = 1;
    s->lit_value[NEG(lit)] = 0;
    s->level[cell] = s->depth;
    s->pos[cell] = s->trail_size;
    s->reason[cell] = reason;
    s->explained[cell] = 0;
    s->trail[s->trail_size++] = lit;
    Cells *masks = filled ? s->board.filled : s->board.empty;
    masks[row] |= (Cells)1 << column;
    masks[col_line] |= (Cells)1 << row;
    if (from_line != row)
        enqueue(s->g, row);
    if (from_line != col_line)
        enqueue(s->g, col_line);
}

static void clear_queue(Grid *g)
{
    g->head = g->count = 0;
    memset(g->queued, 0, sizeof g->queued);
}

void backtrack(Cdcl *s, int level)
{
    if (s->depth <= level)
        return;
    for (int i = s->trail_size - 1; i >= s->trail_lim[level]; i--) {
        int cell = CELL(s->trail[i]);
        int row = s->cell_row[cell], column = s->cell_col[cell];
        s->line_top[row]--;
        s->line_top[s->height + column]--;
        Cells *masks = s->value[cell] ? s->board.filled : s->board.empty;
        masks[row] &= ~((Cells)1 << column);
        masks[s->height + column] &= ~((Cells)1 << row);
        s->phase[cell] = s->value[cell];
        s->value[cell] = -1;
        s->lit_value[2 * cell] = s->lit_value[2 * cell + 1] = -1;
        heap_insert(s, cell);
    }
    s->trail_size = s->clause_head = s->trail_lim[level];
    s->depth = level;
    clear_queue(s->g);  /* the board of every level was at a fixed point when the next began */
}

/* ---------------------------------------------------------------- propagation --------------- */

static inline int watch(Watches *w, int clause, Lit blocker)
{
    if (w->size == w->cap && grow((void **)&w->data, &w->cap, sizeof(Watch), 8) < 0)
        return -1;
    w->data[w->size].clause = clause;
    w->data[w->size++].blocker = blocker;
    return 0;
}

int watch_clause(Cdcl *s, int c)
{
    Lit *lits = C_LITS(s, c);
    return watch(&s->watches[lits[0]], c, lits[1]) | watch(&s->watches[lits[1]], c, lits[0]);
}

/* Unit propagation over the learnt clauses, MiniSat's way. Returns a false clause or NO_CONFLICT
 * (or -2 - cells when memory ran out: s->stopped is set). */
static int propagate_clauses(Cdcl *s)
{
    const signed char *lit_value = s->lit_value;
    while (s->clause_head < s->trail_size) {
        Lit false_lit = NEG(s->trail[s->clause_head++]);
        Watches *ws = &s->watches[false_lit];
        int i = 0, j = 0, n = ws->size;
        while (i < n) {
            Watch w = ws->data[i++];
            if (lit_value[w.blocker] == 1) {
                ws->data[j++] = w;
                continue;
            }
            int c = w.clause, size = C_SIZE(s, c), k;
            Lit *lits = C_LITS(s, c);
            if (lits[0] == false_lit) {
                lits[0] = lits[1];
                lits[1] = false_lit;
            }
            Lit first = lits[0];
            Watch kept = {c, first};
            if (first != w.blocker && lit_value[first] == 1) {
                ws->data[j++] = kept;
                continue;
            }
            for (k = 2; k < size && lit_value[lits[k]] == 0; k++)
                ;
            if (k < size) {
                lits[1] = lits[k];
                lits[k] = false_lit;
                if (watch(&s->watches[lits[1]], c, first) < 0)
                    s->stopped = -2;
                continue;
            }
            ws->data[j++] = kept;
            if (lit_value[first] == 0) {
                while (i < n)
                    ws->data[j++] = ws->data[i++];
                ws->size = j;
                s->clause_head = s->trail_size;
                return c;
            }
            assign(s, first, c, -1);
        }
        ws->size = j;
    }
    return NO_CONFLICT;
}

/* The cell at index i of a line. */
static inline int line_cell(const Cdcl *s, int line, int i)
{
    return line < s->height ? line * s->width + i : i * s->width + (line - s->height);
}

/* Clauses, then one queued line at a time, until nothing changes. Returns the conflict: a
 * clause, a line (LINE_REASON), or NO_CONFLICT. */
int propagate_all(Cdcl *s)
{
    Grid *g = s->g;
    for (;;) {
        int conflict = propagate_clauses(s);
        if (conflict != NO_CONFLICT || !g->count)
            return conflict;
        int line = g->queue[g->head];
        g->head = g->head + 1 < g->capacity ? g->head + 1 : 0;
        g->count--;
        g->queued[line] = 0;
        s->settles++;
        if (g->count) { /* the next line's memo entry, while this one settles (if it still reads so) */
            int next = g->queue[g->head];
            memo_prefetch(g, next, s->board.filled[next], s->board.empty[next]);
        }
        Cells filled = s->board.filled[line], empty = s->board.empty[line], new_filled, new_empty;
        if (!settle_memo(g, line, filled, empty, &new_filled, &new_empty)) {
            clear_queue(g);
            s->clause_head = s->trail_size;
            return LINE_REASON(line);
        }
        for (Cells news = new_filled & ~filled; news; news &= news - 1)
            assign(s, LIT(line_cell(s, line, first_cell(news)), 1), LINE_REASON(line), line);
        for (Cells news = new_empty & ~empty; news; news &= news - 1)
            assign(s, LIT(line_cell(s, line, first_cell(news)), 0), LINE_REASON(line), line);
    }
}
