/* nonosat._core: the trail and propagation of the conflict-driven search for any palette and
 * size (types and layout in paint_cdcl.h).
 *
 * As cdcl_trail.c in black and white, but with VSIDS's scores (not CHB's) over the variables:
 * a trail of literals, learnt clauses watched by two literals, and a queue of lines whose cells
 * changed, each settled by line logic (settle_paint); the colours it removes carry the line as
 * reason. A cell's exactly-one is kept as the literals are set: a colour made true removes the
 * others at once, and a cell left one colour has it.
 */
#include "paint_cdcl.h"

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

int pvec_push(PVec *v, int x)
{
    if (v->size == v->cap && grow((void **)&v->data, &v->cap, sizeof(int), 64) < 0)
        return -1;
    v->data[v->size++] = x;
    return 0;
}

/* ---------------------------------------------------------------- the order of decisions ---- */

static void heap_up(PaintCdcl *s, int i)
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

static void heap_down(PaintCdcl *s, int i)
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

void p_heap_insert(PaintCdcl *s, int var)
{
    if (s->heap_at[var] >= 0)
        return;
    s->heap[s->heap_size] = var;
    s->heap_at[var] = s->heap_size++;
    heap_up(s, s->heap_at[var]);
}

int p_heap_pop(PaintCdcl *s)
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

void p_bump(PaintCdcl *s, int var)
{
    if ((s->activity[var] += s->var_inc) > 1e100) {
        for (int i = 0; i < s->vars; i++)
            s->activity[i] *= 1e-100;
        s->var_inc *= 1e-100;
    }
    if (s->heap_at[var] >= 0)
        heap_up(s, s->heap_at[var]);
}

/* ---------------------------------------------------------------- the trail ----------------- */

static void set_lit(PaintCdcl *s, Lit lit, int reason)
{
    int var = P_VAR(lit);
    s->value[var] = (signed char)(lit & 1);
    s->lit_value[lit] = 1;
    s->lit_value[P_NEG(lit)] = 0;
    s->level[var] = s->depth;
    s->pos[var] = s->trail_size;
    s->reason[var] = reason;
    s->why_at[var] = -1;
    s->trail[s->trail_size++] = lit;
}

/* Make lit true at the current level (its cell's exactly-one with it), and queue the row and
 * column of every colour removed (but from_line, whose settle removed it). */
void p_assign(PaintCdcl *s, Lit lit, int reason, int from_line)
{
    int var = P_VAR(lit), cell = var / s->colours, colour = var % s->colours;
    set_lit(s, lit, reason);
    u64 *cells = &s->p.cells[cell];
    if (lit & 1) { /* the cell has this colour: the others go */
        for (u64 others = *cells & ~((u64)1 << colour); others; others &= others - 1) {
            int other = cell * s->colours + __builtin_ctzll(others);
            if (s->value[other] < 0)
                p_assign(s, P_LIT(other, 0), P_ONE_COLOUR, -1);
        }
        return;
    }
    int row = cell / s->width, column = cell % s->width, col_line = s->height + column;
    *cells &= ~((u64)1 << colour);
    s->line_trail[s->line_base[row] + (size_t)s->line_top[row]++] = column * 64 + colour;
    s->line_trail[s->line_base[col_line] + (size_t)s->line_top[col_line]++] = row * 64 + colour;
    if (from_line != row)
        paint_enqueue(&s->p, row);
    if (from_line != col_line)
        paint_enqueue(&s->p, col_line);
    u64 left = *cells;
    if (left && !(left & (left - 1))) { /* one colour left: the cell has it */
        int last = cell * s->colours + __builtin_ctzll(left);
        if (s->value[last] < 0)
            p_assign(s, P_LIT(last, 1), P_LAST_COLOUR, -1);
    }
}

static void clear_queue(Paint *p)
{
    p->head = p->count = 0;
    memset(p->queued, 0, (size_t)p->lines);
}

void p_backtrack(PaintCdcl *s, int level)
{
    if (s->depth <= level)
        return;
    for (int i = s->trail_size - 1; i >= s->trail_lim[level]; i--) {
        Lit lit = s->trail[i];
        int var = P_VAR(lit), cell = var / s->colours;
        if (!(lit & 1)) {
            s->p.cells[cell] |= (u64)1 << (var % s->colours);
            s->line_top[cell / s->width]--;
            s->line_top[s->height + cell % s->width]--;
        }
        s->phase[var] = (signed char)(lit & 1);
        s->value[var] = -1;
        s->lit_value[lit] = s->lit_value[P_NEG(lit)] = -1;
        s->why_at[var] = -1;
        p_heap_insert(s, var);
    }
    s->trail_size = s->clause_head = s->trail_lim[level];
    s->depth = level;
    clear_queue(&s->p); /* the board of every level was at a fixed point when the next began */
}

/* ---------------------------------------------------------------- propagation --------------- */

static inline int watch(PWatches *w, int clause, Lit blocker)
{
    if (w->size == w->cap && grow((void **)&w->data, &w->cap, sizeof(PWatch), 8) < 0)
        return -1;
    w->data[w->size].clause = clause;
    w->data[w->size++].blocker = blocker;
    return 0;
}

int p_watch_clause(PaintCdcl *s, int c)
{
    Lit *lits = s->arena + c + P_HEADER;
    return watch(&s->watches[lits[0]], c, lits[1]) | watch(&s->watches[lits[1]], c, lits[0]);
}

/* Unit propagation over the learnt clauses, MiniSat's way: a false clause, or P_NO_CONFLICT. */
static int propagate_clauses(PaintCdcl *s)
{
    const signed char *lit_value = s->lit_value;
    while (s->clause_head < s->trail_size) {
        Lit false_lit = P_NEG(s->trail[s->clause_head++]);
        PWatches *ws = &s->watches[false_lit];
        int i = 0, j = 0, n = ws->size;
        while (i < n) {
            PWatch w = ws->data[i++];
            if (lit_value[w.blocker] == 1) {
                ws->data[j++] = w;
                continue;
            }
            int c = w.clause, size = s->arena[c], k;
            Lit *lits = s->arena + c + P_HEADER;
            if (lits[0] == false_lit) {
                lits[0] = lits[1];
                lits[1] = false_lit;
            }
            Lit first = lits[0];
            PWatch kept = {c, first};
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
            p_assign(s, first, c, -1);
        }
        ws->size = j;
    }
    return P_NO_CONFLICT;
}

/* chain_settle, remembered: a line settled again with the same cells (after a backjump or a
 * restart) is read back. */
static int settle_remembered(PaintCdcl *s, int line, u64 *dom)
{
    if (!s->memo)
        return chain_settle(s, line, dom);
    const int n = s->p.clue[line].length;
    u64 hash = 0x9E3779B97F4A7C15u * (u64)(line + 1);
    for (int i = 0; i < n; i++)
        hash = (hash ^ dom[i]) * 0x100000001B3u;
    hash ^= hash >> 29;
    size_t slot = (size_t)(hash & (((u64)1 << P_MEMO_BITS) - 1));
    PMemo *entry = &s->memo[slot];
    unsigned char *before = s->memo_cells + slot * s->memo_stride, *after = before + n;
    if (entry->hash == hash && entry->line == line) {
        int same = 1;
        for (int i = 0; i < n && same; i++)
            same = before[i] == dom[i];
        if (same) {
            if (entry->fits)
                for (int i = 0; i < n; i++)
                    dom[i] = after[i];
            return entry->fits;
        }
    }
    for (int i = 0; i < n; i++)
        before[i] = (unsigned char)dom[i];
    int fits = chain_settle(s, line, dom);
    if (fits)
        for (int i = 0; i < n; i++)
            after[i] = (unsigned char)dom[i];
    entry->hash = hash;
    entry->line = line;
    entry->fits = fits;
    return fits;
}

/* Clauses, then one queued line at a time, until nothing changes. Returns the conflict: a
 * clause, a line (P_LINE), or P_NO_CONFLICT. */
int p_propagate(PaintCdcl *s)
{
    Paint *p = &s->p;
    for (;;) {
        int conflict = propagate_clauses(s);
        if (conflict != P_NO_CONFLICT || !p->count)
            return conflict;
        int l = p->queue[p->head];
        p->head = p->head + 1 < p->capacity ? p->head + 1 : 0;
        p->count--;
        p->queued[l] = 0;
        s->settles++;
        const int n = p->clue[l].length;
        for (int i = 0; i < n; i++)
            p->line[i] = p->old[i] = p->cells[p_line_cell(s, l, i)];
        if (!settle_remembered(s, l, p->line)) {
            clear_queue(p);
            s->clause_head = s->trail_size;
            return P_LINE(l);
        }
        for (int i = 0; i < n; i++) {
            if (p->line[i] == p->old[i])
                continue;
            int cell = p_line_cell(s, l, i);
            for (u64 gone = p->old[i] & ~p->line[i]; gone; gone &= gone - 1) {
                int var = cell * s->colours + __builtin_ctzll(gone);
                if (s->value[var] < 0)
                    p_assign(s, P_LIT(var, 0), P_LINE(l), l);
            }
        }
    }
}
