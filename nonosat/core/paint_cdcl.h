/* nonosat._core's conflict-driven search for any palette and any size: its types, shared by
 * paint_chain.c (a line's automaton and its line logic; its steps in paint_steps.h),
 * paint_reasons.c (why it removed a colour), paint_trail.c (the trail and propagation),
 * paint_learn.c (analysis and the clause database) and paint_run.c (the main loop and the Python
 * function).
 *
 * As cdcl.h in black and white, but a cell is the set of colours it may still have (colour.h's
 * Paint), and the variables are (cell, colour): "the cell has colour c". Setting one true
 * removes the cell's other colours; removing all colours but one makes the last true (the
 * cell's exactly-one, never written as clauses). A line's clue is a propagator, line logic
 * (the line's automaton); a colour it removes is explained only when an analysis asks, by the
 * line's earlier removals that still make it (paint_reasons.c). Memory grows with the cells and
 * the learnt clauses: no CNF of the clues is ever written.
 */
#ifndef NONOSAT_CORE_PAINT_CDCL_H
#define NONOSAT_CORE_PAINT_CDCL_H

#include "colour.h"

typedef int Lit; /* 2 * var + 1: the cell has the colour; 2 * var: it has not. var = cell * colours + c */
#define P_LIT(var, has) (2 * (var) + (has))
#define P_VAR(lit) ((lit) >> 1)
#define P_NEG(lit) ((lit) ^ 1)

/* A literal's reason: a clause's offset in the arena (>= 0), or one of these. */
#define P_NO_REASON (-1)
#define P_ONE_COLOUR (-2)  /* a colour removed: the cell has another (that literal is the reason) */
#define P_LAST_COLOUR (-3) /* a colour true: every other colour of the cell was removed */
#define P_LINE(line) (-(line) - 4)
#define P_LINE_OF(reason) (-(reason) - 4)
#define P_NO_CONFLICT (-1)

#define P_HEADER 4 /* a clause in the arena: size, LBD, keep, activity; then its literals */

typedef struct {
    int *data;
    int size, cap;
} PVec;

typedef struct {
    int clause;
    Lit blocker;
} PWatch;

typedef struct {
    PWatch *data;
    int size, cap;
} PWatches;

/* A line's clue as a chain automaton over state sets of `words` 64-bit words. States, in
 * order: the gap before the first block, then each block's cells and the gap after it. Reading
 * colour k from state sets x gives (x & stay[k]) | (x & one[k]) << 1 | (x & two[k]) << 2:
 * a gap stays on the background, a block's cell steps to its next, a block's end steps over an
 * optional gap to a next block of another colour. Reading any of a set of colours is the same
 * with each mask the union of theirs (paint_steps.h), kept for every set of up to SET_COLOURS. */
typedef struct {
    int states, words;
    int colours; /* the colours the clue names and the background, ascending: colour[k] */
    int *colour;
    u64 named;   /* those colours, a bit each */
    int sets;    /* 1 << colours when every set's masks are kept (set_masks), else 0 */
    u64 *stay, *one, *two; /* `colours` state sets each */
    u64 *set_masks;        /* for each set of colours (bit k: colour[k]): stay, one, two */
    u64 *accept;
} Chain;

#define SET_COLOURS 4

/* A line's settle remembered (paint_trail.c): its cells before (and after, if it fits) are bytes
 * in memo_cells at the entry's slot. */
typedef struct {
    u64 hash;
    int line, fits;
} PMemo;

#define P_MEMO_BITS 14

typedef struct {
    Paint p; /* the clues, each cell's colours left (p.cells), the queue of lines */
    int height, width, cells, colours, vars;
    Chain *chain; /* a line each */
    u64 *chain_pool;
    signed char *value;     /* per var: -1 open, 0 false, 1 true */
    signed char *lit_value; /* per literal */
    signed char *phase, *target;
    int *level, *pos, *reason;
    int *line_trail; /* each line's removals in trail order: index * 64 + colour */
    size_t *line_base;
    int *line_top;
    PVec why;           /* explanations made, their literals; why_at[var] where its own begins */
    int *why_at, *why_size;
    Lit *trail;
    int trail_size, clause_head;
    int *trail_lim, depth;
    int *arena;
    size_t arena_size, arena_cap;
    PVec clauses;
    float clause_inc;
    PWatches *watches;
    double *activity, var_inc;
    int *heap, *heap_at, heap_size;
    unsigned char *seen, *level_seen;
    PVec learnt, stack, lits;
    u64 *root; /* each cell's colours given (facts: none of their removals is on the trail) */
    u64 *work; /* the explanations' state sets */
    PMemo *memo; /* line settles by their cells (none with more than 8 colours and background) */
    unsigned char *memo_cells;
    size_t memo_stride;
    unsigned char *removed; /* a line's removals before a point, per index: colours as bits */
    long long conflicts, conflict_budget, next_reduce, reduced, restarts;
    int target_size;
    long long explanations, settles;
    int max_solutions, found, room;
    unsigned char *solutions;
    Lookout *look;
    long long next_look;
    volatile const char *stop;
    int stopped; /* 1: out of conflicts or time, or stopped; -1: a Python exception; -2: no memory */
    int check;   /* 1: check every explanation with the automaton (for tests) */
    int settled; /* 1: the board given is a fixed point of line logic: no line is settled first */
    int bad_explanation;
} PaintCdcl;

static inline int p_line_cell(const PaintCdcl *s, int line, int i)
{
    return line < s->height ? line * s->width + i : i * s->width + (line - s->height);
}

static inline int p_line_index(const PaintCdcl *s, int line, int cell)
{
    return line < s->height ? cell % s->width : cell / s->width;
}

/* paint_chain.c */
int build_chains(PaintCdcl *s);
int chain_settle(PaintCdcl *s, int line, u64 *dom);

/* paint_reasons.c */
int explain_shrunk(PaintCdcl *s, int line, int before, int index, int colour, PVec *out);
int explanation_holds(PaintCdcl *s, int line, int index, int colour, const Lit *lits, int count);

/* paint_trail.c */
int pvec_push(PVec *v, int x);
void p_assign(PaintCdcl *s, Lit lit, int reason, int from_line);
void p_backtrack(PaintCdcl *s, int level);
void p_bump(PaintCdcl *s, int var);
void p_heap_insert(PaintCdcl *s, int var);
int p_heap_pop(PaintCdcl *s);
int p_watch_clause(PaintCdcl *s, int c);
int p_propagate(PaintCdcl *s);

/* paint_learn.c */
int p_reason_lits(PaintCdcl *s, int reason, int var, PVec *out);
int p_analyze(PaintCdcl *s, int conflict, int *back_to);
int p_add_clause(PaintCdcl *s, const Lit *lits, int size, int lbd, int keep);
int p_reduce(PaintCdcl *s);

#endif
