"""Cover's counting theorem: how many labellings of N points a hyperplane can separate.

The names of :mod:`~explorer.cover.theorem` (what the Cover tab computes: the curves
``P(M, N)``, the recursion table, the Monte Carlo check, separators of chosen dichotomies, the
Boolean table) are imported here. :mod:`~explorer.cover.counting` holds the counts themselves
(``cover_count``, exact enumeration of dichotomies, threshold functions) and is imported on its
own: ``from explorer.cover import counting``.
"""

from .theorem import (
    BOOLEAN_NAMES_2,
    MAX_CURVES,
    MAX_M,
    MC_MAX_CHECKS,
    MC_MAX_M,
    MC_MAX_TRIALS,
    MC_RATIOS,
    PAST_RATIO,
    REC_MAX_M,
    REC_MAX_N,
    X_MAX,
    BooleanRow,
    CoverCurve,
    MCPoint,
    MCRun,
    RecursionTable,
    boolean_functions_2,
    boolean_table,
    check_m_values,
    cover_curves,
    describe_boolean_table,
    describe_curves,
    describe_monte_carlo,
    mc_rng,
    monte_carlo_plan,
    monte_carlo_point,
    monte_carlo_points,
    past_capacity,
    random_points,
    recursion_matches_formula,
    recursion_table,
    separators,
)

__all__ = [
    "BOOLEAN_NAMES_2", "MAX_CURVES", "MAX_M", "MC_MAX_CHECKS", "MC_MAX_M", "MC_MAX_TRIALS",
    "MC_RATIOS", "PAST_RATIO", "REC_MAX_M", "REC_MAX_N", "X_MAX", "BooleanRow", "CoverCurve",
    "MCPoint", "MCRun", "RecursionTable", "boolean_functions_2", "boolean_table", "check_m_values",
    "cover_curves", "describe_boolean_table", "describe_curves", "describe_monte_carlo", "mc_rng",
    "monte_carlo_plan", "monte_carlo_point", "monte_carlo_points", "past_capacity",
    "random_points", "recursion_matches_formula", "recursion_table", "separators",
    "theorem", "counting",
]
