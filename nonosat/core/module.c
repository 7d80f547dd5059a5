/* nonosat._core: black-and-white line logic and search, compiled.
 *
 * The same deduction as nonosat/solver/line_logic.py and nonosat/solver/propagation.py, for grids whose rows and
 * columns have at most 64 cells, so that a line's cells fit one 64-bit mask (bit i is cell i),
 * or, built with CORE_WIDE as _core_wide, at most 126 cells in a 128-bit mask:
 *
 *   settle(clue, length, filled, empty)   every cell one line's clue decides, or None
 *   blocks(clue, starts, cells, bases)    a line's block-position clauses, any length
 *   implications(clue, length, filled, empty, first, step, max_steps)
 *                                         a line's implication clauses, any length
 *   propagate(rows, columns, ...)         line logic to a fixed point, pass for pass as
 *                                         propagation.propagate does it
 *   search(rows, columns, ..., max_solutions, node_budget, seconds)
 *                                         depth-first search with line logic at every node
 *   cdcl(rows, columns, ..., max_solutions, conflict_budget, seconds)
 *                                         conflict-driven search, line logic as propagator,
 *                                         turning to belief propagation's guesses (beliefs.c)
 *   beliefs(rows, columns, ...), line_beliefs(clue, length, filled, empty, chances)
 *                                         those guesses, for a grid and for one line
 *
 * A line's clue is read by its chain automaton (see nonosat/solver/line_logic.py): one state per cell of every
 * block and one gap state before, between and after the blocks. A clue that fits n cells has at
 * most n + 2 states, so state sets are 128-bit masks, or 64-bit ones when the clue is short enough.
 *
 * Inside, a board numbers its lines: rows 0..height-1, then columns height..height+width-1.
 * This file is the module's functions; arguments.c reads their arguments, line_logic.c
 * holds the line logic and dfs.c the search, over the types of core.h.
 */
#include "cdcl.h"

/* ---------------------------------------------------------------- settle(), propagate() ----- */

static PyObject *py_settle(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *clue, *filled_arg, *empty_arg;
    int length;
    Cells filled, empty, new_filled, new_empty;
    LineClue line;
    if (!PyArg_ParseTuple(args, "OiOO:settle", &clue, &length, &filled_arg, &empty_arg))
        return NULL;
    if (length < 1 || length > MAX_SIDE || read_cells(filled_arg, length, &filled) < 0 ||
        read_cells(empty_arg, length, &empty) < 0 || (filled & empty)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "a line has 1..%d cells, and disjoint masks within them", MAX_SIDE);
        return NULL;
    }
    if (read_clue(clue, length, &line) < 0)
        return NULL;
    if (!settle_line(&line, filled, empty, &new_filled, &new_empty))
        Py_RETURN_NONE;
    return Py_BuildValue("(NN)", cells_object(new_filled), cells_object(new_empty));
}

static PyObject *py_propagate(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *columns, *row_filled, *row_empty, *col_filled, *col_empty, *lines, *result = NULL;
    Board board;
    if (!PyArg_ParseTuple(args, "OOOOOOO:propagate", &rows, &columns, &row_filled, &row_empty,
                          &col_filled, &col_empty, &lines))
        return NULL;
    PyObject *start = PySequence_Fast(lines, "lines must be a sequence of (is_row, index)");
    if (!start)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(start);
    Grid *g = new_grid(rows, columns, count);  /* duplicates in `lines` may wait twice */
    if (!g || read_board(g, &board, row_filled, row_empty, col_filled, col_empty, 0) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        int line = line_number(start, i, g->height, g->width);
        if (line < 0)
            goto done;
        push(g, line);  /* as deque(lines) */
    }
    int bad = run_queue(g, &board);
    PyObject *bad_line = bad < 0 ? (Py_INCREF(Py_None), Py_None)
                       : Py_BuildValue("(Oi)", bad < g->height ? Py_True : Py_False,
                                       bad < g->height ? bad : bad - g->height);
    result = Py_BuildValue("(LNNNNN)", g->passes, bad_line, mask_list(board.filled, g->height),
                           mask_list(board.empty, g->height), mask_list(board.filled + g->height, g->width),
                           mask_list(board.empty + g->height, g->width));
done:
    Py_DECREF(start);
    free_grid(g);
    return result;
}


static PyObject *py_search(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *columns, *row_filled, *row_empty, *col_filled, *col_empty, *result = NULL;
    PyObject *stop = Py_None;
    Py_buffer flag = {0};
    int max_solutions;
    long long node_budget;
    double seconds;
    Board board;
    Search s;
    memset(&s, 0, sizeof s);
    int reuse = 1;
    if (!PyArg_ParseTuple(args, "OOOOOOiLd|pOd:search", &rows, &columns, &row_filled, &row_empty, &col_filled,
                          &col_empty, &max_solutions, &node_budget, &seconds, &reuse, &stop, &s.look.each))
        return NULL;
    if (max_solutions < 1) {
        PyErr_SetString(PyExc_ValueError, "max_solutions must be at least 1");
        return NULL;
    }
    if (stop_flag(stop, &flag, &s.stop) < 0)
        return NULL;
    Grid *g = new_grid(rows, columns, 0);
    if (!g || read_board(g, &board, row_filled, row_empty, col_filled, col_empty, 1) < 0)
        goto done;
    s.g = g;
    s.max_solutions = max_solutions;
    s.node_budget = node_budget;
    s.next_look = LOOK_EVERY;
    g->memo = PyMem_Calloc((size_t)1 << MEMO_BITS, sizeof(MemoEntry));
    s.solutions = PyMem_Calloc((size_t)max_solutions * (size_t)g->height, sizeof(Cells));
    s.choices = PyMem_Malloc(((size_t)g->height * (size_t)g->width + 1) * sizeof(Choice));
    s.cells = g->height * g->width;
    s.reuse = reuse;
    size_t per_level = 2 * (size_t)s.cells * (sizeof(ProbeRecord) + 1);
    s.levels = (int)(SAVED_BYTES / per_level < (size_t)s.cells + 1 ? SAVED_BYTES / per_level : (size_t)s.cells + 1);
    s.records = PyMem_Malloc(2 * (size_t)s.cells * sizeof(ProbeRecord));
    s.holds = PyMem_Calloc(2 * (size_t)s.cells, 1);
    s.saved = PyMem_Malloc((size_t)s.levels * 2 * (size_t)s.cells * sizeof(ProbeRecord));
    s.saved_holds = PyMem_Malloc((size_t)s.levels * 2 * (size_t)s.cells);
    if (!g->memo || !s.solutions || !s.choices || !s.records || !s.holds || !s.saved || !s.saved_holds) {
        PyErr_NoMemory();
        goto done;
    }
    if (lookout_start(&s.look, seconds) < 0)
        goto done;
    search_grid(&s, &board);
    lookout_end(&s.look);
    if (s.stopped < 0)
        goto done;
    PyObject *found = grid_bytes(s.solutions, s.found, g->height);
    if (found)
        result = Py_BuildValue("(ONL)", s.stopped ? Py_False : Py_True, found, s.nodes);
done:
    lookout_end(&s.look);
    if (g)
        PyMem_Free(g->memo);
    PyMem_Free(s.solutions);
    PyMem_Free(s.choices);
    PyMem_Free(s.records);
    PyMem_Free(s.holds);
    PyMem_Free(s.saved);
    PyMem_Free(s.saved_holds);
    free_grid(g);
    if (flag.obj)
        PyBuffer_Release(&flag);
    return result;
}

static PyObject *py_cdcl(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *rows, *columns, *row_filled, *row_empty, *col_filled, *col_empty, *result = NULL;
    PyObject *stop = Py_None;
    Py_buffer flag = {0};
    int max_solutions, shrink = 1;
    long long conflict_budget, beliefs_after = BELIEFS_AFTER;
    double seconds;
    Board board;
    Cdcl s;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "OOOOOOiLd|pOLd:cdcl", &rows, &columns, &row_filled, &row_empty, &col_filled,
                          &col_empty, &max_solutions, &conflict_budget, &seconds, &shrink, &stop, &beliefs_after,
                          &s.look.each))
        return NULL;
    if (stop_flag(stop, &flag, &s.stop) < 0)
        return NULL;
    Grid *g = NULL;
    if (max_solutions < 1) {
        PyErr_SetString(PyExc_ValueError, "max_solutions must be at least 1");
        goto done;
    }
    g = new_grid(rows, columns, 0);
    if (!g || read_board(g, &board, row_filled, row_empty, col_filled, col_empty, 1) < 0)
        goto done;
    if (cdcl_init(&s, g, &board, max_solutions) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    s.conflict_budget = conflict_budget;
    s.shrink = shrink;
    s.beliefs_after = beliefs_after > 0 ? beliefs_after : 0;
    if (lookout_start(&s.look, seconds) < 0)
        goto done;
    int complete = cdcl_run(&s);
    lookout_end(&s.look);
    if (s.stopped == -2)
        PyErr_NoMemory();
    if (s.stopped < 0)
        goto done;
    PyObject *found = grid_bytes(s.solutions, s.found, g->height);
    if (found)
        result = Py_BuildValue("(ON{sLsLsLsLsL})", complete ? Py_True : Py_False, found, "conflicts", s.conflicts,
                               "settles", s.settles, "explanations", s.explanations, "restarts", s.restarts,
                               "beliefs", s.turned);
done:
    lookout_end(&s.look);
    cdcl_free(&s);
    free_grid(g);
    if (flag.obj)
        PyBuffer_Release(&flag);
    return result;
}

/* ---------------------------------------------------------------- the module ---------------- */

static PyMethodDef methods[] = {
    {"settle", py_settle, METH_VARARGS,
     "settle(clue, length, filled, empty) -> (filled, empty), or None if no completion fits.\n\n"
     "Every cell one line's clue decides from its known cells, as line_logic.settle_line."},
    {"settle_colours", py_settle_colours, METH_VARARGS,
     "settle_colours(clue, colours, length, excluded) -> excluded, or None if no completion fits.\n\n"
     "One line's deduction for any palette and up to 4096 cells, as line_logic.settle_colour_line:\n"
     "excluded[c] is colour c's mask of the cells that cannot have it (bytes, int.to_bytes(...,\n"
     "'little'); colour 0 the background). See colour_logic.c."},
    {"open_after", py_open_after, METH_VARARGS,
     "open_after(rows, columns, row_filled, row_empty, col_filled, col_empty, changes) -> list\n\n"
     "For each change (row, column, row_clue, column_clue): the cells line logic leaves open when\n"
     "it resumes from the board with that cell forgotten and those two clues, from that row and\n"
     "column only (the repair's bound, generate/search.py); -1 when a line has no completion.\n"
     "The board is left as it was. See bounds.c."},
    {"open_after_colours", py_open_after_colours, METH_VARARGS,
     "open_after_colours(rows, row_colours, columns, column_colours, row_not, col_not, changes) -> list\n\n"
     "open_after for any palette and size, the board as propagate_colours takes it; a change is\n"
     "(row, column, row_clue, row_colours, column_clue, column_colours). Releases the GIL while it\n"
     "works; Ctrl-C stops it. See bounds.c."},
    {"propagate_colours", py_propagate_colours, METH_VARARGS,
     "propagate_colours(rows, row_colours, columns, column_colours, row_not, col_not, lines, seconds)\n"
     "-> (passes, bad_line, stopped, row_not, col_not)\n\n"
     "Line logic to a fixed point for any palette and sides of up to 4096 cells, pass for pass as\n"
     "propagation.propagate. row_not[c] holds colour c's masks of the rows, the cells that cannot\n"
     "have it, as bytes, (width + 7) // 8 a row (col_not likewise); new ones are returned.\n"
     "stopped: `seconds` ran out first (<= 0: no limit). Ctrl-C stops it. See colour_logic.c."},
    {"search_colours", py_search_colours, METH_VARARGS,
     "search_colours(rows, row_colours, columns, column_colours, row_not, col_not, max_solutions,\n"
     "               node_budget, seconds, stop=None, each=0.0) -> (complete, solutions, nodes)\n\n"
     "A depth-first search with line logic at every node, for any palette and size, from the board\n"
     "row_not / col_not (as propagate_colours takes it), for up to max_solutions solutions (bytes,\n"
     "each cell's colour, row by row). complete: they are all there are, or max_solutions of them;\n"
     "False when node_budget choices or `seconds` ran out (either <= 0: no limit) or another\n"
     "thread set the first byte of `stop`. each: as search's. Releases the GIL while it works;\n"
     "Ctrl-C stops it. See colour_search.c."},
    {"cdcl_colours", py_cdcl_colours, METH_VARARGS,
     "cdcl_colours(rows, row_colours, columns, column_colours, row_not, col_not, max_solutions,\n"
     "             conflict_budget, seconds, stop=None, check=False, settled=False, each=0.0)\n"
     "-> (complete, solutions, stats)\n\n"
     "A conflict-driven search with line logic as each line's propagator, for any palette and size,\n"
     "from the board row_not / col_not (as propagate_colours takes it), for up to max_solutions\n"
     "solutions (bytes, each cell's colour, row by row). complete: they are all there are, or\n"
     "max_solutions of them; False when conflict_budget conflicts or `seconds` ran out (either <= 0:\n"
     "no limit) or another thread set the first byte of `stop`. check=True checks every explanation\n"
     "(AssertionError if one fails; for tests); settled=True says the board is a fixed point of line\n"
     "logic (as line_solve leaves it): no line is settled before the first decision. each: as\n"
     "search's. Releases the\n"
     "GIL while it works; Ctrl-C stops it. See paint_cdcl.h."},
    {"broken_lines", py_broken_lines, METH_VARARGS,
     "broken_lines(rows, row_colours, columns, column_colours, grid) -> list of lines\n\n"
     "The lines whose runs of one colour (0 the background) do not give their clue's blocks and\n"
     "colours, rows as 0..height-1 and columns as height + c: as model.violations reads them, for\n"
     "any palette and size. See clue_check.c."},
    {"blocks", py_blocks, METH_VARARGS,
     "blocks(clue, starts, cells, bases) -> clauses\n\n"
     "The block-position encoding of one black-and-white line, clause for clause as\n"
     "nonosat/solver/encodings/blocks.py writes it: starts[j], the cells where block j can start;\n"
     "cells[i], cell i's literal, or True / False when known; bases[j], block j's first variable.\n"
     "See blocks.c."},
    {"block_starts", py_block_starts, METH_VARARGS,
     "block_starts(clue, cells) -> list of lists of cells, or None if no completion fits\n\n"
     "For each block of a black-and-white line's clue, the cells where it starts in some\n"
     "completion of the line: cells[i] is True (filled), False (empty) or a literal (open), for\n"
     "lines of any length. See starts.c."},
    {"blocks_colour", py_blocks_colour, METH_VARARGS,
     "blocks_colour(clue, colours, starts, choices, bases, solid) -> clauses\n\n"
     "The block-position encoding of one colour line, clause for clause as blocks.py's\n"
     "encode_colours writes it: choices[i][c - 1], the literal of cell i having colour c, or\n"
     "True / False when known; solid[i], the cell cannot be blank. See blocks.c."},
    {"implications", py_implications, METH_VARARGS,
     "implications(clue, length, filled, empty, first, step, max_steps) -> (clauses, steps),\n"
     "or None if no completion fits.\n\n"
     "A line's implication clauses [-a, b] (cell i is the literal first + i*step, negative for\n"
     "empty), for lines of up to 4096 cells; filled and empty are bytes (int.to_bytes(...,\n"
     "'little')). Stops after max_steps steps. See implications.c."},
    {"propagate", py_propagate, METH_VARARGS,
     "propagate(rows, columns, row_filled, row_empty, col_filled, col_empty, lines)\n"
     "-> (passes, bad_line, row_filled, row_empty, col_filled, col_empty)\n\n"
     "Line logic to a fixed point from the queue `lines` of (is_row, index), pass for pass as\n"
     "propagation.propagate. bad_line is the (is_row, index) found in contradiction, else None.\n"
     "Returns new lists; the arguments are not changed."},
    {"search", py_search, METH_VARARGS,
     "search(rows, columns, row_filled, row_empty, col_filled, col_empty, max_solutions,\n"
     "       node_budget, seconds, reuse=True, stop=None, each=0.0) -> (complete, solutions, nodes)\n\n"
     "Depth-first search with line logic and probing at every node, for up to max_solutions\n"
     "solutions (one bytes object: each grid's row masks, CELL_BYTES bytes each in the machine's\n"
     "order). complete: the solutions are all there are, or max_solutions of them; False when\n"
     "node_budget choices or `seconds` ran out first (either <= 0: no limit). reuse=False\n"
     "probes every cell again at every round, where a probe's record would hold (the same search,\n"
     "slower: for tests); another thread stops it by setting the first byte of `stop` (a\n"
     "bytearray). each > 0 makes the deadline come `each` seconds sooner for every solution kept\n"
     "(the time Python then takes to hand it over). Releases the GIL while it works; Ctrl-C stops it."},
    {"beliefs", py_beliefs, METH_VARARGS,
     "beliefs(rows, columns, row_filled, row_empty, col_filled, col_empty) -> list | None\n\n"
     "Belief propagation over the lines (beliefs.c): each cell's estimated chance of being filled\n"
     "in a solution, row by row, the known cells held; None when a line has no completion."},
    {"line_beliefs", py_line_beliefs, METH_VARARGS,
     "line_beliefs(clue, length, filled, empty, chances) -> list | None\n\n"
     "One line's message to each cell: the chance it is filled over the line's completions, each\n"
     "weighed by the other cells' chances (`chances`, one a cell); None when none fits."},
    {"cdcl", py_cdcl, METH_VARARGS,
     "cdcl(rows, columns, row_filled, row_empty, col_filled, col_empty, max_solutions,\n"
     "     conflict_budget, seconds, shrink=True, stop=None, beliefs_after=BELIEFS_AFTER, each=0.0)\n"
     "     -> (complete, solutions, stats)\n\n"
     "A conflict-driven search with line logic as each line's propagator, for up to\n"
     "max_solutions solutions (packed as search packs them). complete: the solutions are all\n"
     "there are, or max_solutions of them; False when conflict_budget conflicts or `seconds` ran\n"
     "out first (either <= 0: no limit), or when another thread set the first byte of `stop` (a\n"
     "bytearray). stats counts conflicts, line settles, explanations and restarts, and\n"
     "beliefs is 1 once the search turned to the beliefs.\n"
     "shrink=False explains a fixed cell by all of its line's known cells (for tests). After\n"
     "beliefs_after conflicts (<= 0: never) the search turns to the grid's beliefs (beliefs.c)\n"
     "at its next restart. each: as search's. Releases the GIL while it works; Ctrl-C stops it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, MODULE_NAME, MODULE_DOC,
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC MODULE_INIT(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "CELL_BYTES", (long)sizeof(Cells)) < 0)
        Py_CLEAR(m);
    if (m && PyModule_AddIntConstant(m, "MAX_SIDE", MAX_SIDE) < 0)
        Py_CLEAR(m);
    if (m && PyModule_AddIntConstant(m, "BELIEFS_AFTER", BELIEFS_AFTER) < 0)  /* cdcl's default, for `each` after it */
        Py_CLEAR(m);
    return m;
}
