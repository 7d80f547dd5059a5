/* nonosat._core's conflict-driven search: its types, shared by cdcl_trail.c (the trail
 * and propagation), cdcl_reasons.c (a line's explanations), cdcl_learn.c (analysis and
 * the clause database) and cdcl_run.c (the main loop).
 *
 * The cells are the only variables. A line's clue is not a set of clauses but a propagator:
 * line logic (settle_line) fixes cells, and explains each fixed cell only when a conflict's
 * analysis asks why, by the line's known cells that force it (lazy clause generation).
 */
#ifndef NONOSAT_CORE_CDCL_H
#define NONOSAT_CORE_CDCL_H

#include "core.h"

typedef int Lit; /* 2 * cell + 1: the cell is filled; 2 * cell: it is empty */
#define LIT(cell, filled) (2 * (cell) + (filled))
#define CELL(lit) ((lit) >> 1)
#define NEG(lit) ((lit) ^ 1)

/* A cell's reason: a clause's offset in the arena (>= 0), a line (LINE_REASON), or none. */
#define NO_REASON (-1)
#define LINE_REASON(line) (-(line) - 2)
#define REASON_LINE(reason) (-(reason) - 2)
#define NO_CONFLICT (-1)

/* A clause in the arena: its header, then its literals; lits[0] and lits[1] are watched. */
#define HEADER 4
#define C_SIZE(s, c) ((s)->arena[(c)])
#define C_LBD(s, c) ((s)->arena[(c) + 1])
#define C_KEEP(s, c) ((s)->arena[(c) + 2]) /* 1: never deleted (a solution's blocking clause) */
/* arena[c + 3]: the clause's activity, a float's bits (c_activity) */
#define C_LITS(s, c) ((s)->arena + (c) + HEADER)

typedef struct {
    int *data;
    int size, cap;
} Vec;

typedef struct {
    int clause;
    Lit blocker; /* a literal of the clause: when true, the clause need not be looked at */
} Watch;

typedef struct {
    Watch *data;
    int size, cap;
} Watches;

typedef struct {
    Grid *g; /* the clues, the queue of lines to settle, the memo */
    Board board;
    int height, width, cells;
    signed char *value; /* per cell: -1 open, 0 empty, 1 filled */
    signed char *lit_value; /* per literal: -1 open, 0 false, 1 true (clause propagation reads it) */
    signed char *phase; /* the value a decision gives the cell: its last one */
    int *level, *pos, *reason;
    int *cell_row, *cell_col; /* a cell's row and column (no division in assign) */
    int *line_trail; /* MAX_SIDE slots a line: its known cells in trail order, each index << 1 | filled */
    int line_top[MAX_LINES]; /* how many known cells each line has there (explain_line reads them) */
    Cells *why;              /* a line reason's explanation, 2 masks a cell (filled, empty) */
    unsigned char *explained; /* why[] is computed for the cell's current value */
    Lit *trail;
    int trail_size, clause_head;
    int *trail_lim, depth; /* where each decision level starts on the trail; the current level */
    int *arena;
    size_t arena_size, arena_cap;
    Vec clauses; /* offsets of every clause in the arena */
    float clause_inc;
    Watches *watches; /* by literal: the clauses that watch it (visited when it becomes false) */
    double *activity; /* per cell: its branching score (CHB, cdcl_trail.c), the heap's order */
    long long *last_conflict; /* per cell: the conflict whose analysis last met it */
    double step_size;         /* CHB's: how far one reward moves a score */
    int rewarded_from;        /* the trail's first literal that the next reward is for */
    int *heap, *heap_at, heap_size;
    unsigned char *seen, *level_seen; /* by cell, and by level */
    Vec learnt, stack, lits;
    long long conflicts, conflict_budget, next_reduce, reduced;
    long long restarts;
    signed char *target; /* the values of the run's longest trail: decisions take them first */
    int target_size;
    long long explanations, settles;
    int max_solutions, found, room;
    Cells *solutions; /* the grids found (`height` row masks each), room for `room` of them */
    Lookout look;
    long long next_look;
    volatile const char *stop; /* nonzero: stop (another thread sets it); may be NULL */
    int stopped; /* 1: out of conflicts or time, or stopped; -1: a Python exception is set; -2: no memory */
    int shrink;  /* 0: explanations are all of a line's known cells (for tests) */
    long long beliefs_after; /* conflicts after which the search turns to the beliefs; 0: never */
    long long turned;        /* 1 once it has turned to them */
} Cdcl;

static inline float c_activity(const int *arena, int c)
{
    float a;
    memcpy(&a, &arena[c + 3], sizeof a);
    return a;
}

static inline void set_c_activity(int *arena, int c, float a) { memcpy(&arena[c + 3], &a, sizeof a); }

/* cdcl_trail.c */
int vec_grow(Vec *v);

static inline int vec_push(Vec *v, int x)
{
    if (v->size == v->cap && vec_grow(v) < 0)
        return -1;
    v->data[v->size++] = x;
    return 0;
}
void assign(Cdcl *s, Lit lit, int reason, int from_line);
void backtrack(Cdcl *s, int level);
void bump_cell(Cdcl *s, int cell);
void reward_cells(Cdcl *s, int conflict);

int watch_clause(Cdcl *s, int c);
void heap_insert(Cdcl *s, int cell);
int heap_pop(Cdcl *s);
int propagate_all(Cdcl *s);

/* cdcl_reasons.c */
void explain_line(Cdcl *s, int line, int before, int target, int value, Cells *out_filled, Cells *out_empty);

/* cdcl_learn.c */
int reason_lits(Cdcl *s, int reason, int cell, Vec *out);
int analyze(Cdcl *s, int conflict, int *back_to);
int add_clause(Cdcl *s, const Lit *lits, int size, int lbd, int keep);
int reduce_clauses(Cdcl *s);

/* beliefs.c. A search that has not found a grid in BELIEFS_AFTER conflicts turns to the
 * beliefs at its next restart (measured on fresh sets: bench/README.md, "Beliefs"). */
#define BELIEFS_AFTER 2000
int grid_beliefs(const Grid *g, const Board *board, double *belief);

/* cdcl_run.c */
int cdcl_run(Cdcl *s);
int cdcl_init(Cdcl *s, Grid *g, const Board *root, int max_solutions);
void cdcl_free(Cdcl *s);

#endif
