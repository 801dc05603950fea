"""A complete protocol-1 engine as a stand-alone script: JSON Lines on stdin/stdout.

    verify conform --engine-cmd "python docs/examples/conform_engine.py"

It plays by the reference engine's step API; replace the three marked lines with
calls into your own engine (any language works the same way: read a line, answer a line).
"""
import json
import sys

from verify.config import EngineConfig
from verify.engine.step import IllegalAction, apply

config = state = None
for line in sys.stdin:
    try:
        req = json.loads(line)
        op = req["op"]
        if op == "hello":
            answer = {"ok": True, "engine": "example-script", "version": "1.0", "protocol": 1}
        elif op == "load":
            config = EngineConfig.from_json(req["config"])        # your engine: read the rules
            state = req["state"]                                  # your engine: set up this position
            answer = {"ok": True}
        elif op == "apply":
            try:
                state, _events = apply(config, state, req["action"])   # your engine: play the action
                answer = {"ok": True, "state": state}
            except IllegalAction as exc:
                answer = {"ok": True, "illegal": exc.message}
        elif op == "state":
            answer = {"ok": True, "state": state}
        elif op == "bye":
            break
        else:
            answer = {"ok": False, "error": f"unknown op {op!r}"}
    except Exception as exc:  # a malformed request is answered, never fatal
        answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(answer), flush=True)
