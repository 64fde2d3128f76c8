"""Data trained in their own dimension (issue 34): the 30-D breast cancer set in the Perceptron tab.

``highdim_open_s``: a Perceptron tab (built outside a kernel, so the run is described at once,
as a kernel does after its first page) set to 5 epochs on Koski's example; then the time of
``model.update(dataset="breast_cancer30")``, the menu's choice: loading the 569 x 30 standardised
features, training 5 epochs, describing the run (its mistake bound's gamma is the hard-margin
SVM's, :func:`explorer.shared.svm.fit`), and everything the page needs to draw the run — the
figure's run, its scene (layout and the two still layers as PNGs), the statics and the first two
chunks of 256 steps, handed to the page widget. The browser's own drawing is not included.

BLAS runs one thread, as in a served kernel (``docs/serving.md``: ``OPENBLAS_NUM_THREADS=1``): on
a shared machine a BLAS thread pool makes a 30 x 30 eigendecomposition 50 times slower. The
parts are timed apart too (same process, medians): the model alone (load, train, describe),
:func:`explorer.perceptron.replay.describe_run` alone, and the SVM solves behind it.
"""

import time

import numpy as np
from threadpoolctl import threadpool_limits

from explorer.perceptron import bounds, replay, train
from explorer.shared import datasets, svm

KEY = "breast_cancer30"
EPOCHS = 5


def _median(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def _open(view, repeats):
    """Median seconds of choosing the 30-D set in the tab (from another set each time)."""
    m = view.model
    times = []
    for _ in range(repeats):
        assert m.update(dataset="koski"), m.message
        t0 = time.perf_counter()
        assert m.update(dataset=KEY), m.message
        times.append(time.perf_counter() - t0)
        assert m.max_epochs == EPOCHS and m.X.shape == (569, 30) and not m.info.pending
    return float(np.median(times))


def run(repeats=5):
    from explorer.app.perceptron.model import PerceptronModel
    from explorer.app.perceptron.view import PerceptronView

    with threadpool_limits(limits=1):
        view = PerceptronView()
        assert view.model.update(max_epochs=EPOCHS), view.model.message
        _open(view, 1)  # imports and first-use costs out of the way
        open_s = _open(view, repeats)
        ds = datasets.load("breast_cancer")
        tr = train(ds.X, ds.y, max_epochs=EPOCHS)
        describe_s = _median(lambda: replay.describe_run(tr, ds.X, ds.y), repeats)
        hom_s = _median(lambda: svm.fit(bounds.augment(ds.X), ds.y, fit_intercept=False),
                        repeats)
        aff_s = _median(lambda: svm.fit(ds.X, ds.y), repeats)
        model = PerceptronModel(max_epochs=EPOCHS)
        model_s = _median(lambda: (model.update(dataset="koski"),
                                   model.update(dataset=KEY)), repeats)
    note = (f"569 x 30, {EPOCHS} epochs, {tr.n_steps} steps, {tr.n_updates} updates; model "
            f"(koski, then the set) {model_s:.2f} s, describe_run {describe_s * 1e3:.0f} ms")
    return [
        {"key": "highdim_open_s", "name": "choose breast cancer (30 features) -> scene ready",
         "value": open_s, "unit": "s", "target": "<= 1", "note": note},
        {"name": "describe_run, breast cancer 30-D, 5 epochs", "value": describe_s * 1e3,
         "unit": "ms"},
        {"name": "hard-margin SVM, breast cancer 30-D augmented (x, 1), no intercept",
         "value": hom_s * 1e3, "unit": "ms"},
        {"name": "hard-margin SVM, breast cancer 30-D, with intercept", "value": aff_s * 1e3,
         "unit": "ms"},
    ]


if __name__ == "__main__":
    for f in run():
        print(f"{f['name']}: {f['value']:.4g} {f['unit']}" + (f"   [{f['note']}]"
                                                              if f.get("note") else ""))
