"""A conformance result told to people and to CI: a step list per violation, JUnit XML, an HTML page.

A violation is printed as its shrunk scenario: the loaded state in the board
lines of ``verify check``'s counterexamples (players, the deeds that are owned,
built or mortgaged, the bank), then each action in words with what the ruleset
and the engine did, the broken rule, and the state diff (ruleset vs engine).

``verify conform --html DIR`` writes ``DIR/index.html`` (the report's look,
``verify.report.conformance``), the scenario files under ``DIR/scenarios/`` and
``DIR/conform.json``: the run as a document (``run_document``, schema
``verify.conform-run/1``) holding each violation's step list and scenario, so
``verify report --conform DIR`` shows the run on the main report's
``conformance.html`` page (linked from its navigation and index) without running
or resolving anything again. Both pages are the one template ``conform.html``
(``view``).
"""

from __future__ import annotations

import datetime as _dt
import json
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..jsondoc import read_doc
from ..smt.model import Model
from . import ConformInputError

RULE_TEXT = {"legality": "the engine must accept exactly the actions the ruleset allows",
             "successor": "an accepted action must give the ruleset's successor state",
             "protocol": "the engine must answer every request in protocol 1"}


def _model(doc: dict):
    """The board model of a scenario's ruleset, with the values it was run with (``--set``)."""
    return _model_of(doc["ruleset"], json.dumps(doc.get("set") or {}, sort_keys=True))


@lru_cache(maxsize=8)
def _model_of(ruleset: str, settings: str):
    from .harness import load_target
    return Model.from_config(load_target(ruleset, json.loads(settings))[0])


def _deed_name(m, square: Any) -> str:
    for d in m.deeds:
        if d.square == square:
            return f"{d.name} (square {square})"
    return f"square {square}"


def describe(m, a: dict) -> str:
    """An action in words: ``player 1 builds a house on Baltic Avenue (square 3)``."""
    who = f"player {a.get('seat', '?')}"
    t = a.get("type")
    sq = lambda: _deed_name(m, a.get("square"))  # noqa: E731
    if t == "roll":
        return f"{who} rolls {' and '.join(str(d) for d in a.get('dice', []))}"
    if t == "trade":
        def side(s: dict) -> str:
            bits = [_deed_name(m, x) for x in s.get("squares", [])]
            if s.get("cash"):
                bits.append(f"{s['cash']} cash")
            bits += [f"the {c} jail card" for c in s.get("cards", [])]
            return ", ".join(bits) or "nothing"
        return (f"{who} trades with player {a.get('with')}: gives {side(a.get('give', {}))}; "
                f"takes {side(a.get('take', {}))}")
    verbs = {"build_house": "builds a house on", "build_hotel": "builds a hotel on", "sell_house": "sells a house on",
             "sell_hotel": "sells the hotel on", "mortgage": "mortgages", "unmortgage": "lifts the mortgage on",
             "lift_mortgage": "pays off another's mortgage on", "auction_mortgaged": "auctions the mortgaged"}
    if t in verbs:
        return f"{who} {verbs[t]} {sq()}"
    if t == "bid":
        return f"{who} bids {a.get('amount')}"
    if t == "sell_group":
        return f"{who} sells every building of group {a.get('group')}"
    extra = {k: v for k, v in a.items() if k not in ("type", "seat")}
    return f"{who}: {t}" + (f" {json.dumps(extra)}" if extra else "")


def state_lines(m, s: dict) -> list[str]:
    """The board lines of a state: the players, every deed not plainly the bank's, the bank, the phase."""
    from ..smt.scenario import _bank_line, _deed_line, _player_line
    lines = [_player_line(p) for p in s.get("players", [])]
    for i, p in enumerate(s.get("properties", [])):
        if p.get("owner") is not None or p.get("mortgaged") or p.get("houses") or p.get("hotel"):
            line = _deed_line(m, i, p)
            if p.get("mortgage_rounds"):
                line += f" (mortgaged {p['mortgage_rounds']} round(s) ago)"
            lines.append(line)
    if "bank" in s:
        lines.append(_bank_line(s))
    phase = s.get("phase")
    pend = s.get("pending")
    text = f"phase {phase}, player {s.get('current')}'s turn"
    if pend:
        text += " — waiting for " + ", ".join(f"{k} {json.dumps(v)}" for k, v in pend.items())
    lines.append(text)
    return lines


def scenario_text(doc: dict, engine: str = "", replay: str | None = None, engine_arg: str = "") -> str:
    """The violation of a scenario document as a step list (``replay``: the scenario file's path)."""
    v = doc["violation"]
    m = _model(doc)
    acts = doc.get("actions", [])
    head = (f"{v['rule']} broken at step {v['step']} of {len(acts)} after the loaded state "
            f"({doc['ruleset']}{', engine ' + engine if engine else ''})")
    out = [head, f"Loaded state ({doc.get('origin', '?')}):"]
    if doc.get("state"):
        out += ["  " + line for line in state_lines(m, doc["state"])]
    for i, a in enumerate(acts, 1):
        mark = "  <-- " + v["rule"] if i == v["step"] else ""
        out.append(f"Step {i}: {describe(m, a)}{mark}")
    if v["rule"] in RULE_TEXT:
        out.append(f"Broken: {v['rule']} — {RULE_TEXT[v['rule']]}")
        if v["rule"] != "successor":        # a successor's difference is the diff below
            out.append(f"  expected: {_one_line(v['expected'])}")
            out.append(f"  actual:   {_one_line(v['actual'])}")
    else:                                   # a promised invariant
        out.append(f"Broken: {v.get('message') or v['rule']}")
    if v.get("diff"):
        out.append("State diff:")
        out += ["  " + d for d in v["diff"]]
    if v.get("log"):
        out.append("Engine log (tail):")
        out += ["  " + line for line in v["log"].strip().splitlines()[-8:]]
    if replay:
        out.append(f"Replay: verify conform --replay {replay} {engine_arg}".rstrip())
    return "\n".join(out)


def _one_line(v: Any) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 300 else text[:300] + "…"


def junit(result, files: list[str | None], engine_arg: str = "") -> str:
    """JUnit XML: one test case per violation (failed), or one passing case for a clean run."""
    cases = []
    for doc, path in zip(result.violations, files):
        v = doc["violation"]
        name = f"{v['rule']} at step {v['step']}"
        body = scenario_text(doc, result.engine, path, engine_arg)
        cases.append(f'  <testcase classname={quoteattr("conform." + result.ruleset)} name={quoteattr(name)}>\n'
                     f'    <failure message={quoteattr(v.get("message") or v["rule"])} type={quoteattr(v["rule"])}>'
                     f"{escape(body)}</failure>\n  </testcase>")
    if not cases:
        cases.append(f'  <testcase classname={quoteattr("conform." + result.ruleset)} '
                     f'name={quoteattr(f"{result.scenarios} scenarios, {result.steps} steps")}/>')
    failures = len(result.violations)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuite name={quoteattr("verify conform " + result.engine)} tests="{len(cases)}" '
            f'failures="{failures}" errors="0">\n' + "\n".join(cases) + "\n</testsuite>\n")


RUN_SCHEMA = "verify.conform-run/1"
RUN_DOC = "conform.json"


def run_document(result, files: list[str | None], engine_arg: str = "") -> dict:
    """A run as ``conform.json``: what the pages show, each violation with its step list and scenario."""
    items = []
    for doc, path in zip(result.violations, files):
        v = doc["violation"]
        items.append({"rule": v["rule"], "step": v["step"], "message": v.get("message", ""),
                      "text": scenario_text(doc, result.engine), "scenario": doc,
                      "file": f"scenarios/{Path(path).name}" if path else None})
    return {"schema": RUN_SCHEMA, "engine": result.engine, "engine_arg": engine_arg, "ruleset": result.ruleset,
            "set": dict(result.settings), "scenarios": result.scenarios, "steps": result.steps,
            "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "violations": items}


def view(runs: list[dict], standalone: bool) -> dict:
    """The template context of ``conform.html`` for these run documents (a stand-alone page shows one
    run and links its scenario files; the report's page shows every run, each scenario inline)."""
    return {"runs": [dict(d, scenario_json=[json.dumps(it["scenario"], indent=1, ensure_ascii=False)
                                            for it in d["violations"]]) for d in runs],
            "standalone": standalone}


def load_run(path: Path) -> dict:
    """A saved run (``conform.json``, or the ``--html`` folder holding one); E026 when it is not one."""
    doc, where = read_doc(path, "conformance run", RUN_SCHEMA, ConformInputError, in_folder=RUN_DOC,
                          written_by="`verify conform --html DIR`")
    for key, typ in (("engine", str), ("ruleset", str), ("scenarios", int), ("steps", int), ("violations", list),
                     ("set", dict), ("generated", str)):
        if not isinstance(doc.get(key), typ):
            raise ConformInputError(f"the conformance run needs {key!r} ({typ.__name__})", where)
    for i, it in enumerate(doc["violations"], 1):
        if not (isinstance(it, dict) and isinstance(it.get("rule"), str) and isinstance(it.get("text"), str)
                and isinstance(it.get("step"), int) and isinstance(it.get("scenario"), dict)):
            raise ConformInputError(f"violation {i} needs \"rule\", \"step\", \"text\" and \"scenario\"", where)
    return doc


__all__ = ["scenario_text", "describe", "state_lines", "junit", "run_document", "view", "load_run",
           "RUN_SCHEMA", "RUN_DOC"]
