"""The one vocabulary of moves (``verify.vocabulary``) is the engine's: its actions, its events, the card
effects the decks use."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from verify import vocabulary as V
from verify.engine.actions import ACTIONS

ENGINE = Path(__file__).resolve().parents[1] / "verify" / "engine"
DECKS = Path(__file__).resolve().parents[1] / "rulesets" / "reference" / "decks.yaml"


def _engine_events() -> set[str]:
    """Every event name the engine's source records (``{"event": NAME, ...}``, both arms of a conditional)."""
    out: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "event":
                        out.update(c.value for c in ast.walk(v) if isinstance(c, ast.Constant)
                                   and isinstance(c.value, str))
    return out


def test_the_engine_declares_exactly_the_vocabulary_actions():
    assert list(ACTIONS) and set(ACTIONS) == set(V.ACTIONS)


def test_every_event_the_engine_records_is_named_and_every_named_event_is_recorded():
    recorded = _engine_events()
    assert "rent_due" in recorded and "auction_no_bid" in recorded      # the scan reads both arms
    assert recorded == set(V.EVENTS)


def test_each_step_names_an_event_of_the_vocabulary():
    for step in V.STEPS.values():
        assert step.event is None or step.event in V.EVENTS, step.name
        assert V.step_of(step.name) is step


def test_every_card_effect_of_the_decks_is_named():
    decks = yaml.safe_load(DECKS.read_text())
    effects = {card["effect"] for deck in decks["decks"].values() for card in deck}
    assert effects == set(V.CARD_EFFECTS)
