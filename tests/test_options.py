"""Every option of every command changes what it says it changes: the table below says, for each
one, what it changes and which test shows it (a test that would fail if the option were accepted
and then ignored). A test here keeps the table whole (every option of the command line is in it)
and true to the tests (each named test exists); the options that no other test showed are shown
here."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from nonosat import Puzzle, load
from nonosat.cli import app
from nonosat.formats import save

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
FOREVER = str(PUZZLES / "webpbn-06574-forever.non")

OPTIONS = {
    "solve --count": (
        (
            "Looks for up to N solutions: with --count 5 an ambiguous 2x2 reports both of its solutions and "
            "count_is_exact true."
        ),
        "tests/test_cli.py::test_count_reports_an_exact_count",
    ),
    "solve --timeout": (
        (
            "Sets a deadline for the whole command: a 300x300 solve with --timeout 0.5 stops on time with "
            "exit 4, 'unknown (time limit reached while ...)'."
        ),
        "tests/test_limits.py::test_building_the_cnf_keeps_to_the_deadline",
    ),
    "solve --engine": (
        (
            "Chooses what searches what line logic leaves open (cdcl, dfs, sat or auto); the result's method "
            "names the engine."
        ),
        "tests/test_engines.py::test_each_engine_answers_by_its_name",
    ),
    "solve --solver": (
        (
            "Naming a PySAT solver makes the SAT engine answer (method 'sat' instead of the default 'cdcl'), "
            "with that solver's own conflict/decision/propagation counts."
        ),
        "tests/test_engines.py::test_every_solver_and_encoding_gives_the_sat_method_and_its_own_counts",
    ),
    "solve --encoding": (
        (
            "Naming a CNF encoding makes the SAT engine answer and shapes the formula: blocks gives fewer "
            "variables than automaton."
        ),
        "tests/test_engines.py::test_every_solver_and_encoding_gives_the_sat_method_and_its_own_counts",
    ),
    "solve --jobs": (
        (
            "Cores a hard puzzle may use: jobs=1 starts no rival, jobs=2 races each hard puzzle against a "
            "rival (the search upside down) with the same verdicts."
        ),
        "tests/test_options.py::test_jobs_two_races_and_jobs_one_does_not",
    ),
    "solve --output": (
        ("Writes the solution to the file (a .non whose goal is the solved grid) and refuses an existing file."),
        "tests/test_cli.py::test_output_writes_the_solution_and_never_overwrites",
    ),
    "solve --force": (
        (
            "Lets --output overwrite an existing file; without it the command exits 2 naming --force and "
            "leaves the file untouched."
        ),
        "tests/test_cli.py::test_output_writes_the_solution_and_never_overwrites",
    ),
    "solve --format": (
        "json prints one JSON record (status, method, problems) instead of the text grid and status line.",
        "tests/test_cli.py::test_totals_that_differ_still_give_the_title_and_the_none_line",
    ),
    "solve --ascii": (
        (
            "Draws cells as # and . with no colour codes or block characters, where the default terminal "
            "output has colour."
        ),
        "tests/test_render.py::test_ascii_has_no_block_characters_and_no_colour",
    ),
    "solve --render": (
        (
            "Draws the solved picture with its clues to a .png/.svg whose filled cells are the goal (refusing"
            " an existing file without --force)."
        ),
        "tests/test_render.py::test_solve_render_draws_the_solved_picture",
    ),
    "solve --live": (
        (
            "Shows line logic filling the grid step by step (0.02 s a step), so on Swing a 1 s --timeout runs"
            " out (exit 4, 'time limit reached') yet ends on time."
        ),
        "tests/test_limits.py::test_live_and_linestats_keep_to_the_deadline",
    ),
    "solve --linestats": (
        "After solving, prints a 'line logic, per line' table with a row for every row and column.",
        "tests/test_explain.py::test_linestats_lists_every_line_with_passes",
    ),
    "solve --conflicts": (
        (
            "--conflicts/--no-conflicts: with no solution, name (or skip naming) a minimal set of lines that "
            "cannot all hold; the JSON diagnosis is null with --no-conflicts."
        ),
        "tests/test_options.py::test_solve_no_conflicts_names_no_lines",
    ),
    "check --timeout": (
        "A tiny --timeout leaves the verdict unknown: exit 4 with 'time limit reached while ...'.",
        "tests/test_cli.py::test_timeout_exits_4_with_unknown",
    ),
    "check --engine": (
        (
            "Chooses what searches what line logic leaves open (cdcl, dfs, sat or auto); the record's method "
            "names the engine."
        ),
        "tests/test_engines.py::test_each_engine_answers_by_its_name",
    ),
    "check --solver": (
        (
            "--solver belongs to the SAT engine: with --engine dfs it is refused (exit 2, one line saying to "
            "drop --engine or make it sat)."
        ),
        "tests/test_options.py::test_check_solver_and_encoding_choose_the_sat_engine",
    ),
    "check --jobs": (
        (
            "Cores a hard puzzle may use: with 2 or more, a search still going after 0.1 s is raced by a "
            "rival and the first to finish answers."
        ),
        "tests/test_options.py::test_jobs_two_races_and_jobs_one_does_not",
    ),
    "check --encoding": (
        (
            "--encoding belongs to the SAT engine: with --engine cdcl it is refused (exit 2, one line saying "
            "to drop --engine or make it sat)."
        ),
        "tests/test_options.py::test_check_solver_and_encoding_choose_the_sat_engine",
    ),
    "check --format": (
        "json prints a JSON record with status, method and goal_satisfies_clues instead of text.",
        "tests/test_cli.py::test_check_json_has_the_verdict",
    ),
    "check --ascii": (
        (
            "Draws the solutions as characters (# . or a colour's letter), as the README's 'check "
            "puzzles/ring-colour.non --ascii' and 'check puzzles/broken-cross.non --ascii' outputs show "
            "exactly."
        ),
        "tests/test_docs.py::test_readme_examples_print_what_the_readme_shows",
    ),
    "check --rating": (
        ("--rating/--no-rating: rates difficulty after the verdict; with --no-rating the JSON level is null."),
        "tests/test_limits.py::test_no_rating_skips_the_rating",
    ),
    "check --conflicts": (
        (
            "--conflicts/--no-conflicts: with no solution, names the conflicting lines; with --no-conflicts "
            "the JSON diagnosis is null."
        ),
        "tests/test_limits.py::test_no_conflicts_skips_the_conflicting_lines",
    ),
    "explain --format": (
        ("json prints the steps as a JSON record (level, open_cells, steps) instead of numbered text lines."),
        "tests/test_explain.py::test_explain_prints_numbered_steps_and_says_how_it_ended",
    ),
    "explain --json": (
        "Short for --format json: prints a JSON record with level and numbered steps.",
        "tests/test_explain.py::test_rate_and_explain_take_a_json_flag",
    ),
    "explain --timeout": (
        (
            "A deadline for the whole command: on a 200x200 of 1s it stops with exit 4, 'time limit reached "
            "while probing'."
        ),
        "tests/test_limits.py::test_explain_keeps_to_the_deadline",
    ),
    "rate --format": (
        "json prints the rating as a JSON record (level, difficulty) instead of text.",
        "tests/test_options.py::test_rate_format_json_is_the_record",
    ),
    "rate --json": (
        "Short for --format json: prints a JSON record with level 'line' and difficulty 1 for Dancer.",
        "tests/test_explain.py::test_rate_and_explain_take_a_json_flag",
    ),
    "rate --timeout": (
        (
            "A deadline for the rating: rate(..., timeout=1e-9) gives level 'unknown', score 0 and 'time "
            "limit reached' (and the command keeps to --timeout 5)."
        ),
        "tests/test_limits.py::test_rating_keeps_to_the_deadline",
    ),
    "rate --engine": (
        (
            "Chooses the engine the rating's search uses (e.g. --engine sat rates Forever 'search'; --engine "
            "cdcl refuses a colour puzzle)."
        ),
        "tests/test_engines.py::test_rate_batch_solve_many_and_the_web_take_the_engine",
    ),
    "hint --state": (
        (
            "The partial grid the hint starts from: its known cells decide the next forced cell, and a wrong "
            "cell in it gives exit 3 naming that cell."
        ),
        "tests/test_explain_colour.py::test_explain_and_hint_print_what_each_step_makes_of_the_colours",
    ),
    "hint --steps": (
        (
            "How many cell-fixing logical steps to give: hint(..., steps=3) returns exactly three steps that "
            "fix cells (the library call the command makes)."
        ),
        "tests/test_explain_colour.py::test_a_line_solvable_colour_puzzle_is_explained_rated_and_hinted_without_sat",
    ),
    "hint --timeout": (
        (
            "A deadline for the whole command: on Frans Faase from an empty state it stops with exit 4, 'time"
            " limit reached while ...'."
        ),
        "tests/test_limits.py::test_hint_keeps_to_the_deadline",
    ),
    "encode --output": (
        (
            "Writes the DIMACS CNF (with cell-variable comments) to the file, which another SAT solver solves"
            " to the goal."
        ),
        "tests/test_cli.py::test_encode_writes_cnf_that_another_solver_solves_to_the_goal",
    ),
    "encode --encoding": (
        ("Chooses the CNF encoding of each line's clue (blocks or automaton), changing the formula written."),
        "tests/test_options.py::test_encode_encoding_shapes_the_formula_and_force_overwrites",
    ),
    "encode --force": (
        "Overwrites an existing --output file instead of refusing.",
        "tests/test_options.py::test_encode_encoding_shapes_the_formula_and_force_overwrites",
    ),
    "convert --to": (
        ("Writes the named format whatever the suffix: --to xml writes dancer.txt as XML that loads with its title."),
        "tests/test_formats_more.py::test_convert_command",
    ),
    "convert --force": (
        ("Overwrites an existing target; without it convert exits 2 naming --force and leaves the file untouched."),
        "tests/test_formats_more.py::test_convert_command",
    ),
    "render --output": (
        "The picture to write: a .png (or .svg) sheet of the puzzle is written there.",
        "tests/test_render.py::test_render_without_solution_draws_the_empty_sheet",
    ),
    "render --solution": (
        "Draws the solved picture: the SVG's filled cells are the goal's (without it the sheet is empty).",
        "tests/test_render.py::test_render_refuses_to_overwrite_without_force",
    ),
    "render --timeout": (
        "A time limit for the command (the solve for --solution): past it nothing is drawn, exit 4.",
        "tests/test_options.py::test_render_solution_keeps_to_its_timeout",
    ),
    "render --force": (
        ("Overwrites an existing picture; without it render exits 2 naming --force and leaves the file untouched."),
        "tests/test_render.py::test_render_refuses_to_overwrite_without_force",
    ),
    "generate --output": (
        (
            "Writes the puzzle to the file (a .non with the goal that check proves unique) instead of "
            "printing it, refusing an existing file."
        ),
        "tests/test_generate.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --width": (
        "Cells across: --width 25 gives a puzzle 25 cells wide.",
        "tests/test_generate.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --height": (
        "Cells down: a --height of 257, over the 256-cell limit, is refused at once (exit 2).",
        "tests/test_limits.py::test_generated_sizes_over_the_limit_are_refused_at_once",
    ),
    "generate --threshold": (
        (
            "The grey level below which cells are filled instead of Otsu's: threshold(shades, 5) fills only "
            "the level-0 cell (the thresholding from_image does)."
        ),
        "tests/test_generate.py::test_invert_fills_the_light_cells",
    ),
    "generate --invert": (
        (
            "Fills the light cells instead of the dark ones: threshold(shades, invert=True) gives the "
            "complement grid (the thresholding from_image does)."
        ),
        "tests/test_generate.py::test_invert_fills_the_light_cells",
    ),
    "generate --colours": (
        (
            "Makes a colour puzzle of at most K colours: --colours 3 writes a colour puzzle with at most 4 "
            "palette entries (blank included)."
        ),
        "tests/test_generate_colour.py::test_generate_colours_writes_a_colour_puzzle_that_check_proves_unique",
    ),
    "generate --require": (
        (
            "require='line' repairs a picture line logic cannot start on until line logic alone solves it "
            "(rated 'line')."
        ),
        "tests/test_generate_search.py::test_a_picture_of_thin_lines_becomes_line_solvable_with_few_changes_along_its_edges",
    ),
    "generate --max-changes": (
        (
            "Caps the changed cells: --max-changes 0 on an ambiguous checkerboard gives exit 5, one line, "
            "nothing written."
        ),
        "tests/test_generate.py::test_generate_failure_exits_5_and_writes_nothing",
    ),
    "generate --max-distance": (
        (
            "Caps how far the picture may move: --max-distance 0.5 makes the smiley fail with exit 5, the "
            "message naming --max-distance."
        ),
        "tests/test_generate_search.py::test_the_command_line_names_its_own_options_in_messages",
    ),
    "generate --seed": (
        ("Seeds tie-breaks between equally good cells: the same seed gives the same puzzle, another seed may not."),
        "tests/test_options.py::test_generate_seed_title_license_and_force",
    ),
    "generate --preview": (
        "Also draws the final picture with its clues into the given file (a non-empty PNG).",
        "tests/test_generate.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --preview-changes": (
        (
            "Draws into --preview the start beside the final picture with each changed cell marked "
            "(added/removed strokes count the changed cells)."
        ),
        "tests/test_generate_search.py::test_preview_changes_marks_each_changed_cell_beside_the_picture",
    ),
    "generate --suggest": (
        "Makes nothing and lists N one-cell edits ('left open (cost ...)' lines); refused with -o.",
        "tests/test_generate_search.py::test_preview_changes_needs_a_preview_and_suggest_makes_nothing",
    ),
    "generate --title": (
        "Sets the puzzle's title (default: from the file name).",
        "tests/test_options.py::test_generate_seed_title_license_and_force",
    ),
    "generate --author": (
        "Writes the author into the puzzle: the written file loads with author 'A. Author'.",
        "tests/test_generate.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --license": (
        "Writes the licence into the puzzle.",
        "tests/test_options.py::test_generate_seed_title_license_and_force",
    ),
    "generate --timeout": (
        (
            "A deadline for the whole run: a 120-wide noise picture with --timeout 2 ends with exit 4, 'time "
            "limit reached while', and no output file."
        ),
        "tests/test_limits.py::test_random_and_generate_keep_to_the_deadline_for_the_whole_run",
    ),
    "generate --force": (
        "Overwrites an existing --output or --preview; without it generate exits 2 naming --force.",
        "tests/test_options.py::test_generate_seed_title_license_and_force",
    ),
    "random --width": (
        "Cells across: --width 9 prints a puzzle 9 cells wide.",
        "tests/test_generate.py::test_random_prints_a_non_file_that_loads",
    ),
    "random --height": (
        "Cells down: --height 7 prints a puzzle 7 cells high.",
        "tests/test_generate.py::test_random_prints_a_non_file_that_loads",
    ),
    "random --output": (
        (
            "Writes the puzzle to the file instead of printing the .non: the README's 'random ... -o "
            "random.non' prints only the line ending 'wrote random.non'."
        ),
        "tests/test_docs.py::test_readme_examples_print_what_the_readme_shows",
    ),
    "random --density": (
        (
            "The share of filled cells in the random picture: density 0.4 fills about 40% of the cells "
            "(random_picture, which random_puzzle draws with)."
        ),
        "tests/test_generate_search.py::test_random_pictures_have_no_blank_or_full_line_and_about_the_density",
    ),
    "random --colours": (
        "Makes a colour puzzle: --colours 3 prints a puzzle whose palette has 4 entries (blank included).",
        "tests/test_generate_colour.py::test_random_colours_prints_a_non_file_that_loads",
    ),
    "random --seed": (
        (
            "Seeds the random grid: the README's 'random --width 10 --height 8 --seed 3 --require line' "
            "prints exactly the puzzle shown, titled '(0.5, seed 3)'."
        ),
        "tests/test_docs.py::test_readme_examples_print_what_the_readme_shows",
    ),
    "random --require": (
        "--require line makes a puzzle line logic alone solves.",
        "tests/test_generate.py::test_random_prints_a_non_file_that_loads",
    ),
    "random --max-changes": (
        "Gives up (exit 5) after changing this many cells while repairing the random grid.",
        "tests/test_options.py::test_random_max_changes_preview_changes_and_force",
    ),
    "random --preview": (
        "Also draws the puzzle into the given file: a PNG is written.",
        "tests/test_generate_search.py::test_preview_changes_marks_each_changed_cell_beside_the_picture",
    ),
    "random --preview-changes": (
        (
            "Draws into --preview the starting random grid beside the final one with changed cells marked, "
            "instead of the sheet."
        ),
        "tests/test_options.py::test_random_max_changes_preview_changes_and_force",
    ),
    "random --timeout": (
        (
            "A deadline for the whole run: a 100x100 with --timeout 2 ends with exit 4, 'time limit reached "
            "while', and nothing printed."
        ),
        "tests/test_limits.py::test_random_and_generate_keep_to_the_deadline_for_the_whole_run",
    ),
    "random --force": (
        "Overwrites an existing --output or --preview instead of refusing.",
        "tests/test_options.py::test_random_max_changes_preview_changes_and_force",
    ),
    "batch --out": (
        (
            "Where the JSON Lines records go: '--out -' writes one record a line to standard output and no "
            "file named '-'."
        ),
        "tests/test_cli_faults.py::test_results_to_standard_output",
    ),
    "batch --jobs": (
        "Number of worker processes solving puzzles at once.",
        "tests/test_options.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --timeout": (
        (
            "A per-puzzle time limit: --timeout 0.000001 records Forever as 'unknown' while a trivial puzzle "
            "is still 'unique'."
        ),
        "tests/test_cli_faults.py::test_retry_unknown_redoes_only_those_and_keeps_the_rest",
    ),
    "batch --count": (
        "Looks for up to N solutions per puzzle (2 decides uniqueness).",
        "tests/test_options.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --require": (
        ("--require unique makes the run exit 1 when any puzzle is not unique (the tournament set has multiples)."),
        "tests/test_batch.py::test_fail_on_sets_the_exit_code",
    ),
    "batch --fail-on": (
        (
            "Exit 1 if any record has a listed status: --fail-on multiple exits 1, --fail-on none exits 0, an"
            " unknown status name exits 2."
        ),
        "tests/test_batch.py::test_fail_on_sets_the_exit_code",
    ),
    "batch --retry": (
        (
            "--retry unknown solves again only the records with that status (Forever becomes unique), keeping"
            " the others unchanged."
        ),
        "tests/test_cli_faults.py::test_retry_unknown_redoes_only_those_and_keeps_the_rest",
    ),
    "batch --executor": (
        "dask runs the puzzles on Dask workers instead of local processes, with the same records.",
        "tests/test_options.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --scheduler": (
        "The Dask scheduler address to use with --executor dask; without it a LocalCluster is started.",
        "tests/test_options.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --engine": (
        (
            "Chooses the engine each puzzle's search uses (records' method; e.g. dfs gives colour puzzles an "
            "error record)."
        ),
        "tests/test_engines.py::test_rate_batch_solve_many_and_the_web_take_the_engine",
    ),
    "batch --pictures": (
        (
            "Reads pictures in folders as puzzles: a folder of only a PNG is refused (exit 2) without it and "
            "solved, a.png's record first, with it."
        ),
        "tests/test_files_not_what_they_seem.py::test_a_folder_with_no_puzzle_file_says_how_to_take_its_pictures",
    ),
    "serve --host": (
        (
            "The address listened on: --host 0.0.0.0 serves on http://0.0.0.0:PORT and warns that anyone who "
            "can reach the machine can use it."
        ),
        "tests/test_web_serve.py::test_serve_prints_its_address_and_ends_on_ctrl_c_with_130",
    ),
    "serve --port": (
        ("The port listened on: a port already taken is refused with one line naming 127.0.0.1:PORT and exit 2."),
        "tests/test_web_serve.py::test_a_taken_port_is_one_line_and_exit_2",
    ),
    "serve --workers": (
        (
            "Requests answered at once (WebSettings.workers): with 1 worker and a queue of 1, a third request"
            " while two run/wait gets 503."
        ),
        "tests/test_web_api.py::test_a_full_queue_gets_503_with_retry_after",
    ),
    "serve --max-queue": (
        ("Requests that may wait for a worker (WebSettings.max_queue): beyond it a request gets 503 with Retry-After."),
        "tests/test_web_api.py::test_a_full_queue_gets_503_with_retry_after",
    ),
    "serve --max-upload": (
        (
            "Bytes an upload may have (WebSettings.max_upload_bytes): a body over 1000000 bytes, sized or "
            "streamed, gets 413."
        ),
        "tests/test_web_api.py::test_uploads_over_the_limit_get_413",
    ),
    "serve --max-side": (
        (
            "Cells a side of a puzzle (WebSettings.max_side): with 80, an 81-column puzzle gets 400 'limit of"
            " 80 cells a side'."
        ),
        "tests/test_web_api.py::test_uploads_over_the_limit_get_413",
    ),
    "serve --request-timeout": (
        "Seconds a request gets when it names no timeout (WebSettings.default_timeout).",
        "tests/test_options.py::test_serve_request_timeouts_bound_the_requests",
    ),
    "serve --max-request-timeout": (
        "The most seconds a request may ask for (WebSettings.max_timeout); a larger timeout is cut to it.",
        "tests/test_options.py::test_serve_request_timeouts_bound_the_requests",
    ),
    "serve --max-count": (
        (
            "The most solutions a solve may ask for (WebSettings.max_count): with 3, count=1000 returns at "
            "most 3 solutions, count not exact."
        ),
        "tests/test_web_api.py::test_count_and_timeout_are_cut_to_the_servers_most",
    ),
}
"""Each option of each command: what it changes, and the test that shows it."""


def run(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


def command_line_options() -> set[str]:
    """Every option of every command, as `command --option`."""
    group = typer.main.get_command(app)
    return {
        f"{name} {param.opts[0]}"
        for name, command in group.commands.items()  # type: ignore[attr-defined]
        for param in command.params
        if param.param_type_name == "option" and param.name != "help"
    }


def test_every_option_of_the_command_line_says_what_it_changes() -> None:
    assert set(OPTIONS) == command_line_options()


def test_every_option_names_a_test_that_exists() -> None:
    defined: dict[str, set[str]] = {}
    for effect, test in OPTIONS.values():
        path, _, name = test.partition("::")
        if path not in defined:
            tree = ast.parse((ROOT / path).read_text())
            defined[path] = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert name in defined[path], test
        assert effect.strip(), test


# --- the options no other test showed ---------------------------------------------------------


def test_solve_no_conflicts_names_no_lines() -> None:
    cross = str(PUZZLES / "broken-cross.non")
    named = run("solve", cross, "--ascii")
    quiet = run("solve", cross, "--ascii", "--no-conflicts")
    assert named[0] == quiet[0] == 3
    assert "cannot all hold together" in named[1] and "cannot all hold" not in quiet[1]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "check"])
def test_jobs_two_races_and_jobs_one_does_not(command: str, monkeypatch: pytest.MonkeyPatch, rivals: list[Any]) -> None:
    """With the rival due at once, --jobs 2 starts one beside the search; --jobs 1 none."""
    from nonosat.solver import compiled, compiled_search
    from nonosat.solver import race as racing

    if compiled.core is None:
        pytest.skip("the compiled core was not built")
    monkeypatch.setattr(racing, "RACE_AFTER", 0.0)
    monkeypatch.setattr(compiled_search, "warmed", lambda: True)  # no first try alone: the rival at once
    assert run(command, FOREVER, "--jobs", "1")[0] == 0 and not rivals
    assert run(command, FOREVER, "--jobs", "2")[0] == 0 and len(rivals) == 1


def test_rate_format_json_is_the_record() -> None:
    code, text, _ = run("rate", FOREVER)
    code_json, record, _ = run("rate", FOREVER, "--format", "json")
    assert code == code_json == 0 and text.startswith("Forever: 25x25\n")
    assert json.loads(record)["level"] == "search" and "difficulty 5/5" in text


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "solve"])
def test_check_solver_and_encoding_choose_the_sat_engine(command: str) -> None:
    _, by_default, _ = run(command, FOREVER, "--format", "json")
    _, by_solver, _ = run(command, FOREVER, "--format", "json", "--solver", "glucose4")
    _, by_encoding, _ = run(command, FOREVER, "--format", "json", "--encoding", "automaton")
    methods = [json.loads(record)["method"] for record in (by_default, by_solver, by_encoding)]
    from nonosat.solver import compiled

    assert methods == ["cdcl" if compiled.core is not None else "sat", "sat", "sat"]
    assert json.loads(by_encoding)["stats"]["variables"] > json.loads(by_solver)["stats"]["variables"]


def test_encode_encoding_shapes_the_formula_and_force_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "forever.cnf"
    assert run("encode", FOREVER, "-o", str(target))[0] == 0
    blocks = target.read_text()
    code, _, stderr = run("encode", FOREVER, "-o", str(target), "--encoding", "automaton")
    assert code == 2 and "--force" in stderr and target.read_text() == blocks
    assert run("encode", FOREVER, "-o", str(target), "--encoding", "automaton", "--force")[0] == 0
    automaton = target.read_text()
    assert "encoding blocks" in blocks and "encoding automaton" in automaton
    header = [int(line.split()[2]) for text in (blocks, automaton) for line in text.splitlines() if line[:5] == "p cnf"]
    assert header[0] < header[1]  # more variables: a state per cell


def test_render_solution_keeps_to_its_timeout(tmp_path: Path) -> None:
    rng = random.Random(1)
    picture = [[int(rng.random() < 0.5) for _ in range(150)] for _ in range(150)]
    clues = Puzzle.from_grid(picture)
    path = tmp_path / "r150.non"
    save(Puzzle(rows=clues.rows, columns=clues.columns), path)
    target = tmp_path / "r150.svg"
    done = subprocess.run(
        [sys.executable, "-m", "nonosat", "render", str(path), "--solution", "-o", str(target), "--timeout", "0.3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 4 and "unknown" in done.stderr and not target.exists()


def noise_picture(folder: Path) -> Path:
    pytest.importorskip("PIL")
    from PIL import Image

    rng = random.Random(5)
    image = Image.new("L", (12, 12))
    image.putdata([rng.choice((0, 255)) for _ in range(144)])
    path = folder / "noise.png"
    image.save(path)
    return path


def test_generate_seed_title_license_and_force(tmp_path: Path) -> None:
    picture = noise_picture(tmp_path)
    made = {}
    for seed in range(4):
        target = tmp_path / f"seed{seed}.non"
        code, _, stderr = run("generate", str(picture), "--width", "12", "--seed", str(seed), "-o", str(target))
        assert code == 0, stderr
        made[seed] = target.read_text()
    again = tmp_path / "again.non"
    assert run("generate", str(picture), "--width", "12", "--seed", "1", "-o", str(again))[0] == 0
    assert again.read_text() == made[1] and len(set(made.values())) > 1  # one seed, one puzzle; others differ
    target = tmp_path / "seed0.non"
    named = ["--title", "Noise", "--license", "CC0", "-o", str(target)]
    code, _, stderr = run("generate", str(picture), "--width", "12", *named)
    assert code == 2 and "--force" in stderr and target.read_text() == made[0]
    assert run("generate", str(picture), "--width", "12", *named, "--force")[0] == 0
    written = load(target)
    assert (written.title, written.license) == ("Noise", "CC0")


def test_random_max_changes_preview_changes_and_force(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    size = ["--width", "12", "--height", "12", "--seed", "4"]
    plain, marked = tmp_path / "plain.png", tmp_path / "marked.png"
    target = tmp_path / "random.non"
    code, _, stderr = run("random", *size, "-o", str(target), "--preview", str(plain))
    assert code == 0, stderr
    changed = int(stderr.split(" cells changed")[0].rsplit(" ", 1)[1]) if " cells changed" in stderr else 1
    assert run("random", *size, "-o", str(target))[0] == 2  # exists: needs --force
    assert run("random", *size, "-o", str(target), "--force", "--preview", str(marked), "--preview-changes")[0] == 0
    with Image.open(plain) as one, Image.open(marked) as two:
        assert two.width > one.width  # the start beside the end
    if changed:
        code, _, stderr = run("random", *size, "--max-changes", "0")
        assert code == 5 and "--max-changes" in stderr


def test_batch_jobs_count_executor_and_scheduler_reach_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nonosat.batch import executors, runner

    out = tmp_path / "r.jsonl"
    ring = str(PUZZLES / "ring.non")
    assert run("batch", ring, "--out", str(out), "--jobs", "1", "--count", "5")[0] == 0
    record = json.loads(out.read_text())
    assert record["solutions"] == 3  # the exact count, not the 2 that decide uniqueness
    pools: list[int] = []
    real_pooled = executors.pooled

    def counted(job: Any, pieces: Any, jobs: int, *args: Any) -> Any:
        pools.append(jobs)
        return real_pooled(job, pieces, jobs, *args)

    monkeypatch.setattr(executors, "pooled", counted)
    assert run("batch", ring, "--out", "-", "--jobs", "1")[0] == 0 and pools == []
    assert run("batch", ring, "--out", "-", "--jobs", "2")[0] == 0 and pools == [2]
    asked: list[tuple[Any, ...]] = []

    def fake_dask(todo: Any, scheduler: Any, jobs: int, timeout: Any, count: int, engine: str) -> Any:
        asked.append((scheduler, jobs, count, engine))
        return iter([])

    monkeypatch.setattr(runner, "dask", fake_dask)
    monkeypatch.setattr(runner, "check_executor", lambda executor: None)
    dask = ["--executor", "dask", "--scheduler", "tcp://scheduler:8786", "--jobs", "3", "--count", "4"]
    run("batch", ring, "--out", str(tmp_path / "d.jsonl"), *dask)
    assert asked == [("tcp://scheduler:8786", 3, 4, "auto")]


@pytest.mark.slow
def test_serve_request_timeouts_bound_the_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """--request-timeout is a request's time when it names none, --max-request-timeout the most
    it may name: a 300x300 random grid (seconds to build its CNF) comes back unknown within them."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nonosat.web import app as web_app

    made: list[Any] = []
    real_create = web_app.create_app

    def capture(settings: Any) -> Any:
        made.append(settings)
        return real_create(settings)

    import uvicorn

    monkeypatch.setattr(web_app, "create_app", capture)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: setattr(self, "started", True))
    limits = ["--request-timeout", "0.4", "--max-request-timeout", "0.8", "--max-side", "300", "--port", "0"]
    code, _, _ = run("serve", *limits)
    assert code == 130 and (made[0].default_timeout, made[0].max_timeout) == (0.4, 0.8)
    rng = random.Random(1)
    clues = Puzzle.from_grid([[int(rng.random() < 0.5) for _ in range(300)] for _ in range(300)])
    body = {"rows": [list(c) for c in clues.rows], "cols": [list(c) for c in clues.columns]}
    with TestClient(real_create(made[0])) as client:
        for query in ("", "?timeout=1000"):
            answer = client.post(f"/api/solve{query}", json=body)
            assert answer.status_code == 200 and answer.json()["status"] == "unknown", answer.text


@pytest.mark.parametrize(
    ("option", "bad", "endpoint", "upload"),
    [
        ("--threshold", "²", "picture", "smiley-picture.png"),
        ("--threshold", "256", "picture", "smiley-picture.png"),
        ("--timeout", "nan", "check", "ring.non"),
        ("--timeout", "-1", "check", "ring.non"),
    ],
)
def test_one_parser_per_option_value_for_the_command_line_and_the_web(
    option: str, bad: str, endpoint: str, upload: str
) -> None:
    """`generate --threshold ²` was a ValueError's traceback (str.isdigit takes '²'), while the web
    refused it: both faces read such values with one parser (nonosat.values), in the same words."""
    command = ["generate", str(PUZZLES / upload), "--threshold", bad] if option == "--threshold" else []
    command = command or ["check", str(PUZZLES / upload), "--timeout", bad]
    done = subprocess.run([sys.executable, "-m", "nonosat", *command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "internal error" not in done.stderr
    said = done.stderr.strip().splitlines()[-1].split(f"Invalid value for {option}: ", 1)[1]
    assert said.startswith("expected ")
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nonosat.web.app import create_app
    from nonosat.web.settings import WebSettings

    with TestClient(create_app(WebSettings())) as client:
        files = {"file": (upload, (PUZZLES / upload).read_bytes())}
        answer = client.post(f"/api/{endpoint}", params={option[2:]: bad}, files=files)
    assert answer.status_code == 400 and answer.json()["error"] == f"{option[2:]}: {said}"
