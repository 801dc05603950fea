"""A whole-turn engine checked by trace validation: it logs its games, it needs no adapter.

    python docs/examples/turn_engine.py game.jsonl       # play two games and write their log
    verify conform --validate-trace game.jsonl            # is every logged turn explained by the rules?

``TurnEngine.play_turn()`` plays a whole turn in one call, as most hobby engines do. Here the turn is
played by the reference engine's step API with a plain strategy (leave jail by paying, buy what the
cash allows, claim every rent, never bid, raise cash only for a debt); your engine plays its own
turn instead and keeps the four logging calls, marked "log:".
"""
import random
import sys

from verify.conform.harness import load_target
from verify.conform.tracelog import GameLog
from verify.engine.step import apply, legal_actions, new_game

#: the strategy: the first of these action types that is legal now (raising cash comes last: it is
#: legal at any time, wanted only in a debt)
STRATEGY = ("pay_fine", "claim_rent", "buy", "decline", "pass", "pay", "bankrupt", "roll", "end_turn",
            "sell_hotel", "sell_house", "mortgage")


class TurnEngine:
    def __init__(self, players: int, seed: int, log: GameLog):
        self.config, _ = load_target("official")
        self.state = new_game(self.config, players, seed)
        self.dice = random.Random(seed)
        self.log = log

    def play_turn(self) -> None:
        """One whole turn of the current player (doubles included)."""
        while True:
            legal = {}
            for a in legal_actions(self.config, self.state):
                legal.setdefault(a["type"], a)
            kind = next(k for k in STRATEGY if k in legal)
            action = legal[kind]
            if kind == "roll":
                action = dict(action, dice=[self.dice.randint(1, 6), self.dice.randint(1, 6)])
                self.log.dice(*action["dice"])                          # log: every throw of the dice
            self.state, events = apply(self.config, self.state, action)
            for e in events:
                if e["event"] == "card":
                    self.log.card(e["deck"], e["card"])                 # log: every card drawn
            if kind == "end_turn" or self.state["phase"] == "over":
                return

    def view(self) -> dict:
        """What the engine keeps, as verify.state/1 keys (your engine: read them from its own objects)."""
        s = self.state
        return {"current": s["current"], "phase": s["phase"],
                "players": [{"cash": p["cash"], "position": p["position"], "in_jail": p["in_jail"],
                             "bankrupt": p["bankrupt"]} for p in s["players"]],
                "properties": [{"square": d["square"], "owner": d["owner"], "mortgaged": d["mortgaged"],
                                "houses": d["houses"], "hotel": d["hotel"]} for d in s["properties"]]}


if __name__ == "__main__":
    with GameLog(sys.argv[1]) as log:
        for seed in (1, 2):
            engine = TurnEngine(3, seed, log)
            log.game("turn-engine-example", version="1.0", new_game=True)   # log: a game starts
            log.state(engine.view(), label="start")
            for turn in range(1, 61):
                engine.play_turn()
                log.state(engine.view(), label=f"turn {turn}")          # log: the state after each turn
                if engine.state["phase"] == "over":
                    break
