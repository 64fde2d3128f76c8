"""The Boolean functions, the x1·x2 map and the two-layer network (explorer.xor)."""

import itertools

import numpy as np
import pytest

from explorer import xor
from explorer.cover.counting import MUROGA
from explorer.perceptron import cycles
from explorer.shared import datasets, separability


def test_sixteen_distinct_functions_with_the_datasets_truth_tables():
    assert len({f.truth for f in xor.FUNCTIONS}) == 16
    for name, code in (("xor", 6), ("and", 1), ("or", 7), ("nand", 14)):
        X, y = xor.boolean_points(code)
        ds = datasets.load(name)
        np.testing.assert_array_equal(X, ds.X)
        np.testing.assert_array_equal(y, ds.y)
        assert xor.function(code).name.lower() == name


@pytest.mark.parametrize("coding", ["pm1", "01"])
def test_fourteen_are_separable_and_train_to_convergence(coding):
    seps = xor.separable_functions(coding)
    assert len(seps) == 14 == MUROGA[2] and set(range(16)) - set(seps) == {xor.XOR, xor.XNOR}
    for code in range(16):
        X, y = xor.boolean_points(code, coding=coding)
        run = cycles.exact_run(X, y, max_steps=400)
        assert run.trajectory.converged == (code in seps)
        assert run.cycle.found == (code not in seps)
        if code in seps:
            t = run.trajectory
            np.testing.assert_array_equal(np.where(X @ t.final_w + t.final_b >= 0, 1, -1), y)


def test_certificate_point_is_the_centre():
    for coding, centre in (("pm1", [0, 0]), ("01", [0.5, 0.5])):
        X, y = xor.boolean_points(xor.XOR, coding=coding)
        cert = separability.check(X, y).certificate
        np.testing.assert_allclose(cert.point, centre, atol=1e-9)


@pytest.mark.parametrize("coding", ["pm1", "01"])
def test_lifted_xor_is_separated_by_a_plane(coding):
    X, y = xor.boolean_points(xor.XOR, coding=coding)
    Z = xor.lift(X)
    np.testing.assert_allclose(Z[:, 2], X[:, 0] * X[:, 1])
    run = cycles.exact_run(Z, y)
    t = run.trajectory
    assert t.converged
    np.testing.assert_array_equal(np.where(Z @ t.final_w + t.final_b >= 0, 1, -1), y)


def test_every_function_is_separable_after_lifting():
    for code, coding in itertools.product(range(16), ("pm1", "01")):
        X, y = xor.boolean_points(code, coding=coding)
        assert len(np.unique(y)) < 2 or separability.check(xor.lift(X), y).separable


@pytest.mark.parametrize("pair", sorted(xor.HIDDEN_PAIRS))
@pytest.mark.parametrize("coding", ["pm1", "01"])
def test_two_layer_network_classifies_xor(pair, coding):
    net = xor.two_layer(xor.XOR, pair=pair, coding=coding)
    assert net.separable and net.output.trajectory.converged
    np.testing.assert_array_equal(net.predictions, net.y)
    np.testing.assert_array_equal(net.forward(net.X), net.y)
    for (w, b), h in zip(net.hidden_lines(), xor.HIDDEN_PAIRS[pair][1], strict=True):
        np.testing.assert_array_equal(xor.unit_output(net.X, w, b), xor.function(h).labels)


def test_or_nand_hidden_coordinates_make_xor_an_and():
    net = xor.two_layer(xor.XOR, pair="or_nand")
    # corners (0,0),(0,1),(1,0),(1,1) -> (OR, NAND) = (-1,+1), (+1,+1), (+1,+1), (+1,-1)
    np.testing.assert_array_equal(net.H, [[-1, 1], [1, 1], [1, 1], [1, -1]])


def test_a_pair_that_merges_the_corners_cannot_do_everything():
    # OR and NAND give (0,1) and (1,0) the same hidden point: x1 AND NOT x2 is lost
    net = xor.two_layer(2, pair="or_nand")
    assert not net.separable and not net.output.trajectory.converged


@pytest.mark.parametrize("bad,words", [(16, "function number must be <= 15"),
                                       ("x", "function number must be an integer")])
def test_bad_function_numbers(bad, words):
    with pytest.raises((ValueError, TypeError), match=words):
        xor.function(bad)


def test_pocket_over_every_order_and_the_convergence_table():
    from explorer import xor as X

    assert set(X.pocket_errors_over_orders(coding="pm1").values()) == {0.25}
    assert len(X.pocket_errors_over_orders(coding="01")) == 24
    rows = X.convergence_table()
    assert len(rows) == 16
    cycling = [r for r in rows if "cycles" in r]
    assert [r.split()[1] for r in cycling] == ["XOR", "XNOR"]
    assert all("length 4 found at step 4" in r for r in cycling)
