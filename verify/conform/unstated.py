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
deviation. Where the scenario's loaded state was reached by steps (its
history), the variant replays them too: a parameter whose effect is carried in
the state (the bidding order of an auction opened before the scenario
starts) is judged from where it took effect.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..config import EngineConfig
from ..errors import GameError, VerifyError
from ..spec.open_values import playable, supply
from . import chain
from ..engine.actions import ACTIONS
from .oracle import ACCEPT, Oracle, diff_lines, expect
from .protocol import compared_keys, project
from .scenarios import Scenario


@lru_cache(maxsize=8)
def _variants(ruleset: str, settings: tuple) -> tuple:
    """``(param, value, kind, reason, config)`` for each one-parameter variant of the ruleset's silent and
    assumed finite-domain entries (constraints respected; the ruleset's own value left out)."""
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


def _variant_expect(config, state: dict, action: dict, game=None) -> tuple:
    """The reference outcome under a variant, played by the readable engine: a variant is judged on a few
    steps, where the compiled build's speed buys nothing."""
    return expect(config, state, action, game, path="readable")


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
    compare = session.hello.compare
    # only parameters the steps so far read (the action registry's ``reads``) can explain the step
    played = list((sc.history or {}).get("actions", [])) + list(sc.actions[:v.step])
    read = {p for a in played if a.get("type") in ACTIONS for p in ACTIONS[a["type"]].reads}
    for pid, alt, kind, reason, cfg in variants:
        if pid not in read:
            continue
        try:
            start = _replayed(session, cfg, sc, v.step) or ref
            expected = chain.play(session.ctx.automatic, _variant_expect, cfg, start, action)
            if expected[0] != got[0] or (got[0] == ACCEPT and not _same(expected[1], got[1], compare)):
                continue                  # the variant disagrees with the engine as well (no monitor needed)
            oracle = Oracle(cfg, session.promised, session.hello)
            monitor = oracle.monitor()
            monitor(None, before, None)
            if oracle.judge(v.step, before, action, expected, got, monitor) is not None:
                continue
            if got[0] != ACCEPT and not _agrees_nearby(session, sc, v.step, cfg, start):
                continue
            current = _resolved(session.ruleset, _key(session.settings)).value(pid)
            return {"param": pid, "value": alt, "ruleset_value": current, "kind": kind, "reason": reason}
        except (GameError, VerifyError, KeyError, IndexError, TypeError, ValueError):
            continue
    if got[0] == ACCEPT:
        return _refusal_unstated(session, ref, action)
    return None


def _refusal_unstated(session, ref: dict, action: dict) -> dict | None:
    """The engine accepted what the ruleset refuses, and the refusal rests only on silent or assumed values:
    the parameters the registry's ``Reason`` names (a structural refusal, or one resting on a cited
    value, stays a deviation)."""
    try:
        out = expect(session.config, ref, action)
    except GameError:
        return None
    why = out[3] if out[0] != ACCEPT else None
    params = getattr(why, "params", ())
    if not params or getattr(why, "basis", "") != "rule":
        return None
    r = _resolved(session.ruleset, _key(session.settings))
    entries = [r.entries.get(p) for p in params]
    if any(p in session.settings or e is None or e.kind not in ("silent", "assumed") for p, e in zip(params, entries)):
        return None
    return {"param": ", ".join(params), "value": None, "ruleset_value": [r.value(p) for p in params],
            "kind": "/".join(e.kind for e in entries),
            "reason": "; ".join(" ".join((e.reason or "").split()) for e in entries)}


def _same(a: dict, b: dict, keys) -> bool:
    """``a`` and ``b`` agree on the declared ``keys`` (nested ones too; plain equality first: the diff is for the
    rare near miss)."""
    tops, fields = compared_keys(keys)
    a, b = project(a, fields), project(b, fields)
    return all(a.get(k) == b.get(k) for k in tops) or not diff_lines(a, b, tops)


def _replayed(session, cfg, sc: Scenario, step: int) -> dict | None:
    """The state before action ``step`` had the variant ``cfg`` been the ruleset from where the loaded state
    came from (its history: the steps that led to it, such as the decline that opened an auction whose
    bidding order the variant sets); None without a history or when the variant refuses one of them."""
    if not sc.history:
        return None
    state = sc.history["state"]
    for a in list(sc.history["actions"]) + list(sc.actions[:step - 1]):
        out = chain.play(session.ctx.automatic, _variant_expect, cfg, state, a)
        if out[0] != ACCEPT:
            return None
        state = out[1]
    return state


def _agrees_nearby(session, sc: Scenario, step: int, cfg, ref: dict) -> bool:
    """A refusal is weak evidence: both may refuse for different reasons (a bid out of the engine's turn
    order, and a bid off the variant's fixed step; a trade after the roll, and a trade of a mortgaged
    deed). The variant explains the engine's refusal only if the engine accepts and refuses as the variant
    does the same decision by the other seats (for a bid, at other amounts; for a first step, also by the
    acting seat at the start of its own turn), and the variant accepts at least one of them: where the
    variant refuses them all, agreeing says nothing about why."""
    discriminating = False
    for state, actions in _probes(sc, step, ref):
        seen = _engine_step(session, Scenario(state, actions, sc.origin, setup=sc.setup), step)
        if seen is None:
            return False
        try:
            theirs = chain.play(session.ctx.automatic, _variant_expect, cfg,
                                       ref if state is sc.state else state, actions[-1])[0]
        except GameError:
            return False
        if theirs != seen[2][0]:
            return False
        discriminating = discriminating or theirs == ACCEPT
    return discriminating


def _probes(sc: Scenario, step: int, ref: dict) -> list[tuple[dict, list]]:
    """The states and actions a refusal is checked on (see ``_agrees_nearby``)."""
    action = sc.actions[step - 1]
    before = sc.actions[:step - 1]
    same = [dict(action, seat=q) for q in range(len(ref.get("players", []))) if q != action.get("seat")]
    if action.get("type") == "bid" and isinstance(action.get("amount"), int):
        same += [dict(action, amount=action["amount"] + 1), dict(action, amount=max(1, action["amount"] - 1))]
    out = [(sc.state, before + [a]) for a in same[:PROBES]]
    if step == 1 and isinstance(action.get("seat"), int) and sc.state.get("phase") != "pre_roll":
        out.append((dict(sc.state, phase="pre_roll", current=action["seat"]), [action]))
    return out


#: Neighbouring decisions a refusal's explanation is checked on.
PROBES = 4


def _key(settings: dict) -> tuple:
    return tuple(sorted(settings.items()))


@lru_cache(maxsize=8)
def _resolved(ruleset: str, settings: tuple):
    return playable(ruleset, dict(settings))


__all__ = ["explain"]
