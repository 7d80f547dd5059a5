"""What each option of the commands that write a puzzle or a picture (convert, render, generate
and random) changes, and the test that shows it: a part of the table that tests/test_options.py
keeps whole and true."""

WRITING = {
    "convert --to": (
        ("Writes the named format whatever the suffix: --to xml writes dancer.txt as XML that loads with its title."),
        "tests/test_formats_writing.py::test_convert_command",
    ),
    "convert --force": (
        ("Overwrites an existing target; without it convert exits 2 naming --force and leaves the file untouched."),
        "tests/test_formats_writing.py::test_convert_command",
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
        "tests/test_options_shown.py::test_render_solution_keeps_to_its_timeout",
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
        "tests/test_generate_commands.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --width": (
        "Cells across: --width 25 gives a puzzle 25 cells wide.",
        "tests/test_generate_commands.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --height": (
        "Cells down: a --height of 257, over the 256-cell limit, is refused at once (exit 2).",
        "tests/test_limits_sizes.py::test_generated_sizes_over_the_limit_are_refused_at_once",
    ),
    "generate --threshold": (
        (
            "The grey level below which cells are filled instead of Otsu's: threshold(shades, 5) fills only "
            "the level-0 cell (the thresholding from_image does)."
        ),
        "tests/test_generate_pictures.py::test_invert_fills_the_light_cells",
    ),
    "generate --invert": (
        (
            "Fills the light cells instead of the dark ones: threshold(shades, invert=True) gives the "
            "complement grid (the thresholding from_image does)."
        ),
        "tests/test_generate_pictures.py::test_invert_fills_the_light_cells",
    ),
    "generate --colours": (
        (
            "Makes a colour puzzle of at most K colours: --colours 3 writes a colour puzzle with at most 4 "
            "palette entries (blank included)."
        ),
        "tests/test_generate_colour_commands.py::test_generate_colours_writes_a_colour_puzzle_that_check_proves_unique",
    ),
    "generate --require": (
        (
            "require='line' repairs a picture line logic cannot start on until line logic alone solves it "
            "(rated 'line')."
        ),
        "tests/test_generate_hard_pictures.py::test_a_picture_of_thin_lines_becomes_line_solvable_with_few_changes_along_its_edges",
    ),
    "generate --max-changes": (
        (
            "Caps the changed cells: --max-changes 0 on an ambiguous checkerboard gives exit 5, one line, "
            "nothing written."
        ),
        "tests/test_generate_commands.py::test_generate_failure_exits_5_and_writes_nothing",
    ),
    "generate --max-distance": (
        (
            "Caps how far the picture may move: --max-distance 0.5 makes the smiley fail with exit 5, the "
            "message naming --max-distance."
        ),
        "tests/test_generate_suggestions.py::test_the_command_line_names_its_own_options_in_messages",
    ),
    "generate --seed": (
        ("Seeds tie-breaks between equally good cells: the same seed gives the same puzzle, another seed may not."),
        "tests/test_options_shown.py::test_generate_seed_title_license_and_force",
    ),
    "generate --preview": (
        "Also draws the final picture with its clues into the given file (a non-empty PNG).",
        "tests/test_generate_commands.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --preview-changes": (
        (
            "Draws into --preview the start beside the final picture with each changed cell marked "
            "(added/removed strokes count the changed cells)."
        ),
        "tests/test_generate_suggestions.py::test_preview_changes_marks_each_changed_cell_beside_the_picture",
    ),
    "generate --suggest": (
        "Makes nothing and lists N one-cell edits ('left open (cost ...)' lines); refused with -o.",
        "tests/test_generate_suggestions.py::test_preview_changes_needs_a_preview_and_suggest_makes_nothing",
    ),
    "generate --title": (
        "Sets the puzzle's title (default: from the file name).",
        "tests/test_options_shown.py::test_generate_seed_title_license_and_force",
    ),
    "generate --author": (
        "Writes the author into the puzzle: the written file loads with author 'A. Author'.",
        "tests/test_generate_commands.py::test_generate_writes_a_puzzle_that_check_proves_unique",
    ),
    "generate --license": (
        "Writes the licence into the puzzle.",
        "tests/test_options_shown.py::test_generate_seed_title_license_and_force",
    ),
    "generate --timeout": (
        (
            "A deadline for the whole run: a 120-wide noise picture with --timeout 2 ends with exit 4, 'time "
            "limit reached while', and no output file."
        ),
        "tests/test_limits_deadline.py::test_random_and_generate_keep_to_the_deadline_for_the_whole_run",
    ),
    "generate --force": (
        "Overwrites an existing --output or --preview; without it generate exits 2 naming --force.",
        "tests/test_options_shown.py::test_generate_seed_title_license_and_force",
    ),
    "random --width": (
        "Cells across: --width 9 prints a puzzle 9 cells wide.",
        "tests/test_generate_commands.py::test_random_prints_a_non_file_that_loads",
    ),
    "random --height": (
        "Cells down: --height 7 prints a puzzle 7 cells high.",
        "tests/test_generate_commands.py::test_random_prints_a_non_file_that_loads",
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
        "tests/test_generate_random_pictures.py::test_random_pictures_have_no_blank_or_full_line_and_about_the_density",
    ),
    "random --colours": (
        "Makes a colour puzzle: --colours 3 prints a puzzle whose palette has 4 entries (blank included).",
        "tests/test_generate_colour_commands.py::test_random_colours_prints_a_non_file_that_loads",
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
        "tests/test_generate_commands.py::test_random_prints_a_non_file_that_loads",
    ),
    "random --max-changes": (
        "Gives up (exit 5) after changing this many cells while repairing the random grid.",
        "tests/test_options_shown.py::test_random_max_changes_preview_changes_and_force",
    ),
    "random --preview": (
        "Also draws the puzzle into the given file: a PNG is written.",
        "tests/test_generate_suggestions.py::test_preview_changes_marks_each_changed_cell_beside_the_picture",
    ),
    "random --preview-changes": (
        (
            "Draws into --preview the starting random grid beside the final one with changed cells marked, "
            "instead of the sheet."
        ),
        "tests/test_options_shown.py::test_random_max_changes_preview_changes_and_force",
    ),
    "random --timeout": (
        (
            "A deadline for the whole run: a 100x100 with --timeout 2 ends with exit 4, 'time limit reached "
            "while', and nothing printed."
        ),
        "tests/test_limits_deadline.py::test_random_and_generate_keep_to_the_deadline_for_the_whole_run",
    ),
    "random --force": (
        "Overwrites an existing --output or --preview instead of refusing.",
        "tests/test_options_shown.py::test_random_max_changes_preview_changes_and_force",
    ),
}
