"""Turn a benchmark run into ``benchmarks/results.json`` and the summary at the top of
``docs/performance.md`` (a table and a plot of every figure that has a target).

``results.json`` maps each figure's key (e.g. ``train_ratio_vs_sklearn``; a figure whose name is
an identifier is its own key) to its value, unit, target and the reference it is compared with.
"""

from __future__ import annotations

import json
import math
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
PLOT = ROOT / "docs" / "performance-targets.png"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def key_of(fig: dict) -> str | None:
    key = fig.get("key") or (fig["name"] if fig["name"].isidentifier() else None)
    return key


def results(figures: list[dict]) -> dict:
    out = {}
    for fig in figures:
        key = key_of(fig)
        if key is None:
            continue
        out[key] = {"value": fig["value"], "unit": fig["unit"], "target": fig.get("target"),
                    "reference": fig.get("reference") or fig.get("note") or fig["name"],
                    "bench": fig.get("bench")}
    return out


def _target(text):
    """("<=", 1.5) from "<= 1.5"; None when there is no numeric target."""
    m = re.fullmatch(r"\s*(<=|>=)\s*([0-9.eE+-]+)\s*\S*\s*", str(text or ""))
    return (m.group(1), float(m.group(2))) if m else None


def met(value, target) -> bool | None:
    t = _target(target)
    if t is None or value is None or not math.isfinite(value):
        return None
    return value <= t[1] if t[0] == "<=" else value >= t[1]


def _fmt(v) -> str:
    return "n/a" if v is None or not math.isfinite(v) else f"{v:.3g}"


def summary_markdown(res: dict, meta: dict) -> str:
    rows = ["| figure | value | target | met |", "|---|---|---|---|"]
    for key, r in res.items():
        ok = met(r["value"], r["target"])
        mark = "" if ok is None else ("yes" if ok else "**no**")
        rows.append(f"| `{key}` | {_fmt(r['value'])} {r['unit']} | {r['target'] or ''} | {mark} |")
    when = meta.get("when", "")
    return "\n".join([
        START,
        "## Summary (written by `make bench`)",
        "",
        f"Last run: {when}, Python {meta.get('python', '')}; medians over repeats, ratios from "
        "one run. Each row is a key of `benchmarks/results.json`; the sections below say how "
        "each figure is measured.",
        "",
        *rows,
        "",
        "![Each figure against its target](performance-targets.png)",
        END,
    ])


def plot(res: dict, path: pathlib.Path = PLOT) -> None:
    """Bars of value / target (target / value for ">=" targets): left of 1 is within target."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = []
    for key, r in res.items():
        t = _target(r["target"])
        if t is None or not math.isfinite(r["value"]) or r["value"] <= 0:
            continue
        rows.append((key, r["value"] / t[1] if t[0] == "<=" else t[1] / r["value"]))
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(rows) + 1.2), dpi=110)
    names, ratios = zip(*rows, strict=True)
    colors = ["#0072B2" if v <= 1 else "#D55E00" for v in ratios]
    hatches = ["" if v <= 1 else "//" for v in ratios]
    bars = ax.barh(names, ratios, color=colors)
    for b, h in zip(bars, hatches, strict=True):
        b.set_hatch(h)
    ax.axvline(1.0, color="black", lw=1.2)
    ax.set_xscale("log")
    from matplotlib.ticker import FuncFormatter, LogLocator

    ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p=None: f"{v:g}"))
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _p=None: ""))
    ax.invert_yaxis()
    ax.set_xlabel("value / target (under 1: target met; hatched: missed)")
    ax.set_title("Benchmarks against their targets", loc="left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def refresh(figures: list[dict], meta: dict, *, results_path: pathlib.Path,
            doc: pathlib.Path = DOC, retired: tuple[str, ...] = ()) -> dict:
    """Write results.json, the plot and the summary block of the performance page. Keys of
    earlier runs stay (a run may measure only some figures) unless ``retired``."""
    res = results(figures)
    old = json.loads(results_path.read_text()) if results_path.exists() else {}
    merged = {**{k: v for k, v in old.items() if not k.startswith("_") and k not in retired},
              **res}
    merged["_meta"] = meta
    results_path.write_text(json.dumps(merged, indent=2, allow_nan=True) + "\n")
    shown = {k: v for k, v in merged.items() if not k.startswith("_")}
    plot(shown, doc.parent / PLOT.name)
    text = doc.read_text() if doc.exists() else "# Performance\n"
    block = summary_markdown(shown, meta)
    if START in text and END in text:
        text = text[: text.index(START)] + block + text[text.index(END) + len(END):]
    else:
        head, _, rest = text.partition("\n")
        text = f"{head}\n\n{block}\n{rest}"
    doc.write_text(text)
    return merged
