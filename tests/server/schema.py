"""The protocol's JSON Schema (docs/protocol.schema.json) as the tests use it: every message
a server test receives is checked against it (tests/server/helpers.py)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"


@cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return data


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of one definition (``client``, ``server``, ``http.info`` ...)."""
    return Draft202012Validator({**schema(), "$ref": f"#/$defs/{name}"})


def check(name: str, message: Any) -> None:
    """Fail, naming the message and what the schema says, unless it is a valid ``name``."""
    worst = best_match(validator(name).iter_errors(message))
    if worst is not None:
        where = "/".join(str(p) for p in worst.absolute_path) or "(the message)"
        shown = json.dumps(message)[:400]
        raise AssertionError(f"not a valid {name} message per {SCHEMA_FILE.name} at {where}: {worst.message}\n{shown}")


def refuses(name: str, message: Any) -> bool:
    return not validator(name).is_valid(message)
