/* nonosat._core: one line's deduction, and line logic over a grid.
 *
 * A line's clue is read by its chain automaton (see nonosat/solver/line_logic.py): one state per cell of every
 * block and one gap state before, between and after the blocks. A clue that fits n cells has at
 * most n + 2 states, so state sets are 128-bit masks (n <= 126), or 64-bit ones when the clue is
 * short enough.
 */
#include "core.h"

/* ---------------------------------------------------------------- one line ------------------ */

/* Build the automaton of a clue of `count` blocks: Z0, the cells of block 1, Z1, ..., Zk. */
void compile_clue(LineClue *line, const long *blocks, int count, int length)
{
    long used = count ? count - 1 : 0;  /* the cells the clue needs: blocks and one-cell gaps */
    memset(line, 0, sizeof *line);
    line->length = length;
    for (int j = 0; j < count; j++)
        used += blocks[j];
    if (used > length) {
        line->impossible = 1;
        return;
    }
    int state = 1;  /* state 0 is the leading gap */
    for (int j = 0; j < count; j++) {
        line->ones |= (((u128)1 << blocks[j]) - 1) << state;
        state += (int)blocks[j] + 1;  /* the block's cells, then the gap after it */
    }
    u128 everything = state >= 128 ? ~(u128)0 : ((u128)1 << state) - 1;  /* state <= MAX_SIDE + 2 */
    u128 last_gap = (u128)1 << (state - 1);
    line->zeros = everything & ~line->ones;
    line->accept = last_gap | (count ? last_gap >> 1 : 0);
    line->wide = state > 64;
}

/* Settle one line with state sets of type T: a forward pass keeps the states reachable after
 * each cell, a backward pass those from which the line can still be completed. A cell must be
 * filled if no surviving state there is a gap state, empty if none is a block state. */
#define DEFINE_SETTLE(NAME, T)                                                                 \
    static int NAME(const LineClue *line, Cells filled, Cells empty, Cells *out_filled,       \
                    Cells *out_empty)                                                         \
    {                                                                                          \
        const T ones = (T)line->ones, zeros = (T)line->zeros, accept = (T)line->accept;        \
        T reached[MAX_SIDE];                                                                   \
        T active = 1; /* before the first cell: in the leading gap */                          \
        const int n = line->length;                                                            \
        for (int i = 0; i < n; i++) {                                                          \
            T is_filled = (T)0 - (T)((filled >> i) & 1); /* all ones if the cell is filled */  \
            T is_empty = (T)0 - (T)((empty >> i) & 1);                                         \
            active = ((active << 1) | (active & zeros)) & ~(zeros & is_filled)                 \
                     & ~(ones & is_empty) & (ones | zeros);                                    \
            if (!active)                                                                       \
                return 0;                                                                      \
            reached[i] = active;                                                               \
        }                                                                                      \
        active &= accept;                                                                      \
        if (!active)                                                                           \
            return 0;                                                                          \
        Cells may_fill = 0, may_empty = 0;                                                     \
        for (int i = n - 1;; i--) {                                                            \
            may_fill |= (Cells)((active & ones) != 0) << i;                                    \
            may_empty |= (Cells)((active & zeros) != 0) << i;                                  \
            if (i == 0)                                                                        \
                break;                                                                         \
            active = ((active >> 1) | (active & zeros)) & reached[i - 1];                      \
        }                                                                                      \
        *out_filled = full_mask(n) & ~may_empty;                                               \
        *out_empty = full_mask(n) & ~may_fill;                                                 \
        return 1;                                                                              \
    }

DEFINE_SETTLE(settle_narrow, u64)
DEFINE_SETTLE(settle_wide, u128)

/* Every cell the clue decides from the line's known cells: 1 with the masks, 0 if none fits. */
int settle_line(const LineClue *line, Cells filled, Cells empty, Cells *out_filled, Cells *out_empty)
{
    if (line->impossible || (filled & empty))
        return 0;
    if (line->wide)
        return settle_wide(line, filled, empty, out_filled, out_empty);
    return settle_narrow(line, filled, empty, out_filled, out_empty);
}


/* ---------------------------------------------------------------- a grid's line logic ------- */

void copy_board(const Grid *g, Board *to, const Board *from)
{
    memcpy(to->filled, from->filled, (size_t)g->lines * sizeof(Cells));
    memcpy(to->empty, from->empty, (size_t)g->lines * sizeof(Cells));
}

void push(Grid *g, int line)
{
    int slot = g->head + g->count++;
    g->queue[slot < g->capacity ? slot : slot - g->capacity] = line;  /* a ring, without a division */
    g->queued[line] = 1;
}

/* Queue a line unless it is already waiting. */
void enqueue(Grid *g, int line)
{
    if (!g->queued[line])
        push(g, line);
}

static inline MemoEntry *memo_entry(Grid *g, int line, Cells filled, Cells empty)
{
    u64 hash = ((cells_fold(filled) * 0x9E3779B97F4A7C15u) ^ (cells_fold(empty) * 0xC2B2AE3D27D4EB4Fu)) +
               (u64)line * 0x165667B19E3779F9u;
    return &g->memo[(hash ^ (hash >> 29)) >> (64 - MEMO_BITS)];
}

/* Start loading the memo entry of a line's known cells into the cache. */
void memo_prefetch(Grid *g, int line, Cells filled, Cells empty)
{
    if (g->memo)
        __builtin_prefetch(memo_entry(g, line, filled, empty));
}

int settle_memo(Grid *g, int line, Cells filled, Cells empty, Cells *out_filled, Cells *out_empty)
{
    if (!g->memo)
        return settle_line(&g->clue[line], filled, empty, out_filled, out_empty);
    MemoEntry *entry = memo_entry(g, line, filled, empty);
    if (entry->line != line + 1 || entry->filled != filled || entry->empty != empty) {
        entry->line = line + 1;
        entry->filled = filled;
        entry->empty = empty;
        entry->fits = settle_line(&g->clue[line], filled, empty, &entry->new_filled, &entry->new_empty);
    }
    *out_filled = entry->new_filled;
    *out_empty = entry->new_empty;
    return entry->fits;
}

/* Mark lines first + i touched for every bit i of `bits` (a line's cells: its crossing lines). */
static void touch_lines(Grid *g, int first, Cells bits)
{
#ifdef CORE_WIDE
    for (; bits; bits &= bits - 1)
        mark_line(g->touched, first + first_cell(bits));
#else
    int shift = first & 63;
    u64 *word = &g->touched[first >> 6];
    word[0] |= bits << shift;
    if (shift && first < 64)
        word[1] |= bits >> (64 - shift);
#endif
}

/* Pass over the queued lines until none is left, as propagation.propagate does: take the first
 * line, settle it, and queue the crossing line of every cell it fixed (filled cells first, then
 * empty ones, each by ascending index). Returns -1, or the line found in contradiction (the
 * queue is then emptied and the board half done). */
int run_queue(Grid *g, Board *b)
{
    while (g->count) {
        int line = g->queue[g->head];
        g->head = g->head + 1 < g->capacity ? g->head + 1 : 0;
        g->count--;
        g->queued[line] = 0;
        g->passes++;
        Cells filled = b->filled[line], empty = b->empty[line], new_filled, new_empty;
        if (!settle_memo(g, line, filled, empty, &new_filled, &new_empty)) {
            g->head = g->count = 0;  /* empty the queue */
            memset(g->queued, 0, sizeof g->queued);
            return line;
        }
        new_filled &= ~filled;
        new_empty &= ~empty;
        if (!(new_filled | new_empty))
            continue;
        b->filled[line] = filled | new_filled;
        b->empty[line] = empty | new_empty;
        int is_row = line < g->height;
        int crossing = is_row ? g->height : 0;  /* the first crossing line's number */
        Cells bit = (Cells)1 << (is_row ? line : line - g->height);
        mark_line(g->touched, line);
        touch_lines(g, crossing, new_filled | new_empty);
        for (Cells news = new_filled; news; news &= news - 1) {  /* counts them without popcount */
            int j = crossing + first_cell(news);
            b->filled[j] |= bit;
            enqueue(g, j);
            g->fixed++;
        }
        for (Cells news = new_empty; news; news &= news - 1) {
            int j = crossing + first_cell(news);
            b->empty[j] |= bit;
            enqueue(g, j);
            g->fixed++;
        }
    }
    return -1;
}

/* Fix one cell (row, column) to filled or empty, and propagate from its row and column.
 * Returns 1, or 0 on a contradiction. */
int set_cell(Grid *g, Board *b, int row, int column, int filled)
{
    int col_line = g->height + column;
    Cells *masks = filled ? b->filled : b->empty;
    Cells *others = filled ? b->empty : b->filled;
    if ((others[row] >> column) & 1)
        return 0;
    masks[row] |= (Cells)1 << column;
    masks[col_line] |= (Cells)1 << row;
    enqueue(g, row);
    enqueue(g, col_line);
    return run_queue(g, b) < 0;
}

