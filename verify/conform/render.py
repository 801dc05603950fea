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
import shlex
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..engine.actions import ACTIONS
from ..jsondoc import read_doc
from ..smt.model import Model
from ..smt.scenario import _bank_line, _deed_line
from . import ConformInputError
from .session import load_target

RULE_TEXT = {"legality": "the engine must accept exactly the actions the ruleset allows",
             "successor": "an accepted action must give the ruleset's successor state",
             "setup": "a new game must be set up as the ruleset says",
             "protocol": "the engine must answer every request in protocol 1"}


def _model(doc: dict):
    """The board model of a scenario's ruleset, with the values it was run with (``--set``)."""
    return _model_of(doc["ruleset"], json.dumps(doc.get("set") or {}, sort_keys=True))


@lru_cache(maxsize=8)
def _model_of(ruleset: str, settings: str):
    return Model.from_config(load_target(ruleset, json.loads(settings))[0])


def _deed_name(m, square: Any) -> str:
    for d in m.deeds:
        if d.square == square:
            return f"{d.name} (square {square})"
    return f"square {square}"


def _side(m, s: Any) -> str:
    if not isinstance(s, dict):
        return json.dumps(s)
    bits = [_deed_name(m, x) for x in s.get("squares", [])]
    if s.get("cash"):
        bits.append(f"{s['cash']} cash")
    bits += [f"the {c} jail card" for c in s.get("cards", [])]
    return ", ".join(bits) or "nothing"


def _field(m, name: str, value: Any) -> str:
    """One field of an action in words (fields are shared by actions: a square, dice, a trade's sides)."""
    if name == "square":
        return _deed_name(m, value)
    if name in ("dice", "card_dice") and isinstance(value, list):
        label = "the card's throw" if name == "card_dice" else "dice"
        return f"{label} {' and '.join(str(d) for d in value)}"
    if name == "with":
        return f"with player {value}"
    if name in ("give", "take"):
        return f"{name}s {_side(m, value)}"
    return f"{name.replace('_', ' ')} {_words(value)}"


def _words(value: Any) -> str:
    """A field's value as text, not JSON: a list as its items, a mapping (a reshuffled deck) item by item."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe(m, a: dict) -> str:
    """An action in words, field by field as the action registry declares them:
    ``player 1: build house, Baltic Avenue (square 3)``."""
    t = str(a.get("type"))
    act = ACTIONS.get(t)
    names = [f.name for f in act.all_fields] if act is not None else []
    names += sorted(k for k in a if k not in names and k not in ("type", "seat"))
    parts = [_field(m, n, a[n]) for n in names if n in a]
    return f"player {a.get('seat', '?')}: {t.replace('_', ' ')}" + (", " + ", ".join(parts) if parts else "")


def _square_name(m, square: Any, kinds: tuple = ()) -> str:
    for d in m.deeds:
        if d.square == square:
            return d.name
    if isinstance(square, int) and 0 <= square < len(kinds):
        return kinds[square].replace("_", " ")
    return str(square)


def _player(m, p: dict, tries: int, kinds: tuple = ()) -> str:
    """A player's line: cash, where it stands, jail (with its tries), doubles, cards held."""
    bits = [f"cash {p.get('cash')}"]
    if p.get("bankrupt"):
        bits.append("bankrupt")
    else:
        pos = p.get("position")
        name = _square_name(m, pos, kinds)
        if name == "jail" and not p.get("in_jail"):
            name = "jail, just visiting"
        bits.append(f"on square {pos}" + (f" ({name})" if name != str(pos) else ""))
    if p.get("in_jail"):
        bits.append(f"in jail (tried {p.get('jail_turns', 0)} of {tries} time(s))")
    if p.get("doubles"):
        bits.append(f"{p['doubles']} double(s) this turn")
    if p.get("jail_cards"):
        bits.append("holds " + " and ".join(f"the {c} Get Out of Jail Free card" for c in p["jail_cards"]))
    return f"player {p.get('seat')}" + (f" (team {p['team']})" if p.get("team") is not None else "") + ": " \
        + ", ".join(bits)


def state_lines(m, s: dict, tries: int = 3, kinds: tuple = ()) -> list[str]:
    """The lines of a state a deviation can turn on: the players (cash, square, jail tries, doubles, cards),
    every deed not plainly the bank's, the bank, the cards on top of the decks, the turn (its dice, whose
    turn, the phase and what it waits for) and rent waiting to be claimed."""
    lines = [_player(m, p, tries, kinds) for p in s.get("players", [])]
    for i, p in enumerate(s.get("properties", [])):
        if p.get("owner") is not None or p.get("mortgaged") or p.get("houses") or p.get("hotel"):
            line = _deed_line(m, i, p)
            if p.get("mortgage_rounds"):
                line += f" (mortgaged {p['mortgage_rounds']} round(s) ago)"
            lines.append(line)
    if "bank" in s:
        lines.append(_bank_line(s))
    decks = s.get("decks") or {}
    tops = [f"{deck} {cards[0]}" for deck, cards in sorted(decks.items()) if cards]
    if tops:
        lines.append("next cards: " + ", ".join(tops))
    turn = s.get("turn") or {}
    text = f"phase {s.get('phase')}, player {s.get('current')}'s turn"
    if turn.get("dice"):
        text += f" (rolled {' and '.join(str(x) for x in turn['dice'])})"
    pend = s.get("pending")
    if pend:
        text += " — waiting for " + ", ".join(f"{k} {json.dumps(v)}" for k, v in pend.items())
    lines.append(text)
    for c in (s.get("queue") or {}).get("claims", []):
        lines.append(f"rent to claim: player {c[0]} owes player {c[1]} {c[3]} for square {c[2]}")
    return lines


def scenario_text(doc: dict, engine: str = "", replay: str | None = None, engine_arg: str = "",
                  count: int | None = None, total: int | None = None, contexts: dict | None = None) -> str:
    """The violation of a scenario document as a step list (``replay``: the scenario file's path; ``count``
    of ``total`` scenarios showed its cause, in ``contexts``: where, how often)."""
    v = doc["violation"]
    m = _model(doc)
    acts = doc.get("actions", [])
    head = (f"{v['rule']} broken at step {v['step']} of {len(acts)} after the loaded state "
            f"({doc['ruleset']}{', engine ' + engine if engine else ''})")
    out = [head]
    if v.get("signature"):
        seen = f" — seen in {count} of {total} scenario(s)" if count is not None and total else ""
        out.append(f"Deviation: {v['signature']}{seen}")
    if contexts and (len(contexts) > 1 or next(iter(contexts)) != v.get("context")):
        out.append("Met in: " + ", ".join(f"{where} ({n})" for where, n in contexts.items()))
    if " › " in v.get("chain", ""):
        out.append(f"Chain: {v['chain']} (the cause is its last link)")
    tries, kinds = _board_facts(doc)
    out.append(f"Loaded state ({doc.get('origin', '?')}{', set up by new_game' if doc.get('setup') else ''}):")
    if doc.get("state"):
        out += ["  " + line for line in state_lines(m, doc["state"], tries, kinds)]
    for i, a in enumerate(acts, 1):
        mark = "  <-- " + v["rule"] if i == v["step"] else ""
        out.append(f"Step {i}: {describe(m, a)}{mark}")
    if v["rule"] in RULE_TEXT:
        out.append(f"Broken: {v['rule']} — {RULE_TEXT[v['rule']]}")
        if v["rule"] != "successor":        # a successor's difference is the diff below
            out.append(f"  expected: {_one_line(v['expected'])}")
            out.append(f"  actual:   {_one_line(v['actual'])}")
    else:                                   # a promised invariant (its message names the clause)
        out.append(f"Broken: {v.get('message') or v['rule']}")
    if v.get("diff"):
        out.append("State diff:")
        out += ["  " + d for d in v["diff"]]
    if v.get("log"):
        out.append("Engine log (tail):")
        out += ["  " + line for line in v["log"].strip().splitlines()[-8:]]
    if replay:
        out.append(f"Replay: {replay_command(replay, engine_arg)}")
    return "\n".join(out)


def replay_command(path: str, engine_arg: str) -> str:
    """The command that re-runs a saved scenario, as it runs when copied (the path quoted for the shell)."""
    return f"verify conform --replay {shlex.quote(str(path))} {engine_arg}".rstrip()


def _board_facts(doc: dict) -> tuple[int, tuple]:
    """The jail's tries and the kinds of the 40 squares, for a scenario's ruleset."""
    return _facts_of(doc["ruleset"], json.dumps(doc.get("set") or {}, sort_keys=True))


@lru_cache(maxsize=8)
def _facts_of(ruleset: str, settings: str) -> tuple[int, tuple]:
    cfg = load_target(ruleset, json.loads(settings))[0]
    return cfg.jail.max_tries, tuple(cfg.board.squares)


STATUS_TEXT = {"new": "a deviation", "changed": "a deviation, changed from an accepted one",
               "accepted": "accepted (in the baseline)",
               "unstated": "unstated by the rulebook (does not fail the run; --strict makes it)"}


def status_line(result, dev: dict) -> str:
    """What a deviation's status means for the run, with the silent value it rests on."""
    status = result.status(dev)
    text = f"Status: {STATUS_TEXT[status]}"
    u = dev.get("unstated")
    if u and u.get("value") is not None:
        text += (f"; the engine plays {u['param']} = {json.dumps(u['value'])} where {result.ruleset} has "
                 f"{json.dumps(u['ruleset_value'])} ({u['kind']}: {u['reason']})")
    elif u:
        text += f"; the ruleset's refusal rests only on {u['param']} ({u['kind']}: {u['reason']})"
    if status == "changed":
        text += f"; the baseline accepted: {result.baseline.changed_from(dev['signature'])}"
    return text


def run_text(result, files: list[str | None], engine_arg: str = "") -> str:
    """A whole run for a terminal: each deviation's step list (failing ones first, then the most frequent),
    then what the baseline accepted and no longer saw, and the summary."""
    out = []
    order = sorted(range(len(result.deviations)),
                   key=lambda i: (result.status(result.deviations[i]) not in ("new", "changed"), i))
    for i in order:
        dev, path = result.deviations[i], files[i]
        out += [scenario_text(dev["doc"], result.engine, path, engine_arg, dev["count"], result.scenarios,
                              dev.get("contexts")), status_line(result, dev), ""]
    for why, n in result.skipped.items():
        out.append(f"Skipped {n} scenario(s) the engine cannot hold: {why}")
    out += [f"Stopped: {why}" for why in result.stopped]
    for sig in result.no_longer_seen:
        out.append(f"Accepted in the baseline, no longer seen: {sig}")
    counts: dict[str, int] = {}
    for dev in result.deviations:
        counts[result.status(dev)] = counts.get(result.status(dev), 0) + 1
    n = len(result.deviations)
    verdict = "no deviation" if not n else f"{n} cause(s)"
    if n:
        verdict += " (" + ", ".join(f"{counts[k]} {k}" for k in ("new", "changed", "unstated", "accepted")
                                    if counts.get(k)) + ")"
    out.append(f"{result.engine} on {result.ruleset}: {result.scenarios} scenario(s), {result.steps} step(s) "
               f"checked: {verdict}; {'passed' if result.ok else 'FAILED'}")
    return "\n".join(out)


def _one_line(v: Any) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 300 else text[:300] + "…"


def junit(result, files: list[str | None], engine_arg: str = "") -> str:
    """JUnit XML: one test case per deviation (failed when it fails the run, skipped when it is accepted or
    unstated by the rulebook), one passing case per accepted deviation no longer seen, or one passing case
    for a clean run."""
    cls = quoteattr("conform." + result.ruleset)
    cases = []
    for dev, path in zip(result.deviations, files):
        v = dev["doc"]["violation"]
        status = result.status(dev)
        name = quoteattr(f"{dev['signature']} ({dev['count']} scenario(s))")
        body = escape(scenario_text(dev["doc"], result.engine, path, engine_arg, dev["count"], result.scenarios,
                                    dev.get("contexts"))
                      + "\n" + status_line(result, dev))
        if status in ("new", "changed"):
            inner = (f'<failure message={quoteattr(v.get("message") or v["rule"])} type={quoteattr(v["rule"])}>'
                     f"{body}</failure>")
        else:
            inner = f"<skipped message={quoteattr(STATUS_TEXT[status])}/><system-out>{body}</system-out>"
        cases.append(f"  <testcase classname={cls} name={name}>\n    {inner}\n  </testcase>")
    for sig in result.no_longer_seen:
        cases.append(f"  <testcase classname={cls} name={quoteattr('no longer seen: ' + sig)}/>")
    if not cases:
        cases.append(f'  <testcase classname={cls} name={quoteattr(f"{result.scenarios} scenarios, {result.steps} steps")}/>')
    failures = len(result.failing)
    skipped = len(result.deviations) - failures
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuite name={quoteattr("verify conform " + result.engine)} tests="{len(cases)}" '
            f'failures="{failures}" errors="0" skipped="{skipped}">\n' + "\n".join(cases) + "\n</testsuite>\n")


RUN_SCHEMA = "verify.conform-run/1"
RUN_DOC = "conform.json"


def run_document(result, files: list[str | None], engine_arg: str = "") -> dict:
    """A run as ``conform.json``: what the pages show, each violation with its step list and scenario."""
    items = []
    for dev, path in zip(result.deviations, files):
        doc = dev["doc"]
        v = doc["violation"]
        items.append({"rule": v["rule"], "step": v["step"], "message": v.get("message", ""),
                      "signature": dev["signature"], "count": dev["count"], "status": result.status(dev),
                      "unstated": dev.get("unstated"), "status_text": status_line(result, dev),
                      "contexts": dict(dev.get("contexts") or {}),
                      "text": scenario_text(doc, result.engine, None, "", dev["count"], result.scenarios,
                                            dev.get("contexts")),
                      "scenario": doc, "file": f"scenarios/{Path(path).name}" if path else None})
    return {"schema": RUN_SCHEMA, "engine": result.engine, "engine_arg": engine_arg, "ruleset": result.ruleset,
            "set": dict(result.settings), "scenarios": result.scenarios, "steps": result.steps,
            "ok": result.ok, "failing": len(result.failing), "skipped": dict(result.skipped),
            "no_longer_seen": list(result.no_longer_seen),
            "baseline": result.baseline.path if result.baseline is not None else None,
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


__all__ = ["scenario_text", "run_text", "replay_command", "status_line", "describe", "state_lines", "junit",
           "run_document", "view", "load_run",
           "RUN_SCHEMA", "RUN_DOC"]
