"""The whole grid as CNF: one variable per cell (in colour, per cell and colour), and each
unsolved line's clue encoded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pysat.formula import IDPool

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import FormulaTooLarge
from nonosat.limits import MAX_CLAUSES
from nonosat.model import Clue, Grid, Puzzle
from nonosat.solver.encodings import (
    DEFAULT_ENCODING,
    ENCODINGS,
    Clause,
    Line,
    LineEncoder,
    Literal,
    at_most_one,
    check_encoding,
)
from nonosat.solver.encodings.base import FREEING_A_CLAUSE, FREEING_A_NAME, UnnamedPool, collection_paused
from nonosat.solver.propagation import Board, Contradiction, colour_alive_states, line_solve

IMPLICATIONS_SHARE = 2
"""Line implications stop once they number 1/IMPLICATIONS_SHARE of the line encodings' clauses.
Where they are that dense (the n-Dom puzzles: as many as the encoding's own) they slowed MiniSat's
proof that there is no second solution by half; every tournament and survey puzzle measured
stays under the cap (bench/README.md, "Line implications")."""


def cell_variable(puzzle: Puzzle, row: int, column: int, colour: int = 1) -> int:
    """The DIMACS variable of "this cell has this colour" (in black and white, "is filled"):
    cells are numbered row by row from 0, and cell n's colours 1..K are variables n*K + 1..n*K + K."""
    return (row * puzzle.width + column) * puzzle.colour_count + colour


@dataclass
class GridFormula:
    """The clauses of a partly solved grid; cells the line solver fixed are constants."""

    board: Board
    clauses: list[Clause]
    variables: int
    unknown: list[int]
    """The variables of the cells still unknown: the ones a blocking clause ranges over."""
    encoding: str = DEFAULT_ENCODING

    @property
    def open_cells(self) -> int:
        """How many cells line logic left unknown."""
        return len({(v - 1) // self.board.colours for v in self.unknown})

    def grid(self, model: list[int]) -> Grid:
        """The picture a model describes, with the fixed cells filled in from the board.

        In colour, a cell's colour is read only from the variables of the colours the board left
        it: the variable of a colour ruled out is in no clause (the encodings take it as the
        constant False), so a solver may set it either way (CaDiCaL sets such free variables
        true), and reading it would paint the cell a colour its lines forbid."""
        puzzle = self.board.puzzle
        if puzzle.colour_count == 1:  # a cell's variable is its number from 1
            width, board = puzzle.width, self.board
            cells = bytearray(width * puzzle.height + 1)
            last = len(cells) - 1  # PySAT's models list variable v at v - 1: the cells come first
            ordered = len(model) >= last and abs(model[0]) == 1 and abs(model[last - 1]) == last
            for literal in model[:last] if ordered else model:
                if 0 < literal < len(cells):
                    cells[literal] = 1
            filled, empty = board.row_filled, board.row_empty
            return tuple(
                tuple(
                    1 if filled[r] >> c & 1 else 0 if empty[r] >> c & 1 else cells[r * width + c + 1]
                    for c in range(width)
                )
                for r in range(puzzle.height)
            )
        true = set(lit for lit in model if lit > 0)
        count, width, row_not = puzzle.colour_count, puzzle.width, self.board.row_not

        def value(r: int, c: int, masks: list[int]) -> int:
            left = [k for k in range(count + 1) if not masks[k] >> c & 1]
            if len(left) == 1:
                return left[0]
            base = (r * width + c) * count
            return next((k for k in left if k and base + k in true), 0)

        return tuple(
            tuple(value(r, c, masks) for c in range(width))
            for r, masks in ((r, [row_not[k][r] for k in range(count + 1)]) for r in range(puzzle.height))
        )

    def blocking_clause(self, model: list[int]) -> Clause:
        """The clause that rules out this model's picture, over the unknown cells only."""
        true = set(lit for lit in model if lit > 0)
        return [-v if v in true else v for v in self.unknown]

    def blocking_clause_for(self, grid: Grid) -> Clause:
        """The clause that rules out a picture, over the unknown cells only."""
        width, count = self.board.puzzle.width, self.board.colours
        clause = []
        for v in self.unknown:
            cell, colour = divmod(v - 1, count)
            clause.append(-v if grid[cell // width][cell % width] == colour + 1 else v)
        return clause

    def units(self) -> list[Clause]:
        """Unit clauses for every fixed cell (and ruled-out colour), for a formula that stands on
        its own."""
        puzzle = self.board.puzzle
        found = []
        for r in range(puzzle.height):
            for c in range(puzzle.width):
                value = self.board.cell(r, c)
                possible = self.board.possible(r, c)
                for colour in range(1, puzzle.colour_count + 1):
                    v = cell_variable(puzzle, r, c, colour)
                    if value == colour:
                        found.append([v])
                    elif value is not None or colour not in possible:
                        found.append([-v])
        return found


def no_fit(first: Literal) -> list[Clause]:
    """The clauses of a line whose clue needs more cells than it has (which only a board with no
    cell known can hold: line logic refutes it first): its first cell's literal both ways, so the
    formula has no model and unit propagation alone refutes it (encodings/automaton.md, "A clue
    longer than its line"). The empty clause when that cell is known."""
    if first is True or first is False:
        return [[]]
    return [[first], [-first]]


def unpruned_clauses(puzzle: Puzzle, encoding: str) -> int:
    """How many clauses a black-and-white puzzle's formula with no cell known and no implied
    clauses has (`build_formula(Board(puzzle), encoding, implications=False)`): exact, from the
    clues alone, without building it (encodings/automaton.md and blocks.md, "Unpruned")."""
    check_encoding(encoding)
    counts: Callable[[Clue, int], tuple[int, int]] = ENCODINGS.module(encoding).unpruned_counts
    rows = sum(counts(clue, puzzle.width)[1] for clue in puzzle.rows)
    return rows + sum(counts(clue, puzzle.height)[1] for clue in puzzle.columns)


def build_formula(
    board: Board,
    encoding: str = DEFAULT_ENCODING,
    deadline: Deadline = NO_DEADLINE,
    max_clauses: int | None = None,
    implications: bool = True,
) -> GridFormula:
    """Encode every line that still has unknown cells, pruned by what the board knows.

    In black and white, each open line's implications follow (`nonosat.solver.encodings.implications`,
    when `implications`): binary clauses that hold in every completion of the line, so the
    solutions are the same, which the SAT solver finds much sooner on hard grids.

    Raises TimeUp when the deadline passes first, and FormulaTooLarge when the clauses grow past
    `max_clauses` (default: nonosat.limits.MAX_CLAUSES, read now; memory, not time, would run out).

    The build runs with Python's collector paused (`collection_paused`): 1.3-2 times faster on
    large grids. It is not paused while the formula is searched: a search may take hours, and
    the collector is the whole process's (a host's other threads would keep their garbage).
    """
    pool = UnnamedPool(start_from=board.puzzle.width * board.puzzle.height * board.puzzle.colour_count + 1)
    try:
        with collection_paused():
            return _build(board, encoding, pool, deadline, max_clauses, implications)
    finally:
        pool.let_go()


def _build(
    board: Board, encoding: str, pool: UnnamedPool, deadline: Deadline, max_clauses: int | None, implications: bool
) -> GridFormula:
    """`build_formula`, its pool made."""
    limit = MAX_CLAUSES if max_clauses is None else max_clauses
    check_encoding(encoding)
    encode = ENCODINGS[encoding]
    puzzle = board.puzzle
    width, height = puzzle.width, puzzle.height
    clauses: list[Clause] = []

    def literals(filled: int, empty: int, length: int, first: int, step: int) -> list[Literal]:
        """Each cell's literal along a line: its variable if unknown, else its known value."""
        return [True if filled >> i & 1 else False if empty >> i & 1 else first + i * step for i in range(length)]

    def grown(clauses: list[Clause]) -> None:
        deadline.check("building the CNF", keep=len(clauses) * FREEING_A_CLAUSE + pool.named() * FREEING_A_NAME)
        if len(clauses) > limit:
            raise FormulaTooLarge(
                f"the CNF grew past {limit} clauses, the limit that keeps memory bounded,"
                f" with {board.unknown_count()} of {width * height} cells open"
            )

    if puzzle.is_colour:
        clauses, unknown = _colour_clauses(board, encode, pool, grown)
        return GridFormula(board, clauses, pool.top, unknown, encoding)
    overfull = set(puzzle.overfull_lines())
    full_row, full_col = (1 << width) - 1, (1 << height) - 1
    for r, clue in enumerate(puzzle.rows):
        f, e = board.row_filled[r], board.row_empty[r]
        if (f | e) != full_row:
            cells = literals(f, e, width, r * width + 1, 1)
            if (True, r) in overfull:
                clauses += no_fit(cells[0])
            else:
                clauses += encode(Line(("row", r), clue, cells), pool)  # its live states if the encoding asks
            grown(clauses)
    for c, clue in enumerate(puzzle.columns):
        f, e = board.col_filled[c], board.col_empty[c]
        if (f | e) != full_col:
            cells = literals(f, e, height, c + 1, width)
            if (False, c) in overfull:
                clauses += no_fit(cells[0])
            else:
                clauses += encode(Line(("column", c), clue, cells), pool)
            grown(clauses)
    if implications:
        from nonosat.solver.encodings.implications import grid_implications

        clauses += grid_implications(board, len(clauses) // IMPLICATIONS_SHARE, deadline)
        grown(clauses)
    known = [board.row_filled[r] | board.row_empty[r] for r in range(height)]  # read once: properties
    unknown = [r * width + c + 1 for r in range(height) for c in range(width) if not known[r] >> c & 1]
    return GridFormula(board, clauses, pool.top, unknown, encoding)


def _colour_clauses(
    board: Board, encode: LineEncoder, pool: IDPool, grown: Callable[[list[Clause]], None]
) -> tuple[list[Clause], list[int]]:
    """`build_formula` for a colour puzzle: at most one colour per unknown cell, and every line
    with unknown cells encoded over its cells' colour literals. Returns the clauses and the
    variables of the (cell, colour) pairs still open."""
    puzzle = board.puzzle
    count, width = puzzle.colour_count, puzzle.width
    painted = range(1, count + 1)
    choices: list[list[list[Literal]]] = []
    for r in range(puzzle.height):  # each cell's literal of each colour: a constant where it is known
        masks = [board.row_not[k][r] for k in range(count + 1)]
        row: list[list[Literal]] = []
        for c in range(width):
            left = [k for k in range(count + 1) if not masks[k] >> c & 1]
            if len(left) == 1:
                row.append([k == left[0] for k in painted])
            else:
                base = (r * width + c) * count
                row.append([base + k if k in left else False for k in painted])
        choices.append(row)
    clauses: list[Clause] = []
    unknown: list[int] = []
    overfull = set(puzzle.overfull_lines())
    for row in choices:
        for cell in row:
            open_ = [v for v in cell if v is not True and v is not False]
            if open_ and not any(v is True for v in cell):  # `True in cell` would match variable 1
                unknown.extend(int(v) for v in open_)
                clauses += at_most_one(cell)
    for is_row, lines, length in ((True, puzzle.rows, puzzle.width), (False, puzzle.columns, puzzle.height)):
        for index, clue in enumerate(lines):
            cells = choices[index] if is_row else [row[index] for row in choices]
            if board.known(is_row, index) == (1 << length) - 1:
                continue
            colours = puzzle.colours_of(is_row, index)
            if (is_row, index) in overfull:
                clauses += no_fit(cells[0][0])
                continue
            _, alive = colour_alive_states(clue, colours, length, board.excluded(is_row, index))
            name = ("row" if is_row else "column", index)
            clauses += encode(Line(name, clue, (), alive, colours, cells), pool)
            grown(clauses)
    return clauses, unknown


def to_dimacs(formula: GridFormula, encoding: str) -> str:
    """DIMACS CNF whose header comments map each cell to its variable."""
    puzzle = formula.board.puzzle
    clauses = formula.units() + formula.clauses
    count = puzzle.colour_count
    cells = puzzle.width * puzzle.height * count
    variables = max(formula.variables, cells)
    lines = [
        f"c nonosat CNF, encoding {encoding}",
        f"c puzzle {puzzle.name}: {puzzle.width} columns x {puzzle.height} rows",
    ]
    if count == 1:
        lines.append("c cell (row r, column c), counted from 1, is variable (r-1)*width + c; true means filled")
    else:
        background = puzzle.palette[0]
        lines.append(
            f"c cell (row r, column c) has colour k (all counted from 1) when variable ((r-1)*width + c-1)*{count} + k"
            f" is true; it is background ({background.name} {background.rgb}) when none of its {count} is"
        )
        for k, colour in enumerate(puzzle.palette[1:], start=1):
            lines.append(f"c colour {k}: {colour.name} {colour.rgb} ({colour.char})")
    lines.append(f"c cells: variables 1..{cells}; higher ones are auxiliary")
    for r in range(puzzle.height):
        first = cell_variable(puzzle, r, 0)
        lines.append(f"c row {r + 1}: variables {first}..{first + puzzle.width * count - 1}")
    lines.append(f"p cnf {variables} {len(clauses)}")
    lines.extend(
        " ".join(map(str, clause)) + " 0" if clause else "0" for clause in clauses
    )  # (the empty clause: no space)
    return "\n".join(lines) + "\n"


def encode_puzzle(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING) -> str:
    """DIMACS CNF for a whole puzzle, after line logic (see `encoded_puzzle`)."""
    return encoded_puzzle(puzzle, encoding)[0]


def encoded_puzzle(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING) -> tuple[str, str | None]:
    """DIMACS CNF for a whole puzzle, the cells line logic decides as unit clauses, and why it
    has no solution when the cheap checks or line logic refute it (None otherwise). A refuted
    puzzle's CNF is its clues' alone, with no unit clauses and a comment saying why (an empty
    clause only where a line cannot be encoded): unsatisfiable, for another tool to take apart
    (a review found a lone empty clause written in one case and nothing in the other)."""
    check_encoding(encoding)
    problems = puzzle.problems()
    why = "; ".join(problems) if problems else None
    board = None
    if why is None:
        try:
            board = line_solve(puzzle)
        except Contradiction:
            why = "line logic finds that the rows and columns contradict each other"
    board = Board(puzzle) if board is None else board
    empty = GridFormula(board, [[]], puzzle.width * puzzle.height * puzzle.colour_count, [])
    grew = ""
    with collection_paused():
        try:
            formula = build_formula(board, encoding)
        except Contradiction:
            formula = empty
        except FormulaTooLarge:
            if why is None:
                raise
            formula, grew = (
                empty,
                f" (the clues' own CNF grows past {MAX_CLAUSES} clauses: an empty clause stands for it)",
            )
    text = to_dimacs(formula, encoding)
    if why is not None:  # (a review: a refuted puzzle whose clues' CNF was too large was exit 4, not 3)
        head, _, rest = text.partition("\n")
        text = f"{head}\nc no solution: {one_comment(why)}: this formula is unsatisfiable{grew}\n{rest}"
    return text, why


def one_comment(text: str) -> str:
    """Text on one DIMACS comment line."""
    return " ".join(text.split())
