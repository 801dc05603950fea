"""Rules seen live in real games: bot games on the reference engine, read move by move.

An action is live when some game reaches a state that allows it. The cheapest evidence is a game
that shows it: a few seeded games of the engine's own bots, each action's events read as the SMT
transitions they are (the transition that models the action whole, ``build_hotel``; the steps its
events show: a ``bankrupt`` event owed to a player is ``bankrupt_to_player``...), and, for the few moves bots seldom make (selling a whole group,
auctioning one's own mortgaged deed, giving up), the engine's legal actions in the
states the games pass through. A sighting names the game's seed and step, so ``verify simulate``
of that seed plays it again. An action no game showed is not dead for that: the check then looks
for a run over the transitions, or proves it dead (``verify.runs.judge``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import EngineConfig
from ..engine.engines import rules_for
from ..engine.policies import make_policies
from ..engine.simulate import Recorder, game_seed, play_game
from ..engine.step import apply_state, legal_actions
from ..smt.transitions import TRANSITIONS

#: bot games played per ruleset, the most player-turns of each, and how often (in steps) a game's legal
#: actions are read while a move is still unseen
GAMES = 8
MAX_TURNS = 400
SAMPLE = 8

#: the SMT transition that models an engine action whole, by the action (``verify.smt.transitions``)
_WHOLE = {t.models[0]: t.name for t in TRANSITIONS if t.step is None and len(t.models) == 1}
#: the SMT transition of a card, by its effect
_CARDS = {t.effect: t.name for t in TRANSITIONS if t.step == "card"}
#: transitions read from the legal actions (what stays allowed for a while once allowed), by engine action
_LEGAL = {"sell_group": "sell_group", "auction_mortgaged": "auction_mortgaged", "surrender": "surrender"}


@dataclass(frozen=True)
class Sighting:
    """Where an action was seen: game ``game`` of the campaign seeded ``seed`` (its own seed ``game_seed``),
    at step ``step``; ``fired``: taken there (else only allowed there)."""

    seed: int
    game: int
    game_seed: int
    step: int
    fired: bool = True

    def text(self, players: int) -> str:
        return (f"{'seen in play' if self.fired else 'allowed in play'}: game {self.game} of "
                f"`verify simulate --seed {self.seed} --players {players}`, step {self.step}")


def transitions(config: EngineConfig, action: dict, events: list[dict]) -> set[str]:
    """The SMT transitions one engine action made: the one that models the action whole, and the steps its
    events show (a rent, a card, a tax, an auction won, a forfeited mortgage, a bankruptcy...)."""
    kind = action.get("type")
    kinds = config.board.squares
    effects = {c.id: c.effect for c in tuple(config.cards.chance) + tuple(config.cards.chest)}
    out = {_WHOLE[kind]} if kind in _WHOLE else set()
    for e in events:
        ev = e.get("event")
        if ev == "auction_won" and e.get("item") == "deed" and kind != "auction_mortgaged":
            out.add("auction_won")
        elif ev in ("rent_due", "rent_claimed") and kinds[e["square"]] in ("street", "station", "utility"):
            out.add("rent_" + kinds[e["square"]])
        elif ev == "card" and effects.get(e.get("card")) in _CARDS:
            out.add(_CARDS[effects[e["card"]]])
        elif ev == "building_destroyed":
            out.add("card_destroy_building")
        elif ev == "paid" and e.get("kind") == "tax":
            out.add("tax")
        elif ev == "pot":
            out.add("free_parking")
        elif ev == "mortgage_expired":
            out.add("mortgage_expired")
        elif ev == "bankrupt" and kind != "surrender":
            out.add("bankrupt_to_player" if e.get("creditor", -1) >= 0 else "bankrupt_to_bank")
    return out


class _Watch(Recorder):
    """Applies each action of a bot game and notes the transitions it made, and the wanted ones it allows."""

    def __init__(self, config: EngineConfig, found: dict, at: tuple[int, int, int], wanted: set[str]):
        self.config, self.found, self.at, self.wanted = config, found, at, wanted
        self.steps = 0

    def step(self, rules, g, action: dict) -> None:
        g.events = []
        apply_state(rules, g, action)
        self.steps += 1
        for name in transitions(self.config, action, g.events) | self._rent(rules, g):
            self.found.setdefault(name, Sighting(*self.at, self.steps))
        if self.steps % SAMPLE == 0:
            missing = [n for n in _LEGAL if n in self.wanted and n not in self.found]
            if missing:
                types = {a["type"] for a in legal_actions(self.config, g)}
                for name in missing:
                    if _LEGAL[name] in types:
                        self.found.setdefault(name, Sighting(*self.at, self.steps, fired=False))

    def _rent(self, rules, g) -> set[str]:
        """A rent paid at once (no claim, so no event names the deed): the deed the payer stands on."""
        kinds = self.config.board.squares
        out: set[str] = set()
        state = None
        for e in g.events:
            if e.get("event") == "paid" and e.get("kind") == "rent" and e.get("debtor", -1) >= 0:
                state = state or g.to_json(rules.t.ownable)
                kind = kinds[state["players"][e["debtor"]]["position"]]
                if kind in ("street", "station", "utility"):
                    out.add("rent_" + kind)
        return out


def seen(config: EngineConfig, players: int, wanted: set[str] | None = None, games: int = GAMES,
         seed: int = 0) -> dict[str, Sighting]:
    """The SMT transitions the engine's bots make (or, for those in ``wanted``, are allowed to make) in
    ``games`` seeded games, each with its first sighting; stops early once every wanted one is seen."""
    rules = rules_for(config)
    found: dict[str, Sighting] = {}
    wanted = set(wanted or ())
    for i in range(games):
        s = game_seed(seed, i)
        play_game(rules, make_policies("heuristic", players, "leave", s), s, MAX_TURNS,
                  _Watch(config, found, (seed, i, s), wanted))
        if wanted and wanted <= set(found):
            break
    return found
