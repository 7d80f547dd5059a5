"""bench/load.py, the load test of `nonosat serve`, on a tiny scale: the real server and the
one-process-per-request peer answer the same requests, and every verdict agrees (no timings)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("multipart")
pytest.importorskip("httpx")

from bench import load  # noqa: E402


@pytest.mark.slow
def test_the_server_and_the_peer_answer_the_same_requests_alike(corpus: Path) -> None:
    puzzles = [corpus / "webpbn" / f"webpbn-{name}.non" for name in ("00001-dancer", "00006-cat", "00023-edge")]
    settings = load.Settings(puzzles, clients=2, requests=6, timeout=10.0, workers=2, max_queue=4)
    figures = load.run(settings)
    for side in ("server", "peer"):
        got = figures[side]
        assert got["requests"] == got["answered"] == 6
        assert got["verdicts"] == {"unique": 6}
        assert got["errors"] == {}
        assert set(got["latency"]) == {"p50", "p90", "p95", "p99", "max"}
        assert got["latency"]["p50"] <= got["latency"]["max"]
    assert figures["server"]["http"] == {"200": 6}
    assert figures["disagreements"] == []
    assert figures["ratios"]["throughput"] > 0 and figures["ratios"]["p50"] > 0
    assert figures["status_at_end"]["workers"] == {"running": 0, "waiting": 0, "killed": 0, "live": 0}
    assert figures["left_running"] == 0 and figures["tracebacks"] == 0
    assert not load.failed(figures)


def test_an_existing_json_file_is_refused_without_force(tmp_path: Path) -> None:
    existing = tmp_path / "figures.json"
    existing.write_text("{}")
    with pytest.raises(SystemExit) as stopped:
        load.main(["--json", str(existing), "--requests", "1"])
    assert stopped.value.code == 2
    assert existing.read_text() == "{}"
