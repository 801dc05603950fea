"""The rules: one implementation of every rule the engine plays, as plain functions.

Every rule is a module-level function whose first two arguments are ``t`` (the
frozen per-config ``verify.config.tables.Tables``) and ``g`` (the mutable
``verify.engine.state.GameState``); nothing else is shared between rule families.
One module per family:

============ =============================================================
base         a new game; worth, levels, rent owed; money and stock moving
cards        the decks: drawing, reshuffling, the effects of cards that move no token
construction who may build or sell where; supply and shortages; putting buildings up
movement     moving a token: GO, the square landed on, cards' moves, jail, Mr. Monopoly
flow         resolving queued debts and auctions, ending a turn, the end
auctions     buying the square landed on, bidding, closing an auction
building     building and selling houses and hotels (a shortage auctions the building)
mortgages    mortgaging, lifting, the owner's own auction
trades       trades between players
debts        rent claims, paying, bankruptcy, surrender
turns        rolling, the ways out of jail, the speed die's bus and triples
extras       income tax choice, the casino, the timers
============ =============================================================

A family imports only the families above it in this table (no cycle: a test holds it so).
The order follows what calls what: the rules of the board below (``base`` to ``movement``), the
game's continuation (``flow.resume``: the queued debts and auctions, the rest of a move, the
next turn) in the middle, and the actions that hand the game on to it above.

Two kinds of function serve the step API (``verify.engine.actions`` declares which
belongs to which action):

* ``why_not_<action>(t, g, seat, ...)``: the refusal (a ``verify.engine.reasons.Reason``),
  or ``None`` when the action is legal (the guard);
* ``<action>(t, g, seat, ...)``: perform it, assuming the guard passed (the effect).

A move is resolved until a decision is needed; the state then waits in a phase
(``buy``, ``auction``, ``debt``, ...) with ``pending`` describing the decision.
Randomness never happens here: dice and casino draws arrive inside actions, and
a deck reshuffle or a card's own throw is given by the action or drawn from a
generator seeded by the state, so a state plus an action always gives the same
successor.

Conventions the compiled engine (``verify.engine.native``, mypyc) relies on: every
function is annotated (``t: Tables``, ``g: GameState``), a rule calls another as
``module.function(t, ...)`` (a direct C call once compiled); callers outside the rules
call them the same way, through the build's modules (``engine.rules.building``). Module
constants are ``Final`` (compiled in as constants, not looked up in the module's
namespace at each use); a value read from a dict (the awaited decision, an action)
that picks a list entry or a bot is given its type (``p: int = ...``); a list entry is
updated as ``xs[i] = xs[i] + k`` (mypyc compiles ``xs[i] += k`` as a generic addition).
"""

from __future__ import annotations

from . import (auctions, base, building, cards, construction, debts, extras, flow, mortgages, movement, trades,
               turns)
from .common import MANAGE_PHASES, MOVING, IllegalAction

#: the rule families, in the order of the table above (a family imports only those before it)
FAMILIES = (base, cards, construction, movement, flow, auctions, building, mortgages, trades, debts, turns, extras)

__all__ = ["FAMILIES", "IllegalAction", "MOVING", "MANAGE_PHASES"]

