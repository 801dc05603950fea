"""The names of the game's moves: one vocabulary for every reading of the rules.

A rule is read in three places: the reference engine plays it (``verify.engine``), the SMT model
proves things about it (``verify.smt``), and the conformance harness judges another engine by it
(``verify.conform``). They name what happens with the words of this module, and nothing else:

* an **action** is what a player (or the clock) does: the type of an action object
  (``{"type": "roll", ...}``); the engine declares each one's guard and effect
  (``verify.engine.actions``);
* a **step** is a part of an action's effect that the rules resolve on their own, in the order
  they resolve it: a roll passes GO (``salary``), lands on a street (``rent``), draws a card
  (``card``, with its ``effect``), pays a tax; a debt is settled (``debt_paid``) or ends in a
  ``bankruptcy``; a turn ends (``turn_ended``). An SMT transition models an action or a step of
  one (``models``), and an engine's automatic chain (rent, then its own ``liquidation``, a debt
  paid once covered, a bankruptcy, the next player) is a sequence of steps.

This module holds names and one line of meaning each; it imports nothing of the toolkit, so every
layer may read it. ``tests/test_vocabulary.py`` holds the engine's actions, its events and the
SMT transitions to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: Every action type, with what it does (the engine's registry declares each one's guard and effect).
ACTIONS: Final[dict[str, str]] = {
    "roll": "roll the dice and move: doubles, GO, the square landed on",
    "claim_rent": "ask for rent owed, where the owner must claim it",
    "end_turn": "end the turn after the move",
    "buy": "buy the deed landed on at its printed price",
    "decline": "decline the deed landed on",
    "bid": "bid in the running auction",
    "pass": "drop out of the running auction",
    "pay": "pay the open debt",
    "bankrupt": "declare bankruptcy over the open debt",
    "pay_tax": "choose how to pay the income tax",
    "casino_bet": "bet on the casino's die",
    "casino_decline": "walk past the casino",
    "bus": "take the speed die's bus",
    "move_to": "speed-die triples: move to any square",
    "stay": "stay in jail after a failed roll",
    "timeout": "the turn timer runs out",
    "pay_fine": "pay the fine to leave jail",
    "use_card": "use a Get Out of Jail Free card",
    "build_house": "build a house",
    "build_hotel": "build a hotel",
    "sell_house": "sell a house back to the bank",
    "sell_hotel": "break a hotel down and sell it",
    "mortgage": "mortgage a deed",
    "unmortgage": "lift the mortgage of one's own deed",
    "lift_mortgage": "take another player's mortgaged deed by paying off its mortgage",
    "auction_mortgaged": "put one's own mortgaged deed up for auction at once",
    "sell_group": "sell every building of a colour group back at once",
    "trade": "trade deeds, cash and Get Out of Jail Free cards",
    "surrender": "give up and leave the game",
}


@dataclass(frozen=True)
class Step:
    """A step the rules resolve inside an action: its name, what it is, and the engine event that records
    it (where the engine records one)."""

    name: str
    title: str
    event: str | None = None


def _steps(*steps: Step) -> dict[str, Step]:
    return {s.name: s for s in steps}


#: Every step, in the order a turn resolves them.
STEPS: Final[dict[str, Step]] = _steps(
    Step("jail_roll", "a roll from jail: doubles release the player, else a try is counted (the last try "
         "makes the fine due)"),
    Step("doubles", "a roll of doubles is counted and the same player rolls again (the third in a row goes "
         "to jail)"),
    Step("salary", "the GO salary (passing or landing on GO)", "salary"),
    Step("rent", "rent owed on landing on an owned deed (street, station or utility), paid or queued",
         "rent_due"),
    Step("card", "a Chance or Community Chest card drawn and its effect applied", "card"),
    Step("reshuffle", "a deck that runs out is reshuffled (a draw of chance)", "reshuffled"),
    Step("card_throw", "a card's own throw of the dice (the nearest-utility card; a draw of chance)",
         "card_throw"),
    Step("tax", "an income or luxury tax paid"),
    Step("free_parking", "landing on Free Parking takes the pot", "pot"),
    Step("jailed", "a player is sent to jail", "jailed"),
    Step("left_jail", "a player leaves jail", "left_jail"),
    Step("offer", "landing on an unowned deed offers it to the player, who buys or declines"),
    Step("auction", "an auction opens (a declined deed, a building the bank is short of, a forfeited "
         "mortgage)", "auction"),
    Step("auction_won", "an auction ends: the winner pays its bid and takes the item", "auction_won"),
    Step("debt", "a payment the payer's cash does not cover waits as a debt, to be raised and paid"),
    Step("liquidation", "a debtor's buildings sold and deeds mortgaged to raise the debt (an engine's own)"),
    Step("debt_paid", "a debt paid once the debtor's cash covers it", "paid"),
    Step("bankruptcy", "a bankrupt player's assets go where the rules send them", "bankrupt"),
    Step("mortgage_expired", "an unlifted mortgage is forfeited (and auctioned where the rules say)",
         "mortgage_expired"),
    Step("turn_ended", "the turn passes to the next player"),
    Step("game_over", "the game ends and its winner is named", "game_over"),
)

#: Every event the engine records in a game's trace, with what it records.
EVENTS: Final[dict[str, str]] = {
    "rolled": "the dice thrown", "salary": "the GO salary paid", "rent_due": "rent owed on a landing",
    "rent_claimed": "a rent claim made", "rent_lapsed": "a rent claim's deadline passed",
    "card": "a card drawn", "reshuffled": "a deck reshuffled", "card_throw": "a card's own throw of the dice",
    "building_destroyed": "a card destroyed a building", "pot": "the Free Parking pot taken",
    "jailed": "sent to jail", "left_jail": "out of jail", "mr_monopoly": "the speed die's Mr. Monopoly move",
    "bought": "a deed bought", "auction": "an auction opened", "bid": "a bid made",
    "auction_won": "an auction won", "auction_no_bid": "an auction closed without a bid",
    "built": "a house or hotel built", "sold": "a building sold back",
    "mortgaged": "a deed mortgaged", "unmortgaged": "a mortgage lifted",
    "mortgage_expired": "a mortgage forfeited", "traded": "a trade made", "paid": "a debt paid",
    "bankrupt": "a player bankrupt", "casino": "a casino bet settled", "timeout": "a turn timer ran out",
    "debt_timeout": "a repayment timer ran out", "game_over": "the game ended",
}

#: The effects a card may have (``effect`` of a card in ``rulesets/reference/decks.yaml``).
CARD_EFFECTS: Final[dict[str, str]] = {
    "bank": "pay the bank or collect from it",
    "advance_to": "move to a named square",
    "advance_nearest": "move to the nearest station or utility (paying a multiple of its rent)",
    "go_back": "move back a number of squares",
    "go_to_jail": "go to jail",
    "jail_free": "a Get Out of Jail Free card, kept or used",
    "each_player": "pay every other player or collect from each",
    "repairs": "pay per house and per hotel owned",
    "destroy_building": "a building of a player's is destroyed",
}


def step_of(name: str) -> Step:
    """The step called ``name`` (a KeyError names the unknown step)."""
    return STEPS[name]


__all__ = ["ACTIONS", "EVENTS", "Step", "STEPS", "CARD_EFFECTS",
           "step_of"]
