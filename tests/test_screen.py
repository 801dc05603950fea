"""A checked game's screen (``verify.engine.screen``) says "every promised invariant holds" only when the
reference says so, and a checked game is the unchecked game.

The screen runs on the game loop's fast path after every action: it finds what changed (the deed columns
by the squares a rule wrote, ``GameState.dirty``), runs the generated functions of the invariants that
read a change (``verify.engine.screen_predicates``, written from ``specs/invariants.yaml`` by
``verify.screen_code``) and, when one fails, the game is played again through the recorder, whose
reference checks report the violation. These tests hold each link to the reference: the module is what
the spec gives; every rule that writes a deed column marks its square; on states an engine corrupts, the
screen is never sure where the reference finds a violation; checked games are the unchecked ones and are
never played twice on the bundled rulesets; and a broken ruleset is reported exactly as the recorder
alone reports it.
"""

import ast
import random
from pathlib import Path

import pytest

from verify import screen_code
from verify.config import EngineConfig
from verify.engine import screen as screen_module
from verify.engine.engines import rules_for
from verify.engine.loop import FIELDS
from verify.engine.policies import make_policies
from verify.engine.simulate import play_game
from verify.engine.slices import action_for_check
from verify.engine.actions import awaited
from verify.engine.state import UNLIMITED
from verify.engine.trace import InvariantBroken, InvariantChecker, TraceRecorder
from verify.invariants import check_state, check_step
from verify.spec import load_ruleset
from tests.test_engine_compiled import _players, playable

RULES = Path(screen_code.__file__).resolve().parent / "engine" / "rules"
DEED_COLUMNS = ("owner", "mortgaged", "houses", "hotel")
PATHS = [pytest.param("compiled", marks=pytest.mark.compiled), "readable"]


def test_the_generated_module_is_what_the_spec_gives():
    assert screen_code.TARGET.read_text(encoding="utf-8") == screen_code.module_source()
    assert screen_code.main(["--check"]) == 0


def test_a_stale_module_is_refused(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "screen_predicates.py"
    stale.write_text(screen_code.module_source().replace("return False", "return True", 1), encoding="utf-8")
    monkeypatch.setattr(screen_code, "TARGET", stale)
    assert screen_code.main(["--check"]) == 1
    assert "verify.screen_code --write" in capsys.readouterr().err


def _writes(tree: ast.AST) -> list[tuple[ast.stmt, str]]:
    """Every statement that writes an item of a deed column, with the source of its index."""
    out = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)
                    and target.value.attr in DEED_COLUMNS):
                out.append((node, ast.unparse(target.slice)))
            elif isinstance(target, ast.Attribute) and target.attr in DEED_COLUMNS:
                out.append((node, "*"))         # the whole column replaced
    return out


def test_every_rule_that_writes_a_deed_column_marks_its_square():
    """Statically: in every rule module, each write of ``g.<deed column>[s]`` is followed, after the writes of
    deed columns at the same square right after it, by its mark ``g.mark(s)``; no column is replaced whole,
    and nothing writes a deed column through another name than ``g``."""
    checked = 0
    for path in sorted(RULES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for block in ast.walk(tree):
            for field in ("body", "orelse", "finalbody"):
                stmts = getattr(block, field, None)
                if not isinstance(stmts, list):
                    continue
                for i, stmt in enumerate(stmts):
                    for node, index in _writes(stmt) if not hasattr(stmt, "body") else []:
                        where = f"{path.name}:{node.lineno}"
                        assert index != "*", f"{where} replaces a deed column whole"
                        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                        assert ast.unparse(target.value.value) == "g", f"{where} writes through another name"
                        rest = stmts[i + 1:]
                        while rest and [x for _, x in _writes(rest[0])] == [index] and not hasattr(rest[0], "body"):
                            rest = rest[1:]
                        assert rest and ast.unparse(rest[0]) == f"g.mark({index})", \
                            f"{where}: the write is not followed by the mark of square {index}"
                        checked += 1
    assert checked >= 30


def _corrupt(g, rng: random.Random, ownable: tuple) -> str:
    """Change one thing an invariant reads, as a rule would (a deed column's square marked); what changed."""
    n = len(g.cash)
    i, sq = rng.randrange(n), rng.choice(ownable)
    how = rng.randrange(11)
    if how < 4:
        column = DEED_COLUMNS[how]
        values = getattr(g, column)
        values[sq] = (rng.choice([-1, *range(n)]) if column == "owner" else values[sq] + rng.choice([1, 2])
                      if column == "houses" else not values[sq])
        g.mark(sq)
        return column
    if how == 4:
        g.cash[i] += rng.choice([-1, 1, 50, -100_000])
        return "cash"
    if how == 5:
        g.pot = rng.choice([g.pot + 5, -1])
        return "pot"
    if how == 6:
        g.jackpot += 3
        return "jackpot"
    if how == 7:
        g.bank_cash += 7
        return "bank_cash"
    if how == 8:
        g.bankrupt[i] = not g.bankrupt[i]
        return "bankrupt"
    if how == 9:
        g.jail_cards[i].append("chance-jail")
        return "cards"
    if g.bank_houses < UNLIMITED // 2:
        g.bank_houses += rng.choice([-1, 1])
    return "bank_houses"


class _Judge:
    """A recorder that applies each action as the fast path does, corrupts the state after some actions, and
    asks the screen and the reference (``check_state + check_step`` on the canonical states). Where the
    reference finds a violation the screen must not be sure; where the screen is not sure, the reference must
    find one, unless the corruption made a player bankrupt (a bankruptcy the rules did not record: the
    screen cannot read its action, and leaves the game to the recorder). Uncorrupted, a step's changed deed
    squares must all be marked. After a corrupted step the state is put back and the screen made anew."""

    def __init__(self, cfg: EngineConfig, promised: list[str], rng: random.Random, rate: float):
        self.cfg, self.promised, self.rng, self.rate = cfg, promised, rng, rate
        self.checker = InvariantChecker(cfg, promised)
        self.steps = self.unsure = self.broken = 0

    def start(self, rules, g):
        self.rules = rules
        self.screen = self.checker.screen(rules, g)
        assert self.screen is not None and self.screen.ok
        self.before = g.to_json(rules.t.ownable)

    def step(self, rules, g, action):
        g.events = []
        seat = action.get("seat")
        rules.dispatch[action["type"]][1](g, awaited(g) if seat is None else seat,
                                          *[action.get(f, v) for f, v in FIELDS[action["type"]]])
        saved = g.copy() if self.rng.random() < self.rate else None
        what = _corrupt(g, self.rng, rules.t.ownable) if saved is not None else None
        if saved is None:
            b = self.screen.before
            changed = {sq for sq in range(len(g.owner)) if any(
                getattr(g, c)[sq] != getattr(b, c)[sq] for c in DEED_COLUMNS)}
            assert all(g.dirty >> sq & 1 for sq in changed), (action, changed, bin(g.dirty))
        ok = self.screen.after(g)
        after = g.to_json(rules.t.ownable)
        act = action_for_check(action, g.events or [])
        want = check_state(self.cfg, after, self.promised) + check_step(self.cfg, self.before, after, act,
                                                                         self.promised)
        assert not (want and ok), (self.steps, action, what, [str(v) for v in want])
        assert ok or want or what == "bankrupt", (self.steps, action, what)
        self.steps += 1
        self.unsure += not ok
        self.broken += bool(want)
        if saved is not None:
            for name in ("cash", "owner", "mortgaged", "houses", "hotel", "bankrupt", "jail_cards", "pot",
                         "jackpot", "bank_cash", "bank_houses"):
                setattr(g, name, getattr(saved, name))
            g.dirty = 0
        if saved is not None or not ok:
            self.screen = self.checker.screen(rules, g)
            assert self.screen.ok
        self.before = g.to_json(rules.t.ownable)

    def finish(self, rules, g):
        pass


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("rid", ["official", "online-vn", "platform-teams", "official-short"])
def test_the_screen_is_not_sure_wherever_the_reference_finds_a_violation(rid, path):
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    judge = _Judge(cfg, r.promised(), random.Random(3), 0.2)
    play_game(rules_for(cfg, path), make_policies("heuristic", _players(cfg), "leave", 9), 9, 150, judge)
    assert judge.steps > 300 and judge.broken > 20 and judge.unsure >= judge.broken


@pytest.mark.parametrize("path", PATHS)
def test_uncorrupted_games_mark_every_changed_square_and_are_never_unsure(path):
    for seed, rid in enumerate(("official", "classic-pl", "platform-custom", "house-free-parking-pot"), start=1):
        r = load_ruleset(rid)
        cfg = EngineConfig.from_ruleset(r)
        judge = _Judge(cfg, r.promised(), random.Random(seed), 0.0)
        play_game(rules_for(cfg, path), make_policies("heuristic", _players(cfg), "leave", seed), seed, 300, judge)
        assert judge.steps > 100 and judge.unsure == 0 == judge.broken, rid


@pytest.mark.parametrize("path", PATHS)
def test_checked_games_are_the_unchecked_games_played_once(path):
    """On every bundled ruleset, a checked game (no trace) is screened, never played again, ends as the
    unchecked game ends, and counts the actions the recorder counts."""
    for rid in playable():
        r = load_ruleset(rid)
        cfg = EngineConfig.from_ruleset(r)
        engine = rules_for(cfg, path)
        checker = InvariantChecker(cfg, r.promised())
        for seed in (3, 4):
            recorder = TraceRecorder(None, None, checker)
            checked = play_game(engine, make_policies("heuristic", _players(cfg), "leave", seed), seed, 300,
                                recorder)
            plain = play_game(engine, make_policies("heuristic", _players(cfg), "leave", seed), seed, 300)
            assert checked == plain, rid
            assert recorder._screen is not None and not recorder._precise, rid
            recorded = _Unscreened(None, None, checker)
            play_game(engine, make_policies("heuristic", _players(cfg), "leave", seed), seed, 300, recorded)
            assert recorder.steps == recorded.steps > 0, rid      # the same actions, each checked once


class _Unscreened(TraceRecorder):
    """The recorder with no screen: it checks every action itself (the reference's path)."""

    def screen_for(self, rules, g):
        return None


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("fixture", sorted((Path(__file__).parent / "fixtures" / "negative").glob("*.yaml")))
def test_a_broken_ruleset_is_reported_as_the_recorder_alone_reports_it(fixture, path):
    r = load_ruleset(str(fixture))
    cfg = EngineConfig.from_ruleset(r)
    engine = rules_for(cfg, path)
    checker = InvariantChecker(cfg, r.promised())
    for seed in range(40):
        reports = []
        for recorder in (TraceRecorder(None, None, checker), _Unscreened(None, None, checker)):
            try:
                play_game(engine, make_policies("heuristic", _players(cfg), "leave", seed), seed, 400, recorder)
                reports.append(None)
            except InvariantBroken as exc:
                reports.append(exc.report())
        assert reports[0] == reports[1], (fixture.name, seed)
        if reports[0] is not None:
            return
    pytest.fail(f"{fixture.name}: no game of 40 broke an invariant")


def test_a_ruleset_whose_invariant_has_no_function_is_checked_by_the_recorder(monkeypatch):
    r = load_ruleset("official")
    cfg = EngineConfig.from_ruleset(r)
    engine = rules_for(cfg, "readable")
    monkeypatch.setattr(screen_module, "STATES", [row for row in screen_module.STATES if row[0] != "even-build"])
    checker = InvariantChecker(cfg, r.promised())
    recorder = TraceRecorder(None, None, checker)
    play_game(engine, make_policies("heuristic", 4, "leave", 1), 1, 50, recorder)
    assert recorder._screen is None and recorder.steps > 0


def test_a_rule_that_creates_money_stops_the_screened_game_where_the_recorder_stops_it(monkeypatch):
    """The readable engine's purchase, patched to create money: the screened game (the fast path) is not sure
    after the first purchase, and the game played again through the recorder reports money conservation
    broken there, as the recorder alone does."""
    from verify.engine.rules import auctions
    r = load_ruleset("official")
    cfg = EngineConfig.from_ruleset(r)
    engine = rules_for(cfg, "readable")
    buy = auctions.buy

    def buy_and_print_money(t, g, seat):
        buy(t, g, seat)
        g.cash[seat] += 7

    monkeypatch.setattr(auctions, "buy", buy_and_print_money)
    guard, effect = engine.dispatch["buy"]
    monkeypatch.setitem(engine.dispatch, "buy", (guard, lambda g, seat: buy_and_print_money(engine.t, g, seat)))
    reports = []
    for recorder in (TraceRecorder(None, None, InvariantChecker(cfg, r.promised())),
                     _Unscreened(None, None, InvariantChecker(cfg, r.promised()))):
        with pytest.raises(InvariantBroken) as info:
            play_game(engine, make_policies("heuristic", 4, "leave", 5), 5, 300, recorder)
        reports.append(info.value.report())
    assert reports[0] == reports[1]
    assert reports[0]["action"]["type"] == "buy" and "money-conservation" in reports[0]["violations"][0]


@pytest.mark.parametrize("path", PATHS)
def test_a_random_bot_plays_the_same_game_again_when_the_screen_is_not_sure(path):
    """The random bot draws from its own generator: the game played again through the recorder starts from
    the generator's state at the game's start (``play_game`` puts it back), so it is the same game and stops
    at the same action as the recorder alone."""
    r = load_ruleset(str(Path(__file__).parent / "fixtures" / "negative" / "supply-never-decremented.yaml"))
    cfg = EngineConfig.from_ruleset(r)
    engine = rules_for(cfg, path)
    checker = InvariantChecker(cfg, r.promised())
    broken = 0
    for seed in range(8):
        reports = []
        for recorder in (TraceRecorder(None, None, checker), _Unscreened(None, None, checker)):
            try:
                play_game(engine, make_policies("random", 4, "leave", seed), seed, 300, recorder)
                reports.append(None)
            except InvariantBroken as exc:
                reports.append(exc.report())
        assert reports[0] == reports[1], seed
        broken += reports[0] is not None
    assert broken >= 2


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS)
def test_every_ruleset_and_bot_marks_every_changed_square_and_is_never_unsure(path):
    """The uncorrupted check on every playable ruleset, random and heuristic bots, two games each (the random
    bots reach the rarer rules: cards that take buildings, mortgaged auctions, teams, expiry)."""
    steps = 0
    for rid in playable():
        r = load_ruleset(rid)
        cfg = EngineConfig.from_ruleset(r)
        for policy in ("random", "heuristic"):
            for seed in (21, 22):
                judge = _Judge(cfg, r.promised(), random.Random(seed), 0.0)
                play_game(rules_for(cfg, path), make_policies(policy, _players(cfg), "leave", seed), seed, 500, judge)
                assert judge.unsure == 0 == judge.broken, (rid, policy, seed)
                steps += judge.steps
    assert steps > 50_000
