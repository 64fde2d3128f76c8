"""Input checks shared by every entry point of the core.

Each check raises ``ValueError`` or ``TypeError`` with a message that names what was
expected and what was got, e.g. ``"y must contain only -1 and +1; got {0, 1}"``.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "MAX_ABS",
    "MAX_DATA_NUMBERS",
    "as_features",
    "check_bool",
    "check_real",
    "check_size",
    "as_labels",
    "check_X_y",
    "check_positive",
    "check_int",
    "check_vector",
    "make_rng",
]


#: Largest size of a coordinate the core accepts. Squares and inner products of numbers up to
#: ``1e150`` stay finite (the largest double is about ``1.8e308``), so every norm, margin and LP
#: of the core can be computed; beyond it they overflow to inf.
MAX_ABS = 1e150
#: Most numbers (points x features) a generated data set may hold: 50 million float64 numbers,
#: 400 MB. Checked before any memory is allocated.
MAX_DATA_NUMBERS = 50_000_000


def check_bool(value, *, name: str) -> bool:
    """Return ``value`` as a bool after checking it is ``True`` or ``False`` (numpy's too)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def check_real(value, *, name: str) -> float:
    """Return ``value`` as a float after checking it is a finite real number (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise TypeError(f"{name} must be a finite number; got {value!r}")
    return float(value)


def read_only(a) -> np.ndarray:
    """A read-only copy of ``a`` (what a frozen result holds: nobody can change it in place)."""
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


def check_size(n: int, d: int, *, what: str = "the data") -> None:
    """Refuse ``n x d`` numbers above :data:`MAX_DATA_NUMBERS` before allocating them."""
    if n * d > MAX_DATA_NUMBERS:
        raise ValueError(f"{what} may hold at most {MAX_DATA_NUMBERS:,} numbers (points x "
                         f"features, {MAX_DATA_NUMBERS * 8 // 10**6} MB); got {n:,} x {d:,}")


def _describe_values(values) -> str:
    vals = sorted(values.tolist(), key=lambda v: (str(type(v)), v))
    shown = ", ".join(_label_value(v) for v in vals[:6])
    if len(vals) > 6:
        shown += f", ... ({len(vals)} distinct values)"
    return "{" + shown + "}"


def _label_value(v) -> str:
    """A label value echoed exactly in a message (not a number for reading: see number_format.py)."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, str) else str(v)


def as_features(X, *, name: str = "X") -> np.ndarray:
    """Return ``X`` as a C-contiguous float64 array of shape ``(n, d)`` after checking it.

    Rejects non-numeric entries, NaN/inf, numbers larger than :data:`MAX_ABS` in size (their
    squares would overflow), wrong dimensionality and empty data.
    A 1-D input is read as ``n`` points in one dimension.
    """
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a numeric array of shape (n, d); got a string")
    if X is None:
        raise TypeError(f"{name} must be a numeric array of shape (n, d); got None")
    arr = np.asarray(X)
    if arr.dtype == object or arr.dtype.kind in "USV":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{name} must contain only numbers; got non-numeric values of dtype {arr.dtype}"
            ) from None
    if arr.dtype.kind == "b":
        arr = arr.astype(np.float64)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must contain only real numbers; got dtype {arr.dtype}")
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D with shape (n, d); got {arr.ndim}-D shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: expected at least one point; got shape {arr.shape}")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has no features: expected d >= 1; got shape {arr.shape}")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    bad = ~np.isfinite(arr)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        kind = "NaN" if np.isnan(arr[i, j]) else "infinite"
        raise ValueError(
            f"{name} must contain only finite numbers; got {int(bad.sum())} NaN or infinite "
            f"value(s), the first ({kind}) at row {i}, column {j}"
        )
    big = np.abs(arr) > MAX_ABS
    if big.any():
        i, j = np.argwhere(big)[0]
        raise ValueError(
            f"{name} must hold numbers of size at most {MAX_ABS:g} (their squares must not "
            f"overflow); got {arr[i, j]:g} at row {i}, column {j}"
        )
    return arr


def as_labels(y, *, labels: str = "pm1", name: str = "y", require_both: bool = True) -> np.ndarray:
    """Return labels as a float64 array with values in {-1, +1}.

    Parameters
    ----------
    y : array-like of shape (n,)
    labels : {"pm1", "01"}, default "pm1"
        ``"pm1"`` accepts only -1 and +1. ``"01"`` accepts only 0 and 1 and converts
        0 to -1 (the explicit conversion of ``docs/mathematics.md#conventions``).
    require_both : bool, default True
        Reject two or more labels that are all of one class. A single point is valid data.
    """
    if labels not in ("pm1", "01"):
        raise ValueError(f"labels must be 'pm1' or '01'; got {labels!r}")
    arr = np.asarray(y)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D with shape (n,); got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: expected at least one label")
    if arr.dtype == object or arr.dtype.kind in "USV":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{name} must contain numeric labels; got non-numeric values "
                f"{_describe_values(np.unique(arr.astype(str)))}"
            ) from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must contain numeric labels; got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite labels; got NaN or infinite values")
    found = np.unique(arr)
    allowed = {-1.0, 1.0} if labels == "pm1" else {0.0, 1.0}
    if not set(found.tolist()) <= allowed:
        want = "-1 and +1" if labels == "pm1" else "0 and 1"
        hint = ""
        if labels == "pm1" and set(found.tolist()) <= {0.0, 1.0}:
            hint = " (to convert 0/1 labels pass labels='01')"
        raise ValueError(f"{name} must contain only {want}; got {_describe_values(found)}{hint}")
    if labels == "01":
        arr = np.where(arr == 0.0, -1.0, 1.0)
        found = np.unique(arr)
    if require_both and found.size < 2 and arr.size >= 2:
        only = "+1" if found[0] > 0 else "-1"
        raise ValueError(
            f"{name} must contain both classes -1 and +1; got only {only} ({arr.size} point(s))"
        )
    return np.ascontiguousarray(arr)


def check_X_y(X, y, *, labels: str = "pm1", require_both: bool = True):
    """Validate a dataset; return ``(X, y)`` as float arrays of shapes (n, d) and (n,)."""
    Xa = as_features(X)
    ya = as_labels(y, labels=labels, require_both=require_both)
    if Xa.shape[0] != ya.shape[0]:
        raise ValueError(
            f"X and y must have the same number of points; got X with {Xa.shape[0]} rows "
            f"and y with {ya.shape[0]} labels"
        )
    return Xa, ya


def check_positive(value, *, name: str, allow_zero: bool = False) -> float:
    """Return ``value`` as a float after checking it is a finite number > 0 (or >= 0)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {type(value).__name__} {value!r}")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name} must be finite; got {value!r}")
    if allow_zero and v < 0:
        raise ValueError(f"{name} must be >= 0; got {value!r}")
    if not allow_zero and v <= 0:
        raise ValueError(f"{name} must be > 0; got {value!r}")
    return v


def check_int(value, *, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as an int after checking type and range (a bool is not an int here;
    a float with an integral value, such as ``1e7``, is)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if (not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Real)
                and np.isfinite(value) and float(value).is_integer()):
            value = int(value)
        else:
            raise TypeError(f"{name} must be an integer; got {type(value).__name__} {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum}; got {v}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be <= {maximum}; got {v}")
    return v


def check_vector(v, *, name: str, length: int) -> np.ndarray:
    """Return a finite float vector of the given length."""
    arr = np.asarray(v)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a numeric vector; got dtype {arr.dtype}")
    arr = arr.astype(np.float64).reshape(-1) if arr.ndim <= 1 else arr
    if arr.ndim != 1 or arr.shape[0] != length:
        raise ValueError(f"{name} must have length {length} (one per feature); got shape {np.shape(v)}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite numbers; got {arr.tolist()}")
    return arr.copy()


def make_rng(seed) -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from ``None``, an int or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or (isinstance(seed, numbers.Integral) and not isinstance(seed, bool)):
        if seed is not None and seed < 0:
            raise ValueError(f"seed must be a non-negative integer; got {seed}")
        return np.random.default_rng(seed)
    raise TypeError(f"seed must be None, an int or a numpy Generator; got {type(seed).__name__}")
