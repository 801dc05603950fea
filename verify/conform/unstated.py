"""Deviations the rulebook does not decide: resting only on a value it leaves silent or that was assumed.

The oracle plays the resolved ruleset, and a ruleset decides every parameter:
cited from the rulebook, or ``assumed`` (with why) or ``silent`` (the
fallback). An engine that differs only where the rulebook says nothing (a
fixed bidding order where the rules do not say who bids when) does not break
the rulebook. For each deviation the step is judged again under each
variant of the ruleset that changes one silent or assumed parameter of a
finite domain (a yes/no or a choice) to another of its values; when one
variant explains the engine's answer, the deviation is **unstated by the
rulebook**: reported apart with that parameter, its value in the engine,
and the ruleset's own entry, and it does not fail a run unless ``--strict``.
A deviation that needs two such values at once, or a number, stays a
deviation.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import GameError, VerifyError
from .oracle import ACCEPT, Oracle, diff_lines
from .scenarios import Scenario


@lru_cache(maxsize=8)
def _variants(ruleset: str, settings: tuple) -> tuple:
    """``(param, value, kind, reason, config)`` for each one-parameter variant of the ruleset's silent and
    assumed finite-domain entries (constraints respected; the ruleset's own value left out)."""
    from ..config import EngineConfig
    from ..spec.open_values import supply
    r = _resolved(ruleset, settings)
    supplied = dict(settings)
    out = []
    for pid, e in sorted(r.entries.items()):
        if e.kind not in ("silent", "assumed") or pid in supplied:
            continue
        p = r.catalogue[pid]
        current = r.value(pid)
        if p.type == "bool":
            alts: list[Any] = [not current]
        elif p.type == "enum":
            alts = [v for v in p.values if v != current]
        else:
            continue
        for alt in alts:
            try:
                cfg = EngineConfig.from_ruleset(supply(r, {pid: alt}))
            except VerifyError:         # the variant breaks a constraint of the catalogue: not a reading
                continue
            out.append((pid, alt, e.kind, " ".join((e.reason or "").split()), cfg))
    return tuple(out)


def _engine_step(session, sc: Scenario, step: int) -> tuple[dict, dict, tuple] | None:
    """The engine's state before action ``step`` of ``sc``, the reference's, and the engine's answer to it."""
    if session.start() is not None:
        return None
    held = session._open(sc)
    if not isinstance(held, dict):
        return None
    before, ref = held, sc.state
    try:
        for i, action in enumerate(sc.actions[:step], 1):
            got = session.engine.apply(action)
            if i == step:
                return before, ref, got
            if got[0] == ACCEPT:
                out = session.ctx.expect(ref, action)
                if out[0] != ACCEPT:
                    return None
                before, ref = got[1], out[1]
    except Exception:  # noqa: BLE001 - a fault or a state the rules cannot follow: no verdict on it
        session.close()
        return None
    return None


def explain(session, sc: Scenario, v) -> dict | None:
    """How the deviation ``v`` shown by ``sc`` rests only on a silent or assumed value (None when it does
    not): ``{"param", "value" (the engine's reading), "ruleset_value", "kind", "reason"}``."""
    if v.rule in ("protocol", "setup") or v.step < 1:
        return None
    variants = _variants(session.ruleset, _key(session.settings))
    if not variants:
        return None
    seen = _engine_step(session, sc, v.step)
    if seen is None:
        return None
    before, ref, got = seen
    action = sc.actions[v.step - 1]
    from . import automatic
    from .oracle import expect
    compare = session.hello.compare
    for pid, alt, kind, reason, cfg in variants:
        try:
            expected = automatic.compose(session.ctx.automatic, expect, cfg, ref, action)
            if expected[0] != got[0] or (got[0] == ACCEPT and diff_lines(expected[1], got[1], compare)):
                continue                  # the variant disagrees with the engine as well (no monitor needed)
            oracle = Oracle(cfg, session.promised, session.hello)
            monitor = oracle.monitor()
            monitor(None, before, None)
            if oracle.judge(v.step, before, action, expected, got, monitor) is None:
                current = _resolved(session.ruleset, _key(session.settings)).value(pid)
                return {"param": pid, "value": alt, "ruleset_value": current, "kind": kind, "reason": reason}
        except (GameError, VerifyError, KeyError, IndexError, TypeError, ValueError):
            continue
    return None


def _key(settings: dict) -> tuple:
    return tuple(sorted(settings.items()))


@lru_cache(maxsize=8)
def _resolved(ruleset: str, settings: tuple):
    from ..spec.open_values import playable
    return playable(ruleset, dict(settings))


__all__ = ["explain"]
