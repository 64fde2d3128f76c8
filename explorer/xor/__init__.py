"""XOR and the other Boolean functions of two inputs, and three ways around non-separability.

The names of :mod:`~explorer.xor.boolean` (the 16 functions, the lift ``x1 x2``, the two-layer
network, the scene of the XOR tab) are imported here. The kernel perceptron that separates XOR
with a polynomial kernel is :mod:`~explorer.xor.kernel_perceptron`, imported on its own.
"""

from .boolean import (
    CODINGS,
    FUNCTIONS,
    HIDDEN_PAIRS,
    VIEWS,
    XNOR,
    XOR,
    BoolFunction,
    Scene,
    TwoLayer,
    boolean_points,
    build_scene,
    convergence_table,
    function,
    lift,
    pocket_errors_over_orders,
    separable_functions,
    two_layer,
    unit_output,
)

__all__ = ["CODINGS", "FUNCTIONS", "HIDDEN_PAIRS", "VIEWS", "XNOR", "XOR", "BoolFunction", "Scene",
           "TwoLayer", "boolean_points", "build_scene", "convergence_table", "function", "lift",
           "pocket_errors_over_orders", "separable_functions", "two_layer", "unit_output",
           "boolean", "kernel_perceptron"]
