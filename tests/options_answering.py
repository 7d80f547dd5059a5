"""What each option of the commands that answer about a puzzle (solve, check, explain, rate,
hint and encode) changes, and the test that shows it: a part of the table that
tests/test_options.py keeps whole and true."""

ANSWERING = {
    "solve --count": (
        (
            "Looks for up to N solutions: with --count 5 an ambiguous 2x2 reports both of its solutions and "
            "count_is_exact true."
        ),
        "tests/test_cli_exit_codes.py::test_count_reports_an_exact_count",
    ),
    "solve --timeout": (
        (
            "Sets a deadline for the whole command: a 300x300 solve with --timeout 0.5 stops on time with "
            "exit 4, 'unknown (time limit reached while ...)'."
        ),
        "tests/test_limits_deadline.py::test_building_the_cnf_keeps_to_the_deadline",
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
        "tests/test_options_shown.py::test_jobs_two_races_and_jobs_one_does_not",
    ),
    "solve --output": (
        ("Writes the solution to the file (a .non whose goal is the solved grid) and refuses an existing file."),
        "tests/test_cli_output_files.py::test_output_writes_the_solution_and_never_overwrites",
    ),
    "solve --force": (
        (
            "Lets --output overwrite an existing file; without it the command exits 2 naming --force and "
            "leaves the file untouched."
        ),
        "tests/test_cli_output_files.py::test_output_writes_the_solution_and_never_overwrites",
    ),
    "solve --format": (
        "json prints one JSON record (status, method, problems) instead of the text grid and status line.",
        "tests/test_cli_exit_codes.py::test_totals_that_differ_still_give_the_title_and_the_none_line",
    ),
    "solve --json": (
        "Short for --format json: the same JSON record, with status 'unique' for Dancer.",
        "tests/test_rate.py::test_solve_and_check_take_the_json_flag_too",
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
        "tests/test_limits_deadline.py::test_live_and_linestats_keep_to_the_deadline",
    ),
    "solve --linestats": (
        "After solving, prints a 'line logic, per line' table with a row for every row and column.",
        "tests/test_explain_steps.py::test_linestats_lists_every_line_with_passes",
    ),
    "solve --conflicts": (
        (
            "--conflicts/--no-conflicts: with no solution, name (or skip naming) a minimal set of lines that "
            "cannot all hold; the JSON diagnosis is null with --no-conflicts."
        ),
        "tests/test_options_shown.py::test_solve_no_conflicts_names_no_lines",
    ),
    "check --timeout": (
        "A tiny --timeout leaves the verdict unknown: exit 4 with 'time limit reached while ...'.",
        "tests/test_cli_exit_codes.py::test_timeout_exits_4_with_unknown",
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
        "tests/test_options_shown.py::test_check_solver_and_encoding_choose_the_sat_engine",
    ),
    "check --jobs": (
        (
            "Cores a hard puzzle may use: with 2 or more, a search still going after 0.1 s is raced by a "
            "rival and the first to finish answers."
        ),
        "tests/test_options_shown.py::test_jobs_two_races_and_jobs_one_does_not",
    ),
    "check --encoding": (
        (
            "--encoding belongs to the SAT engine: with --engine cdcl it is refused (exit 2, one line saying "
            "to drop --engine or make it sat)."
        ),
        "tests/test_options_shown.py::test_check_solver_and_encoding_choose_the_sat_engine",
    ),
    "check --format": (
        "json prints a JSON record with status, method and goal_satisfies_clues instead of text.",
        "tests/test_cli_exit_codes.py::test_check_json_has_the_verdict",
    ),
    "check --json": (
        "Short for --format json: the same JSON record, with status 'unique' for Dancer.",
        "tests/test_rate.py::test_solve_and_check_take_the_json_flag_too",
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
        "tests/test_limits_deadline.py::test_no_rating_skips_the_rating",
    ),
    "check --conflicts": (
        (
            "--conflicts/--no-conflicts: with no solution, names the conflicting lines; with --no-conflicts "
            "the JSON diagnosis is null."
        ),
        "tests/test_limits_deadline.py::test_no_conflicts_skips_the_conflicting_lines",
    ),
    "check --certificate": (
        (
            "Writes the verdict's certificate into the folder (the clues, the CNF, the proof or two solutions), "
            "which nonosat verify accepts."
        ),
        "tests/test_certificate_writing.py::test_the_command_line_writes_and_verifies_a_certificate",
    ),
    "check --force": (
        "Replaces the files of an existing --certificate folder; without it that is refused (exit 2).",
        "tests/test_certificate_writing.py::test_the_command_line_writes_and_verifies_a_certificate",
    ),
    "verify --checker": (
        "Names the DRAT checker that checks the proof (dratify or drat-trim); another name is refused (exit 2).",
        "tests/test_certificate_writing.py::test_the_command_line_writes_and_verifies_a_certificate",
    ),
    "verify --puzzle": (
        "Ties the certificate to the author's own file: one whose puzzle.json holds other clues is refused (exit 7).",
        "tests/test_certificate_writing.py::test_the_command_line_writes_and_verifies_a_certificate",
    ),
    "verify --timeout": (
        "Bounds the whole check: a proof still being checked when it passes ends in exit 4 (time limit reached).",
        "tests/test_certificate_writing.py::test_the_command_line_writes_and_verifies_a_certificate",
    ),
    "explain --format": (
        ("json prints the steps as a JSON record (level, open_cells, steps) instead of numbered text lines."),
        "tests/test_explain_steps.py::test_explain_prints_numbered_steps_and_says_how_it_ended",
    ),
    "explain --json": (
        "Short for --format json: prints a JSON record with level and numbered steps.",
        "tests/test_rate.py::test_rate_and_explain_take_a_json_flag",
    ),
    "explain --timeout": (
        (
            "A deadline for the whole command: on a 200x200 of 1s it stops with exit 4, 'time limit reached "
            "while probing'."
        ),
        "tests/test_limits_deadline.py::test_explain_keeps_to_the_deadline",
    ),
    "rate --format": (
        "json prints the rating as a JSON record (level, difficulty) instead of text.",
        "tests/test_options_shown.py::test_rate_format_json_is_the_record",
    ),
    "rate --json": (
        "Short for --format json: prints a JSON record with level 'line' and difficulty 1 for Dancer.",
        "tests/test_rate.py::test_rate_and_explain_take_a_json_flag",
    ),
    "rate --timeout": (
        (
            "A deadline for the rating: rate(..., timeout=1e-9) gives level 'unknown', score 0 and 'time "
            "limit reached' (and the command keeps to --timeout 5)."
        ),
        "tests/test_limits_deadline.py::test_rating_keeps_to_the_deadline",
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
        "tests/test_limits_deadline.py::test_hint_keeps_to_the_deadline",
    ),
    "encode --output": (
        (
            "Writes the DIMACS CNF (with cell-variable comments) to the file, which another SAT solver solves"
            " to the goal."
        ),
        "tests/test_cli_output_files.py::test_encode_writes_cnf_that_another_solver_solves_to_the_goal",
    ),
    "encode --encoding": (
        ("Chooses the CNF encoding of each line's clue (blocks or automaton), changing the formula written."),
        "tests/test_options_shown.py::test_encode_encoding_shapes_the_formula_and_force_overwrites",
    ),
    "encode --force": (
        "Overwrites an existing --output file instead of refusing.",
        "tests/test_options_shown.py::test_encode_encoding_shapes_the_formula_and_force_overwrites",
    ),
}
