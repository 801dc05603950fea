"""Trace validation: an engine's own game log (verify.game-log/1) checked against a ruleset.

The whole-turn example engine of the engine author's guide writes the log; every one of its turns
must be explained. A log changed the way a deviating engine would write it must be caught at the
changed transition, with the closest explanation and the value that differs; bad input is E026
naming the file and line; the reader and the shipped JSON Schema agree line by line.
"""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest
from referencing import Registry, Resource

from tests.cli_process import ROOT, run_verify, verify_env
from verify.conform import ConformInputError
from verify.conform.trace_check import check_log
from verify.conform.tracelog import SCHEMA_DIR, SCHEMA_FILE, GameLog, read_log

EXAMPLE = ROOT / "docs" / "examples" / "turn_engine.py"
HEADER = {"log": "verify.game-log/1", "engine": "t"}


@pytest.fixture(scope="module")
def example_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    subprocess.run([sys.executable, str(EXAMPLE), str(path)], check=True, env=verify_env(), timeout=300)
    return path


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, records: list[dict]):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_every_turn_of_the_example_engine_is_explained(example_log):
    r = check_log(str(example_log))
    assert len(r.games) == 2 and r.transitions >= 100
    assert r.ok, [u.to_json() for u in r.unexplained]


def test_a_turn_logged_with_another_cash_is_the_one_deviation(example_log, tmp_path):
    recs = _records(example_log)
    # the first turn in which nobody's cash changes: from there on the mover's cash is logged 7 higher, as
    # an engine that paid the mover 7 for nothing would log it
    k = next(i for i in range(2, len(recs)) if "state" in recs[i] and "state" in recs[i - 1]
             and [p["cash"] for p in recs[i]["state"]["players"]] == [p["cash"] for p in recs[i - 1]["state"]["players"]])
    seat = recs[k - 1]["state"]["current"]
    before = recs[k]["state"]["players"][seat]["cash"]
    for rec in recs[k:]:
        if "log" in rec:
            break
        rec["state"]["players"][seat]["cash"] += 7
    r = check_log(str(_write(tmp_path / "changed.jsonl", recs)))
    assert [u.line for u in r.unexplained] == [k + 1]           # later turns follow from the logged state
    u = r.unexplained[0]
    assert f"players[{seat}].cash: explained {before}, logged {before + 7}" in u.diff
    assert u.signature.startswith("successor at ") and u.signature.endswith(": players[actor].cash +")
    assert {"type": "roll", "seat": seat, "dice": recs[k]["dice"][0]} in u.actions


def test_a_new_game_that_is_not_the_ruleset_s_setup(tmp_path):
    players = [{"cash": 1000, "position": 0}, {"cash": 1500, "position": 0}]
    log = _write(tmp_path / "g.jsonl", [dict(HEADER, new_game=True), {"state": {"players": players}}])
    r = check_log(str(log))
    assert len(r.unexplained) == 1 and r.unexplained[0].line == 2
    assert r.unexplained[0].diff == ["players[0].cash: setup 1500, logged 1000"]
    without = _write(tmp_path / "h.jsonl", [HEADER, {"state": {"players": players}}])
    assert check_log(str(without)).ok                            # a log may start anywhere


def test_a_card_drawn_while_a_player_holds_it(tmp_path):
    start = {"players": [{"cash": 1500, "position": 0, "jail_cards": ["chance"]}, {"cash": 1500, "position": 0}]}
    after = {"players": [{"cash": 1500, "position": 7, "jail_cards": ["chance", "chance"]},
                         {"cash": 1500, "position": 0}], "current": 1}
    log = _write(tmp_path / "g.jsonl", [HEADER, {"state": start},
                                        {"state": after, "dice": [[3, 4]],
                                         "cards": [{"deck": "chance", "card": "chance-jail-free"}]}])
    (u,) = check_log(str(log)).unexplained
    assert u.reason == "card chance-jail-free drawn while not in the chance deck (seat 0 holds it)"


def test_unused_throws_are_a_deviation(tmp_path):
    start = {"players": [{"cash": 1500, "position": 0}, {"cash": 1500, "position": 0}]}
    after = {"players": [{"cash": 1500, "position": 3}, {"cash": 1500, "position": 0}], "current": 1}
    ok = _write(tmp_path / "ok.jsonl", [HEADER, {"state": start}, {"state": after, "dice": [[1, 2]]}])
    assert check_log(str(ok)).ok                                 # declined, and nobody bid in the auction
    extra = _write(tmp_path / "x.jsonl", [HEADER, {"state": start}, {"state": after, "dice": [[1, 2], [2, 3]]}])
    (u,) = check_log(str(extra)).unexplained
    assert u.line == 3 and u.remaining >= 1    # the second throw moves someone, or is left unused


BAD = [
    ("not json\n", 1, "not JSON"),
    (json.dumps({"state": {"players": []}}) + "\n", 1, "the first line must be a header"),
    (json.dumps({"log": "verify.game-log/1"}) + "\n", 1, "lacks 'engine'"),
    (json.dumps(HEADER) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 40}] * 2}}) + "\n", 2,
     "players[0].position must be at most 39"),
    (json.dumps(HEADER) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 0, "money": 3}] * 2}})
     + "\n", 2, "unknown key 'money'"),
    (json.dumps(HEADER) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 0}] * 2}}) + "\n"
     + json.dumps({"state": {"players": [{"cash": 1, "position": 0}] * 2},
                   "cards": [{"deck": "chance", "card": "chance-lottery"}]}) + "\n", 3,
     "card 'chance-lottery' is not in the ruleset's chance deck"),
    (json.dumps(HEADER) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 0}] * 2,
                                                       "properties": [{"square": 0, "owner": 1}]}}) + "\n", 2,
     "square 0 is not a deed"),
    (json.dumps(HEADER) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 0}] * 2}}) + "\n"
     + json.dumps({"state": {"players": [{"cash": 1, "position": 0}] * 3}}) + "\n", 3, "lists 3 players"),
    (json.dumps(HEADER) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 0}]}}) + "\n", 2,
     "cannot start a game of 1 players"),
    (json.dumps(HEADER) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 0}] * 2,
                                                       "phase": "auction"}}) + "\n", 2,
     "a state the reference engine cannot hold"),
    ("", 1, "no game in the log"),
    (json.dumps(HEADER) + "\n", 1, "a game with no state"),
]


@pytest.mark.parametrize("text,line,message", BAD, ids=[b[2][:30] for b in BAD])
def test_bad_input_is_e026_naming_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(ConformInputError) as exc:
        check_log(str(path))
    assert exc.value.code == "E026"
    assert str(exc.value.where) == f"{path}:{line}"
    assert message in exc.value.message


def _validator() -> jsonschema.Draft202012Validator:
    docs = [json.loads((SCHEMA_DIR / name).read_text()) for name in ("state.schema.json", SCHEMA_FILE.name)]
    registry = Registry().with_resources((d["$id"], Resource.from_contents(d)) for d in docs)
    return jsonschema.Draft202012Validator(docs[1], registry=registry)


LINES = [
    HEADER, dict(HEADER, version="2", seed=3, new_game=True), {"log": "verify.game-log/2", "engine": "t"},
    dict(HEADER, engine=""), dict(HEADER, colour="red"),
    {"state": {"players": [{"cash": 5, "position": 3}]}},
    {"state": {"players": [{"cash": 5.5, "position": 3}]}},
    {"state": {"players": [{"cash": 5, "position": 3, "in_jail": "no"}]}},
    {"state": {"players": [{"cash": 5, "position": 3, "jail_cards": ["chance", "bank"]}]}},
    {"state": {"players": [{"cash": 5}]}}, {"state": {"players": []}}, {"state": {}},
    {"state": {"players": [{"cash": 5, "position": 3}], "phase": "rolling"}},
    {"state": {"players": [{"cash": 5, "position": 3}], "bank": {"houses": None, "hotels": 2, "cash": -3}}},
    {"state": {"players": [{"cash": 5, "position": 3}], "bank": {"coins": 3}}},
    {"state": {"players": [{"cash": 5, "position": 3}], "properties": [{"square": 5, "houses": -1}]}},
    {"state": {"players": [{"cash": 5, "position": 3}], "properties": [{"owner": 1}]}},
    {"state": {"players": [{"cash": 5, "position": 3}], "pending": {"player": 0}}},
    {"state": {"players": [{"cash": 5, "position": 3}]}, "dice": [[1, 7]]},
    {"state": {"players": [{"cash": 5, "position": 3}]}, "dice": [[1, 2, 3, 4]]},
    {"state": {"players": [{"cash": 5, "position": 3}]}, "cards": [{"deck": "chest"}]},
    {"state": {"players": [{"cash": 5, "position": 3}]}, "label": 3},
    {"state": {"players": [{"cash": 5, "position": 3}]}, "note": "x"},
]


@pytest.mark.parametrize("line", LINES, ids=[json.dumps(x)[:50] for x in LINES])
def test_the_reader_and_the_shipped_schema_agree(tmp_path, line):
    schema_ok = _validator().is_valid(line)
    path = tmp_path / "one.jsonl"
    if "log" in line:
        text = json.dumps(line) + "\n" + json.dumps({"state": {"players": [{"cash": 1, "position": 0}] * 2}}) + "\n"
        bad_line = 1
    else:
        text = json.dumps(HEADER) + "\n" + json.dumps(line) + "\n"
        bad_line = 2
    path.write_text(text)
    try:
        list(read_log(path))
        reader_ok = True
    except ConformInputError as exc:
        assert exc.where.line == bad_line, exc.message
        reader_ok = False
    assert reader_ok == schema_ok


def test_the_writer_attaches_throws_and_draws_to_the_next_state_only(tmp_path):
    with GameLog(tmp_path / "w.jsonl") as log:
        log.game("w", version=1, seed=4, new_game=True)
        log.state({"players": [{"cash": 1, "position": 0}] * 2})
        log.dice(3, 4)
        log.card("chance", "chance-go")
        log.state({"players": [{"cash": 1, "position": 7}] * 2}, label="turn 1")
        log.state({"players": [{"cash": 1, "position": 7}] * 2})
    (game,) = read_log(tmp_path / "w.jsonl")
    assert game.header == {"log": "verify.game-log/1", "engine": "w", "version": "1", "seed": 4, "new_game": True}
    assert [(r.dice, r.cards, r.label) for r in game.records] == [
        ([], [], None), ([[3, 4]], [{"deck": "chance", "card": "chance-go"}], "turn 1"), ([], [], None)]


def test_the_command(example_log, tmp_path):
    r = run_verify("conform", "--validate-trace", example_log)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith(f"transition(s) in {example_log}: every transition explained")
    recs = _records(example_log)
    recs[5]["state"]["players"][0]["position"] = (recs[5]["state"]["players"][0]["position"] + 1) % 40
    r = run_verify("conform", "--validate-trace", _write(tmp_path / "c.jsonl", recs), "--json")
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert doc["unexplained"] >= 1 and doc["deviations"][0]["first"]["line"] == 6
    r = run_verify("conform", "--validate-trace", example_log, "--engine", "x:Y")
    assert r.returncode == 2 and "--validate-trace checks a log without an engine" in r.stderr
    r = run_verify("conform", "--validate-trace", tmp_path / "missing.jsonl")
    assert r.returncode == 1 and "[E026]" in r.stderr and "missing.jsonl" in r.stderr


def test_what_a_new_game_draws_is_not_a_setup_deviation(tmp_path):
    players = [{"cash": 1500, "position": 0}, {"cash": 1500, "position": 0}]
    log = _write(tmp_path / "g.jsonl", [dict(HEADER, new_game=True),
                                        {"state": {"players": players, "decks": {"chance": ["chance-go"]}}}])
    assert check_log(str(log)).ok                                # the decks' order is drawn
    log = _write(tmp_path / "h.jsonl", [dict(HEADER, new_game=True), {"state": {"players": players, "current": 1}}])
    (u,) = check_log(str(log)).unexplained                      # official: seat 0 starts
    assert u.diff == ["current: setup 0, logged 1"]


def test_the_utility_card_pays_by_its_own_logged_throw(tmp_path):
    """A roll onto Chance drawing the nearest-utility card: the card's fresh throw is the next logged throw
    (the roll's ``card_dice``), so the rent is ten times that throw, not the move's."""
    start = {"players": [{"cash": 1500, "position": 0}, {"cash": 1500, "position": 0}],
             "properties": [{"square": 12, "owner": 1}]}

    def log(name: str, paid: int):
        after = {"players": [{"cash": 1500 - paid, "position": 12}, {"cash": 1500 + paid, "position": 0}],
                 "properties": [{"square": 12, "owner": 1}], "current": 1}
        return _write(tmp_path / name, [HEADER, {"state": start},
                                        {"state": after, "dice": [[3, 4], [5, 6]],
                                         "cards": [{"deck": "chance", "card": "chance-utility"}]}])

    assert check_log(str(log("card.jsonl", 110))).ok, check_log(str(log("card.jsonl", 110))).unexplained
    (u,) = check_log(str(log("move.jsonl", 70))).unexplained        # the move's throw used again
    assert u.line == 3
    assert "players[0].cash: explained 1390, logged 1430" in u.diff, u.diff
