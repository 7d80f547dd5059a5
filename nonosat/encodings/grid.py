"""The whole grid as CNF: one variable per cell, and each unsolved line's clue encoded."""

from __future__ import annotations

from dataclasses import dataclass

from pysat.formula import IDPool

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.encodings import DEFAULT_ENCODING, ENCODINGS, Clause, Line, Literal, check_encoding
from nonosat.errors import FormulaTooLarge
from nonosat.limits import MAX_CLAUSES
from nonosat.linesolve import Board, Contradiction, alive_states, line_solve
from nonosat.model import Grid, Puzzle


def cell_variable(puzzle: Puzzle, row: int, column: int) -> int:
    """The DIMACS variable of a cell: cells are numbered row by row from 1."""
    return row * puzzle.width + column + 1


@dataclass
class GridFormula:
    """The clauses of a partly solved grid; cells the line solver fixed are constants."""

    board: Board
    clauses: list[Clause]
    variables: int
    unknown: list[int]
    """The variables of the cells still unknown: the ones a blocking clause ranges over."""
    encoding: str = DEFAULT_ENCODING

    def grid(self, model: list[int]) -> Grid:
        """The picture a model describes, with the fixed cells filled in from the board."""
        puzzle = self.board.puzzle
        true = set(lit for lit in model if lit > 0)

        def value(r: int, c: int) -> int:
            known = self.board.cell(r, c)
            return int(cell_variable(puzzle, r, c) in true) if known is None else known

        return tuple(tuple(value(r, c) for c in range(puzzle.width)) for r in range(puzzle.height))

    def blocking_clause(self, model: list[int]) -> Clause:
        """The clause that rules out this model's picture, over the unknown cells only."""
        true = set(lit for lit in model if lit > 0)
        return [-v if v in true else v for v in self.unknown]

    def blocking_clause_for(self, grid: Grid) -> Clause:
        """The clause that rules out a picture, over the unknown cells only."""
        width = self.board.puzzle.width
        return [-v if grid[(v - 1) // width][(v - 1) % width] else v for v in self.unknown]

    def units(self) -> list[Clause]:
        """One unit clause per fixed cell, for a formula that stands on its own."""
        puzzle = self.board.puzzle
        found = []
        for r in range(puzzle.height):
            for c in range(puzzle.width):
                value = self.board.cell(r, c)
                if value is not None:
                    v = cell_variable(puzzle, r, c)
                    found.append([v if value else -v])
        return found


def build_formula(
    board: Board, encoding: str = DEFAULT_ENCODING, deadline: Deadline = NO_DEADLINE, max_clauses: int = MAX_CLAUSES
) -> GridFormula:
    """Encode every line that still has unknown cells, pruned by what the board knows.

    Raises TimeUp when the deadline passes first, and FormulaTooLarge when the clauses grow past
    `max_clauses` (memory, not time, would run out).
    """
    check_encoding(encoding)
    encode = ENCODINGS[encoding]
    puzzle = board.puzzle
    width, height = puzzle.width, puzzle.height
    pool = IDPool(start_from=width * height + 1)
    clauses: list[Clause] = []

    def literals(filled: int, empty: int, length: int, first: int, step: int) -> list[Literal]:
        """Each cell's literal along a line: its variable if unknown, else its known value."""
        return [True if filled >> i & 1 else False if empty >> i & 1 else first + i * step for i in range(length)]

    def grown() -> None:
        deadline.check("building the CNF")
        if len(clauses) > max_clauses:
            raise FormulaTooLarge(
                f"the CNF grew past {max_clauses} clauses, the limit that keeps memory bounded,"
                f" with {board.unknown_count()} cells left open by line logic"
            )

    full_row, full_col = (1 << width) - 1, (1 << height) - 1
    for r, clue in enumerate(puzzle.rows):
        f, e = board.row_filled[r], board.row_empty[r]
        if (f | e) != full_row:
            cells = literals(f, e, width, r * width + 1, 1)
            clauses += encode(Line(("row", r), clue, cells, alive_states(clue, width, f, e)), pool)
            grown()
    for c, clue in enumerate(puzzle.columns):
        f, e = board.col_filled[c], board.col_empty[c]
        if (f | e) != full_col:
            cells = literals(f, e, height, c + 1, width)
            clauses += encode(Line(("column", c), clue, cells, alive_states(clue, height, f, e)), pool)
            grown()
    unknown = [
        r * width + c + 1
        for r in range(height)
        for c in range(width)
        if not (board.row_filled[r] | board.row_empty[r]) >> c & 1
    ]
    return GridFormula(board, clauses, pool.top, unknown, encoding)


def to_dimacs(formula: GridFormula, encoding: str) -> str:
    """DIMACS CNF whose header comments map each cell to its variable."""
    puzzle = formula.board.puzzle
    clauses = formula.units() + formula.clauses
    variables = max(formula.variables, puzzle.width * puzzle.height)
    lines = [
        f"c nonosat CNF, encoding {encoding}",
        f"c puzzle {puzzle.name}: {puzzle.width} columns x {puzzle.height} rows",
        "c cell (row r, column c), counted from 1, is variable (r-1)*width + c; true means filled",
        f"c cells: variables 1..{puzzle.width * puzzle.height}; higher ones are auxiliary",
    ]
    for r in range(puzzle.height):
        first = cell_variable(puzzle, r, 0)
        lines.append(f"c row {r + 1}: variables {first}..{first + puzzle.width - 1}")
    lines.append(f"p cnf {variables} {len(clauses)}")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in clauses)
    return "\n".join(lines) + "\n"


def encode_puzzle(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING) -> str:
    """DIMACS CNF for a whole puzzle, after line logic; an unsatisfiable one has an empty clause."""
    check_encoding(encoding)
    puzzle.ensure_possible()
    try:
        board = line_solve(puzzle)
    except Contradiction:
        board = Board(puzzle)
        return to_dimacs(GridFormula(board, [[]], puzzle.width * puzzle.height, []), encoding)
    return to_dimacs(build_formula(board, encoding), encoding)
