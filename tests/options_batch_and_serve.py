"""What each option of the commands that run many puzzles (batch) or serve them (serve) changes,
and the test that shows it: a part of the table that tests/test_options.py keeps whole and true."""

BATCH_AND_SERVE = {
    "batch --out": (
        (
            "Where the JSON Lines records go: '--out -' writes one record a line to standard output and no "
            "file named '-'."
        ),
        "tests/test_batch_results_file.py::test_results_to_standard_output",
    ),
    "batch --jobs": (
        "Number of worker processes solving puzzles at once.",
        "tests/test_options_shown.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --timeout": (
        (
            "A per-puzzle time limit: --timeout 0.000001 records Forever as 'unknown' while a trivial puzzle "
            "is still 'unique'."
        ),
        "tests/test_batch_retry.py::test_retry_unknown_redoes_only_those_and_keeps_the_rest",
    ),
    "batch --count": (
        "Looks for up to N solutions per puzzle (2 decides uniqueness).",
        "tests/test_options_shown.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --require": (
        ("--require unique makes the run exit 1 when any puzzle is not unique (the tournament set has multiples)."),
        "tests/test_batch_progress.py::test_fail_on_sets_the_exit_code",
    ),
    "batch --fail-on": (
        (
            "Exit 1 if any record has a listed status: --fail-on multiple exits 1, --fail-on none exits 0, an"
            " unknown status name exits 2."
        ),
        "tests/test_batch_progress.py::test_fail_on_sets_the_exit_code",
    ),
    "batch --retry": (
        (
            "--retry unknown solves again only the records with that status (Forever becomes unique), keeping"
            " the others unchanged."
        ),
        "tests/test_batch_retry.py::test_retry_unknown_redoes_only_those_and_keeps_the_rest",
    ),
    "batch --executor": (
        "dask runs the puzzles on Dask workers instead of local processes, with the same records.",
        "tests/test_options_shown.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --scheduler": (
        "The Dask scheduler address to use with --executor dask; without it a LocalCluster is started.",
        "tests/test_options_shown.py::test_batch_jobs_count_executor_and_scheduler_reach_the_run",
    ),
    "batch --engine": (
        ("Chooses the engine each puzzle's search uses (the records' method names it)."),
        "tests/test_engines.py::test_rate_batch_solve_many_and_the_web_take_the_engine",
    ),
    "batch --certificates": (
        "Writes each decided puzzle's certificate into a folder of the one named, which nonosat verify accepts.",
        "tests/test_certificate_writing.py::test_the_command_line_writes_and_verifies_a_certificate",
    ),
    "batch --force": (
        (
            "Lets a run that does not resume a results file replace the certificates already in "
            "--certificates DIR, which it refuses without it."
        ),
        "tests/test_batch_retry.py::test_certificates_already_there_are_replaced_only_by_a_resumed_run_or_with_force",
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
        "tests/test_web_serve_process.py::test_serve_prints_its_address_and_ends_on_ctrl_c_with_130",
    ),
    "serve --port": (
        ("The port listened on: a port already taken is refused with one line naming 127.0.0.1:PORT and exit 2."),
        "tests/test_web_serve_process.py::test_a_taken_port_is_one_line_and_exit_2",
    ),
    "serve --workers": (
        (
            "Requests answered at once (WebSettings.workers): with 1 worker and a queue of 1, a third request"
            " while two run/wait gets 503."
        ),
        "tests/test_web_limits.py::test_a_full_queue_gets_503_with_retry_after",
    ),
    "serve --max-queue": (
        ("Requests that may wait for a worker (WebSettings.max_queue): beyond it a request gets 503 with Retry-After."),
        "tests/test_web_limits.py::test_a_full_queue_gets_503_with_retry_after",
    ),
    "serve --max-upload": (
        (
            "Bytes an upload may have (WebSettings.max_upload_bytes): a body over 1000000 bytes, sized or "
            "streamed, gets 413."
        ),
        "tests/test_web_limits.py::test_uploads_over_the_limit_get_413",
    ),
    "serve --max-side": (
        (
            "Cells a side of a puzzle (WebSettings.max_side): with 80, an 81-column puzzle gets 400 'limit of"
            " 80 cells a side'."
        ),
        "tests/test_web_limits.py::test_uploads_over_the_limit_get_413",
    ),
    "serve --request-timeout": (
        "Seconds a request gets when it names no timeout (WebSettings.default_timeout).",
        "tests/test_options_shown.py::test_serve_request_timeouts_bound_the_requests",
    ),
    "serve --max-request-timeout": (
        "The most seconds a request may ask for (WebSettings.max_timeout); a larger timeout is cut to it.",
        "tests/test_options_shown.py::test_serve_request_timeouts_bound_the_requests",
    ),
    "serve --max-count": (
        (
            "The most solutions a solve may ask for (WebSettings.max_count): with 3, count=1000 returns at "
            "most 3 solutions, count not exact."
        ),
        "tests/test_web_limits.py::test_count_and_timeout_are_cut_to_the_servers_most",
    ),
}
