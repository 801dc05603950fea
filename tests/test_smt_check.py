"""`verify check`: proofs for the official rules, counterexamples for broken tables, honest UNKNOWNs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.config import EngineConfig
from verify.smt import proofs
from verify.smt.verdict import Verdict
from verify.spec import load_ruleset

NEGATIVE = Path(__file__).parent / "fixtures" / "negative"

#: fixture -> (invariant, action) that must come out VIOLATED with a counterexample (a run from a game's start,
#: replayed below); the bankruptcy's run takes a longer search (``test_a_bankruptcy_that_drops_...``, slow)
EXPECTED = {
    "sold-buildings-vanish.yaml": ("house-supply", "sell_house"),
    "supply-never-decremented.yaml": ("house-supply", "build_house"),
    "hotel-at-three-houses.yaml": ("hotel-after-full-houses", "build_hotel"),
}


@pytest.fixture(scope="module")
def negative_run(tmp_path_factory):
    """The broken tables checked once, each VIOLATED check's run written as a trace (``--runs``)."""
    files = [str(NEGATIVE / name) for name in EXPECTED]
    only = [x for _, action in EXPECTED.values() for x in ("--action", action)]
    runs = tmp_path_factory.mktemp("runs")
    res = CliRunner().invoke(main, ["check", "--json", "--jobs", "1", "--runs", str(runs), *only, *files])
    return res, json.loads(res.output), runs


def _official_results(**kw):
    r = load_ruleset("official")
    return proofs.check_ruleset(r.id, EngineConfig.from_ruleset(r), r.promised(), **kw)


def test_every_promised_invariant_of_the_official_rules_is_proved():
    results = _official_results()
    promised = load_ruleset("official").promised()
    assert len(promised) == 11
    cells = {(r.invariant, r.action): r for r in results}
    for inv in promised:
        for action in ("build_house", "build_hotel", "sell_house", "sell_group", "sell_hotel", "mortgage",
                       "trade", "rent_street", "bankrupt_to_player", "bankrupt_to_bank"):
            r = cells[(inv, action)]
            assert r.verdict is Verdict.PROVED, (inv, action, r.reason)
    # every action the official rules have is possible in some state (no dead rule) ...
    assert all(r.verdict is Verdict.PROVED for r in results if r.invariant == "(enabled)" and r.promised)
    # ... and the ones they do not have are reported as such, not proved
    dead = {r.action for r in results if r.invariant == "(enabled)" and not r.promised}
    assert "surrender" in dead and "mortgage_expired" in dead


def test_each_broken_table_is_violated_with_a_scenario(negative_run):
    res, doc, _ = negative_run
    assert res.exit_code == 1
    rows = doc["results"]
    for name, (inv, action) in EXPECTED.items():
        rid = "negative-" + name.removesuffix(".yaml")
        hit = [r for r in rows if r["ruleset"] == rid and r["invariant"] == inv and r["action"] == action]
        assert hit, (rid, inv, action)
        r = hit[0]
        assert r["verdict"] == "VIOLATED" and r["promised"] is True
        cex = r["counterexample"]
        assert cex["before"]["properties"], "the counterexample names the squares that matter"
        assert any(line.startswith("Action:") for line in cex["scenario"])
        assert cex["scenario"][-1].startswith(f"Broken: {inv}")


@pytest.mark.slow
def test_a_bankruptcy_that_drops_mortgaged_streets_is_violated_by_a_game_that_replay_plays(tmp_path):
    """A bankruptcy to a player that leaves the mortgaged streets with the bankrupt player: a game from its
    start reaches it (the debtor pays its cash away for a mortgaged street, the creditor builds on Dark Blue,
    the debtor lands there), and the same step breaks single-owner (the bankrupt player still holds a deed):
    both VIOLATED with that run, which ``verify replay`` plays to the break."""
    res = CliRunner().invoke(main, ["check", "--json", "--jobs", "1", "--runs", str(tmp_path),
                                    "--action", "bankrupt_to_player", "--invariant", "bankruptcy-transfer",
                                    "--invariant", "single-owner", str(NEGATIVE / "bankruptcy-drops-mortgaged.yaml")])
    assert res.exit_code == 1, res.output
    rows = {r["invariant"]: r for r in json.loads(res.output)["results"] if r["action"] == "bankrupt_to_player"}
    for inv in ("bankruptcy-transfer", "single-owner"):
        r = rows[inv]
        assert r["verdict"] == "VIOLATED" and r["promised"], r
        run = r["counterexample"]["run"]
        assert run["moves"][-1]["action"] == "bankrupt_to_player"
        assert r["counterexample"]["scenario"][0].startswith(f"Run: {len(run['moves'])} moves from a game's start")
        if run["kind"] == "consequence":
            assert r["counterexample"]["cause"]["invariant"] == "bankruptcy-transfer"
        trace = tmp_path / f"{r['ruleset']}--{inv}--bankrupt_to_player.jsonl"
        code, rep = _replay(trace)
        assert code == 1 and any(f"step {run['breaks_at']}: invariant {inv} broken" in p for p in rep["problems"]), rep
        code, rep = _replay(trace, "--no-invariants")
        assert code == 0 and rep["ok"], rep
    assert rows["bankruptcy-transfer"]["counterexample"]["run"]["kind"] == "root"


def test_counterexamples_are_concrete_and_really_break_the_invariant(negative_run):
    """Re-check a counterexample with the Python predicates: the SMT's 'after' state breaks the invariant."""
    from verify.invariants import check_state
    _, doc, _ = negative_run
    r = next(r for r in doc["results"] if r["ruleset"] == "negative-supply-never-decremented"
             and r["invariant"] == "house-supply" and r["action"] == "build_house")
    cex = r["counterexample"]
    cfg = EngineConfig.from_ruleset(load_ruleset(str(NEGATIVE / "supply-never-decremented.yaml")))

    def full(part):
        shown = {p["square"]: p for p in part["properties"]}
        props = [shown.get(d.square, {"square": d.square, "owner": None, "mortgaged": False, "houses": 0,
                                      "hotel": False}) for d in cfg.board.deeds]
        return {**part, "properties": props}

    assert check_state(cfg, full(cex["before"]), ["house-supply"]) == []
    assert [v.invariant for v in check_state(cfg, full(cex["after"]), ["house-supply"])] == ["house-supply"]
    built = [p for p in cex["after"]["properties"] if p["houses"]]
    assert built and cex["after"]["bank"]["houses"] == cex["before"]["bank"]["houses"]


def test_json_rows_have_the_documented_shape(negative_run):
    _, doc, _ = negative_run
    for row in doc["results"]:
        assert set(row) == {"ruleset", "invariant", "action", "promised", "verdict", "counterexample", "reason",
                            "config"}
        assert len(row["config"]) == 16
        assert row["verdict"] in ("PROVED", "VIOLATED", "UNKNOWN")
        assert isinstance(row["promised"], bool)


def test_a_solver_timeout_is_unknown_never_proved(monkeypatch):
    """z3 answering "unknown" to every query (what a timeout looks like): every row the solver would
    decide is UNKNOWN with the solver's reason; the only rows proved are those that need no query (the
    action leaves everything the invariant reads unchanged). Rows are not picked by their reason text: a
    timeout reported as PROVED (or VIOLATED) fails here."""
    import z3

    from verify.invariants import load_invariants
    from verify.smt.transitions import BY_NAME
    from verify.smt.model import Model
    calls = []
    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: calls.append(1) or z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    actions = (BY_NAME["build_house"], BY_NAME["bankrupt_to_bank"])
    proofs.clear_caches()
    try:
        results = _official_results(timeout_s=5, reuse=False, actions=actions)
    finally:
        proofs.clear_caches()
    assert calls
    m = Model.from_ruleset(load_ruleset("official"))
    invariants = {i.id: i for i in load_invariants()}
    steps = {a.name: proofs.instantiate(m, a) for a in actions}
    unknown = [r for r in results if r.verdict is Verdict.UNKNOWN]
    assert unknown and {r.invariant for r in unknown} - {"(enabled)"}
    assert all("timeout" in r.reason for r in unknown)
    for r in results:
        if r.verdict is Verdict.UNKNOWN:
            continue
        assert r.verdict is Verdict.PROVED and r.invariant in invariants, (r.invariant, r.action, r.verdict)
        inv, step = invariants[r.invariant], steps[r.action]
        after = proofs.invariant_after(m, inv, step)       # the same formula as before the action: no query
        assert z3.is_true(after) or after.eq(proofs.invariant_before(m, inv, step.before)), (r.invariant, r.action)


def test_a_broken_constraint_is_violated_and_exit_is_nonzero(tmp_path):
    f = tmp_path / "table.yaml"
    f.write_text("id: my-table\ntitle: t\nextends: official\nrules:\n"
                 "  building.hotel_threshold:\n    value: 5\n    assumed: a custom table\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["check", "--json", "--action", "buy", str(f)])
    doc = json.loads(res.output)
    rows = [r for r in doc["results"] if r["invariant"] == "constraint:hotel-threshold-within-house-limit"]
    assert rows[0]["verdict"] == "VIOLATED" and rows[0]["promised"]
    assert rows[0]["counterexample"]["values"] == {"building.hotel_threshold": 5, "building.max_houses": 4}
    assert res.exit_code == 1


def test_terminal_output_tells_the_scenario(tmp_path):
    res = CliRunner().invoke(main, ["check", "--action", "build_hotel", str(NEGATIVE / "hotel-at-three-houses.yaml")])
    assert res.exit_code == 1
    out = res.output
    assert "hotel-after-full-houses VIOLATED by build_h" in out
    assert "builds a hotel on" in out and "Before:" in out and "After:" in out


def test_a_cached_answer_is_reused_only_for_the_same_whole_query(monkeypatch):
    """The query cache is shared by every ruleset checked in a process: an answer found under one state
    domain must not be given to a query that has another. First the checks of `official-short` under a
    domain that admits no state (every query UNSAT, cached), then under its real domain: the
    `hotel-after-full-houses` step that `official-short` breaks must be VIOLATED again, not the cached
    PROVED."""
    import z3

    from verify.smt.transitions import BY_NAME

    r = load_ruleset("official-short")
    actions = (BY_NAME["build_hotel"],)

    def run():
        return {(x.invariant, x.action): x.verdict for x in proofs.check_ruleset(
            r.id, EngineConfig.from_ruleset(r), r.promised(), actions=actions, reuse=False)}

    proofs.clear_caches()
    try:
        real_domain = proofs.domain
        monkeypatch.setattr(proofs, "domain", lambda m, s: list(real_domain(m, s)) + [z3.BoolVal(False)])
        empty = run()
        assert empty[("hotel-after-full-houses", "build_hotel")] is Verdict.PROVED
        monkeypatch.setattr(proofs, "domain", real_domain)
        proofs._START.clear()                      # the start (its domain) is built again; the query cache stays
        assert run()[("hotel-after-full-houses", "build_hotel")] is Verdict.VIOLATED
    finally:
        proofs.clear_caches()


def test_the_card_aimed_at_an_opponents_most_developed_street_keeps_building_even():
    """A designer's variant: the destroying card hits the most developed street of an opponent, in a game
    without hotels. Taking a house from the most developed street keeps its group even, and the check proves
    it (a transition that let the card hit any built street called it VIOLATED)."""
    from verify.smt.transitions import BY_NAME
    r = load_ruleset(str(Path(__file__).parent / "fixtures" / "tables" / "destroy-opponent-no-hotels.yaml"))
    cfg = EngineConfig.from_ruleset(r)
    assert cfg.cards.building_destroy_target == "opponent" and "even-build" in r.promised()
    cells = {x.invariant: x for x in proofs.check_ruleset(r.id, cfg, r.promised(),
                                                          actions=(BY_NAME["card_destroy_building"],), reuse=False)}
    assert cells["(enabled)"].verdict is Verdict.PROVED
    assert cells["even-build"].verdict is Verdict.PROVED, cells["even-build"].reason


def _replay(path: Path, *extra: str) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["replay", "--json", *extra, str(path)])
    return res.exit_code, json.loads(res.output.strip().splitlines()[-1])


def test_every_violated_promise_carries_a_run_that_replay_plays_to_the_break(negative_run):
    """A VIOLATED check is a game from its start: its trace (``--runs``) replays every action legally to the
    recorded states, and the problems ``verify replay`` finds are the broken promise, at the step the check
    names, and for a consequence the root's break before it."""
    _, doc, folder = negative_run
    violated = [r for r in doc["results"] if r["promised"] and r["verdict"] == "VIOLATED"]
    assert {("negative-" + n.removesuffix(".yaml"), inv, act) for n, (inv, act) in EXPECTED.items()} <= \
        {(r["ruleset"], r["invariant"], r["action"]) for r in violated}
    roots = {(r["ruleset"], r["invariant"]) for r in violated if r["counterexample"]["run"]["kind"] == "root"}
    for r in violated:
        run = r["counterexample"]["run"]
        assert run["moves"] and run["moves"][-1]["action"] == r["action"]
        assert r["counterexample"]["scenario"][0].startswith("Consequence: " if run["kind"] == "consequence"
                                                             else "Run: ")
        trace = folder / f"{r['ruleset']}--{r['invariant']}--{r['action']}.jsonl"
        code, rep = _replay(trace, "--all")
        assert code == 1 and rep["problems"] and rep["steps"] == run["steps"] + 1, rep
        assert any(f"step {run['breaks_at']}: invariant {r['invariant']} broken" in p for p in rep["problems"]), rep
        if run["kind"] == "root":
            assert len(rep["problems"]) == 1, rep
        else:   # the root broke first, in the same game, and is reported VIOLATED on its own
            cause = r["counterexample"]["cause"]["invariant"]
            assert (r["ruleset"], cause) in roots and f"invariant {cause} broken" in rep["problems"][0], rep
        code, rep = _replay(trace, "--no-invariants")
        assert code == 0 and rep["ok"], rep


def test_a_run_is_a_game_of_its_own_table(negative_run):
    """The trace names the table's file: replayed against the official rules instead, it is refused (another
    config), so a run cannot pass for a game of a ruleset it was not played by."""
    _, _, folder = negative_run
    trace = folder / "negative-supply-never-decremented--house-supply--build_house.jsonl"
    header = json.loads(trace.read_text(encoding="utf-8").splitlines()[0])
    assert header["ruleset"] == "negative-supply-never-decremented" and header["ruleset_files"]
    assert CliRunner().invoke(main, ["replay", "--json", "--ruleset", "official", str(trace)]).exit_code != 0
