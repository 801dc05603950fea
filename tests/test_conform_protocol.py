"""Protocol 1: every message the harness sends and the reference answers validates against the shipped
JSON Schemas; the harness's own reader rejects what they reject; the JSON Lines server answers
malformed requests with an error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from verify.conform import protocol
from verify.conform.protocol import EngineFault
from verify.conform.reference import ReferenceEngine
from verify.conform.serve import handle, serve

SCHEMAS = Path(__file__).parents[1] / "verify" / "schemas"


def _registry() -> Registry:
    docs = [json.loads(p.read_text()) for p in [SCHEMAS / "state.schema.json", *(SCHEMAS / "protocol").glob("*.json")]]
    action = json.loads((SCHEMAS / "action.schema.json").read_text())
    # apply's action refers to the registry's schema by its place beside the protocol's folder
    return Registry().with_resources([(d["$id"], Resource.from_contents(d)) for d in docs]
                                     + [("https://monopoly-verify/schemas/action.schema.json",
                                         Resource.from_contents(action))])


def _validator(name: str):
    doc = json.loads((SCHEMAS / "protocol" / f"{name}.schema.json").read_text())
    return jsonschema.Draft202012Validator(doc, registry=_registry())


def _game():
    from verify.conform.harness import load_target
    from verify.engine.step import new_game
    cfg, _ = load_target("official")
    return cfg.to_json(), new_game(cfg, 3, 1)


def test_the_actions_the_harness_sends_validate_against_the_registrys_schema():
    """apply's action is the action registry's schema: every action of generated scenarios (random fields
    filled) validates, and a malformed one does not."""
    from verify.conform.draw import Draw
    from verify.conform.harness import load_target
    from verify.conform.scenarios import Context, build
    cfg, promised = load_target("official")
    ctx = Context(cfg, promised)
    check = _validator("apply.request")
    kinds = set()
    for seed in range(40):
        for a in build(Draw(seed), ctx).actions:
            check.validate(protocol.apply_request(a))
            kinds.add(a["type"])
    assert {"roll", "build_house", "trade", "bid"} <= kinds
    with pytest.raises(jsonschema.ValidationError):
        check.validate(protocol.apply_request({"type": "roll", "seat": 0, "dice": [7, 1]}))


def test_every_message_of_a_session_validates():
    config, state = _game()
    eng = ReferenceEngine()
    msgs = [("hello.request", protocol.hello_request()), ("load.request", protocol.load_request(config, state)),
            ("apply.request", protocol.apply_request({"type": "roll", "seat": 0, "dice": [3, 4]})),
            ("state.request", protocol.STATE_REQUEST), ("bye.request", protocol.BYE_REQUEST)]
    for name, m in msgs:
        _validator(name).validate(m)
    _validator("hello.response").validate(handle(eng, protocol.hello_request()))
    _validator("load.response").validate(handle(eng, protocol.load_request(config, state)))
    accepted = handle(eng, protocol.apply_request({"type": "roll", "seat": state["current"], "dice": [3, 4]}))
    _validator("apply.response").validate(accepted)
    assert "state" in accepted
    refused = handle(eng, protocol.apply_request({"type": "buy", "seat": 2}))
    refused2 = handle(eng, protocol.apply_request({"type": "roll", "seat": 1, "dice": [1, 2]}))
    for r in (refused, refused2):
        _validator("apply.response").validate(r)
        assert "illegal" in r or "state" in r
    _validator("state.response").validate(handle(eng, protocol.STATE_REQUEST))
    assert handle(eng, protocol.BYE_REQUEST) is None


@pytest.mark.parametrize("request_", [["not", "an", "object"], {"op": "dance"}, {"op": "load"},
                                      {"op": "apply"}, {"op": "hello", "protocol": 2}])
def test_malformed_requests_get_an_error_answer(request_):
    answer = handle(ReferenceEngine(), request_)
    _validator("error.response").validate(answer)
    assert answer["ok"] is False and answer["error"]


def test_the_server_answers_line_by_line_and_stops_at_bye():
    config, state = _game()
    lines = [json.dumps(protocol.hello_request()), "this is not json", json.dumps(protocol.load_request(config, state)),
             json.dumps(protocol.STATE_REQUEST), json.dumps(protocol.BYE_REQUEST), json.dumps(protocol.STATE_REQUEST)]
    out = io.StringIO()
    assert serve(ReferenceEngine(), io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, True, True]          # nothing after bye
    assert answers[3]["state"] == state


@pytest.mark.parametrize("answer, message", [
    ({"ok": True, "engine": "x", "version": "1", "protocol": 2}, "protocol 2"),
    ({"ok": True, "version": "1", "protocol": 1}, "engine"),
    ({"ok": True, "engine": "x", "version": "1", "protocol": 1, "actions": ["fly"]}, "unknown action type"),
    ({"ok": True, "engine": "x", "version": "1", "protocol": 1, "compare": ["colour"]}, "unknown state key"),
    ({"ok": False, "error": "no"}, "error"),
    ("hello", "not a JSON object"),
])
def test_bad_hello_answers_are_protocol_faults(answer, message):
    with pytest.raises(EngineFault) as exc:
        protocol.read_hello(answer)
    assert message in exc.value.message
    if isinstance(answer, dict) and answer.get("ok") is True:
        with pytest.raises(jsonschema.ValidationError):
            _validator("hello.response").validate(answer)


def test_hello_declarations_are_read():
    h = protocol.read_hello({"ok": True, "engine": "x", "version": 3, "protocol": 1, "actions": ["buy", "roll"],
                             "compare": ["players", "bank"]})
    assert h.actions == ("roll", "buy") and h.compare == ("players", "bank") and h.version == "3"
    assert protocol.read_hello({"ok": True, "engine": "x", "version": "1", "protocol": 1}).compare == \
        protocol.REQUIRED_STATE_KEYS


@pytest.mark.parametrize("answer", [{"ok": True}, {"ok": True, "state": {}, "illegal": "no"},
                                    {"ok": True, "illegal": 3}, {"ok": True, "state": {"schema": "x"}},
                                    {"ok": True, "state": {"schema": "verify.state/1"}}])
def test_bad_apply_answers_are_protocol_faults(answer):
    with pytest.raises(EngineFault):
        protocol.read_apply(answer)
    with pytest.raises(jsonschema.ValidationError):
        _validator("apply.response").validate(answer)


def test_required_keys_match_the_state_schema():
    schema = json.loads((SCHEMAS / "state.schema.json").read_text())
    assert tuple(schema["required"]) == protocol.REQUIRED_STATE_KEYS
    assert set(schema["properties"]) == set(protocol.STATE_KEYS)


def test_hello_schema_lists_the_action_types_state_keys_phases_and_behaviours():
    from verify.engine.step import ACTION_TYPES
    doc = json.loads((SCHEMAS / "protocol" / "hello.response.schema.json").read_text())
    assert doc["properties"]["actions"]["items"]["enum"] == list(ACTION_TYPES)
    assert doc["properties"]["compare"]["items"]["enum"][:len(protocol.STATE_KEYS)] == list(protocol.STATE_KEYS)
    nested = doc["properties"]["compare"]["items"]["enum"][len(protocol.STATE_KEYS):]
    assert "players.cash" in nested and "bank.cash" in nested and set(nested) == set(protocol._nested_names())
    assert doc["properties"]["phases"]["items"]["enum"] == list(protocol.PHASES)
    assert doc["properties"]["automatic"]["items"]["enum"] == list(protocol.AUTOMATIC)
    state = json.loads((SCHEMAS / "state.schema.json").read_text())
    assert state["properties"]["phase"]["enum"] == list(protocol.PHASES)


def test_a_profile_is_read_from_hello():
    h = protocol.read_hello({"ok": True, "engine": "x", "version": "1", "protocol": 1, "phases": ["buy", "pre_roll"],
                             "automatic": ["rent_at_once"], "setup": True})
    assert h.phases == ("pre_roll", "buy") and h.automatic == ("rent_at_once",) and h.setup is True
    _validator("hello.response").validate({"ok": True, "engine": "x", "version": "1", "protocol": 1,
                                           "phases": ["buy"], "automatic": ["liquidation"], "setup": False})
    plain = protocol.read_hello({"ok": True, "engine": "x", "version": "1", "protocol": 1})
    assert plain.phases is None and plain.automatic == () and plain.setup is False


@pytest.mark.parametrize("extra, message", [({"phases": ["limbo"]}, "unknown phase"),
                                            ({"automatic": ["cheats"]}, "unknown automatic behaviour"),
                                            ({"setup": "yes"}, "setup")])
def test_a_bad_profile_is_a_protocol_fault_and_the_schema_agrees(extra, message):
    answer = {"ok": True, "engine": "x", "version": "1", "protocol": 1, **extra}
    with pytest.raises(EngineFault) as exc:
        protocol.read_hello(answer)
    assert message in exc.value.message
    with pytest.raises(jsonschema.ValidationError):
        _validator("hello.response").validate(answer)


def test_unsupported_loads_and_new_games_are_answers_not_faults():
    assert protocol.read_load({"ok": True}) is None
    assert protocol.read_load({"ok": True, "unsupported": "no debts here"}) == "no debts here"
    _validator("load.response").validate({"ok": True, "unsupported": "no debts here"})
    with pytest.raises(EngineFault):
        protocol.read_load({"ok": True, "unsupported": 3})
    config, state = _game()
    req = protocol.new_game_request(config, 3, 1, protocol.setup_draws(state))
    _validator("new_game.request").validate(req)
    answer = handle(ReferenceEngine(), req)
    _validator("new_game.response").validate(answer)
    assert protocol.read_new_game(answer) == ("state", state)
    assert protocol.read_new_game({"ok": True, "unsupported": "no setup"}) == ("unsupported", "no setup")
    _validator("new_game.response").validate({"ok": True, "unsupported": "no setup"})


def test_the_server_answers_unsupported_for_an_engine_that_raises_it():
    from verify.conform import Unsupported

    class Picky(ReferenceEngine):
        def load(self, config, state):
            raise Unsupported("only new games")

    config, state = _game()
    assert handle(Picky(), protocol.load_request(config, state)) == {"ok": True, "unsupported": "only new games"}
