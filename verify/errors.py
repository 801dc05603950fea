"""One root exception for every error the toolkit reports about its input.

Bad input never ends in a traceback: commands catch ``VerifyError`` and print
``file:line: [code] message``. Codes are numbered once, here, so that users
and tests can rely on them (an idea taken from Quint's error list).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Every error code the toolkit emits, with its one-line meaning.
CODES = {
    "E001": "malformed YAML",
    "E002": "unknown parameter",
    "E003": "wrong type or value outside the parameter's domain",
    "E004": "cross-parameter constraint broken",
    "E005": "extends names a ruleset that does not exist",
    "E006": "extends is cyclic",
    "E007": "quote does not occur in its source",
    "E008": "parameter given twice in one file",
    "E009": "malformed ruleset file: its top-level structure (id, kind, extends, promises, rules)",
    "E010": "unknown source file",
    "E011": "unknown ruleset",
    "E012": "parameter left undecided (neither cited, assumed, silent nor open)",
    "E013": "unknown invariant",
    "E014": "malformed or unsafe expression",
    "E015": "engine adapter failed",
    "E016": "trace does not follow the rules",
    "E017": "invalid game state or action",
    "E018": "the reference engine cannot play a rule value of this ruleset",
    "E019": "a silent or open entry whose fallback switches off a mechanism the ruleset cites",
    "E020": "an open value not supplied where a value must be played",
    "E021": "unknown or malformed reading",
    "E022": "input over a resource limit (file size, YAML alias expansion, entries)",
    "E023": "a quote that does not carry its value (too short, or without the value's number)",
    "E024": "an output location holding files the toolkit did not write, or read-only",
    "E025": "a campaign directory that does not match the campaign resumed",
    "E026": "malformed conformance scenario file, engine spec or engine game log",
    "E027": "a rule parameter read from a compiled engine config that does not carry it",
    "E028": "malformed ruleset entry (a parameter's value, quote, gloss or reason)",
    "E029": "one ruleset id defined by two files",
    "E030": "malformed specification or board data shipped with the toolkit (catalogue, constraints, "
            "invariants, questions, comparison, waivers, deeds, decks)",
    "E031": "a saved document that is not what it claims (check results, study, engine config)",
    "E032": "saved check results that do not match the rulesets as they are now (stale, or for others)",
    "E033": "unknown action name",
    "E034": "an entry marked not applicable where the catalogue declares no condition, or its condition holds",
    "E035": "the compiled engine asked for (VERIFY_ENGINE=compiled) is not in this install or not of this source",
    "E036": "an unknown engine build named (VERIFY_ENGINE, or an engine path)",
    "E037": "malformed claim of a ruleset entry (what it says, what it settles, its evidence)",
}


@dataclass(frozen=True)
class Location:
    """Where a problem is: a file and, when known, a 1-based line."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class VerifyError(Exception):
    """Root of every error the toolkit raises about its input or a peer."""

    def __init__(self, code: str, message: str, where: Location | None = None):
        assert code in CODES, code
        self.code = code
        self.message = message
        self.where = where
        super().__init__(str(self))

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}[{self.code}] {self.message}"

    def __reduce__(self):
        # survive pickling (an error raised in a worker process or on a Dask worker reaches the command
        # intact), whatever the subclass's constructor takes
        return (_rebuild, (type(self), dict(self.__dict__), self.args))


def _rebuild(cls, state: dict, args: tuple) -> "VerifyError":
    err = cls.__new__(cls)
    Exception.__init__(err, *args)
    err.__dict__.update(state)
    return err


class SpecError(VerifyError):
    """A ruleset, catalogue or spec file is wrong."""


class ExprError(VerifyError):
    """An expression in the spec language is malformed or uses something not allowed."""

    def __init__(self, message: str, where: Location | None = None):
        super().__init__("E014", message, where)


class GameError(VerifyError):
    """A game state or action is invalid (bad input to the engine, not a rule refusal)."""

    def __init__(self, message: str, where: Location | None = None):
        super().__init__("E017", message, where)


class AdapterError(VerifyError):
    """A third-party engine crashed, hung or answered out of protocol."""

    def __init__(self, message: str, where: Location | None = None):
        super().__init__("E015", message, where)


class ErrorList(VerifyError):
    """Several independent problems found in one pass (lint reports them all)."""

    def __init__(self, errors: list[VerifyError]):
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.code, first.message, first.where)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
