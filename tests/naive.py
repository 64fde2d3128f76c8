"""A deliberately plain, one-step-at-a-time perceptron written straight from the rules of
docs/mathematics.md#update-rules.

Used only as a reference in the tests: the fast block-scanning trainer must agree with it
step for step. It takes the visiting sequence explicitly, so the tests control the order.
"""

import numpy as np


def naive_run(X, y, seq, *, rule="classic", eta=1.0, forget=1.0, rho=0.0, t=None,
              fit_intercept=True, w0=None, b0=0.0, batch=1):
    """Return the list of (w, b) after every step and the list of update flags.

    ``seq`` is the full list of visited indices; steps take ``batch`` consecutive entries.
    """
    n, d = X.shape
    w = np.zeros(d) if w0 is None else np.array(w0, dtype=float)
    b = float(b0)
    if t is None:
        t = {"margin": 1.0, "svm_sgd": 1.0, "relaxation": 1.0}.get(rule, 0.0)
    strict = rule in ("margin", "relaxation")
    R2 = max(float(x @ x) for x in X)
    states, flags = [(w.copy(), b)], []
    for start in range(0, len(seq), batch):
        idx = seq[start:start + batch]
        dw, db, any_hit = np.zeros(d), 0.0, False
        for i in idx:
            x, lab = X[i], y[i]
            z = lab * (float(w @ x) + b)
            hit = z < t if strict else z <= t
            if not hit:
                continue
            any_hit = True
            if rule == "relaxation":
                nrm = float(x @ x) + (1.0 if fit_intercept else 0.0)
                c = eta * (t - z) / nrm * lab if nrm > 0 else 0.0
            else:
                c = eta * lab
            dw += c * x
            db += c * (R2 if rule == "rosenblatt_r2" else 1.0)
        if rule in ("regularized", "svm_sgd"):
            w = (1 - 2 * eta * rho) * w + dw
        elif rule == "margin" and any_hit:
            w = forget * w + dw
        else:
            w = w + dw
        if fit_intercept:
            b = b + db
        states.append((w.copy(), b))
        flags.append(any_hit)
    return states, flags
