/* nonosat._core: a depth-first search for any palette and any size, line logic at every node
 * (colour_grid.c's queue over colour_logic.c's deduction).
 *
 * At each node the open cell with the fewest colours left (the first such, row by row) is
 * given each of its colours in turn, the background first; line logic runs from its row and
 * its column; a contradiction tries the next colour, a grid with no open cell is a solution.
 * Every cell line logic changes is logged with what it was, so that going back to a choice
 * undoes what came after it. Exhaustive: when it ends without running out of nodes or time, the
 * solutions it found are all there are (or max_solutions of them).
 */
#include "colour.h"

typedef struct {
    size_t cell;  /* the cell chosen */
    u64 left;     /* its colours not yet tried */
    size_t mark;  /* the undo log's size when it was chosen */
} PaintChoice;

typedef struct {
    Paint *p;
    Lookout *look;
    int max_solutions, found;
    int room;    /* the grids `solutions` has room for */
    int stopped; /* 1: out of nodes or time, or told to; -1: a Python exception (Ctrl-C); -2: no memory */
    long long nodes, node_budget;
    unsigned char *solutions; /* found x cells, each cell's colour */
    PaintChoice *stack;
    int depth;
    volatile const char *stop;
} PaintSearch;

static void undo_to(Paint *p, size_t mark)
{
    while (p->log_size > mark) {
        p->log_size--;
        p->cells[p->log_at[p->log_size]] = p->log_was[p->log_size];
    }
}

static void clear_queue(Paint *p)
{
    p->head = p->count = 0;
    memset(p->queued, 0, (size_t)p->lines);
}

/* The open cell with the fewest colours left, or (size_t)-1 when every cell is settled. */
static size_t open_cell(const Paint *p)
{
    size_t best = (size_t)-1, cells = (size_t)p->height * (size_t)p->width;
    int fewest = MAX_PAINT_COLOURS + 1;
    for (size_t i = 0; i < cells; i++) {
        int left = __builtin_popcountll(p->cells[i]);
        if (left > 1 && left < fewest) {
            best = i;
            fewest = left;
            if (left == 2)
                break;
        }
    }
    return best;
}

/* Line logic after a change: 0 at a fixed point, 1 in contradiction, -1 when the search must
 * stop (s->stopped says why). */
static int settle(PaintSearch *s)
{
    int bad = paint_run(s->p, s->look);
    if (bad >= 0) {
        clear_queue(s->p);
        return 1;
    }
    if (bad == -1)
        return 0;
    s->stopped = bad == -2 ? 1 : bad == -3 ? -1 : -2;
    return -1;
}

static int keep_solution(PaintSearch *s)
{
    size_t cells = (size_t)s->p->height * (size_t)s->p->width;
    if (s->found == s->room) { /* room for more grids, doubling: max_solutions may be huge */
        int room = s->room ? 2 * s->room : 4;
        unsigned char *grids = PyMem_RawRealloc(s->solutions, (size_t)room * cells);
        if (!grids)
            return s->stopped = -2, -1;
        s->solutions = grids;
        s->room = room;
    }
    unsigned char *grid = s->solutions + (size_t)s->found * cells;
    for (size_t i = 0; i < cells; i++)
        grid[i] = (unsigned char)__builtin_ctzll(s->p->cells[i]);
    s->found++;
    lookout_kept(s->look);
    return 0;
}

/* The search from the current board (at a fixed point). Returns 1 if complete. */
static int paint_search(PaintSearch *s)
{
    Paint *p = s->p;
    for (;;) {
        size_t cell = open_cell(p);
        if (cell == (size_t)-1) {
            if (keep_solution(s) < 0)
                return 0;
            if (s->found >= s->max_solutions)
                return 1;
        } else {
            PaintChoice *choice = &s->stack[s->depth++];
            choice->cell = cell;
            choice->left = p->cells[cell];
            choice->mark = p->log_size;
        }
        for (;;) { /* the next colour of the latest choice with one left */
            while (s->depth && !s->stack[s->depth - 1].left) {
                s->depth--;
                undo_to(p, s->stack[s->depth].mark);
            }
            if (!s->depth)
                return 1; /* every way was tried */
            if ((s->stop && *s->stop) || (s->node_budget > 0 && s->nodes >= s->node_budget))
                return s->stopped = 1, 0;
            PaintChoice *choice = &s->stack[s->depth - 1];
            undo_to(p, choice->mark);
            u64 colour = choice->left & (~choice->left + 1);
            choice->left &= ~colour;
            s->nodes++;
            int row = (int)(choice->cell / (size_t)p->width), column = (int)(choice->cell % (size_t)p->width);
            paint_assign(p, &p->cells[choice->cell], colour);
            if (p->log_failed)
                return s->stopped = -2, 0;
            paint_enqueue(p, row);
            paint_enqueue(p, p->height + column);
            int outcome = settle(s);
            if (outcome < 0)
                return 0;
            if (outcome == 0)
                break; /* a fixed point: go deeper */
        }
    }
}

/* Grids found, each cell's colour row by row (`cells` bytes a grid), as a list of bytes. */
PyObject *painted_grids(const unsigned char *grids, int found, size_t cells)
{
    PyObject *list = PyList_New(found);
    for (int k = 0; list && k < found; k++) {
        PyObject *grid = PyBytes_FromStringAndSize((const char *)grids + (size_t)k * cells, (Py_ssize_t)cells);
        if (!grid) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, k, grid);
    }
    return list;
}

PyObject *py_search_colours(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *row_colours, *columns, *column_colours, *row_not, *col_not, *stop = Py_None, *result = NULL;
    int max_solutions;
    long long node_budget;
    double seconds;
    Paint p = {0};
    Lookout look = {0};
    PaintSearch s = {0};
    Py_buffer flag = {0};
    if (!PyArg_ParseTuple(args, "OOOOOOiLd|Od:search_colours", &rows, &row_colours, &columns, &column_colours,
                          &row_not, &col_not, &max_solutions, &node_budget, &seconds, &stop, &look.each))
        return NULL;
    if (max_solutions < 1)
        return PyErr_Format(PyExc_ValueError, "max_solutions must be at least 1");
    if (stop_flag(stop, &flag, &s.stop) < 0)
        return NULL;
    if (read_paint(&p, rows, row_colours, columns, column_colours, row_not, col_not) < 0)
        goto done;
    size_t cells = (size_t)p.height * (size_t)p.width;
    p.capacity = p.lines + 1;
    p.queue = PyMem_Malloc(sizeof(int) * (size_t)p.capacity);
    s.stack = PyMem_Malloc(sizeof(PaintChoice) * (cells + 1));
    p.log_room = cells + 4096;
    p.log_at = PyMem_RawMalloc(sizeof(size_t) * p.log_room);
    p.log_was = PyMem_RawMalloc(sizeof(u64) * p.log_room);
    if (!p.queue || !s.stack || !p.log_at || !p.log_was) {
        PyErr_NoMemory();
        goto done;
    }
    for (int line = 0; line < p.lines; line++)
        paint_push(&p, line);
    s.p = &p;
    s.look = &look;
    s.max_solutions = max_solutions;
    s.node_budget = node_budget;
    if (lookout_start(&look, seconds) < 0)
        goto done;
    p.logging = 1;
    int outcome = settle(&s), complete = outcome > 0 ? 1 : outcome == 0 ? paint_search(&s) : 0;
    lookout_end(&look);
    if (s.stopped == -2)
        PyErr_NoMemory();
    if (s.stopped < 0)
        goto done;
    PyObject *found = painted_grids(s.solutions, s.found, cells);
    if (found)
        result = Py_BuildValue("(ONL)", complete ? Py_True : Py_False, found, s.nodes);
done:
    lookout_end(&look);
    PyMem_Free(s.stack);
    PyMem_RawFree(s.solutions);
    free_paint(&p);
    if (flag.obj)
        PyBuffer_Release(&flag);
    return result;
}
