import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.geometry import (
    clip_line,
    cone_polygon,
    convex_hull_polygon,
    half_plane_polygon,
    version_space_cone,
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
