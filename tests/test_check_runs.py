"""`verify check` judged on real games: a VIOLATED comes with a run from a game's start that `verify replay`
accepts; a counterexample to induction is never a VIOLATED; roots apart from their consequences; dead rules.

The runs of the broken tables of ``tests/fixtures/negative`` are replayed in ``tests/test_smt_check.py`` (which
checks them once); here, the counting of roots and consequences, (slow: several rules, every action) the
designer's variants of ``tests/fixtures/tables``, and what a run may plan and how the engine plays it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.report.matrix import build_matrix

FIXTURES = Path(__file__).parent / "fixtures"
TABLES = FIXTURES / "tables"

def _check(args: list[str]) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["check", "--json", "--jobs", "1", *args])
    assert res.exit_code in (0, 1), res.output
    return res.exit_code, json.loads(res.output)


def _replay(path: Path, *extra: str) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["replay", "--json", *extra, str(path)])
    return res.exit_code, json.loads(res.output.strip().splitlines()[-1])


def test_consequences_and_unreached_rules_are_not_counted_as_failures():
    """The counts and the exit status follow the roots: a consequence is listed with its root, not counted;
    a consequence whose root is missing from the results is counted (nothing hides a break)."""
    def row(inv, action, verdict="VIOLATED", cause=None, promised=True):
        cex = {"scenario": [], "run": {"kind": "consequence" if cause else "root"}}
        if cause:
            cex["cause"] = {"invariant": cause, "action": "build_house"}
        return {"ruleset": "t", "invariant": inv, "action": action, "promised": promised, "verdict": verdict,
                "counterexample": cex if verdict == "VIOLATED" else None, "reason": None}
    root = row("buildings-need-unmortgaged-group", "build_house")
    after = row("buildings-need-full-group", "mortgage_expired", cause="buildings-need-unmortgaged-group")
    unreached = row("(enabled)", "sell_group", verdict="UNKNOWN", promised=False)
    m = build_matrix([root, after, unreached, row("even-build", "buy", verdict="PROVED")])
    assert m.promised_failures() == [root]
    assert m.consequences() == [after]
    assert m.unreached_rules() == {"t": [unreached]}
    assert m.totals()["consequence"] == {"VIOLATED": 1}
    alone = build_matrix([after])
    assert alone.promised_failures() == [after] and alone.consequences() == []


def test_the_terminal_counts_the_roots_and_names_the_consequences(capsys):
    from verify.report.terminal import print_check
    cex = {"scenario": ["Run: 1 moves"], "run": {"kind": "root"}}
    rows = [{"ruleset": "t", "invariant": "buildings-need-unmortgaged-group", "action": "build_house",
             "promised": True, "verdict": "VIOLATED", "counterexample": cex, "reason": None},
            {"ruleset": "t", "invariant": "buildings-need-full-group", "action": "mortgage_expired",
             "promised": True, "verdict": "VIOLATED", "reason": None,
             "counterexample": dict(cex, cause={"invariant": "buildings-need-unmortgaged-group",
                                               "action": "build_house"})}]
    print_check(rows, 1.0)
    out = " ".join(capsys.readouterr().out.split())      # the lines as words (the terminal wraps them)
    assert "buildings-need-full-group VIOLATED by mortgage_expired (a consequence)" in out
    assert "1 VIOLATED as consequence(s) of those" in out and "1 promised check(s) not proved" in out


# ------------------------------------------------------------------------------------------- slow: designers
@pytest.mark.slow
def test_two_changed_rules_break_one_promise_and_the_rest_are_consequences_or_proved(tmp_path):
    """Mortgages that expire and do not stop building, with the official promises: the raw inductive check
    refutes nine promised steps; judged on real games, one is a root (building beside a mortgaged street),
    one a consequence of it (the street expires and leaves its group), and the others start only from
    states no game reaches (a mortgaged street carrying a hotel): proved with lemmas, never VIOLATED."""
    from verify.smt.run import check as raw_check
    table = tmp_path / "both.yaml"
    text = (TABLES / "expiring-mortgages-build.yaml").read_text(encoding="utf-8")
    table.write_text(text.split("promises:")[0].replace("id: expiring-mortgages-build", "id: both"),
                     encoding="utf-8")
    raw = [r for r in raw_check([str(table)], jobs=1) if r.promised and r.verdict.name == "VIOLATED"]
    assert len(raw) == 9
    code, doc = _check(["--runs", str(tmp_path / "runs"), str(table)])
    assert code == 1
    rows = {(r["invariant"], r["action"]): r for r in doc["results"] if r["promised"]}
    for r in raw:
        judged = rows[(r.invariant, r.action)]
        if judged["verdict"] == "VIOLATED":
            assert judged["counterexample"]["run"]["moves"]
        else:
            assert judged["verdict"] == "PROVED" and "counterexample to induction" in judged["reason"], judged
    root = rows[("buildings-need-unmortgaged-group", "build_house")]
    assert root["verdict"] == "VIOLATED" and "cause" not in root["counterexample"]
    cons = rows[("buildings-need-full-group", "mortgage_expired")]
    assert cons["verdict"] == "VIOLATED" and cons["counterexample"]["cause"]["invariant"] == \
        "buildings-need-unmortgaged-group"
    assert "a mortgaged street carries no building" in rows[("building-limits", "mortgage_expired")]["reason"]
    assert doc["summary"]["promised_failed"] == 1 == sum(
        1 for r in doc["results"] if r["promised"] and r["verdict"] != "PROVED"
        and not (r["counterexample"] or {}).get("cause"))
    for r in doc["results"]:
        if r["promised"] and r["verdict"] == "VIOLATED" and r["invariant"] != "(enabled)":
            trace = tmp_path / "runs" / f"{r['ruleset']}--{r['invariant']}--{r['action']}.jsonl"
            code, rep = _replay(trace, "--no-invariants")
            assert code == 0 and rep["ok"], rep


@pytest.mark.slow
def test_the_two_rules_together_break_what_each_alone_keeps():
    """The designer's variant breaks buildings-need-full-group by an expired mortgage, in a game from its
    start; with either change undone (``--set``), the same check is proved."""
    table = str(TABLES / "expiring-mortgages-build.yaml")
    # building beside a mortgaged street (build_house) is what the expiry's break starts from: both are checked
    only = ["--action", "build_house", "--action", "mortgage_expired", "--invariant", "buildings-need-full-group"]

    def expiry(doc):
        return next(r for r in doc["results"] if r["action"] == "mortgage_expired")

    code, doc = _check([*only, table])
    r = expiry(doc)
    assert code == 1 and r["verdict"] == "VIOLATED" and r["counterexample"]["run"]["kind"] == "root"
    for undo in ("mortgage.expiry_rounds=never", "building.blocked_by_mortgage=true"):
        code, doc = _check([*only, "--set", undo, table])
        assert code == 0 and all(r["verdict"] == "PROVED" for r in doc["results"]), (undo, doc["results"])
    assert expiry(doc)["verdict"] == "PROVED"          # expiring mortgages that stop building: the step is kept


@pytest.mark.slow
def test_a_variant_whose_hotels_can_never_be_built_reports_build_hotel_dead():
    """Seven houses: a first hotel needs eight houses on the smallest group at once. The invariants alone
    allow a state with a hotel; the lemmas a game keeps do not, so build_hotel is dead (a promised failure:
    the ruleset has hotels). The official box of 32 houses has build_hotel live."""
    code, doc = _check(["--action", "build_hotel", str(TABLES / "seven-houses.yaml")])
    live = next(r for r in doc["results"] if r["invariant"] == "(enabled)" and r["action"] == "build_hotel")
    assert code == 1 and live["verdict"] == "VIOLATED" and live["promised"]
    assert "dead rule" in live["reason"] and "no street carries a hotel" in live["reason"]
    code, doc = _check(["--action", "build_hotel", "official"])
    live = next(r for r in doc["results"] if r["invariant"] == "(enabled)" and r["action"] == "build_hotel")
    assert code == 0 and live["verdict"] == "PROVED" and "dead" not in (live["reason"] or "")


# ------------------------------------------------------------------------------------------- runs on the engine
def _official():
    from verify.config import EngineConfig
    from verify.spec import load_ruleset
    return EngineConfig.from_ruleset(load_ruleset("official"))


def test_a_run_collects_a_rent_that_the_owner_must_claim():
    """Official rent is owed only once the owner asks for it: a run's rent move lands the payer on the deed
    and the owner claims it (a landing alone leaves it unclaimed, and a debt that should end in bankruptcy
    is never owed)."""
    from verify.runs.play import play
    from verify.smt.reach import Move
    cfg = _official()
    baltic = {"sq": 1, "square": 3}
    played = play(cfg, 3, 1, [Move("buy", {"a": 1, **baltic}), Move("rent_street", {"a": 0, **baltic})], [])
    assert played.stuck is None and played.done == 2
    claims = [e for _, events, _ in played.table.steps for e in events if e.get("event") == "rent_claimed"]
    assert [(e["payer"], e["owner"], e["square"], e["amount"]) for e in claims] == [(0, 1, 3, 4)]


def test_a_run_plans_no_trade_that_leaves_interest_owed():
    """A player with 2 in cash may take a mortgaged street in a trade (the transition allows it), but then owes
    its interest, a debt the engine waits for and the state does not show: a run never plans that trade."""
    import z3

    from verify.engine.step import new_game
    from verify.smt import reach
    from verify.smt.model import Model
    from verify.smt.oracle import sym_from_state
    from verify.smt.transitions import BY_NAME
    from verify.smt.transitions.common import Args
    cfg = _official()
    m = Model.from_config(cfg)
    state = new_game(cfg, m.players, 1)
    state["players"][0]["cash"] = 2
    baltic = next(p for p in state["properties"] if p["square"] == 3)
    baltic.update(owner=1, mortgaged=True)
    start, trade = sym_from_state(m, state), BY_NAME["trade"]
    guard, _ = trade.build(m, start, Args.fresh("t", m))
    solver = z3.Solver()
    solver.add(guard)
    assert solver.check() == z3.sat            # the rules allow the trade ...
    found = reach.search(m, start, [], trade, None, depth=0)
    assert found.status == "none", found       # ... a run does not take it
