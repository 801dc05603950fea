"""The rules: one implementation of every rule the engine plays, as plain functions.

Every rule is a module-level function whose first two arguments are ``t`` (the
frozen per-config ``verify.config.tables.Tables``) and ``g`` (the mutable
``verify.engine.state.GameState``); nothing else is shared between rule families.
One module per family:

=========== ==============================================================
base        a new game; worth, levels, rent owed; money and stock moving
flow        resolving queued debts and auctions, ending a turn, the end
movement    rolling, moving, GO, landing, jail, the speed die's choices
cards       Chance and Community Chest (reshuffles, the card's own throw)
auctions    buying the square landed on, auctions of every kind
building    the management window; houses and hotels, shortages, selling
mortgages   mortgaging, lifting, the owner's own auction
trades      trades between players
debts       rent claims, paying, bankruptcy, surrender
extras      income tax choice, the casino, the timers
=========== ==============================================================

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
``module.function(t, ...)`` (a direct C call once compiled), and function names are
unique across the family modules (``verify.engine.bound`` binds them by name). Module
constants are ``Final`` (compiled in as constants, not looked up in the module's
namespace at each use); a value read from a dict (the awaited decision, an action)
that picks a list entry or a bot is given its type (``p: int = ...``); a list entry is
updated as ``xs[i] = xs[i] + k`` (mypyc compiles ``xs[i] += k`` as a generic addition).
"""

from __future__ import annotations

from . import auctions, base, building, cards, debts, extras, flow, mortgages, movement, trades
from .common import MANAGE_PHASES, MOVING, IllegalAction

#: the rule families, in the order of the table above
FAMILIES = (base, flow, movement, cards, auctions, building, mortgages, trades, debts, extras)

__all__ = ["FAMILIES", "IllegalAction", "MOVING", "MANAGE_PHASES"]

