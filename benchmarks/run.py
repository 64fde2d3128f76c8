"""Run every benchmark, print one line per figure, and write them all to a JSON file.

Usage: ``python benchmarks/run.py [--only NAME ...] [--out benchmarks/results/latest.json]``
(``make bench``: all of them; the keyed figures also go to ``benchmarks/results.json`` and the
summary table and plot at the top of ``docs/performance.md``, see ``report.py``).

Each ``benchmarks/bench_*.py`` module defines ``run() -> list[dict]``; a figure is a dict with
``name``, ``value``, ``unit`` and optionally ``target`` and ``note``. Figures are medians over
repeats, and ratios are measured in the same run as what they compare against.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import platform
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", default=None, help="bench module names, e.g. perceptron")
    parser.add_argument("--out", default=str(HERE / "results" / "latest.json"))
    parser.add_argument("--no-docs", action="store_true",
                        help="do not write benchmarks/results.json and docs/performance.md")
    args = parser.parse_args(argv)
    names = sorted(p.stem[len("bench_"):] for p in HERE.glob("bench_*.py"))
    if args.only:
        names = [n for n in names if n in args.only]
    figures, retired = [], []
    for name in names:
        mod = importlib.import_module(f"bench_{name}")
        retired += getattr(mod, "RETIRED", ())
        print(f"# {name}", flush=True)
        for fig in mod.run():
            fig = {"bench": name, **fig}
            figures.append(fig)
            target = f"   (target {fig['target']})" if fig.get("target") else ""
            note = f"   [{fig['note']}]" if fig.get("note") else ""
            print(f"{fig['name']}: {fig['value']:.4g} {fig['unit']}{target}{note}", flush=True)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), "python": platform.python_version(),
            "machine": platform.machine()}
    out.write_text(json.dumps({"meta": meta, "figures": figures}, indent=2))
    print(f"wrote {out}")
    if not args.no_docs:
        import report

        report.refresh(figures, meta, results_path=HERE / "results.json", retired=tuple(retired))
        print(f"wrote {HERE / 'results.json'} and the summary of docs/performance.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
