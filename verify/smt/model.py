"""The rule values the SMT model reads, taken from an EngineConfig (the same one the engine plays by).

``Model`` adds to the config only what a proof needs: how many players the
symbolic state has, the colour groups as deed indexes, and the values of the
rule parameters that invariants name (by catalogue id). Parameters that the
config does not carry yet (added to the catalogue for the negative tests)
are read from the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..invariants import load_invariants, param_value
from ..config import EngineConfig

#: Catalogue parameters the model reads beside the EngineConfig's own fields.
EXTRA_PARAMS = ("building.supply_accounting", "bankruptcy.to_player_mortgaged")

#: Players in the symbolic state: a debtor, a creditor and a bystander are enough for every
#: action here (all rules are symmetric in the seats); team games take two teams of `size`.
BASE_PLAYERS = 3


def extras_of(ruleset) -> dict:
    """The values of EXTRA_PARAMS in ``ruleset`` (both are catalogue parameters every ruleset decides)."""
    return {pid: ruleset.value(pid) for pid in EXTRA_PARAMS}


@dataclass(frozen=True)
class Model:
    config: Any                                  # verify.config.EngineConfig
    players: int
    deeds: tuple
    street_groups: tuple[tuple[str, tuple[int, ...]], ...]
    group_index: tuple[int, ...]                 # per deed: index into ``all_groups``
    all_groups: tuple[tuple[str, tuple[int, ...]], ...]
    params: dict = field(compare=False)
    extras: dict = field(compare=False)

    @classmethod
    def from_ruleset(cls, ruleset) -> "Model":
        return cls.from_config(EngineConfig.from_ruleset(ruleset), extras_of(ruleset))

    @classmethod
    def from_config(cls, cfg, extras: dict | None = None) -> "Model":
        extras = {**{pid: param_value(cfg, pid) for pid in EXTRA_PARAMS}, **(extras or {})}
        board = cfg.board
        deeds = tuple(board.deeds)
        all_groups = tuple((g.name, tuple(i for i, d in enumerate(deeds) if d.group == gi))
                           for gi, g in enumerate(board.groups))
        street_groups = tuple((n, idx) for n, idx in all_groups if deeds[idx[0]].kind == "street")
        players = BASE_PLAYERS
        if cfg.teams.enabled and cfg.teams.size > 1:
            players = 2 * cfg.teams.size
        players = max(min(players, cfg.setup.players_max), min(cfg.setup.players_min, 8), 2)
        params = {}
        for inv in load_invariants():
            for pid in inv.reads:
                params[pid] = param_value(cfg, pid)
        params.update(extras)
        return cls(cfg, players, deeds, street_groups, tuple(d.group for d in deeds), all_groups, params, extras)

    # -- convenience -------------------------------------------------------------
    def team_of(self, seat: int) -> int:
        """Teams sit alternately (seat i is in team i mod the number of teams), as the engine seats them."""
        t = self.config.teams
        return seat % (self.players // t.size) if t.enabled and t.size > 1 else seat

    @property
    def teams(self) -> bool:
        return bool(self.config.teams.enabled and self.config.teams.size > 1)

    def group_name(self, i: int) -> str:
        return self.all_groups[self.group_index[i]][0]

    def group_members(self, i: int) -> tuple[int, ...]:
        return self.all_groups[self.group_index[i]][1]

    @property
    def house_supply(self):
        return self.config.building.house_supply

    @property
    def hotel_supply(self):
        return self.config.building.hotel_supply

    @property
    def expiry_rounds(self):
        return self.config.mortgage.expiry_rounds

    def extra(self, pid: str) -> Any:
        return self.extras[pid]
