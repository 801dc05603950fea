"""The rule values the SMT model reads, taken from an EngineConfig (the same one the engine plays by).

``Model`` adds to the config only what a proof needs: how many players the symbolic
state has, the colour groups as deed indexes, the values of the rule parameters that
invariants name (by catalogue id), and the config's ``Tables`` (``verify.config.tables``:
prices, rents, refunds, interest: the numbers the engine plays by, derived once).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import EngineConfig
from ..config.tables import Tables
from ..invariants import load_invariants, param_value
from .reads import tables_of

#: Players in the symbolic state: a debtor, a creditor and a bystander are enough for every
#: action here (all rules are symmetric in the seats); team games take two teams of `size`.
BASE_PLAYERS = 3


@dataclass(frozen=True)
class Model:
    config: EngineConfig                         # (or a verify.smt.reads.Recorder of one)
    players: int
    deeds: tuple
    street_groups: tuple[tuple[str, tuple[int, ...]], ...]
    group_index: tuple[int, ...]                 # per deed: index into ``all_groups``
    all_groups: tuple[tuple[str, tuple[int, ...]], ...]
    params: dict = field(compare=False)
    tables: Tables = field(compare=False)        # the config's tables (read through the recorder too)

    @classmethod
    def from_ruleset(cls, ruleset) -> "Model":
        return cls.from_config(EngineConfig.from_ruleset(ruleset))

    @classmethod
    def from_config(cls, cfg) -> "Model":
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
        return cls(cfg, players, deeds, street_groups, tuple(d.group for d in deeds), all_groups, params,
                   tables_of(cfg))

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
    def house_supply(self) -> Any:
        return self.config.building.house_supply

    @property
    def hotel_supply(self) -> Any:
        return self.config.building.hotel_supply

    @property
    def expiry_rounds(self) -> Any:
        return self.config.mortgage.expiry_rounds
