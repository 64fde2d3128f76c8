"""A catalogue of calls to the public core API, tried the way a new user would try them.

Each entry is one call and what it must do: return normally (optionally passing a check on the
result), or raise a ``ValueError``/``TypeError`` whose message matches a pattern, in the house
format "what was expected; got what". Every call runs with numpy warnings turned into errors
and must come back within :data:`BUDGET` seconds: a call that would run unbounded must be
refused *before* it starts the work. The summary test prints the counts (``pytest -s``) and
writes them to ``catalogue.json`` in its temporary directory.
"""

from __future__ import annotations

import json
import math
import re
import signal
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from explorer import cover, margins, xor
from explorer.cover import counting
from explorer.generalization import losses
from explorer.perceptron import bounds, cycles, race, repeats, replay, rules, train
from explorer.shared import (
    compiled,
    datasets,
    geometry,
    separability,
    svm,
    validation,
)
from explorer.shared.separability import NotSeparableError
from explorer.xor import kernel_perceptron

#: Seconds of CPU a single call may take (the process's CPU time, not the wall clock: the
#: machine may be shared, e.g. by the other test worker of ``make check``).
BUDGET = 5.0
#: Hard stop (SIGALRM) so that a call that hangs fails the test instead of the run.
HARD_STOP = 20.0


@dataclass(frozen=True)
class Case:
    """One call and what it must do: ``expect`` is "ok" or an exception type."""

    id: str
    call: Callable[[], Any]
    expect: Any = "ok"
    match: str | None = None
    check: Callable[[Any], bool] | None = None


def ok(id, call, check=None) -> Case:
    return Case(id, call, "ok", None, check)


def bad(id, call, exc, match) -> Case:
    return Case(id, call, exc, match)


V, T = ValueError, TypeError

# ----------------------------------------------------------------------------- data
XOR = datasets.load("xor")
AND = datasets.load("and")
SEP = datasets.load("separable", n=20, seed=1)
OV = datasets.load("overlapping", n=30, seed=2)
KOSKI = datasets.load("koski")
X2, Y2 = SEP.X, SEP.y
ONE_CLASS_X, ONE_CLASS_Y = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 0.5]]), np.ones(3)
SAME_X, SAME_Y = np.ones((4, 2)), np.array([1.0, -1.0, 1.0, -1.0])
LINE_X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
LINE_Y = np.array([1.0, 1.0, -1.0, -1.0])
ZERO_X, ZERO_Y = np.zeros((3, 2)), np.array([1.0, -1.0, 1.0])
ORIGIN_X = np.array([[1.0, 1.0], [2.0, 0.5], [-1.0, -1.0], [-0.5, -2.0]])  # through 0 only
ORIGIN_Y = np.array([1.0, 1.0, -1.0, -1.0])
TINY, HUGE = SEP.X * 1e-12, SEP.X * 1e12
CSV = "x1,x2,label\n1,2,1\n3,4,-1\n0,1,1\n"
BOX = (-2.0, 2.0, -2.0, 2.0)
XOR_RUN = train(XOR.X, XOR.y, max_epochs=5)
KOSKI_RACE = race.race(KOSKI.X, KOSKI.y, rules=["classic", "margin"])
SEP_RUN = train(SEP.X, SEP.y)
SGD_RUN = train(SEP.X, SEP.y, rule="svm_sgd", eta=0.1, rho=0.01, max_epochs=3)
KRUN = kernel_perceptron.train_kernel(XOR.X, XOR.y)
RNG = np.random.default_rng(0)
PTS_8D = RNG.standard_normal((16, 8))
PTS_40x8 = RNG.standard_normal((40, 8))
DICH4 = counting.dichotomies(cover.random_points(4, seed=1))


def finite(x) -> bool:
    return bool(np.all(np.isfinite(np.asarray(x, dtype=float))))


def finite_fields(obj, *names) -> bool:
    return all(finite(getattr(obj, n)) for n in names)


CASES: list[Case] = [
    # ------------------------------------------------------------------ datasets.load
    ok("load separable", lambda: datasets.load("separable"), lambda d: d.n == 40 and d.d == 2),
    ok("load xor 01", lambda: datasets.load("xor", encoding="01"), lambda d: d.X.min() == 0),
    ok("load koski", lambda: datasets.load("koski"), lambda d: d.n == 6),
    ok("load iris", lambda: datasets.load("iris"), lambda d: d.d == 2),
    ok("load iris features", lambda: datasets.load("iris", features=[0, 2])),
    ok("load breast_cancer k=2", lambda: datasets.load("breast_cancer", k=2)),
    ok("load n float integral", lambda: datasets.load("separable", n=10.0), lambda d: d.n == 10),
    ok("load one point", lambda: datasets.load("separable", n=1), lambda d: d.n == 1),
    ok("load margin 0", lambda: datasets.load("separable", margin=0)),
    ok("load big but allowed", lambda: datasets.load("separable", n=20_000, dim=5),
       lambda d: d.X.shape == (20_000, 5)),
    bad("load unknown", lambda: datasets.load("nope"), V, r"unknown dataset 'nope'; expected"),
    bad("load name int", lambda: datasets.load(3), V, r"unknown dataset 3"),
    bad("load n=0", lambda: datasets.load("separable", n=0), V, r"n must be >= 1; got 0"),
    bad("load n<0", lambda: datasets.load("separable", n=-5), V, r"n must be >= 1"),
    bad("load n=2.5", lambda: datasets.load("separable", n=2.5), T, r"n must be an integer"),
    bad("load n str", lambda: datasets.load("separable", n="40"), T, r"n must be an integer"),
    bad("load n bool", lambda: datasets.load("separable", n=True), T, r"n must be an integer"),
    bad("load n=1e10", lambda: datasets.load("separable", n=10**10), V,
        r"at most [\d,]+ numbers .*got 10,000,000,000 x 2"),
    bad("load n=1e10 float", lambda: datasets.load("overlapping", n=1e10), V, r"at most [\d,]+ numbers"),
    bad("load dim=1e5 n=1e5", lambda: datasets.load("separable", n=10**5, dim=10**5), V,
        r"at most [\d,]+ numbers"),
    bad("load dim=1e10", lambda: datasets.load("separable", dim=10**10), V, r"at most [\d,]+ numbers"),
    bad("load dim=0", lambda: datasets.load("separable", dim=0), V, r"dim must be >= 1"),
    bad("load margin<0", lambda: datasets.load("separable", margin=-1), V, r"margin must be >= 0"),
    bad("load margin nan", lambda: datasets.load("separable", margin=float("nan")), V,
        r"margin must be finite"),
    bad("load margin 1e308", lambda: datasets.load("separable", margin=1e308), V,
        r"margin must be <= "),
    bad("load margin str", lambda: datasets.load("separable", margin="big"), T,
        r"margin must be a real number"),
    bad("load seed<0", lambda: datasets.load("separable", seed=-1), V, r"seed must be a non-negative"),
    bad("load seed str", lambda: datasets.load("separable", seed="a"), T, r"seed must be None, an int"),
    bad("load seed float", lambda: datasets.load("separable", seed=1.5), T, r"seed must be None"),
    bad("load bogus kw", lambda: datasets.load("separable", bogus=1), T, r"takes parameters"),
    bad("load xor encoding", lambda: datasets.load("xor", encoding="bits"), V, r"encoding must be"),
    bad("load koski kw", lambda: datasets.load("koski", n=3), T, r"takes parameters \[\]"),
    bad("load iris classes", lambda: datasets.load("iris", classes="x"), V, r"classes must be one of"),
    bad("load iris 1 feature", lambda: datasets.load("iris", features=[0]), V, r"two or three different"),
    bad("load iris feature 9", lambda: datasets.load("iris", features=[0, 9]), V,
        r"feature index must be <= 3"),
    bad("load iris features str", lambda: datasets.load("iris", features="sepal"), V,
        r"features must be 'pca', 'all' or two"),
    bad("load iris features int", lambda: datasets.load("iris", features=3), T,
        r"features must be 'pca', 'all' or two or three feature indices; got 3"),
    bad("load digits one", lambda: datasets.load("digits", pair=(3,)), V,
        r"pair must be two different digits 0-9, e.g. \(3, 8\); got \(3,\)"),
    bad("load digits same", lambda: datasets.load("digits", pair=(3, 3)), V, r"two different"),
    bad("load digits 10", lambda: datasets.load("digits", pair=(3, 10)), V, r"digit must be <= 9"),
    bad("load digits str", lambda: datasets.load("digits", pair="38"), T, r"pair must be two"),
    bad("load bc k=0", lambda: datasets.load("breast_cancer", k=0), V, r"k must be >= 1"),
    bad("load bc k=31", lambda: datasets.load("breast_cancer", k=31), V, r"k must be <= 30"),
    bad("load bc standardize str", lambda: datasets.load("breast_cancer", standardize="no"), T,
        r"standardize must be True or False"),
    bad("load overlapping n=1", lambda: datasets.load("overlapping", n=1), V, r"n must be >= 2"),
    bad("load overlapping sep<0", lambda: datasets.load("overlapping", separation=-1), V,
        r"separation must be >= 0"),
    # ------------------------------------------------------------------ datasets.from_arrays
    ok("from_arrays 01", lambda: datasets.from_arrays([[0, 0], [1, 1]], [0, 1], labels="01"),
       lambda d: d.notes and list(d.y) == [-1, 1]),
    ok("from_arrays 1-D X", lambda: datasets.from_arrays([1, 2, 3], [1, -1, 1]),
       lambda d: d.X.shape == (3, 1)),
    ok("from_arrays column y", lambda: datasets.from_arrays([[1], [2]], [[1], [-1]])),
    ok("from_arrays bool X", lambda: datasets.from_arrays([[True], [False]], [1, -1])),
    ok("from_arrays tiny", lambda: datasets.from_arrays(TINY, Y2)),
    ok("from_arrays 1e150", lambda: datasets.from_arrays([[1e150, 0], [0, 0]], [1, -1])),
    bad("from_arrays 0/1 labels", lambda: datasets.from_arrays([[0, 0], [1, 1]], [0, 1]), V,
        r"y must contain only -1 and \+1; got \{0, 1\} \(to convert"),
    bad("from_arrays three classes", lambda: datasets.from_arrays([[0], [1], [2]], [1, 2, 3]), V,
        r"y must contain only -1 and \+1; got \{1, 2, 3\}"),
    bad("from_arrays one class", lambda: datasets.from_arrays([[0], [1]], [1, 1]), V,
        r"both classes .*got only \+1"),
    bad("from_arrays mismatch", lambda: datasets.from_arrays([[0], [1]], [1, -1, 1]), V,
        r"same number of points; got X with 2 rows and y with 3"),
    bad("from_arrays empty", lambda: datasets.from_arrays([], []), V, r"empty"),
    bad("from_arrays empty 2-D", lambda: datasets.from_arrays(np.zeros((0, 2)), []), V, r"empty"),
    bad("from_arrays no features", lambda: datasets.from_arrays(np.zeros((2, 0)), [1, -1]), V,
        r"no features"),
    bad("from_arrays nan", lambda: datasets.from_arrays([[np.nan, 0], [1, 1]], [1, -1]), V,
        r"finite numbers; got 1 NaN or infinite value\(s\), the first \(NaN\) at row 0"),
    bad("from_arrays inf", lambda: datasets.from_arrays([[np.inf, 0], [1, 1]], [1, -1]), V,
        r"the first \(infinite\)"),
    bad("from_arrays 1e308", lambda: datasets.from_arrays([[1e308, 0], [0, 0]], [1, -1]), V,
        r"X must hold numbers of size at most 1e\+150.*got 1e\+308 at row 0, column 0"),
    bad("from_arrays -1e200", lambda: datasets.from_arrays([[0, 0], [0, -1e200]], [1, -1]), V,
        r"at most 1e\+150.*got -1e\+200 at row 1, column 1"),
    bad("from_arrays strings", lambda: datasets.from_arrays([["a", "b"]], [1]), T, r"only numbers"),
    bad("from_arrays string X", lambda: datasets.from_arrays("abc", [1]), T, r"got a string"),
    bad("from_arrays 3-D", lambda: datasets.from_arrays(np.zeros((2, 2, 2)), [1, -1]), V, r"2-D"),
    bad("from_arrays complex", lambda: datasets.from_arrays(np.ones((2, 2)) * 1j, [1, -1]), T,
        r"real numbers; got dtype complex"),
    bad("from_arrays labels kw", lambda: datasets.from_arrays([[0], [1]], [1, -1], labels="yes"), V,
        r"labels must be 'pm1' or '01'"),
    bad("from_arrays y strings", lambda: datasets.from_arrays([[0], [1]], ["a", "b"]), T,
        r"numeric labels"),
    bad("from_arrays y nan", lambda: datasets.from_arrays([[0], [1]], [1, np.nan]), V,
        r"finite labels"),
    bad("from_arrays y 2-D", lambda: datasets.from_arrays([[0], [1]], [[1, -1], [1, -1]]), V,
        r"y must be 1-D"),
    bad("from_arrays X None", lambda: datasets.from_arrays(None, [1]), T, r"got None"),
    # ------------------------------------------------------------------ datasets.from_csv
    ok("from_csv", lambda: datasets.from_csv(CSV), lambda d: d.n == 3 and d.d == 2),
    ok("from_csv label first", lambda: datasets.from_csv("1,2,3\n-1,4,5\n", label_column=0),
       lambda d: list(d.y) == [1, -1]),
    ok("from_csv label -3", lambda: datasets.from_csv("1,2,3\n-1,4,5\n", label_column=-3)),
    ok("from_csv 0/1 auto", lambda: datasets.from_csv("1,2,0\n3,4,1\n"), lambda d: d.notes),
    ok("from_csv semicolons", lambda: datasets.from_csv("1;2;1\n3;4;-1\n")),
    bad("from_csv label_column 5", lambda: datasets.from_csv(CSV, label_column=5), V,
        r"label_column must be in \[-3, 2\] for 3 columns; got 5"),
    bad("from_csv label_column -4", lambda: datasets.from_csv(CSV, label_column=-4), V,
        r"label_column must be in \[-3, 2\]"),
    bad("from_csv label_column 1.5", lambda: datasets.from_csv(CSV, label_column=1.5), T,
        r"label_column must be an integer"),
    bad("from_csv label_column str", lambda: datasets.from_csv(CSV, label_column="last"), T,
        r"label_column must be an integer"),
    bad("from_csv label_column bool", lambda: datasets.from_csv(CSV, label_column=True), T,
        r"label_column must be an integer"),
    bad("from_csv empty", lambda: datasets.from_csv(""), V, r"empty"),
    bad("from_csv header only", lambda: datasets.from_csv("a,b,c\n"), V, r"header but no data"),
    bad("from_csv ragged", lambda: datasets.from_csv("1,2,1\n3,-1\n"), V, r"same number of columns"),
    bad("from_csv one column", lambda: datasets.from_csv("1\n-1\n"), V, r"at least two columns"),
    bad("from_csv int arg", lambda: datasets.from_csv(123), T, r"path or CSV text; got int"),
    bad("from_csv text cell", lambda: datasets.from_csv("1,x,1\n2,3,-1\n"),
        T, r"row 1, column 2 holds 'x', which is not a number"),
    bad("from_csv labels 2", lambda: datasets.from_csv("1,2,2\n3,4,1\n"),
        V, r"-1 and \+1 \(or 0 and 1\); row 1 holds '2'"),
    bad("from_csv label text", lambda: datasets.from_csv("1,2,yes\n3,4,no\n"), T,
        r"label column \(column 3\) must hold only -1 and \+1 \(or 0 and 1\); row 1 holds .yes."),
    bad("from_csv missing file", lambda: datasets.from_csv("/nonexistent/file.csv"), V,
        r"no CSV file at"),
    bad("from_csv labels kw", lambda: datasets.from_csv(CSV, labels="foo"), V,
        r"labels must be 'auto'"),
    bad("from_csv 1e400", lambda: datasets.from_csv("1e400,2,1\n3,4,-1\n"),
        V, r"row 1, column 1 holds '1e400', which is not a finite number"),
    bad("from_csv 1e200", lambda: datasets.from_csv("1e200,2,1\n3,4,-1\n"),
        V, r"row 1, column 1 holds '1e200'; numbers must be within ±1e\+150"),
    # ------------------------------------------------------------------ perceptron.train
    ok("train separable", lambda: train(X2, Y2), lambda r: r.converged),
    ok("train xor", lambda: train(XOR.X, XOR.y), lambda r: r.stop_reason == "max_epochs"),
    ok("train xor max_steps", lambda: train(XOR.X, XOR.y, max_epochs=10**9, max_steps=1000),
       lambda r: r.n_steps == 1000 and r.stop_reason == "max_steps"),
    ok("train xor to the cap", lambda: train(XOR.X, XOR.y, max_epochs=50_000),
       lambda r: r.n_steps == 200_000),
    ok("train every rule", lambda: [train(OV.X, OV.y, rule=k, rho=0.01, max_epochs=5)
                                    for k in rules.RULES], lambda rs: len(rs) == 8),
    ok("train max_steps 0", lambda: train(X2, Y2, max_steps=0), lambda r: r.n_steps == 0),
    ok("train eta tiny", lambda: train(X2, Y2, eta=1e-300), lambda r: r.converged),
    ok("train tiny data", lambda: train(TINY, Y2), lambda r: r.converged),
    ok("train huge data", lambda: train(HUGE, Y2), lambda r: r.converged),
    ok("train batch float", lambda: train(X2, Y2, batch_size=2.0)),
    ok("train one point", lambda: train([[1.0, 2.0]], [1]), lambda r: r.converged),
    ok("train identical points", lambda: train(SAME_X, SAME_Y, max_epochs=3),
       lambda r: not r.converged),
    ok("train zero vectors", lambda: train(ZERO_X, ZERO_Y, max_epochs=3), lambda r: not r.converged),
    ok("train origin no offset", lambda: train(ORIGIN_X, ORIGIN_Y, fit_intercept=False),
       lambda r: r.converged),
    ok("train np.bool_ intercept", lambda: train(X2, Y2, fit_intercept=np.bool_(False))),
    bad("train rule", lambda: train(X2, Y2, rule="foo"), V, r"unknown rule 'foo'; expected"),
    bad("train rule int", lambda: train(X2, Y2, rule=3), V, r"unknown rule 3"),
    bad("train eta 0", lambda: train(X2, Y2, eta=0), V, r"eta must be > 0; got 0"),
    bad("train eta<0", lambda: train(X2, Y2, eta=-1), V, r"eta must be > 0"),
    bad("train eta nan", lambda: train(X2, Y2, eta=float("nan")), V, r"eta must be finite"),
    bad("train eta inf", lambda: train(X2, Y2, eta=float("inf")), V, r"eta must be finite"),
    bad("train eta str", lambda: train(X2, Y2, eta="1"), T, r"eta must be a real number"),
    bad("train eta bool", lambda: train(X2, Y2, eta=True), T, r"eta must be a real number"),
    bad("train eta 1e308", lambda: train(X2, Y2, eta=1e308), V,
        r"the weights could grow past 1e\+150.*eta = 1e\+308"),
    bad("train eta 1e200 xor", lambda: train(XOR.X, XOR.y, eta=1e200), V, r"weights could grow"),
    bad("train relaxation eta 1e308", lambda: train(OV.X, OV.y, rule="relaxation", eta=1e308), V,
        r"weights overflowed past 1e\+150 at update 1"),
    bad("train w0 1e300", lambda: train(X2, Y2, w0=[1e300, 0.0]), V, r"w0 .*at most 1e\+150"),
    bad("train b0 1e300", lambda: train(X2, Y2, b0=1e300), V, r"b0 .*at most 1e\+150"),
    bad("train forget 0", lambda: train(X2, Y2, forget=0), V, r"forget must be > 0"),
    bad("train forget>1", lambda: train(X2, Y2, forget=1.5), V, r"forget must be in \(0, 1\]"),
    bad("train rho<0", lambda: train(X2, Y2, rho=-1), V, r"rho must be >= 0"),
    bad("train decay<=0", lambda: train(X2, Y2, rule="regularized", rho=0.5), V, r"eta \* rho must be"),
    bad("train threshold str", lambda: train(X2, Y2, threshold="a"), T, r"threshold must be a finite"),
    bad("train threshold nan", lambda: train(X2, Y2, threshold=float("nan")), T, r"threshold"),
    bad("train fit_intercept str", lambda: train(X2, Y2, fit_intercept="str"), T,
        r"fit_intercept must be True or False; got 'str'"),
    bad("train fit_intercept 1", lambda: train(X2, Y2, fit_intercept=1), T, r"fit_intercept must be"),
    bad("train fit_intercept None", lambda: train(X2, Y2, fit_intercept=None), T, r"fit_intercept"),
    bad("train order", lambda: train(X2, Y2, order="zigzag"), V, r"unknown order 'zigzag'"),
    bad("train order empty", lambda: train(X2, Y2, order=[]), V, r"non-empty sequence"),
    bad("train order out of range", lambda: train(X2, Y2, order=[0, 99]), V,
        r"order indices must be in \[0, 19\] for 20 points; got \[99\]"),
    bad("train order float", lambda: train(X2, Y2, order=[0.5]), T, r"order indices must be integers"),
    bad("train order str list", lambda: train(X2, Y2, order=["a"]), T, r"integers"),
    bad("train order bool list", lambda: train(X2, Y2, order=[True, False]), T, r"integers"),
    bad("train order 2-D", lambda: train(X2, Y2, order=[[0, 1]]), V, r"non-empty sequence"),
    bad("train order too long", lambda: train(X2, Y2, order=np.zeros(3_000_000, int)), V,
        r"at most [\d,]+ steps"),
    bad("train w0 length", lambda: train(X2, Y2, w0=[1.0]), V, r"w0 must have length 2"),
    bad("train w0 nan", lambda: train(X2, Y2, w0=[np.nan, 0]), V, r"w0 must contain only finite"),
    bad("train w0 str", lambda: train(X2, Y2, w0="ab"), T, r"w0 must be a numeric vector"),
    bad("train b0 str", lambda: train(X2, Y2, b0="x"), T, r"b0 must be a finite number"),
    bad("train b0 nan", lambda: train(X2, Y2, b0=float("nan")), T, r"b0 must be a finite number"),
    bad("train batch 0", lambda: train(X2, Y2, batch_size=0), V, r"batch_size must be >= 1"),
    bad("train batch > n", lambda: train(X2, Y2, batch_size=100), V, r"batch_size must be <= 20"),
    bad("train max_epochs 0", lambda: train(X2, Y2, max_epochs=0), V, r"max_epochs must be >= 1"),
    bad("train max_epochs 1e7 xor", lambda: train(XOR.X, XOR.y, max_epochs=1e7), V,
        r"at most [\d,]+ steps .*got 10,000,000 epochs x 4 steps"),
    bad("train max_epochs 10**7", lambda: train(X2, Y2, max_epochs=10**7), V, r"at most [\d,]+ steps"),
    bad("train max_steps huge", lambda: train(XOR.X, XOR.y, max_epochs=10**12, max_steps=10**12),
        V, r"at most [\d,]+ steps"),
    bad("train work limit", lambda: train(np.ones((1, 200)), [1], max_epochs=1_000_000), V,
        r"at most [\d,]+ steps x coordinates"),
    bad("train max_epochs 2.5", lambda: train(X2, Y2, max_epochs=2.5), T, r"max_epochs must be an int"),
    bad("train max_epochs bool", lambda: train(X2, Y2, max_epochs=True), T, r"max_epochs must be an"),
    bad("train max_steps<0", lambda: train(X2, Y2, max_steps=-1), V, r"max_steps must be >= 0"),
    bad("train seed str", lambda: train(X2, Y2, order="shuffle", seed="x"), T, r"seed must be"),
    bad("train seed<0", lambda: train(X2, Y2, seed=-1), V, r"seed must be a non-negative"),
    bad("train X nan", lambda: train([[np.nan, 0], [1, 1]], [1, -1]), V, r"finite"),
    bad("train X 3-D", lambda: train(np.zeros((2, 2, 2)), [1, -1]), V, r"2-D"),
    bad("train y 0/1", lambda: train(X2, (Y2 > 0).astype(int)), V, r"labels='01'"),
    bad("train one class", lambda: train(ONE_CLASS_X, ONE_CLASS_Y), V, r"both classes"),
    bad("train three classes", lambda: train([[0], [1], [2]], [-1, 1, 2]), V, r"-1 and \+1"),
    bad("train y strings", lambda: train(X2[:2], ["a", "b"]), T, r"numeric labels"),
    bad("train X 1e200", lambda: train([[1e200, 0], [0, 1]], [1, -1]), V, r"at most 1e\+150"),
    ok("train X 1e140", lambda: train([[1e140, 0], [0, 1]], [1, -1]),
       lambda r: r.converged and finite(r.weights)),
    bad("train X 1e149 long", lambda: train([[1e149, 0], [0, 1]], [1, -1], max_epochs=1000), V,
        r"weights could grow past 1e\+150"),
    # ------------------------------------------------------------------ rules / trajectory
    ok("get_rule", lambda: rules.get_rule("margin"), lambda r: r.strict),
    bad("get_rule unknown", lambda: rules.get_rule("x"), V, r"unknown rule 'x'"),
    bad("get_rule None", lambda: rules.get_rule(None), V, r"unknown rule None"),
    ok("state 0", lambda: XOR_RUN.state(0), lambda s: finite(s[0])),
    ok("states", lambda: XOR_RUN.states([0, 1, 20]), lambda s: s[0].shape == (3, 2)),
    bad("state -1", lambda: XOR_RUN.state(-1), V, r"step k must be in \[0, 20\]; got -1"),
    bad("state huge", lambda: XOR_RUN.state(10**9), V, r"step k must be in"),
    bad("state float", lambda: XOR_RUN.state(1.5), T, r"step k must be an integer"),
    bad("state bool", lambda: XOR_RUN.state(True), T, r"step k must be an integer"),
    bad("states out of range", lambda: XOR_RUN.states([0, 10**9]), V, r"steps must be in \[0, 20\]"),
    bad("states floats", lambda: XOR_RUN.states([0.5]), T, r"steps must be integers"),
    bad("averaged_state classic", lambda: XOR_RUN.averaged_state(1), V, r"needs rule='averaged'"),
    bad("updates_until str", lambda: XOR_RUN.updates_until("a"), T, r"step k must be an integer"),
    # ------------------------------------------------------------------ bounds
    ok("radius", lambda: bounds.radius(X2), lambda r: r > 0),
    ok("radius augmented", lambda: bounds.radius([[3.0, 4.0]], augmented=True),
       lambda r: math.isclose(r, math.sqrt(26))),
    ok("margin", lambda: bounds.margin(X2, Y2, SEP_RUN.final_w, SEP_RUN.final_b), lambda m: m > 0),
    ok("dataset_margin", lambda: bounds.dataset_margin(X2, Y2), lambda g: 0 < g < 10),
    ok("dataset_margin tiny", lambda: bounds.dataset_margin(TINY, Y2),
       lambda g: math.isclose(g, bounds.dataset_margin(X2, Y2) * 1e-12, rel_tol=1e-6)),
    ok("dataset_margin huge", lambda: bounds.dataset_margin(HUGE, Y2),
       lambda g: math.isclose(g, bounds.dataset_margin(X2, Y2) * 1e12, rel_tol=1e-6)),
    ok("novikoff", lambda: bounds.novikoff_bound(X2, Y2), lambda b: np.isfinite(b) and b > 0),
    ok("novikoff gamma", lambda: bounds.novikoff_bound(X2, Y2, gamma=0.5), lambda b: b > 0),
    ok("cornwell", lambda: bounds.cornwell_bound(X2, Y2), lambda b: np.isfinite(b)),
    ok("hardt_recht", lambda: bounds.hardt_recht_bound(X2, Y2, eta=0.5), lambda b: np.isfinite(b)),
    ok("unit_norm gamma", lambda: bounds.unit_norm_bound(gamma=0.5), lambda b: b == 12.0),
    ok("koski", lambda: bounds.koski_bound(KOSKI.X, KOSKI.y), lambda b: np.isfinite(b)),
    ok("shifted_root", lambda: bounds.shifted_root(0.0, 0.0, step=1.0, per_step=4.0),
       lambda u: u == 4.0),
    ok("shifted_bound", lambda: bounds.shifted_bound(KOSKI.X, KOSKI.y, w0=[1, 0.5], eta=0.2),
       lambda u: np.isfinite(u)),
    ok("mistake_bound classic", lambda: bounds.mistake_bound("classic", X2, Y2),
       lambda b: b.value is not None and np.isfinite(b.value)),
    ok("mistake_bound xor", lambda: bounds.mistake_bound("classic", XOR.X, XOR.y),
       lambda b: b.value is None and "not linearly separable" in b.note),
    ok("mistake_bound relaxation", lambda: bounds.mistake_bound("relaxation", X2, Y2),
       lambda b: b.value is None),
    ok("mistake_bound margin", lambda: bounds.mistake_bound("margin", X2, Y2),
       lambda b: np.isfinite(b.value)),
    ok("mistake_bound origin", lambda: bounds.mistake_bound("classic", ORIGIN_X, ORIGIN_Y,
                                                             fit_intercept=False),
       lambda b: np.isfinite(b.value)),
    ok("mistake_bound tiny, no offset", lambda: bounds.mistake_bound("classic", TINY, Y2,
                                                                     fit_intercept=False),
       lambda b: b.value is None or np.isfinite(b.value)),
    bad("mistake_bound tiny", lambda: bounds.mistake_bound("classic", TINY, Y2), V,
        r"hard-margin solver did not reach .*rescale the features"),
    bad("radius empty", lambda: bounds.radius([]), V, r"empty"),
    bad("radius nan", lambda: bounds.radius([[np.nan]]), V, r"finite"),
    bad("radius augmented str", lambda: bounds.radius(X2, augmented="yes"), T,
        r"augmented must be True or False"),
    bad("augment value str", lambda: bounds.augment(X2, value="a"), T, r"value must be a finite number"),
    bad("margin w=0", lambda: bounds.margin(X2, Y2, [0, 0]), V, r"w != 0"),
    bad("margin w length", lambda: bounds.margin(X2, Y2, [1, 0, 0]), V, r"w must have length 2"),
    bad("margin b str", lambda: bounds.margin(X2, Y2, [1, 0], "b"), T, r"b must be a finite number"),
    bad("dataset_margin xor", lambda: bounds.dataset_margin(XOR.X, XOR.y), NotSeparableError,
        r"not"),
    bad("dataset_margin one class", lambda: bounds.dataset_margin(ONE_CLASS_X, ONE_CLASS_Y), V,
        r"both classes"),
    bad("dataset_margin identical", lambda: bounds.dataset_margin(SAME_X, SAME_Y), V,
        r"linearly separable"),
    bad("dataset_margin intercept str", lambda: bounds.dataset_margin(X2, Y2, fit_intercept="no"),
        T, r"fit_intercept must be True or False"),
    bad("novikoff gamma 0", lambda: bounds.novikoff_bound(X2, Y2, gamma=0), V, r"gamma must be > 0"),
    bad("novikoff gamma<0", lambda: bounds.novikoff_bound(X2, Y2, gamma=-1), V, r"gamma must be > 0"),
    bad("novikoff gamma str", lambda: bounds.novikoff_bound(X2, Y2, gamma="a"), T, r"gamma must be"),
    bad("novikoff gamma nan", lambda: bounds.novikoff_bound(X2, Y2, gamma=float("nan")), V,
        r"gamma must be finite"),
    bad("novikoff gamma 1e-300", lambda: bounds.novikoff_bound(X2, Y2, gamma=1e-300), V,
        r"the bound overflows"),
    bad("novikoff intercept str", lambda: bounds.novikoff_bound(X2, Y2, fit_intercept="str"), T,
        r"fit_intercept must be True or False"),
    bad("cornwell B 0", lambda: bounds.cornwell_bound(X2, Y2, B=0), V, r"B must be > 0"),
    bad("cornwell intercept int", lambda: bounds.cornwell_bound(X2, Y2, fit_intercept=1), T,
        r"fit_intercept must be True or False"),
    bad("hardt_recht eta 0", lambda: bounds.hardt_recht_bound(X2, Y2, eta=0), V, r"eta must be > 0"),
    bad("hardt_recht eta 1e-320", lambda: bounds.hardt_recht_bound(X2, Y2, eta=1e-320), V,
        r"the bound overflows"),
    bad("unit_norm not unit", lambda: bounds.unit_norm_bound(X2, Y2), V, r"unit-norm points"),
    bad("unit_norm nothing", lambda: bounds.unit_norm_bound(), V, r"needs gamma or the data"),
    bad("koski xor", lambda: bounds.koski_bound(XOR.X, XOR.y), NotSeparableError, r"not"),
    bad("shifted_root step 0", lambda: bounds.shifted_root(0, 0, step=0, per_step=1), V,
        r"step = eta \* gamma must be positive; got 0"),
    bad("shifted_root step nan", lambda: bounds.shifted_root(0, 0, step=float("nan"), per_step=1), T,
        r"step must be a finite number; got nan"),
    bad("shifted_root step str", lambda: bounds.shifted_root(0, 0, step="a", per_step=1), T,
        r"step must be a finite number"),
    bad("shifted_root a str", lambda: bounds.shifted_root("a", 0, step=1, per_step=1), T,
        r"a must be a finite number"),
    bad("shifted_bound rule", lambda: bounds.shifted_bound(X2, Y2, rule="relaxation"), V,
        r"shifted bound covers"),
    bad("shifted_bound w0 length", lambda: bounds.shifted_bound(X2, Y2, w0=[1.0]), V,
        r"w0 must have length 2"),
    bad("shifted_bound xor", lambda: bounds.shifted_bound(XOR.X, XOR.y), NotSeparableError, r"not"),
    bad("shifted_bound w_star 0", lambda: bounds.shifted_bound(X2, Y2, w_star=[0, 0]), V,
        r"w_star must be non-zero"),
    bad("mistake_bound rule", lambda: bounds.mistake_bound("foo", X2, Y2), V, r"unknown rule"),
    bad("mistake_bound intercept str", lambda: bounds.mistake_bound("classic", X2, Y2,
                                                                     fit_intercept="x"), T,
        r"fit_intercept must be True or False"),
    bad("mistake_bound b0 str", lambda: bounds.mistake_bound("classic", X2, Y2, b0="a"), T,
        r"b0 must be a finite number"),
    bad("mistake_bound w0 str", lambda: bounds.mistake_bound("classic", X2, Y2, w0="ab"), T,
        r"w0 must be a numeric vector"),
    bad("mistake_bound gamma 1e-300", lambda: bounds.mistake_bound("classic", X2, Y2, gamma=1e-300),
        V, r"the bound overflows"),
    bad("mistake_bound one class", lambda: bounds.mistake_bound("classic", ONE_CLASS_X,
                                                                ONE_CLASS_Y), V, r"both classes"),
    bad("proof_quantities w_star 0", lambda: bounds.proof_quantities(SEP_RUN, X2, Y2,
                                                                    w_star=[0, 0]), V,
        r"w_star must be non-zero"),
    bad("proof_quantities not traj", lambda: bounds.proof_quantities("run", X2, Y2, w_star=[1, 0]),
        T, r"expected a Trajectory"),
    # ------------------------------------------------------------------ separability
    ok("check xor", lambda: separability.check(XOR.X, XOR.y),
       lambda r: not r.separable and np.allclose(r.certificate.point, 0)),
    ok("check separable", lambda: separability.check(X2, Y2), lambda r: r.separable),
    ok("check one class", lambda: separability.check(ONE_CLASS_X, ONE_CLASS_Y), lambda r: r.separable),
    ok("check identical", lambda: separability.check(SAME_X, SAME_Y),
       lambda r: not r.separable and np.allclose(r.certificate.point, 1)),
    ok("check collinear", lambda: separability.check(LINE_X, LINE_Y), lambda r: r.separable),
    ok("check zero homogeneous", lambda: separability.check(ZERO_X, ZERO_Y, fit_intercept=False),
       lambda r: not r.separable),
    ok("check origin", lambda: separability.check(ORIGIN_X, ORIGIN_Y, fit_intercept=False),
       lambda r: r.separable),
    ok("check 1e150", lambda: separability.check([[1e150, 0], [-1e150, 0]], [1, -1]),
       lambda r: r.separable and finite(r.w)),
    ok("check 1e-150", lambda: separability.check([[1e-150, 0], [-1e-150, 0]], [1, -1],
                                                  fit_intercept=False),
       lambda r: r.separable and finite(r.w)),
    ok("check huge xor", lambda: separability.check(XOR.X * 1e140, XOR.y),
       lambda r: not r.separable and finite(r.certificate.point)),
    ok("is_separable", lambda: separability.is_separable(XOR.X, XOR.y), lambda r: r is False),
    bad("check intercept str", lambda: separability.check(X2, Y2, fit_intercept="yes"), T,
        r"fit_intercept must be True or False"),
    bad("is_separable intercept str", lambda: separability.is_separable(X2, Y2, fit_intercept="x"),
        T, r"fit_intercept must be True or False"),
    bad("check 1e308", lambda: separability.check([[1e308, 0], [0, 0]], [1, -1]), V,
        r"at most 1e\+150"),
    bad("check three classes", lambda: separability.check([[0], [1], [2]], [1, 2, 3]), V,
        r"-1 and \+1"),
    bad("check 0/1", lambda: separability.check([[0], [1]], [0, 1]), V, r"labels='01'"),
    bad("check empty", lambda: separability.check(np.zeros((0, 2)), []), V, r"empty"),
    # ------------------------------------------------------------------ svm
    ok("svm hard", lambda: svm.fit(X2, Y2), lambda f: f.polished and 0 < f.margin < np.inf),
    ok("svm soft xor", lambda: svm.fit(XOR.X, XOR.y, C=1.0), lambda f: finite(f.w)),
    ok("svm homogeneous one class", lambda: svm.fit(ONE_CLASS_X, ONE_CLASS_Y, fit_intercept=False),
       lambda f: np.isfinite(f.margin)),
    ok("svm tiny", lambda: svm.fit(TINY, Y2), lambda f: finite_fields(f, "w", "alpha", "yf")),
    ok("svm huge", lambda: svm.fit(HUGE, Y2), lambda f: finite_fields(f, "w", "alpha", "yf")),
    ok("svm collinear", lambda: svm.fit(LINE_X, LINE_Y), lambda f: np.isfinite(f.margin)),
    ok("svm C 1e4", lambda: svm.fit(OV.X, OV.y, C=1e4), lambda f: finite(f.w)),
    ok("C_from_sayed_eta", lambda: svm.C_from_sayed_eta(1.0, 10), lambda c: c == 0.1),
    ok("C_from_rho", lambda: svm.C_from_rho(0.5, 10), lambda c: c == 0.1),
    bad("svm xor hard", lambda: svm.fit(XOR.X, XOR.y), NotSeparableError, r"linearly separable"),
    bad("svm C 0", lambda: svm.fit(X2, Y2, C=0), V, r"C must be > 0"),
    bad("svm C<0", lambda: svm.fit(X2, Y2, C=-1), V, r"C must be > 0"),
    bad("svm C str", lambda: svm.fit(X2, Y2, C="a"), T, r"C must be a real number"),
    bad("svm C inf", lambda: svm.fit(X2, Y2, C=float("inf")), V, r"C must be finite"),
    bad("svm C 1e308", lambda: svm.fit(OV.X, OV.y, C=1e308), V, r"C .*at most"),
    bad("svm C at huge scale", lambda: svm.fit(HUGE, Y2, C=1.0), V,
        r"C x max\|x\|\^2 must be at most"),
    bad("svm tol 0", lambda: svm.fit(X2, Y2, tol=0), V, r"tol must be > 0"),
    bad("svm one class", lambda: svm.fit(ONE_CLASS_X, ONE_CLASS_Y), V, r"both classes"),
    bad("svm intercept str", lambda: svm.fit(X2, Y2, fit_intercept="str"), T,
        r"fit_intercept must be True or False"),
    bad("svm 1e308", lambda: svm.fit([[1e308, 0], [0, 0]], [1, -1]), V, r"at most 1e\+150"),
    bad("svm too many points", lambda: svm.fit(np.arange(20_000.0)[:, None],
                                               np.where(np.arange(20_000) % 2, 1, -1), C=1.0), V,
        r"at most [\d,]+ points"),
    bad("svm identical", lambda: svm.fit(SAME_X, SAME_Y), NotSeparableError, r"meet at \[1.0, 1.0\]"),
    bad("C_from_sayed_eta 0", lambda: svm.C_from_sayed_eta(0, 10), V, r"eta must be > 0"),
    bad("C_from_sayed_eta N 0", lambda: svm.C_from_sayed_eta(1, 0), V, r"N must be >= 1"),
    bad("C_from_sayed_eta N float", lambda: svm.C_from_sayed_eta(1, 2.5), T, r"N must be an integer"),
    bad("C_from_rho tiny", lambda: svm.C_from_rho(1e-320, 1), V, r"C = 1 / \(2 rho N\) overflows"),
    # ------------------------------------------------------------------ counting
    ok("cover_count", lambda: counting.cover_count(4, 2), lambda c: c == 14),
    ok("cover_count float", lambda: counting.cover_count(4.0, 2), lambda c: c == 14),
    ok("cover_count big N small M", lambda: counting.cover_count(10**6, 3), lambda c: c > 0),
    ok("cover_fraction", lambda: counting.cover_fraction(6, 2), lambda p: p == 0.5),
    ok("cover_fraction arrays", lambda: counting.cover_fraction([4, 6], 2),
       lambda p: np.allclose(p, [14 / 16, 0.5])),
    ok("cover_curve", lambda: counting.cover_curve(2, 10), lambda p: p[6] == 0.5),
    ok("capacity", lambda: counting.capacity(3), lambda c: c == 8),
    ok("general position 16 in 8-D", lambda: counting.in_general_position(PTS_8D),
       lambda g: g is True),
    ok("general position collinear", lambda: counting.in_general_position(LINE_X),
       lambda g: g is False),
    ok("dichotomies 4", lambda: counting.dichotomies(cover.random_points(4, seed=1)),
       lambda d: d.count == 14),
    ok("dichotomies identical", lambda: counting.dichotomies(np.ones((3, 2))), lambda d: d.count == 2),
    ok("dichotomies zero homogeneous", lambda: counting.dichotomies(ZERO_X, fit_intercept=False),
       lambda d: d.count == 0),
    ok("dichotomies collinear", lambda: counting.dichotomies(LINE_X), lambda d: d.count == 8),
    ok("dichotomies 16 in 2-D", lambda: counting.dichotomies(cover.random_points(16, seed=2)),
       lambda d: d.count == counting.cover_count(16, 2)),
    ok("count_threshold_functions", lambda: counting.count_threshold_functions(2),
       lambda c: c == 14),
    ok("monte_carlo_fraction", lambda: counting.monte_carlo_fraction(4, 2, trials=20, seed=0),
       lambda m: 0 <= m.estimate <= 1),
    bad("cover_count N<0", lambda: counting.cover_count(-1, 2), V, r"N must be >= 0"),
    bad("cover_count N 2.5", lambda: counting.cover_count(2.5, 1), T, r"N must be an integer"),
    bad("cover_count N str", lambda: counting.cover_count("4", 2), T, r"N must be an integer"),
    bad("cover_count M bool", lambda: counting.cover_count(4, True), T, r"M must be an integer"),
    bad("cover_count huge N", lambda: counting.cover_count(10**12, 3), V,
        r"N must be <= [\d,]+"),
    bad("cover_count huge N and M", lambda: counting.cover_count(10**6, 10**6 - 5), V,
        r"at most [\d,]+ .*got"),
    bad("cover_count N=M huge", lambda: counting.cover_count(10**9, 10**9), V, r"N must be <="),
    bad("cover_fraction huge", lambda: counting.cover_fraction(10**6, 10**5), V, r"at most"),
    bad("cover_fraction shapes", lambda: counting.cover_fraction([1, 2], [1, 2, 3]), V,
        r"N and M must broadcast"),
    bad("cover_fraction floats", lambda: counting.cover_fraction(np.array([1.5]), 1), T,
        r"N must contain integers"),
    bad("cover_fraction strings", lambda: counting.cover_fraction(["a"], 1), T, r"integers"),
    bad("cover_fraction negative", lambda: counting.cover_fraction([-1, 2], 1), V, r"N must be >= 0"),
    bad("cover_curve huge N", lambda: counting.cover_curve(10, 10**9), V,
        r"N_max must be <= [\d,]+"),
    bad("cover_curve huge M and N", lambda: counting.cover_curve(10**5, 10**6), V, r"at most"),
    bad("cover_curve M<0", lambda: counting.cover_curve(-1, 5), V, r"M must be >= 0"),
    bad("capacity<0", lambda: counting.capacity(-1), V, r"M must be >= 0"),
    bad("general position 40 in 8-D", lambda: counting.in_general_position(PTS_40x8), V,
        r"at most [\d,]+ subsets.*got C\(40, 9\)"),
    bad("general position intercept str", lambda: counting.in_general_position(X2,
                                                                               fit_intercept="x"),
        T, r"fit_intercept must be True or False"),
    bad("general position rtol<0", lambda: counting.in_general_position(X2, rtol=-1), V,
        r"rtol must be >= 0"),
    bad("dichotomies 17", lambda: counting.dichotomies(RNG.standard_normal((17, 2))), V,
        r"N <= 16"),
    bad("dichotomies 16 in 8-D", lambda: counting.dichotomies(PTS_8D), V,
        r"at most [\d,]+ linear programs"),
    bad("dichotomies intercept str", lambda: counting.dichotomies(X2[:4], fit_intercept="x"), T,
        r"fit_intercept must be True or False"),
    bad("dichotomies nan", lambda: counting.dichotomies([[np.nan, 0]]), V, r"finite"),
    bad("count_threshold 5", lambda: counting.count_threshold_functions(5), V, r"M must be <= 4"),
    bad("count_threshold 0", lambda: counting.count_threshold_functions(0), V, r"M must be >= 1"),
    bad("monte_carlo huge", lambda: counting.monte_carlo_fraction(10**6, 10**3), V,
        r"at most [\d,]+"),
    bad("monte_carlo trials", lambda: counting.monte_carlo_fraction(4, 2, trials=10**9), V,
        r"trials must be <= 5000"),
    bad("monte_carlo N 0", lambda: counting.monte_carlo_fraction(0, 2), V, r"N must be >= 1"),
    # ------------------------------------------------------------------ cover
    ok("check_m_values", lambda: cover.check_m_values([2, 1]), lambda m: m == (1, 2)),
    ok("cover_curves", lambda: cover.cover_curves([1, 2]), lambda c: len(c) == 2),
    ok("recursion_table", lambda: cover.recursion_table(4, 10), lambda t: t.S[2, 3] == 14),
    ok("monte_carlo_plan", lambda: cover.monte_carlo_plan([2], trials=10), lambda p: len(p) > 0),
    ok("monte_carlo_point", lambda: cover.monte_carlo_point(4, 2, trials=10, seed=0),
       lambda p: 0 <= p.estimate <= 1),
    ok("random_points", lambda: cover.random_points(5, seed=1), lambda p: p.shape == (5, 2)),
    ok("separators", lambda: cover.separators(cover.random_points(4, seed=1), DICH4.labelings,
                                              [1, 2]), lambda r: r[0].shape == (2, 2)),
    ok("boolean_table", lambda: cover.boolean_table(count_up_to=2), lambda r: len(r) == 8),
    ok("boolean_functions_2", lambda: cover.boolean_functions_2(), lambda r: r[1].count == 14),
    bad("check_m_values str", lambda: cover.check_m_values("abc"), T, r"list of integers M"),
    bad("check_m_values empty", lambda: cover.check_m_values([]), V, r"at least one value"),
    bad("check_m_values 9", lambda: cover.check_m_values(list(range(1, 10))), V, r"at most 8"),
    bad("check_m_values 0", lambda: cover.check_m_values([0]), V, r"M must be >= 1"),
    bad("check_m_values 1001", lambda: cover.check_m_values([1001]), V, r"M must be <= 1000"),
    bad("check_m_values repeat", lambda: cover.check_m_values([1, 1]), V, r"distinct"),
    bad("cover_curves x_max 0", lambda: cover.cover_curves([1], x_max=0), V, r"x_max from 1 to 10"),
    bad("cover_curves x_max str", lambda: cover.cover_curves([1], x_max="3"), T,
        r"x_max must be a real number"),
    bad("cover_curves x_max bool", lambda: cover.cover_curves([1], x_max=True), T,
        r"x_max must be a real number"),
    bad("cover_curves x_max nan", lambda: cover.cover_curves([1], x_max=float("nan")), V, r"x_max"),
    bad("recursion_table 11", lambda: cover.recursion_table(11, 5), V, r"M_max must be <= 10"),
    bad("mc_rng seed<0", lambda: cover.mc_rng(-1, 1, 1), V, r"seed must be >= 0"),
    bad("monte_carlo_plan M 1000", lambda: cover.monte_carlo_plan([1000], trials=10), V,
        r"M <= 100 only"),
    bad("monte_carlo_plan trials", lambda: cover.monte_carlo_plan([2], trials=10**6), V,
        r"trials must be <= 2000"),
    bad("monte_carlo_plan checks", lambda: cover.monte_carlo_plan(list(range(1, 9)), trials=2000), V,
        r"at most 60000 LP checks"),
    bad("monte_carlo_point N huge", lambda: cover.monte_carlo_point(10**6, 2, trials=1, seed=0),
        V, r"N must be <="),
    bad("random_points 0", lambda: cover.random_points(0, seed=1), V, r"must be >= 1"),
    bad("random_points 17", lambda: cover.random_points(17, seed=1), V, r"must be <= 16"),
    bad("separators bad index", lambda: cover.separators(cover.random_points(4, seed=1),
                                                         DICH4.labelings, [0, 10**6]), V,
        r"indices must be in \[0, 15\]"),
    bad("separators str index", lambda: cover.separators(cover.random_points(4, seed=1),
                                                         DICH4.labelings, ["a"]), T,
        r"indices must be integers"),
    bad("separators labelings shape", lambda: cover.separators(cover.random_points(4, seed=1),
                                                               np.ones((16, 3)), [0]), V,
        r"labelings must have shape \(m, 4\)"),
    bad("boolean_table 5", lambda: cover.boolean_table(count_up_to=5), V, r"count_up_to must be <= 4"),
    # ------------------------------------------------------------------ margins
    ok("compare", lambda: margins.compare(X2, Y2, perceptron_w=SEP_RUN.final_w,
                                          perceptron_b=SEP_RUN.final_b),
       lambda c: c.separable and c.gamma > 0),
    ok("compare xor hard", lambda: margins.compare(XOR.X, XOR.y, perceptron_w=[1, 0],
                                                   perceptron_b=0),
       lambda c: c.svm is None and not c.separable),
    ok("compare xor soft", lambda: margins.compare(XOR.X, XOR.y, C=1.0, perceptron_w=[1, 0],
                                                   perceptron_b=0), lambda c: c.svm is not None),
    ok("compare w=0", lambda: margins.compare(X2, Y2, perceptron_w=[0, 0], perceptron_b=0),
       lambda c: c.perceptron_margin is None),
    ok("compare identical", lambda: margins.compare(SAME_X, SAME_Y, perceptron_w=[1, 0],
                                                    perceptron_b=0),
       lambda c: not c.separable and c.svm is None),
    ok("compare tiny", lambda: margins.compare(TINY, Y2, perceptron_w=[1, 0], perceptron_b=0),
       lambda c: np.isfinite(c.gamma) and np.isfinite(c.perceptron_margin)),
    ok("support_path", lambda: margins.support_path(OV.X, OV.y, Cs=[0.1, 1.0]),
       lambda p: np.all(p.error_rate <= p.sv_fraction)),
    ok("sgd_objective", lambda: margins.sgd_objective(SGD_RUN, X2, Y2, steps=[0, 1]),
       lambda o: o.shape == (2,)),
    ok("sgd_progress", lambda: margins.sgd_progress(SGD_RUN, X2, Y2, max_points=5),
       lambda p: np.all(p.objective >= p.optimum - 1e-9)),
    ok("sayed_eta", lambda: margins.sayed_eta(0.5, 10), lambda e: e == 5.0),
    bad("compare w length", lambda: margins.compare(X2, Y2, perceptron_w=[1], perceptron_b=0), V,
        r"perceptron_w must have length 2"),
    bad("compare b str", lambda: margins.compare(X2, Y2, perceptron_w=[1, 0], perceptron_b="a"), T,
        r"perceptron_b must be a finite number"),
    bad("compare C 0", lambda: margins.compare(X2, Y2, C=0, perceptron_w=[1, 0], perceptron_b=0), V,
        r"C must be > 0"),
    bad("compare intercept str", lambda: margins.compare(X2, Y2, perceptron_w=[1, 0],
                                                         perceptron_b=0, fit_intercept="x"), T,
        r"fit_intercept"),
    bad("compare one class", lambda: margins.compare(ONE_CLASS_X, ONE_CLASS_Y, perceptron_w=[1, 0],
                                                     perceptron_b=0), V, r"both classes"),
    bad("compare w missing", lambda: margins.compare(X2, Y2), T, r"perceptron_w"),
    bad("support_path empty", lambda: margins.support_path(OV.X, OV.y, Cs=[]), V, r"non-empty"),
    bad("support_path negative", lambda: margins.support_path(OV.X, OV.y, Cs=[-1]), V, r"> 0"),
    bad("support_path str", lambda: margins.support_path(OV.X, OV.y, Cs="a"), T, r"numbers > 0"),
    bad("support_path too many", lambda: margins.support_path(OV.X, OV.y,
                                                              Cs=np.linspace(0.1, 1, 10**5)), V,
        r"at most [\d,]+ values of C"),
    bad("sgd_objective steps", lambda: margins.sgd_objective(SGD_RUN, X2, Y2, steps=[0, 10**9]), V,
        r"steps must be in"),
    bad("sgd_objective not traj", lambda: margins.sgd_objective("traj", X2, Y2), T,
        r"expected a Trajectory"),
    bad("sgd_progress rho 0", lambda: margins.sgd_progress(SEP_RUN, X2, Y2), V, r"rho: expected > 0"),
    bad("sgd_progress max_points 1", lambda: margins.sgd_progress(SGD_RUN, X2, Y2, max_points=1), V,
        r"max_points must be >= 2"),
    bad("sayed_eta 0", lambda: margins.sayed_eta(0, 10), V, r"C must be > 0"),
    bad("example_61_2 epochs 0", lambda: margins.example_61_2(epochs=0), V, r"epochs must be >= 1"),
    bad("example_61_2 fraction 1", lambda: margins.example_61_2(test_fraction=1), V, r"\(0, 1\)"),
    bad("example_61_2 epochs huge", lambda: margins.example_61_2(epochs=10**9), V,
        r"at most [\d,]+ steps"),
    # ------------------------------------------------------------------ losses
    ok("hinge", lambda: losses.hinge([0, 1, 2]), lambda v: list(v) == [1, 0, 0]),
    ok("logistic 1e308", lambda: losses.logistic([1e308, -1e300]), finite),
    ok("zero_one", lambda: losses.zero_one([-1, 0, 1]), lambda v: list(v) == [1, 1, 0]),
    ok("perceptron loss", lambda: losses.perceptron(-2.0), lambda v: v == 2.0),
    ok("squared", lambda: losses.squared([1e100]), finite),
    ok("LOSSES", lambda: {k: f(0.5) for k, f in losses.LOSSES.items()}, lambda d: len(d) == 5),
    bad("hinge nan", lambda: losses.hinge([np.nan]), V, r"finite"),
    bad("hinge str", lambda: losses.hinge("a"), T, r"z must contain only numbers"),
    bad("hinge None", lambda: losses.hinge(None), T, r"z must contain only numbers"),
    bad("squared 1e308", lambda: losses.squared([1e308]), V, r"squared loss overflows"),
    # ------------------------------------------------------------------ geometry
    ok("clip_line", lambda: geometry.clip_line([1, 0], 0, BOX), lambda p: p.shape == (2, 2)),
    ok("clip_line w=0", lambda: geometry.clip_line([0, 0], 0, BOX), lambda p: p is None),
    ok("clip_line outside", lambda: geometry.clip_line([1, 0], -10, BOX), lambda p: p is None),
    ok("half_plane", lambda: geometry.half_plane_polygon([1, 0], 0, BOX), lambda p: len(p) == 4),
    ok("version_space_cone", lambda: geometry.version_space_cone(ORIGIN_X, ORIGIN_Y),
       lambda c: c is not None and c[0] < c[1]),
    ok("version_space_cone zeros", lambda: geometry.version_space_cone(ZERO_X, ZERO_Y),
       lambda c: c == (-np.pi, np.pi)),
    ok("cone_polygon", lambda: geometry.cone_polygon((0.0, 1.0), 2.0), lambda p: p.shape == (49, 2)),
    ok("hull identical", lambda: geometry.convex_hull_polygon(np.ones((3, 2))),
       lambda p: p.shape == (1, 2)),
    ok("hull collinear", lambda: geometry.convex_hull_polygon(LINE_X), lambda p: p.shape == (2, 2)),
    ok("hull empty", lambda: geometry.convex_hull_polygon(np.zeros((0, 2))),
       lambda p: p.shape == (0, 2)),
    ok("hull huge", lambda: geometry.convex_hull_polygon(HUGE), finite),
    bad("clip_line w length", lambda: geometry.clip_line([1], 0, BOX), V, r"w must have length 2"),
    bad("clip_line box", lambda: geometry.clip_line([1, 0], 0, (0, 1)), V,
        r"box must be \(xmin, xmax, ymin, ymax\)"),
    bad("clip_line box nan", lambda: geometry.clip_line([1, 0], 0, (0, np.nan, 0, 1)), V,
        r"box must be"),
    bad("clip_line b str", lambda: geometry.clip_line([1, 0], "b", BOX), T, r"b must be a finite"),
    bad("half_plane sign 0", lambda: geometry.half_plane_polygon([1, 0], 0, BOX, sign=0), V,
        r"sign must be \+1 or -1"),
    bad("version_space_cone 1-D", lambda: geometry.version_space_cone([1, 2], [1, -1]), V,
        r"2-D points"),
    bad("cone_polygon radius", lambda: geometry.cone_polygon((0.0, 1.0), -1.0), V,
        r"radius must be > 0"),
    bad("cone_polygon points", lambda: geometry.cone_polygon((0.0, 1.0), 1.0, points=1), V,
        r"points must be >= 2"),
    bad("hull nan", lambda: geometry.convex_hull_polygon([[np.nan, 0], [1, 1]]), V, r"finite"),
    ok("version_space_slice", lambda: geometry.version_space_slice(KOSKI.X, KOSKI.y, 0.2, BOX),
       lambda p: p.shape[1] == 2 and len(p) >= 3),
    ok("version_space_slice xor", lambda: geometry.version_space_slice(XOR.X, XOR.y, 1, BOX),
       lambda p: p.shape == (0, 2)),
    ok("version_space_slice zeros", lambda: geometry.version_space_slice(ZERO_X, ZERO_Y, 1, BOX),
       lambda p: p.shape == (0, 2)),
    ok("version_space_slice huge", lambda: geometry.version_space_slice(HUGE, SEP.y, 1e12, BOX),
       lambda p: finite(p)),
    ok("slice_exists", lambda: geometry.slice_exists(KOSKI.X, KOSKI.y, -5.0), lambda r: r is True),
    ok("slice_exists xor", lambda: geometry.slice_exists(XOR.X, XOR.y, 1.0), lambda r: r is False),
    ok("slice_exists tiny", lambda: geometry.slice_exists(TINY, SEP.y, 0.5),
       lambda r: isinstance(r, bool)),
    bad("version_space_slice b", lambda: geometry.version_space_slice(XOR.X, XOR.y, "b", BOX), T,
        r"b must be a finite number"),
    bad("version_space_slice box", lambda: geometry.version_space_slice(XOR.X, XOR.y, 0, (1, 0)),
        V, r"box must be"),
    bad("slice_exists y", lambda: geometry.slice_exists(XOR.X, XOR.y[:2], 0.5), V,
        r"same number of points"),
    # ------------------------------------------------------------------ replay
    ok("frame 0", lambda: replay.frame(XOR_RUN, XOR.X, XOR.y, 0), lambda f: "Start" in f.text),
    ok("frame last xor", lambda: replay.frame(XOR_RUN, XOR.X, XOR.y, XOR_RUN.n_steps,
                                              info=replay.describe_run(XOR_RUN, XOR.X, XOR.y)),
       lambda f: "not linearly separable" in f.text),
    ok("describe_run separable", lambda: replay.describe_run(SEP_RUN, X2, Y2),
       lambda i: i.separable and np.isfinite(i.bound.value)),
    ok("describe_run xor", lambda: replay.describe_run(XOR_RUN, XOR.X, XOR.y),
       lambda i: i.separable is False and i.certificate is not None),
    ok("stop_text", lambda: replay.stop_text(XOR_RUN), lambda t: "max epochs" in t),
    ok("plural", lambda: replay.plural(2, "update"), lambda t: t == "2 updates"),
    ok("kept_classifier", lambda: replay.kept_classifier(XOR_RUN, XOR.X, XOR.y, 1),
       lambda r: r == (None, None, None, None)),
    bad("frame k huge", lambda: replay.frame(XOR_RUN, XOR.X, XOR.y, 10**9), V, r"step k must be in"),
    bad("frame k str", lambda: replay.frame(XOR_RUN, XOR.X, XOR.y, "a"), T, r"step k must be an"),
    bad("frame not traj", lambda: replay.frame("run", XOR.X, XOR.y, 0), T, r"expected a Trajectory"),
    bad("frame other data", lambda: replay.frame(XOR_RUN, np.ones((4, 3)), XOR.y, 1), V,
        r"X must have 2 features, as in the run; got shape \(4, 3\)"),
    bad("frame fewer points", lambda: replay.frame(XOR_RUN, XOR.X[:2], XOR.y[:2], 4), V,
        r"the run visits point 4; got 2 points"),
    bad("describe_run not traj", lambda: replay.describe_run("x", X2, Y2), T,
        r"expected a Trajectory"),
    bad("describe_run y length", lambda: replay.describe_run(SEP_RUN, X2, Y2[:3]), V,
        r"same number of points"),
    # ------------------------------------------------------------------ race
    ok("race koski", lambda: race.race(KOSKI.X, KOSKI.y, rules=["classic", "margin"]),
       lambda r: r.n_steps == max(t.n_steps for t in r.runs)),
    ok("race_text end", lambda: race.race_text(KOSKI_RACE, KOSKI_RACE.n_steps),
       lambda t: "Converged" in t),
    bad("race one rule", lambda: race.race(KOSKI.X, KOSKI.y, rules=["classic"]), V,
        r"a race needs 2 to 4 rules; got 1"),
    bad("race rule str", lambda: race.race(KOSKI.X, KOSKI.y, rules="classic"), T,
        r"rules must be a list of rule names"),
    bad("race nan X", lambda: race.race(np.array([[np.nan, 1.0], [1.0, 1.0]]), [1, -1],
                                        rules=["classic", "margin"]), V, r"finite"),
    bad("race y 0/1", lambda: race.race(KOSKI.X, (KOSKI.y > 0).astype(int),
                                        rules=["classic", "margin"]), V, r"-1 and \+1"),
    bad("race_text k huge", lambda: race.race_text(KOSKI_RACE, 10**9), V, r"step k must be in"),
    bad("race_frame k str", lambda: race.race_frame(KOSKI_RACE, 0, "a"), T,
        r"step k must be an integer"),
    # ------------------------------------------------------------------ cycles
    ok("exact_run xor", lambda: cycles.exact_run(XOR.X, XOR.y),
       lambda r: r.cycle.found and r.cycle.length == 4),
    ok("exact_run and", lambda: cycles.exact_run(AND.X, AND.y), lambda r: r.cycle.converged),
    ok("exact_run one class", lambda: cycles.exact_run(ONE_CLASS_X, ONE_CLASS_Y),
       lambda r: r.trajectory.converged),
    ok("exact_run tiny", lambda: cycles.exact_run(XOR.X * 1e-12, XOR.y), lambda r: r.cycle.found),
    ok("find_cycle", lambda: cycles.find_cycle(XOR.X, XOR.y), lambda c: c.step == 4),
    bad("exact_run max_steps 0", lambda: cycles.exact_run(XOR.X, XOR.y, max_steps=0), V,
        r"max_steps must be >= 1"),
    bad("exact_run max_steps huge", lambda: cycles.exact_run(XOR.X, XOR.y, max_steps=10**9), V,
        r"max_steps must be <= 200000"),
    bad("exact_run eta 0", lambda: cycles.exact_run(XOR.X, XOR.y, eta=0), V, r"eta must be > 0"),
    bad("exact_run eta 1e308", lambda: cycles.exact_run(XOR.X, XOR.y, eta=1e308), V,
        r"weights could grow"),
    bad("exact_run rule", lambda: cycles.exact_run(XOR.X, XOR.y, rule="margin"), V,
        r"rule must be 'classic' or 'pocket'"),
    bad("exact_run order", lambda: cycles.exact_run(XOR.X, XOR.y, order="shuffle"), V,
        r"order must be 'cyclic'"),
    bad("exact_run order index", lambda: cycles.exact_run(XOR.X, XOR.y, order=[5]), V,
        r"order indices must be in \[0, 3\]"),
    bad("exact_run intercept str", lambda: cycles.exact_run(XOR.X, XOR.y, fit_intercept="x"), T,
        r"fit_intercept must be True or False"),
    bad("exact_run too big", lambda: cycles.exact_run(np.ones((5000, 1)), np.ones(5000)), V,
        r"at most 4096 numbers"),
    # ------------------------------------------------------------------ repeats
    ok("run_cycle xor", lambda: repeats.run_cycle(XOR_RUN, XOR.X, XOR.y),
       lambda c: c.found and c.exact and (c.start_step, c.length) == (0, 4)),
    ok("run_cycle tiny", lambda: repeats.run_cycle(train(XOR.X * 1e-12, XOR.y, max_epochs=5),
                                                  XOR.X * 1e-12, XOR.y),
       lambda c: c.found and c.length == 4),
    ok("run_cycle converged", lambda: repeats.run_cycle(SEP_RUN, X2, Y2),
       lambda c: not c.found and c.converged),
    ok("run_cycle decaying", lambda: repeats.run_cycle(SGD_RUN, X2, Y2),
       lambda c: not c.exact),
    ok("run_cycle shuffled", lambda: repeats.run_cycle(
        train(XOR.X, XOR.y, order="shuffle", seed=0, max_epochs=5), XOR.X, XOR.y),
       lambda c: not c.found and "reshuffled each pass" in c.message),
    ok("exact_floats xor", lambda: repeats.exact_floats(XOR_RUN, XOR.X), lambda r: r is True),
    bad("run_cycle not traj", lambda: repeats.run_cycle(None, XOR.X, XOR.y), T,
        r"expected a Trajectory"),
    bad("run_cycle other data", lambda: repeats.run_cycle(XOR_RUN, np.ones((4, 3)), XOR.y), V,
        r"must be the run's data"),
    bad("run_cycle rtol", lambda: repeats.run_cycle(XOR_RUN, XOR.X, XOR.y, rtol=-1), V,
        r"rtol must be > 0"),
    bad("exact_run w0", lambda: cycles.exact_run(XOR.X, XOR.y, w0=[1.0]), V, r"w0 must be 2 finite"),
    bad("exact_run y length", lambda: cycles.exact_run(XOR.X, XOR.y[:3]), V, r"same number"),
    # ------------------------------------------------------------------ kernel perceptron
    ok("train_kernel xor", lambda: kernel_perceptron.train_kernel(XOR.X, XOR.y),
       lambda r: r.converged),
    ok("train_kernel one class", lambda: kernel_perceptron.train_kernel(ONE_CLASS_X, ONE_CLASS_Y),
       lambda r: r.converged),
    ok("polynomial_kernel", lambda: kernel_perceptron.polynomial_kernel(XOR.X, XOR.X),
       lambda K: K.shape == (4, 4)),
    ok("decision_grid", lambda: kernel_perceptron.decision_grid(KRUN, KRUN.n_steps, BOX,
                                                                resolution=10),
       lambda g: g[2].shape == (10, 10)),
    bad("train_kernel degree 0", lambda: kernel_perceptron.train_kernel(XOR.X, XOR.y, degree=0), V,
        r"degree must be >= 1"),
    bad("train_kernel degree 7", lambda: kernel_perceptron.train_kernel(XOR.X, XOR.y, degree=7), V,
        r"degree must be <= 6"),
    bad("train_kernel degree str", lambda: kernel_perceptron.train_kernel(XOR.X, XOR.y, degree="2"),
        T, r"kernel degree must be an integer"),
    bad("train_kernel c<0", lambda: kernel_perceptron.train_kernel(XOR.X, XOR.y, c=-1), V,
        r"c must be in \[0, 100\]"),
    bad("train_kernel c str", lambda: kernel_perceptron.train_kernel(XOR.X, XOR.y, c="a"), T,
        r"c must be a finite number"),
    bad("train_kernel epochs", lambda: kernel_perceptron.train_kernel(XOR.X, XOR.y,
                                                                     max_epochs=10**5), V,
        r"max_epochs must be <= 10000"),
    bad("train_kernel points", lambda: kernel_perceptron.train_kernel(np.zeros((2001, 1)),
                                                                     np.ones(2001)), V,
        r"at most 2000 points"),
    bad("train_kernel overflow", lambda: kernel_perceptron.train_kernel(XOR.X * 1e60, XOR.y,
                                                                       degree=6), V,
        r"kernel values overflow"),
    bad("polynomial_kernel dims", lambda: kernel_perceptron.polynomial_kernel(XOR.X,
                                                                             np.ones((2, 3))), V,
        r"same number of features"),
    bad("polynomial_kernel overflow", lambda: kernel_perceptron.polynomial_kernel([[1e100]],
                                                                                  [[1e100]]), V,
        r"kernel values overflow"),
    bad("decision_grid resolution", lambda: kernel_perceptron.decision_grid(KRUN, 0, BOX,
                                                                           resolution=1), V,
        r"resolution must be >= 2"),
    bad("decision_grid huge", lambda: kernel_perceptron.decision_grid(KRUN, 0, BOX,
                                                                     resolution=10**6), V,
        r"resolution must be <= 400"),
    bad("decision_grid box", lambda: kernel_perceptron.decision_grid(KRUN, 0, (1, 0, 0, 1)), V,
        r"xmax > xmin"),
    bad("decision_grid box str", lambda: kernel_perceptron.decision_grid(KRUN, 0, ("a", 1, 0, 1)), V,
        r"box must be"),
    bad("alpha k<0", lambda: KRUN.alpha(-1), V, r"step k must be in"),
    # ------------------------------------------------------------------ xor
    ok("function 6", lambda: xor.function(6), lambda f: f.name == "XOR"),
    ok("boolean_points", lambda: xor.boolean_points(9, coding="01"), lambda p: p[0].min() == 0),
    ok("lift", lambda: xor.lift(XOR.X), lambda L: L.shape == (4, 3)),
    ok("two_layer", lambda: xor.two_layer(), lambda n: np.array_equal(n.predictions, n.y)),
    ok("build_scene", lambda: xor.build_scene(passes=2), lambda s: s.run.cycle.found),
    ok("separable_functions", lambda: xor.separable_functions(), lambda f: len(f) == 14),
    ok("convergence_table", lambda: xor.convergence_table(max_steps=40), lambda r: len(r) == 16),
    bad("function 16", lambda: xor.function(16), V, r"function number must be <= 15"),
    bad("function str", lambda: xor.function("6"), T, r"function number must be an integer"),
    bad("boolean_points coding", lambda: xor.boolean_points(6, coding="bits"), V,
        r"coding must be 'pm1'"),
    bad("lift shape", lambda: xor.lift([[1, 2, 3]]), V, r"shape \(n, 2\)"),
    bad("lift nan", lambda: xor.lift([[np.nan, 2]]), V, r"finite"),
    bad("two_layer pair", lambda: xor.two_layer(pair="x"), V, r"pair must be one of"),
    bad("two_layer max_steps", lambda: xor.two_layer(max_steps=10**9), V, r"max_steps must be <="),
    bad("build_scene passes 0", lambda: xor.build_scene(passes=0), V, r"passes must be >= 1"),
    bad("build_scene passes 501", lambda: xor.build_scene(passes=501), V, r"passes must be <= 500"),
    bad("build_scene eta 1e308", lambda: xor.build_scene(eta=1e308), V, r"weights could grow"),
    # ------------------------------------------------------------------ validation, compiled
    ok("compiled available", lambda: compiled.available(), lambda a: isinstance(a, bool)),
    ok("check_int float", lambda: validation.check_int(3.0, name="k"), lambda v: v == 3),
    bad("check_int bool", lambda: validation.check_int(True, name="k"), T, r"k must be an integer"),
    bad("check_positive str", lambda: validation.check_positive("1", name="x"), T, r"real number"),
    bad("make_rng str", lambda: validation.make_rng("seed"), T, r"seed must be None"),
    bad("check_vector inf", lambda: validation.check_vector([np.inf], name="v", length=1), V,
        r"finite"),
]


# ----------------------------------------------------------------------------- runner
class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout(f"still running after {HARD_STOP} s")


def run_case(case: Case) -> tuple[str, str, float]:
    """Run one entry; return ``(outcome, detail, seconds)`` with outcome "ok", "clear" or "fail"."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, HARD_STOP)
    t0 = time.process_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # numpy's overflow, 0/0, ...
            try:
                result = case.call()
            except BaseException as exc:  # noqa: BLE001 - every outcome is recorded
                elapsed = time.process_time() - t0
                if isinstance(exc, KeyboardInterrupt):
                    raise
                return _judge_error(case, exc, elapsed)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    elapsed = time.process_time() - t0
    if elapsed > BUDGET:
        return "fail", f"returned after {elapsed:.1f} s of CPU (budget {BUDGET} s)", elapsed
    if case.expect != "ok":
        return "fail", f"expected {case.expect.__name__}, returned {result!r:.80}", elapsed
    if case.check is not None and not case.check(result):
        return "fail", f"result failed its check: {result!r:.120}", elapsed
    return "ok", "", elapsed


def _judge_error(case, exc, elapsed):
    what = f"{type(exc).__name__}: {str(exc)[:160]}"
    if elapsed > BUDGET:
        return "fail", f"{what} after {elapsed:.1f} s of CPU (budget {BUDGET} s)", elapsed
    if case.expect == "ok":
        return "fail", f"expected a result, raised {what}", elapsed
    if not isinstance(exc, case.expect):
        return "fail", f"expected {case.expect.__name__}, raised {what}", elapsed
    if case.match and not re.search(case.match, str(exc)):
        return "fail", f"message does not match {case.match!r}: {str(exc)[:200]}", elapsed
    return "clear", "", elapsed


_RESULTS: dict[str, tuple[str, str, float]] = {}


def test_catalogue_has_unique_ids_and_enough_entries():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    assert len(CASES) >= 200


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_call(case):
    outcome, detail, _ = run_case(case)
    _RESULTS[case.id] = (outcome, detail, _)
    assert outcome != "fail", detail


def test_summary(tmp_path):
    for case in CASES:  # when run alone (-k summary), run what has not run yet
        if case.id not in _RESULTS:
            _RESULTS[case.id] = run_case(case)
    counts = {"tried": len(CASES),
              "clear_messages": sum(r[0] == "clear" for r in _RESULTS.values()),
              "ok": sum(r[0] == "ok" for r in _RESULTS.values()),
              "failures": sum(r[0] == "fail" for r in _RESULTS.values()),
              "slowest_s": round(max(r[2] for r in _RESULTS.values()), 3)}
    failures = {k: r[1] for k, r in _RESULTS.items() if r[0] == "fail"}
    (tmp_path / "catalogue.json").write_text(json.dumps({**counts, "failing": failures}, indent=1))
    print(f"\nAPI catalogue: {counts}")
    for k, why in failures.items():
        print(f"  FAIL {k}: {why}")
    assert counts["failures"] == 0
