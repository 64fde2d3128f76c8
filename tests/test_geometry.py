import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.shared.geometry import (
    clip_line,
    cone_polygon,
    convex_hull_polygon,
    half_plane_polygon,
    slice_exists,
    version_space_cone,
    version_space_slice,
)

BOX = (-2.0, 2.0, -1.0, 1.0)


def test_clip_line_by_hand():
    seg = clip_line([0.0, 1.0], -0.5, BOX)  # y = 0.5
    np.testing.assert_allclose(sorted(seg[:, 0]), [-2, 2])
    np.testing.assert_allclose(seg[:, 1], [0.5, 0.5])
    assert clip_line([0.0, 1.0], -5.0, BOX) is None  # y = 5 misses the box
    assert clip_line([0.0, 0.0], 1.0, BOX) is None
    seg = clip_line([1.0, 1.0], 0.0, BOX, level=1.0)  # x + y = 1
    np.testing.assert_allclose(seg.sum(axis=1), [1, 1])


@settings(max_examples=60, deadline=None)
@given(w=st.tuples(st.floats(-3, 3), st.floats(-3, 3)), b=st.floats(-3, 3))
def test_half_planes_split_the_box(w, b):
    w = np.array(w)
    if np.linalg.norm(w) < 1e-3:
        return

    def area(p):
        if len(p) < 3:
            return 0.0
        x, y = p[:, 0], p[:, 1]
        return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))

    pos, neg = half_plane_polygon(w, b, BOX, sign=1), half_plane_polygon(w, b, BOX, sign=-1)
    assert area(pos) + area(neg) == pytest.approx(8.0, rel=1e-9, abs=1e-9)
    for p, s in ((pos, 1), (neg, -1)):
        if len(p):
            assert np.all(s * (p @ w + b) >= -1e-9)


def test_version_space_cone_by_hand():
    # points (1, 0) +1 and (0, 1) +1: w must have w1 >= 0 and w2 >= 0 -> the first quadrant
    lo, hi = version_space_cone([[1.0, 0.0], [0.0, 1.0]], [1, 1])
    assert (lo, hi) == pytest.approx((0.0, np.pi / 2))
    assert version_space_cone([[1.0, 0.0], [1.0, 0.0]], [1, -1]) is None
    # XOR through the origin has no version space
    assert version_space_cone([[-1, -1], [-1, 1], [1, -1], [1, 1]], [-1, 1, 1, -1]) is None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 8))
def test_cone_directions_separate(seed, n):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = rng.choice([-1.0, 1.0], size=n)
    cone = version_space_cone(X, y)
    ang = rng.uniform(-np.pi, np.pi, 400)
    W = np.column_stack([np.cos(ang), np.sin(ang)])
    ok = np.all((W @ (X * y[:, None]).T) >= -1e-12, axis=1)
    if cone is None:
        assert not ok.any()
    else:
        mid = (cone[0] + cone[1]) / 2
        wm = np.array([np.cos(mid), np.sin(mid)])
        assert np.all(y * (X @ wm) >= -1e-9)
        poly = cone_polygon(cone, 2.0)
        assert poly.shape[1] == 2 and np.allclose(poly[0], 0)


def test_convex_hull_polygon_by_hand():
    square = [[0, 0], [2, 0], [2, 2], [0, 2], [1, 1], [0.5, 1.5]]
    hull = convex_hull_polygon(square)
    assert sorted(map(tuple, hull.tolist())) == [(0, 0), (0, 2), (2, 0), (2, 2)]
    x, y = hull[:, 0], hull[:, 1]
    assert 0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) == pytest.approx(4.0)  # ccw
    # degenerate sets keep their shape: a point, a segment, collinear points, duplicates
    np.testing.assert_array_equal(convex_hull_polygon([[1, 2]]), [[1, 2]])
    np.testing.assert_array_equal(convex_hull_polygon([[1, 2], [1, 2]]), [[1, 2]])
    seg = convex_hull_polygon([[1, 1], [-1, -1]])
    assert sorted(map(tuple, seg.tolist())) == [(-1, -1), (1, 1)]
    line = convex_hull_polygon([[0, 0], [3, 3], [1, 1], [2, 2]])
    assert sorted(map(tuple, line.tolist())) == [(0, 0), (3, 3)]
    assert convex_hull_polygon(np.zeros((0, 2))).shape == (0, 2)
    # more than two columns: the hull of the first two
    assert len(convex_hull_polygon([[0, 0, 5], [1, 0, 6], [0, 1, 7]])) == 3


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 30))
def test_convex_hull_contains_every_point(seed, n):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    hull = convex_hull_polygon(X)
    assert len(hull) >= 3
    edges = np.roll(hull, -1, axis=0) - hull
    # counter-clockwise: every point is left of (or on) every edge
    cross = edges[:, None, 0] * (X[None, :, 1] - hull[:, None, 1]) - \
        edges[:, None, 1] * (X[None, :, 0] - hull[:, None, 0])
    assert np.all(cross >= -1e-9)
    assert all(any(np.allclose(v, p) for p in X) for v in hull)  # vertices are data points


# ---------------------------------------------------------------- version space with an offset
def _inside(poly, P):
    """Points of P inside the convex polygon (counter-clockwise vertices), edges included."""
    edges = np.roll(poly, -1, axis=0) - poly
    rel = P[:, None, :] - poly[None, :, :]
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
    return (cross >= -1e-9).all(axis=1)


def _slice_cases():
    rng = np.random.default_rng(7)
    for _ in range(12):
        n = int(rng.integers(2, 9))
        X = rng.normal(size=(n, 2)) * 2
        w, b = rng.normal(size=2), rng.normal()
        y = np.where(X @ w + b >= 0, 1.0, -1.0)
        if rng.random() < 0.3:
            y[0] = -y[0]  # often not separable any more
        yield X, y


@pytest.mark.parametrize("b", [-1.5, -0.3, 0.0, 0.4, 2.0])
def test_version_space_slice_matches_a_grid(b):
    """Against brute force: grid points that satisfy every y_i (<w, x_i> + b) > 0 (with room)
    lie in the polygon, and grid points well inside the polygon satisfy them."""
    box = (-3.0, 3.0, -3.0, 3.0)
    g = np.linspace(-3, 3, 241)
    G = np.array(np.meshgrid(g, g)).reshape(2, -1).T
    for X, y in _slice_cases():
        poly = version_space_slice(X, y, b, box)
        margin = y[None, :] * (G @ X.T + b)  # (grid, n)
        ok = (margin > 1e-6).all(axis=1)
        if len(poly) == 0:
            assert not ok.any()
            continue
        inside = _inside(poly, G)
        assert inside[ok].all()
        assert (margin[inside] > -1e-9).all()
        assert ok.any() or np.ptp(poly, axis=0).min() < 0.05  # a sliver between grid points


def test_slice_exists_matches_a_linear_program():
    from scipy.optimize import linprog

    for X, y in _slice_cases():
        for b in (-2.0, -0.5, 0.5, 3.0):
            # another program: maximise the worst margin within a large box
            res = linprog([0, 0, -1], A_ub=np.column_stack([-(X * y[:, None]), np.ones(len(y))]),
                          b_ub=y * b, bounds=[(-1e4, 1e4), (-1e4, 1e4), (None, 1)])
            assert slice_exists(X, y, b) == (-res.fun > 1e-7), (X, y, b)
            if len(version_space_slice(X, y, b, (-3, 3, -3, 3))):
                assert slice_exists(X, y, b)


def test_slices_by_hand():
    # two points on the x1-axis, the -1 at 1 and the +1 at 2: w1 > 0 and b in (-2 w1, -w1)
    X, y = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([-1.0, 1.0])
    box = (-2.0, 2.0, -2.0, 2.0)
    poly = version_space_slice(X, y, -1.0, box)  # 0.5 < w1 < 1, any w2
    np.testing.assert_allclose(sorted(set(poly[:, 0])), [0.5, 1.0])
    np.testing.assert_allclose(sorted(set(poly[:, 1])), [-2.0, 2.0])
    assert len(version_space_slice(X, y, 0.5, box)) == 0 and not slice_exists(X, y, 0.5)
    assert not slice_exists(X, y, 0.0)
    assert len(version_space_slice(X, y, -10.0, box)) == 0 and slice_exists(X, y, -10.0)
    # a point at the origin needs y b > 0 for every w
    Z, yz = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1.0, 1.0])
    assert len(version_space_slice(Z, yz, 1.0, box)) and slice_exists(Z, yz, 1.0)
    assert not len(version_space_slice(Z, yz, 0.0, box)) and not slice_exists(Z, yz, 0.0)
    assert not slice_exists(Z, yz, -1.0)
    # b = 0 is the cone of the homogeneous case
    K = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert slice_exists(K, [1, 1], 0.0) and version_space_cone(K, [1, 1]) is not None
