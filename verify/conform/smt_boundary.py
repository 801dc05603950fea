"""Boundary states found by z3 (placeholder until the SMT queries land)."""


def smt_state(draw, ctx, g):
    return None
