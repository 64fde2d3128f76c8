"""Frames and narration of known steps of Koski's example and other runs."""

import numpy as np
import pytest

from explorer.perceptron import train
from explorer.perceptron.replay import describe_run, frame, plural, stop_text
from explorer.perceptron.replay.narration import _vec
from explorer.shared import datasets
from explorer.shared.number_format import number_text

KOSKI = datasets.load("koski")


@pytest.fixture
def koski_run():
    return train(KOSKI.X, KOSKI.y, eta=0.2, w0=[1, 0.5], order=[4, 2, 0, 1, 3, 5])


def test_koski_frames(koski_run):
    f0 = frame(koski_run, KOSKI.X, KOSKI.y, 0)
    assert f0.picked == () and not f0.updated and f0.text.startswith("Start: w = (1, 0.5), b = 0")
    f1 = frame(koski_run, KOSKI.X, KOSKI.y, 1)
    assert f1.picked == (4,) and f1.triggered == (4,) and f1.updated
    assert f1.margins[0] == pytest.approx(-1.0)
    np.testing.assert_allclose(f1.update_vector, [-0.4, 0.4])  # eta * y * x = 0.2 * -1 * (2, -2)
    assert f1.text == ("Step 1, point 5 (2, −2), label −1: y·f(x) = −1 ≤ 0, so w ← w + η·y·x = "
                       "(0.6, 0.9), b ← b + η·y = −0.2. Update 1.")
    f4 = frame(koski_run, KOSKI.X, KOSKI.y, 4)
    assert not f4.updated and f4.update_vector is None and "no update" in f4.text
    assert f4.n_updates == 3
    last = frame(koski_run, KOSKI.X, KOSKI.y, koski_run.n_steps)
    assert "Converged after 3 updates" in last.text


def test_hand_mode_says_what_is_left(koski_run):
    run = train(KOSKI.X, KOSKI.y, eta=0.2, w0=[1, 0.5], order=[4], max_steps=1)
    assert stop_text(run, KOSKI.X, KOSKI.y, hand=True) == (
        "1 point still fails the test (point 3): pick it next.")
    start = train(KOSKI.X, KOSKI.y, eta=0.2, w0=[1, 0.5], order=[4], max_steps=0)
    assert stop_text(start, KOSKI.X, KOSKI.y, hand=True) == (
        "2 points still fail the test (points 3 and 5): pick one of them next.")
    # the frame lists the same points, at every step and not only the last
    assert frame(start, KOSKI.X, KOSKI.y, 0, hand=True).failing == (2, 4)
    assert frame(run, KOSKI.X, KOSKI.y, 1, hand=True).failing == (2,)
    assert frame(koski_run, KOSKI.X, KOSKI.y, 2).failing == (0,)
    assert frame(koski_run, KOSKI.X, KOSKI.y, 3).failing == ()


def test_failing_follows_the_rules_own_test():
    """The margin rule's test is y f(x) < 1: points right of the boundary can still fail."""
    ds = datasets.load("separable", n=30, seed=4, margin=0.2)
    run = train(ds.X, ds.y, rule="margin", max_epochs=1)
    for k in (0, 5, run.n_steps):
        f = frame(run, ds.X, ds.y, k)
        z = ds.y * (ds.X @ f.w + f.b)
        assert f.failing == tuple(np.flatnonzero(z < 1))


@pytest.mark.parametrize("n,word,want", [(0, "update", "0 updates"), (1, "update", "1 update"),
                                         (2, "update", "2 updates"), (1, "point", "1 point"),
                                         (7, "point", "7 points"), (2, "axis", "2 axes")])
def test_plural(n, word, want):
    assert plural(n, word, "axes" if word == "axis" else None) == want


def test_one_update_is_singular():
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    y = np.array([1.0, -1.0])
    run = train(X, y, fit_intercept=False)  # one update from 0, then both are right
    assert run.n_updates == 1
    assert "Converged after 1 update: a full pass" in stop_text(run)
    assert "Converged after 1 updates" not in frame(run, X, y, run.n_steps).text
    ds = datasets.load("overlapping", n=20, seed=2)
    batch = train(ds.X, ds.y, batch_size=4, max_epochs=2)
    texts = [frame(batch, ds.X, ds.y, k).text for k in range(1, batch.n_steps + 1)]
    assert any("): point " in t and " meets y·f(x)" in t for t in texts)
    assert any("): points " in t and " meet y·f(x)" in t for t in texts)
    assert not any(" meets" in t and "): points" in t for t in texts)
    assert not any("its correction" in t and "): points" in t for t in texts)


def test_xor_says_why_it_never_converges():
    xor = datasets.load("xor")
    run = train(xor.X, xor.y, max_epochs=10)
    info = describe_run(run, xor.X, xor.y)
    assert info.separable is False and info.certificate is not None
    np.testing.assert_allclose(info.certificate.point, [0.0, 0.0], atol=1e-9)
    last = frame(run, xor.X, xor.y, run.n_steps, info=info).text
    assert last.endswith(
        f"Stopped at max epochs (10) without converging: {run.n_updates} updates so far. "
        "The data are not linearly separable: the point (0, 0) lies in the convex hulls of both "
        "classes, so no line separates them and the updates never stop.")
    assert "Separable data would converge" not in last
    # without the run's description the narration cannot know, and says what either means
    assert frame(run, xor.X, xor.y, run.n_steps).text.endswith(
        "If the data are linearly separable a longer run converges (Sayed, Lemma 60.1 "
        "(Novikoff)); if they are not, the updates never stop.")


def test_separable_run_cut_short_says_more_epochs_would_do():
    ds = datasets.load("separable", n=40, seed=3, margin=0.05)
    run = train(ds.X, ds.y, max_epochs=1)
    assert not run.converged
    info = describe_run(run, ds.X, ds.y)
    text = stop_text(run, info=info)
    bound = int(np.floor(info.bound.value))
    assert f"The data are linearly separable, so a longer run would converge: at most {bound} " \
           f"updates in all (Sayed, Lemma 60.1 (Novikoff); Cornwell (2025))." in text


def test_pocket_and_averaged_frames_keep_their_classifier():
    ds = datasets.load("overlapping", n=40, seed=0)
    n = len(ds.y)
    pocket = train(ds.X, ds.y, rule="pocket", max_epochs=5)
    for k in (0, 1, 37, pocket.n_steps):
        f = frame(pocket, ds.X, ds.y, k)
        u = pocket.updates_until(k)
        errs = [np.mean(np.where(ds.X @ pocket.weights[j] + pocket.biases[j] >= 0, 1, -1) != ds.y)
                for j in range(u + 1)]
        best = int(np.argmin(errs))  # the earliest of the best, as train() keeps pocket_w
        assert f.kept_kind == "pocket"
        np.testing.assert_array_equal(f.kept_w, pocket.weights[best])
        assert f.kept_b == pocket.biases[best]
        assert f.kept_errors == round(errs[best] * n)
        assert (f"The pocket holds w = {_vec(f.kept_w)}, b = {number_text(f.kept_b)}, with "
                f"{f.kept_errors} of 40 points wrong.") in f.text
    last = frame(pocket, ds.X, ds.y, pocket.n_steps)
    np.testing.assert_array_equal(last.kept_w, pocket.pocket_w)
    assert last.kept_b == pocket.pocket_b
    avg = train(ds.X, ds.y, rule="averaged", max_epochs=5)
    for k in (0, 1, 50, avg.n_steps):
        f = frame(avg, ds.X, ds.y, k)
        w, b = avg.averaged_state(k)
        np.testing.assert_allclose(f.kept_w, w)
        assert f.kept_kind == "averaged" and f.kept_b == pytest.approx(b)
        assert f.kept_errors == int(np.sum(np.where(ds.X @ w + b >= 0, 1, -1) != ds.y))
        assert f"The average of the iterates is w = {_vec(w)}" in f.text
    classic = frame(train(ds.X, ds.y, max_epochs=1), ds.X, ds.y, 3)
    assert classic.kept_kind is None and classic.kept_w is None and "pocket" not in classic.text


def test_koski_default_has_bound_and_proof(koski_run):
    info = describe_run(koski_run, KOSKI.X, KOSKI.y)
    assert info.proof is not None and info.note == ""
    assert info.bound.value is not None and info.bound.value >= 3
    assert info.bound.value == pytest.approx(info.proof.crossing)
    assert info.bound.source == "Sayed, Lemma 60.1, from w₀"
    # the guaranteed lines start at the run's start, not at 0
    np.testing.assert_allclose(info.proof.norm_sq_upper[0], 1.25)
    assert info.proof.dot_lower[0] == pytest.approx(info.proof.dot[0])


def test_stop_texts():
    xor = datasets.load("xor")
    run = train(xor.X, xor.y, max_epochs=3)
    assert "max epochs (3) without converging" in stop_text(run)


def test_batch_and_decay_narration():
    ds = datasets.load("overlapping", n=20, seed=2)
    run = train(ds.X, ds.y, batch_size=4, max_epochs=2)
    f = frame(run, ds.X, ds.y, 1)
    assert f.text.startswith("Step 1, batch of points 1, 2, 3, 4 (y·f(x) = 0, 0, 0, 0): all of "
                             "them meet y·f(x) ≤ 0")
    run = train(ds.X, ds.y, rule="regularized", rho=0.1, eta=0.5, max_epochs=2)
    no_update = next(k for k in range(1, run.n_steps + 1) if not run.updated[k - 1])
    assert "decay still shrinks w" in frame(run, ds.X, ds.y, no_update).text


def test_describe_run_bound_and_proof():
    ds = datasets.load("separable", n=30, seed=4, margin=0.2)
    run = train(ds.X, ds.y)
    info = describe_run(run, ds.X, ds.y)
    assert info.separable and info.bound.value >= run.n_updates and info.proof is not None
    xor = datasets.load("xor")
    info = describe_run(train(xor.X, xor.y, max_epochs=2), xor.X, xor.y)
    assert not info.separable and info.proof is None and "not linearly separable" in info.note
    margin_run = train(ds.X, ds.y, rule="margin")
    assert describe_run(margin_run, ds.X, ds.y).band == 1.0


@pytest.mark.parametrize("rule", ["classic", "margin", "rosenblatt_r2"])
def test_proof_lines_cross_at_the_bound(rule):
    """<w*, w_u> >= u eta gamma and ||w_u|| <= sqrt(u c) meet at u = c / (eta gamma)^2: the
    proof panel's w* must be the separator whose margin enters the bound. Koski's bound
    over-estimates that crossing (it uses ||(x, R)||^2 <= 2 R^2), so there it is an upper one."""
    # seed 9, moved off the origin: the affine max-margin separator (2 support vectors) is
    # not the augmented one (3), so only the right w* makes the lines cross at the bound
    ds = datasets.load("separable", n=30, seed=9, margin=0.2)
    X = ds.X + [1.5, 0.5]
    run = train(X, ds.y, rule=rule, eta=0.5, max_epochs=2000)
    info = describe_run(run, X, ds.y)
    pq = info.proof
    crossing = pq.norm_sq_upper[1] / pq.dot_lower[1] ** 2
    if rule == "rosenblatt_r2":
        assert crossing <= info.bound.value * (1 + 1e-9)
    else:
        assert crossing == pytest.approx(info.bound.value, rel=1e-6)
    assert run.n_updates <= info.bound.value


# ---------------------------------------------------------------- the weights repeat (issue 19)
XOR = datasets.load("xor")


def test_narration_inside_a_cycle_says_the_weights_repeat():
    tr = train(XOR.X, XOR.y, max_epochs=10)
    info = describe_run(tr, XOR.X, XOR.y)
    assert info.cycle.found and (info.cycle.start_step, info.cycle.length) == (0, 4)
    t1 = frame(tr, XOR.X, XOR.y, 1, info=info).text
    assert t1.endswith("Update 1. The weights repeat: period 4 from step 0, exactly.")
    t9 = frame(tr, XOR.X, XOR.y, 9, info=info).text
    assert ("The weights repeat: period 4 from step 0, exactly. The state after step 9 equals "
            "the one after step 5.") in t9
    assert "repeat" not in frame(tr, XOR.X, XOR.y, 0, info=info).text
    assert "repeat" not in frame(tr, XOR.X, XOR.y, 9).text  # no info, nothing claimed


def test_narration_before_the_cycle_and_within_a_tolerance():
    X = np.round(datasets.load("overlapping", dim=2, n=40, seed=0).X * 10) / 10
    y = datasets.load("overlapping", dim=2, n=40, seed=0).y
    tr = train(X, y, max_epochs=20)
    info = describe_run(tr, X, y)
    c = info.cycle
    assert (c.start_step, c.length) == (98, 80) and not c.exact
    assert "repeat" not in frame(tr, X, y, 97, info=info).text
    assert f"period 80 from step 98, to within {c.tolerance:.2g}." in frame(tr, X, y, 98,
                                                                            info=info).text
    assert "The state after step 200 matches the one after step 120." in frame(
        tr, X, y, 200, info=info).text


def test_pending_run_knows_the_cycle_and_converged_runs_say_nothing(koski_run):
    from explorer.perceptron.replay import pending_run

    tr = train(XOR.X, XOR.y, max_epochs=10)
    assert pending_run(tr, XOR.X, XOR.y).cycle == describe_run(tr, XOR.X, XOR.y).cycle
    assert pending_run(tr).cycle is None
    info = describe_run(koski_run, KOSKI.X, KOSKI.y)
    assert not info.cycle.found and info.cycle.converged
    assert all("repeat" not in frame(koski_run, KOSKI.X, KOSKI.y, k, info=info).text
               for k in range(koski_run.n_steps + 1))


def test_mini_batch_narration_by_hand():
    """Koski's six points from w = 0 in batches of 2 (cyclic), worked by hand: step 2 visits
    points 3 = (−2, 1, +1) and 4 = (−1, −1.5, −1) at w = (2.5, 0.5), b = 2, where
    f = −2.5 and 1.25 times their labels; only point 3 is a mistake, so the update is its
    correction alone, (−2, 1). Step 1's two corrections (both margins 0) are summed, not
    averaged: (1.5, −0.5) + (1, 1) = (2.5, 0.5), b = 2."""
    ds = datasets.load("koski")
    run = train(ds.X, ds.y, batch_size=2, max_epochs=2)
    start = frame(run, ds.X, ds.y, 0).text
    assert "Each step visits a batch of 2 points and updates if any of them has y·f(x) ≤ 0" in start
    one = frame(run, ds.X, ds.y, 1)
    assert one.picked == (0, 1) and one.triggered == (0, 1)
    np.testing.assert_allclose(one.update_vector, [2.5, 0.5])
    assert ("Step 1, batch of points 1, 2 (y·f(x) = 0, 0): both meet y·f(x) ≤ 0, so their "
            "corrections are added up, all computed at the same w (a sum, not an average): "
            "w ← w + Σ η·y·x = (2.5, 0.5), b ← b + Σ η·y = 2; the arrow is the sum, (2.5, 0.5). "
            "Update 1.") == one.text
    two = frame(run, ds.X, ds.y, 2)
    assert two.triggered == (2,)
    np.testing.assert_allclose(two.margins, [-2.5, 1.25])
    np.testing.assert_allclose(two.update_vector, [-2.0, 1.0])
    assert two.text.startswith("Step 2, batch of points 3, 4 (y·f(x) = −2.5, 1.25): point 3 "
                               "meets y·f(x) ≤ 0, so its correction is the whole update: "
                               "w ← w + Σ η·y·x = (0.5, 1.5), b ← b + Σ η·y = 3; the arrow is "
                               "that correction, (−2, 1). Update 2.")
    quiet = frame(run, ds.X, ds.y, 5)
    assert quiet.text.startswith("Step 5, batch of points 3, 4 (y·f(x) = 6, 1.5): both have "
                                 "y·f(x) > 0, no update.")
    # a pass of 6 points in batches of 4 ends with a batch of 2: "up to 4"
    four = train(ds.X, ds.y, batch_size=4, max_epochs=2)
    assert "a batch of up to 4 points" in frame(four, ds.X, ds.y, 0).text
    assert frame(four, ds.X, ds.y, 2).picked == (4, 5)


def test_mini_batch_runs_claim_no_mistake_bound():
    """The sources prove their bounds for one point per step; a mini-batch run on separable
    data gets no bound and no proof panel, and says why."""
    ds = datasets.load("separable", n=30, seed=4, margin=0.2)
    info = describe_run(train(ds.X, ds.y, batch_size=3), ds.X, ds.y)
    assert info.bound.value is None and info.proof is None and info.separable
    assert "one point per step, not for mini-batches of 3" in info.bound.note
    assert info.note == info.bound.note
    single = describe_run(train(ds.X, ds.y), ds.X, ds.y)
    assert single.bound.value is not None and single.proof is not None
