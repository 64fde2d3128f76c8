"""benchmarks/report.py: results.json keeps the figures of earlier runs (a run may measure
only some) except the keys a benchmark retired, and the summary says which targets are met."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import report  # noqa: E402


def _fig(key, value, target=None):
    return {"key": key, "name": key, "value": value, "unit": "ms", "target": target}


def test_a_run_keeps_earlier_keys_but_not_retired_ones(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "plot", lambda res, path: None)
    results, doc = tmp_path / "results.json", tmp_path / "performance.md"
    doc.write_text("# Performance\n\nText.\n")
    report.refresh([_fig("old_ms", 5.0, "<= 20"), _fig("gone_ms", 9.0, "<= 1")], {"when": "a"},
                   results_path=results, doc=doc)
    merged = report.refresh([_fig("new_ms", 40.0, "<= 20")], {"when": "b"},
                            results_path=results, doc=doc, retired=("gone_ms",))
    assert set(merged) == {"old_ms", "new_ms", "_meta"}
    assert set(json.loads(results.read_text())) == {"old_ms", "new_ms", "_meta"}
    text = doc.read_text()
    assert "| `old_ms` | 5 ms | <= 20 | yes |" in text
    assert "| `new_ms` | 40 ms | <= 20 | **no** |" in text
    assert "gone_ms" not in text and text.endswith("Text.\n")

