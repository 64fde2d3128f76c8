"""The dashboard: one tab per view. Later views (margins, Cover, XOR) add their tabs here."""

from __future__ import annotations

import ipywidgets as W

TABS = [("Perceptron", "explorer.app.perceptron_view:PerceptronView")]


def _build(target: str):
    import importlib

    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)()


def dashboard() -> W.Tab:
    """The tab bar served by Voila (``notebooks/dashboard.ipynb``)."""
    children = [_build(target) for _, target in TABS]
    tab = W.Tab(children=children, titles=[title for title, _ in TABS])
    tab.add_class("pe-dashboard")
    return tab
