"""simulation-classes-catherineannie13 checked by trace validation of its own games.

The shim (verify/conform/adapters/simclasses.py) runs the engine's own game loop and logs it; the
default run (the shim's and ``verify conform --validate-trace``'s default options) must report what
docs/evidence/simclasses/validate-trace.json records, and the deviations known from reading the
engine's source must be among its findings, each showing what the source does. The tests of the
shim's translation need no engine and run without it.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from verify.conform.adapters import simclasses
from verify.conform.harness import load_target
from verify.conform.trace_check import check_log
from verify.errors import AdapterError

EVIDENCE = Path(__file__).resolve().parent.parent / "docs" / "evidence" / "simclasses" / "validate-trace.json"
try:
    simclasses.load()
    INSTALLED = True
except AdapterError:
    INSTALLED = False
needs_engine = pytest.mark.skipif(not INSTALLED, reason=f"{simclasses.PACKAGE} is not installed: {simclasses.INSTALL}")


# ---- no engine needed -------------------------------------------------------------------------------

def test_every_official_card_has_one_counterpart():
    config, _ = load_target("official")
    for deck, cards in (("chance", config.cards.chance), ("chest", config.cards.chest)):
        mapped = [i for v in simclasses.CARD_IDS[deck].values() for i in (v if isinstance(v, tuple) else (v,))]
        assert sorted(mapped) == sorted(c.id for c in cards)


def test_two_cards_of_one_text_are_told_apart_by_their_place():
    text = "Advance to the nearest Station. If unowned, you may buy it from the Bank."
    assert simclasses.card_ids("chance", [text, "Go back 3 Spaces.", text]) == [
        "chance-railroad-1", "chance-back-3", "chance-railroad-2"]
    with pytest.raises(AdapterError, match="has no counterpart"):
        simclasses.card_ids("chest", ["Win the lottery."])


def test_the_view_translates_the_board():
    a, b = SimpleNamespace(money=1500.0, position=3, in_jail=False, bankrupt=False), \
        SimpleNamespace(money=20, position=10, in_jail=True, bankrupt=True)
    hotel = SimpleNamespace(type="Street", owner=a, is_mortgaged=False, num_houses=4, hotel=True)
    station = SimpleNamespace(type="Station", owner=None, is_mortgaged=False)
    jail = SimpleNamespace(type="Jail")
    board = SimpleNamespace(players=[a, b], board=[jail, hotel, jail, station])
    state = simclasses.view(board, 1)
    assert state == {"current": 1, "phase": "over",       # one player is not bankrupt: the engine's loop stops
                     "players": [{"cash": 1500, "position": 3, "in_jail": False, "bankrupt": False},
                                 {"cash": 20, "position": 10, "in_jail": True, "bankrupt": True}],
                     "properties": [{"square": 1, "owner": 0, "mortgaged": False, "houses": 0, "hotel": True},
                                    {"square": 3, "owner": None, "mortgaged": False, "houses": 0, "hotel": False}]}


def test_without_the_package_the_error_names_the_install_command(monkeypatch):
    real = importlib.import_module

    def missing(name, *a, **k):
        if name.startswith("simulation_classes"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *a, **k)
    monkeypatch.setattr(importlib, "import_module", missing)
    with pytest.raises(AdapterError) as exc:
        simclasses.load()
    assert exc.value.code == "E015" and simclasses.INSTALL in exc.value.message
    assert "Chance" not in __import__("sys").modules                # the bare names are not left behind


# ---- the default run ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    log = tmp_path_factory.mktemp("simclasses") / "simclasses.jsonl"
    assert simclasses.main(["--out", str(log)]) == 0
    return check_log(str(log))


def _first(run, signature: str):
    found = {s: (n, u) for s, n, u in run.deviations()}
    assert signature in found, sorted(found)
    return found[signature]


@needs_engine
def test_the_default_run_is_the_recorded_evidence(default_run):
    doc = default_run.to_json()
    recorded = json.loads(EVIDENCE.read_text())
    assert {k: v for k, v in doc.items() if k != "log"} == {k: v for k, v in recorded.items() if k != "log"}
    assert doc["transitions"] == 480 and doc["unexplained"] >= 60


BEHAVIOURS = yaml.safe_load((EVIDENCE.parent / "behaviours.yaml").read_text(encoding="utf-8"))


def test_every_cause_of_the_default_run_is_one_listed_behaviour():
    """The engine declares its expected causes (docs/evidence/simclasses/behaviours.yaml): the recorded run reports
    exactly those, each the cause of one behaviour of its source."""
    listed = [c for b in BEHAVIOURS for c in b["causes"]]
    assert len(listed) == len(set(listed))
    recorded = json.loads(EVIDENCE.read_text())
    assert sorted(d["signature"] for d in recorded["deviations"]) == sorted(listed)


@needs_engine
def test_each_behaviour_is_the_line_of_the_engines_source_it_names():
    import simulation_classes
    pkg = Path(simulation_classes.__file__).resolve().parent
    for b in BEHAVIOURS:
        name, line = b["source"].rsplit(":", 1)
        assert b["code"] in (pkg / name).read_text(encoding="utf-8").splitlines()[int(line) - 1], b["id"]


def _cash(line: str) -> tuple[int, int]:
    """``players[2].cash: explained 1094, logged 894`` -> (1094, 894)."""
    left, right = line.split(": explained ")[1].split(", logged ")
    return int(left), int(right)


@needs_engine
def test_go_to_jail_charges_the_salary(default_run):
    count, u = _first(default_run, "successor at jailed: players[actor].cash -")
    explained, logged = _cash(u.diff[0])
    assert explained - logged == 200 and count >= 5 and u.complete


@needs_engine
def test_income_tax_is_the_smaller_of_200_and_a_tenth_of_the_worth(default_run):
    count, u = _first(default_run, "successor at tax: players[actor].cash +")
    explained, logged = _cash(u.diff[0])
    assert 0 < logged - explained < 200 and count >= 5


@needs_engine
@pytest.mark.parametrize("card", ["chance-railroad", "chance-utility"])
def test_the_nearest_station_and_utility_cards_do_nothing(default_run, card):
    _, u = _first(default_run, f"successor at card {card}: players[actor].position -")
    (moved,) = [d for d in u.diff if ".position" in d]
    assert moved.split(", logged ")[1] in ("7", "22", "36")           # the player stays on the Chance square


@needs_engine
def test_a_bankrupt_player_keeps_playing(default_run):
    count, _ = _first(default_run, "a bankrupt player's turn")
    assert count >= 3
    _, u = _first(default_run, "successor at turn_ended: current other>another")     # and its turn comes round
    assert u.diff[0].startswith("current: explained ")


@needs_engine
def test_a_jail_card_stays_in_its_deck(default_run):
    sig = next(s for s, _, _ in default_run.deviations() if s.startswith("card chance-jail-free drawn while not"))
    assert "holds it" in sig


@needs_engine
def test_houses_are_built_unevenly(default_run):
    _, u = _first(default_run, "successor at build_house: bank.houses -, properties[street].houses +")
    line = next(d for d in u.diff if ".houses" in d)
    explained, logged = (int(x) for x in line.split(": explained ")[1].split(", logged "))
    assert logged == explained + 1


@needs_engine
def test_going_to_jail_on_doubles_does_not_end_the_turn(default_run):
    devs = [(s, u) for s, _, u in default_run.deviations() if s.startswith("successor at roll: players[actor].position -")]
    assert devs and all("+ unused throws" in s for s, _ in devs)
