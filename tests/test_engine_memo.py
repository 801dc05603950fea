"""What the rules remember between questions is what they would read afresh.

Two answers about building are remembered in the game state, as they are asked far more often than
what they read changes (whether a build could be short: by the bot, then by the rule, of the same
state): the colour groups owned whole (``construction.whole_groups``,
kept with a copy of the owner column) and whether a build could be short (``construction.contest``,
kept for the deed columns' version ``GameState.deeds`` and the bank's stock). The version counts up at
every mark a rule makes after writing a deed column (``GameState.mark``; that every write is marked is
``tests/test_screen.py``'s). These tests play games on every bundled ruleset the engine plays, ask before each action (so
the answer is remembered) and after it, and compare the answer with the one a fresh copy of the state
gives (a copy remembers nothing).
"""

import pytest

from verify.config import EngineConfig
from verify.engine.actions import awaited
from verify.engine.engines import rules_for
from verify.engine.loop import FIELDS
from verify.engine.policies import make_policies
from verify.engine.simulate import play_game
from verify.spec import load_ruleset
from tests.test_engine_compiled import _players, playable

PATHS = [pytest.param("compiled", marks=pytest.mark.compiled), "readable"]


class _Asker:
    """A recorder that applies each action as the game loop's fast path does, with the remembered answers
    asked before it and compared with fresh ones after it."""

    def __init__(self):
        self.steps = self.remembered = self.versions = self.contested = 0

    def start(self, rules, g):
        self.c = rules.rules.construction

    def finish(self, rules, g):
        pass

    def _fresh(self, rules, g):
        fresh = g.copy()
        assert fresh.contest is None
        return self.c.contest(rules.t, fresh), self.c.whole_groups(rules.t, fresh)

    def step(self, rules, g, action):
        t = rules.t
        self.c.contest(t, g)
        self.c.whole_groups(t, g)
        deeds = g.deeds
        columns = (list(g.owner), list(g.mortgaged), list(g.houses), list(g.hotel))
        seat = action.get("seat")
        rules.dispatch[action["type"]][1](g, awaited(g) if seat is None else seat,
                                          *[action.get(f, v) for f, v in FIELDS[action["type"]]])
        if columns != (g.owner, g.mortgaged, g.houses, g.hotel):
            assert g.deeds > deeds, action          # a written deed column moves the version on
            self.versions += 1
        remembered = g.contest is not None and g.contest[0] == g.deeds
        got = (self.c.contest(t, g), self.c.whole_groups(t, g))
        assert got == self._fresh(rules, g), (action, got)
        self.remembered += remembered
        self.contested += got[0] is not None
        self.steps += 1


@pytest.mark.parametrize("path", PATHS)
def test_the_remembered_answers_about_building_are_the_fresh_ones(path):
    contested = 0
    for rid in playable():
        cfg = EngineConfig.from_ruleset(load_ruleset(rid))
        asker = _Asker()
        for seed in (5, 6):
            play_game(rules_for(cfg, path), make_policies("heuristic", _players(cfg), "leave", seed), seed, 400,
                      asker)
        assert asker.steps > 200 and asker.versions > 20, rid
        assert asker.remembered > 0, rid        # the remembered answer was used, not only made
        contested += asker.contested
    assert contested > 100                      # states where a build could be short were among them
