/* nonosat._core: why line logic fixed a cell, for the conflict-driven search's analysis
 * (see cdcl.h).
 *
 * A cell fixed by line logic is explained by the line's cells known before it: line logic on
 * those alone fixes it too. The explanation is shrunk greedily, dropping the latest known cells
 * first while the rest still force the cell (or, for a line in contradiction, still leave it
 * no completion), so that learnt clauses are short and reach back to early levels.
 *
 * Each test walks the line's automaton only between the dropped cell and the target. The
 * states at boundary j (before cell j) that the start reaches through the known cells are
 * reach[j]; those from which the rest of the line can be completed are alive[j]. The target t
 * is forced to `value` when no state reached at t steps to a state of the other value that is
 * alive after t. Dropping a cell before t changes reach between it and t, one after t changes
 * alive between t and it; nothing else. A walk that meets the old states (the same set at
 * the same boundary) stops there: from that boundary on nothing changes, so the cell goes.
 */
#include "cdcl.h"

static inline int line_cell(const Cdcl *s, int line, int i)
{
    return line < s->height ? line * s->width + i : i * s->width + (line - s->height);
}

/* The states a cell admits after it is read: block states if filled, gap states if empty. */
#define CELL_MASK(j) (((filled >> (j)) & 1) ? ones : ((empty >> (j)) & 1) ? zeros : all)
#define STEP(x) (((x) << 1) | ((x) & zeros))
#define BACK(x) (((x) >> 1) | ((x) & zeros))

#define DEFINE_SHRINK(NAME, T)                                                                 \
    static void NAME(const LineClue *line, Cells *filled_io, Cells *empty_io, const int *order, \
                     int count, int target, int value)                                          \
    {                                                                                          \
        const T ones = (T)line->ones, zeros = (T)line->zeros, all = ones | zeros;               \
        const T accept = (T)line->accept, other = value ? zeros : ones;                        \
        const int n = line->length, end = target < 0 ? n : target;                             \
        Cells filled = *filled_io, empty = *empty_io;                                          \
        T reach[MAX_SIDE + 1], alive[MAX_SIDE + 1], walk[MAX_SIDE + 1], cell[MAX_SIDE];        \
        for (int j = 0; j < n; j++)                                                            \
            cell[j] = CELL_MASK(j);                                                            \
        reach[0] = 1;                                                                          \
        for (int j = 0; j < end; j++)                                                          \
            reach[j + 1] = STEP(reach[j]) & cell[j];                                           \
        alive[n] = accept;                                                                     \
        for (int j = n - 1; target >= 0 && j > target; j--)                                    \
            alive[j] = BACK(alive[j + 1] & cell[j]);                                           \
        for (int k = 0; k < count; k++) {                                                      \
            const int j = order[k];                                                            \
            const Cells drop = ~((Cells)1 << j);                                               \
            int holds;                                                                         \
            if (j < end) { /* a walk from j on, until it meets the old reach */                \
                int i = j + 1;                                                                 \
                walk[i] = STEP(reach[j]) & all;                                                \
                for (; i < end && walk[i] != reach[i]; i++)                                    \
                    walk[i + 1] = STEP(walk[i]) & cell[i];                                     \
                holds = walk[i] == reach[i] ||                                                 \
                        (target < 0 ? !(walk[n] & accept)                                      \
                                    : !(STEP(walk[target]) & other & alive[target + 1]));      \
                if (holds)                                                                     \
                    memcpy(reach + j + 1, walk + j + 1, (size_t)(i - j) * sizeof(T));          \
            } else { /* a walk back from j, until it meets the old alive */                    \
                int i = j;                                                                     \
                walk[i] = BACK(alive[j + 1] & all);                                            \
                for (; i > target + 1 && walk[i] != alive[i]; i--)                             \
                    walk[i - 1] = BACK(walk[i] & cell[i - 1]);                                 \
                holds = walk[i] == alive[i] || !(STEP(reach[target]) & other & walk[target + 1]); \
                if (holds)                                                                     \
                    memcpy(alive + i, walk + i, (size_t)(j - i + 1) * sizeof(T));              \
            }                                                                                  \
            if (holds) {                                                                       \
                filled &= drop;                                                                \
                empty &= drop;                                                                 \
                cell[j] = all;                                                                 \
            }                                                                                  \
        }                                                                                      \
        *filled_io = filled;                                                                   \
        *empty_io = empty;                                                                     \
    }

DEFINE_SHRINK(shrink_narrow, u64)
DEFINE_SHRINK(shrink_wide, u128)

#ifdef CHECK_EXPLAIN
/* Whether line logic on the known cells (filled, empty) fixes `target` to `value`, or, with
 * target < 0, finds the line in contradiction: what every explanation must keep. */
static int still_holds(const LineClue *line, Cells filled, Cells empty, int target, int value)
{
    Cells new_filled, new_empty;
    int fits = settle_line(line, filled, empty, &new_filled, &new_empty);
    if (target < 0)
        return !fits;
    return fits && (((value ? new_filled : new_empty) >> target) & 1);
}
#endif

/* The known cells of a line before trail position `before`, shrunk (see the top of the file),
 * that explain cell `target` of the line taking `value` (target < 0: the line's contradiction). */
void explain_line(Cdcl *s, int line, int before, int target, int value, Cells *out_filled, Cells *out_empty)
{
    int order[MAX_SIDE], count = 0;
    Cells filled = 0, empty = 0;
    const int *known = s->line_trail + line * MAX_SIDE; /* in trail order: no sort needed */
    int top = s->line_top[line];
    while (top > 0 && s->pos[line_cell(s, line, known[top - 1] >> 1)] >= before)
        top--;
    for (int k = top - 1; k >= 0; k--) { /* latest first */
        int i = known[k] >> 1;
        if (known[k] & 1)
            filled |= (Cells)1 << i;
        else
            empty |= (Cells)1 << i;
        order[count++] = i;
    }
    s->explanations++;
    const LineClue *clue = &s->g->clue[line];
    if (s->shrink && clue->wide)
        shrink_wide(clue, &filled, &empty, order, count, target, value);
    else if (s->shrink)
        shrink_narrow(clue, &filled, &empty, order, count, target, value);
#ifdef CHECK_EXPLAIN
    if (!still_holds(clue, filled, empty, target, value))
        abort();
#endif
    *out_filled = filled;
    *out_empty = empty;
}
