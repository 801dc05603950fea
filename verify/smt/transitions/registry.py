"""The declaration of a transition: what it models of the engine, its formula, its example.

A transition is declared at its formula with ``@transition(...)``: its name (engine
vocabulary, ``verify.vocabulary``), the engine actions it models, and, when it models
a step inside those actions rather than the whole action, the step (with a card's
effect, or a variant such as rent on a street). ``example`` gives concrete engine
plays of it for the differential test (``Example``); ``aliases`` are the names it had
before it took the engine's (still accepted, with a deprecation notice).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from ..model import Model
from .common import Build


@dataclass(frozen=True)
class Example:
    """A concrete play of a transition: a canonical state (``verify.state/1``), the engine actions that
    play it from there (``plays.auction(...)`` stands for a whole auction), and the transition's arguments
    on that state (``Args`` fields; the ones left out are for z3 to find, so give every argument the
    guard does not pin down; None: those the one engine action stands for, ``oracle.args_for``).

    The engine *allows* the example when it accepts every action and ends settled (no debt open, no
    decision pending but one of the phases ``then`` names, a next step's) and, for a step, records ``event`` (name, fields it must have) on the way: rent
    not charged at all is no rent step. ``args_from(events, state_after)`` adds arguments read from the
    engine's play (e.g. the income tax it charged). ``note`` names the case (e.g. "tie")."""

    state: dict
    actions: tuple[dict, ...]
    args: dict | None              # None: the arguments the one engine action stands for (oracle.args_for)
    event: tuple[str, dict] | None = None
    #: phases the play may end in: a next step's decision (an auction; "debt": a debt the model leaves open,
    #: such as the interest on a mortgage received, queued when the cash does not cover it)
    then: tuple[str, ...] = ()
    args_from: Callable[[list, dict], dict] | None = None
    note: str = ""


#: ``example(cfg, base, rnd)``: an Example for a config, from its engine's opening state ``base``, or None
#: when this config has no such play (e.g. no deed of the kind); ``rnd`` draws the state
ExampleFn = Callable[[Any, dict, random.Random], "Example | None"]


@dataclass(frozen=True)
class Transition:
    """One transition of the SMT model: ``build(m, s, x) -> (guard, state after)``.

    ``models``: the engine actions (``verify.vocabulary.ACTIONS``) whose effect it models: the whole
    action when ``step`` is None, else the step of them (``verify.vocabulary.STEPS``), with the card
    ``effect`` (``CARD_EFFECTS``) or ``variant`` it covers. ``disabled(m)`` says why a ruleset has no
    such transition (None: it has)."""

    name: str
    title: str
    build: Build
    models: tuple[str, ...]
    step: str | None = None
    effect: str | None = None
    variant: str | None = None
    disabled: Callable[[Model], str | None] = field(default=lambda m: None, compare=False)
    bank_free: bool = False                                     # the bank takes no part
    aliases: tuple[str, ...] = ()
    example: ExampleFn | None = field(default=None, compare=False)
    #: where the transition allows more than one successor for given arguments on purpose, why (the
    #: differential test then asks only that the engine's successor is among them)
    loose: Callable[[Model], str | None] = field(default=lambda m: None, compare=False)

    def examples(self, fn: ExampleFn) -> ExampleFn:
        """Attach ``fn`` as this transition's example (a decorator, used once, beside the formula)."""
        if self.example is not None:
            raise ValueError(f"transition {self.name!r} has an example already")
        object.__setattr__(self, "example", fn)     # frozen: set once, at the declaration
        return fn

    @property
    def link(self) -> str:
        """What it models, in the vocabulary's words: ``build_house``, ``roll > rent (street)``..."""
        part = self.step or ""
        if self.effect or self.variant:
            part += f" ({self.effect or self.variant})"
        return "|".join(self.models) + (f" > {part}" if part else "")


def transition(name: str, title: str, models: tuple[str, ...] | str, *, step: str | None = None,
               effect: str | None = None, variant: str | None = None,
               disabled: Callable[[Model], str | None] | None = None, bank_free: bool = False,
               aliases: tuple[str, ...] = (),
               loose: Callable[[Model], str | None] | None = None) -> Callable[[Build], Transition]:
    """Declare the decorated formula as a transition (see ``Transition``); its example is attached
    below it with ``@<transition>.examples``."""
    def wrap(build: Build) -> Transition:
        return Transition(name, title, build, (models,) if isinstance(models, str) else tuple(models),
                          step, effect, variant, disabled or (lambda m: None), bank_free, tuple(aliases),
                          loose=loose or (lambda m: None))
    return wrap
