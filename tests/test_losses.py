import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.generalization import losses


def test_values_at_reference_points():
    z = np.array([-2.0, 0.0, 0.5, 1.0, 3.0])
    np.testing.assert_array_equal(losses.zero_one(z), [1, 1, 0, 0, 0])
    np.testing.assert_array_equal(losses.perceptron(z), [2, 0, 0, 0, 0])
    np.testing.assert_array_equal(losses.hinge(z), [3, 1, 0.5, 0, 0])
    np.testing.assert_allclose(losses.squared(z), [4.5, 0.5, 0.125, 0, 2])
    np.testing.assert_allclose(losses.logistic(z), np.log1p(np.exp(-z)))


@given(st.floats(-1e3, 1e3))
def test_surrogates_dominate_zero_one_where_the_sources_say(z):
    # hinge and the base-2 logistic are upper bounds of the zero-one loss
    assert losses.hinge(z) >= losses.zero_one(z)
    assert losses.logistic(z) / np.log(2) >= losses.zero_one(z) - 1e-12
    assert np.isfinite(losses.logistic(z))


def test_rejects_nan():
    with pytest.raises(ValueError, match="finite"):
        losses.hinge([np.nan])
