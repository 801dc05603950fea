"""``verify check`` whole: the SMT checks of every ruleset, then their refutations judged on real games.

The SMT layer (``verify.smt.run``) resolves the rulesets, groups them in families and runs each
family as one chunk of a campaign; this module gives it the chunk function that, in the same worker,
judges each ruleset's results on the engine (``verify.runs.judge``): a VIOLATED kept only with a run
from a game's start, a counterexample to induction proved with lemmas or left UNKNOWN, live rules
seen in play. Commands and the report call ``check`` here.
"""

from __future__ import annotations

from ..smt import run as smt_run
from ..smt.reach import DEFAULT_DEPTH
from ..smt.verdict import CheckResult
from .judge import judge


def run_chunk(chunk: smt_run.CheckChunk) -> list[dict]:
    """The SMT checks of the chunk's rulesets (``verify.smt.run.run_chunk``), each ruleset's judged."""
    rows = [CheckResult.from_record(rec) for rec in smt_run.run_chunk(chunk)]
    out: list[CheckResult] = []
    for t in chunk.targets:
        mine = [r for r in rows if r.ruleset == t.id]
        if smt_run.unsupplied(t.ruleset):
            # open values: each cell may stand for another value than the fallback the engine would play
            out += judge_open(t, mine, chunk)
        else:
            out += judge(t, mine, chunk.timeout_s, chunk.depth, chunk.actions)
    return [r.to_record() for r in out]


def judge_open(t, rows: list[CheckResult], chunk: smt_run.CheckChunk) -> list[CheckResult]:
    """A ruleset with open values: the checks of its fallbacks are judged like any ruleset's (the engine plays
    the fallbacks); a refutation found for another value (its reason names the value) is left as it is."""
    fallback = [r for r in rows if not (r.reason or "").startswith("with ") or r.reason.startswith("with the fallbacks")]
    judged = judge(t, fallback, chunk.timeout_s, chunk.depth, chunk.actions)
    by_id = {id(r): j for r, j in zip(fallback, judged)}
    return [by_id.get(id(r), r) for r in rows]


def check(names: list[str] | None = None, timeout_s: float = 10.0, jobs: int | None = None, bounded_k: int = 3,
          actions: tuple[str, ...] = (), settings: dict | None = None, scheduler: str | None = None, resume=None,
          progress: bool = False, label: str = "check", depth: int = DEFAULT_DEPTH) -> list[CheckResult]:
    """Every check on every named ruleset (``verify.smt.run.check``), judged on real games; ``depth`` is the
    longest run from a game's start searched, in moves before the breaking one."""
    return smt_run.check(names, timeout_s, jobs, bounded_k, actions, settings, scheduler, resume, progress, label,
                         chunk_fn=run_chunk, depth=depth)
