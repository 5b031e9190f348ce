"""Bounded JSON: the one reader of every JSON that comes from outside.

Game records and save files, edition files, Knight Rider piece files and the views
``rallye bot`` reads are all read here, within stated limits, so that no input (a nesting
200,000 deep, a 5,000-digit number, bytes that are not UTF-8, a line or a file of
gigabytes) costs more than a bounded time and memory or ends in a traceback. Every refusal
is the caller's :class:`~rallye.core.errors.GameError` subclass, naming the source, the
line and the limit:

>>> loads('{"a": [1, 2]}', source="x.json")
{'a': [1, 2]}
>>> loads("[" * 200_000, source="x.json")
Traceback (most recent call last):
...
rallye.core.errors.ConfigError: x.json: line 1: nested deeper than 32 levels [rule: json-limits]
>>> loads("1" * 5000, source="x.json", error=RecordError)
Traceback (most recent call last):
...
rallye.core.errors.RecordError: x.json: line 1: a 5000-character number (the most is 40) [rule: json-limits]
>>> loads("[1e400]", source="x.json")
Traceback (most recent call last):
...
rallye.core.errors.ConfigError: x.json: line 1: the number 1e400 is too large [rule: json-limits]
>>> loads('{"a": ', source="x.json")
Traceback (most recent call last):
...
rallye.core.errors.ConfigError: x.json: line 1 is not valid JSON (Expecting value at column 7) [rule: json-format]
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from rallye.core.errors import ConfigError, GameError, RecordError

#: Deepest nesting of arrays and objects accepted (the deepest rallye file nests 5).
MAX_DEPTH = 32
#: Most characters in one number (a 128-bit seed has up to 39 digits, and its sign).
MAX_NUMBER_CHARS = 40
#: Largest line of a JSON-lines file, and largest view ``rallye bot`` reads (bytes).
MAX_LINE_BYTES = 1 << 20
#: Largest file read: game records and save files (a long Knight Rider game is about 1 MB).
MAX_RECORD_BYTES = 16 << 20
#: Largest edition, tile or escape-card file.
MAX_CONFIG_BYTES = 1 << 20

LIMITS_RULE = "json-limits"
FORMAT_RULE = "json-format"

#: a string (skipped whole), a bracket, or a number longer than the limit
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{\]}]|NaN|Infinity|-?[0-9][0-9.eE+-]{' + str(MAX_NUMBER_CHARS) + ",}")
_LONG_NUMBER = re.compile("[0-9.eE+-]{" + str(MAX_NUMBER_CHARS + 1) + ",}")


def shown(value: object, limit: int = 40) -> str:
    """A value read from JSON, for a message, as JSON writes it (``null``, ``[1, 2]``,
    ``"x"``: never Python's ``None`` or a tuple), cut to ``limit`` characters.

    >>> shown(None), shown((1, 2)), shown("x"), shown("y" * 50, 8)
    ('null', '[1, 2]', '"x"', '"yyyyyy…')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON (a set, an object): its text
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown_field(obj: object, name: str) -> str:
    """``obj[name]`` for a message (see :func:`shown`), or ``missing`` if there is none.

    >>> shown_field({"a": None}, "a"), shown_field({}, "a")
    ('null', 'missing')
    """
    return shown(obj[name]) if isinstance(obj, dict) and name in obj else "missing"


def _where(source: str, line: int | None) -> str:
    return source if line is None else f"{source}: line {line}"


def check_limits(text: str, *, source: str, line: int | None = 1, error: type[GameError] = ConfigError) -> None:
    """Refuse text nested deeper than :data:`MAX_DEPTH` or holding a number longer than
    :data:`MAX_NUMBER_CHARS` (looking outside strings only), before a parser recurses into
    it or converts it; ``line`` is the text's line in its file, or ``None`` for a whole file
    (the line is then counted)."""
    if (
        text.count("[") + text.count("{") <= MAX_DEPTH
        and not _LONG_NUMBER.search(text)
        and "NaN" not in text
        and "Infinity" not in text
    ):
        return
    depth = 0
    for m in _TOKEN.finditer(text):
        c = text[m.start()]
        if c == '"':
            continue
        if c == "]" or c == "}":
            depth -= 1
            continue
        at = _where(source, line if line is not None else text.count("\n", 0, m.start()) + 1)
        if c == "N" or c == "I":
            raise error(f"{at}: {m.group()} is not a JSON number", rule=FORMAT_RULE)
        if c == "[" or c == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise error(f"{at}: nested deeper than {MAX_DEPTH} levels", rule=LIMITS_RULE)
        else:
            raise error(
                f"{at}: a {len(m.group()) - (c == '-')}-character number (the most is {MAX_NUMBER_CHARS})",
                rule=LIMITS_RULE,
            )


def loads(text: str, *, source: str, line: int | None = 1, error: type[GameError] = ConfigError) -> Any:
    """Parse one JSON document within the limits, or raise ``error`` naming source and line."""
    where = _where(source, line)
    check_limits(text, source=source, line=line, error=error)

    def number(s: str, kind: type) -> Any:
        if len(s.lstrip("-")) > MAX_NUMBER_CHARS:  # pragma: no cover - check_limits refuses it first
            raise error(f"{where}: a number of {len(s)} characters", rule=LIMITS_RULE)
        value = kind(s)
        if kind is float and not math.isfinite(value):  # 1e400 reads as inf
            raise error(f"{where}: the number {s} is too large", rule=LIMITS_RULE)
        return value

    def constant(s: str) -> Any:  # pragma: no cover - check_limits refuses them first
        raise error(f"{where}: {s} is not a JSON number", rule=FORMAT_RULE)

    try:
        return json.loads(
            text,
            parse_int=lambda s: number(s, int),
            parse_float=lambda s: number(s, float),
            parse_constant=constant,
        )
    except json.JSONDecodeError as exc:
        msg = exc.msg.removesuffix(" at")  # "Unterminated string starting at" + our "at column"
        col = f"line {exc.lineno}, column {exc.colno}" if line is None else f"column {exc.colno}"
        raise error(f"{where} is not valid JSON ({msg} at {col})", rule=FORMAT_RULE) from None
    except RecursionError:  # pragma: no cover - check_limits refuses such nesting first
        raise error(f"{where}: nested too deep", rule=LIMITS_RULE) from None


def decode(data: bytes, *, source: str, error: type[GameError] = ConfigError, first_line: int = 1) -> str:
    """UTF-8 text of ``data``, or ``error`` naming the line of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        n = data.count(b"\n", 0, exc.start) + first_line
        raise error(f"{source}: line {n}: not UTF-8 text (byte {exc.start + 1})", rule=FORMAT_RULE) from None


def read_bytes(path: str | Path, *, what: str, limit: int, error: type[GameError] = ConfigError) -> bytes:
    """The bytes of a file of at most ``limit`` bytes (never reading more than one past it)."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"{p}: cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise error(f"{p}: larger than {_size(limit)}, the most a {what} may be", rule=LIMITS_RULE)
    return data


def read_json(
    path: str | Path, *, what: str, limit: int = MAX_CONFIG_BYTES, error: type[GameError] = ConfigError
) -> Any:
    """Read and parse a whole JSON file (an edition or a piece file) within the limits."""
    text = decode(read_bytes(path, what=what, limit=limit, error=error), source=str(path), error=error)
    return loads(text, source=str(path), line=None, error=error)


def iter_lines(
    stream: IO[bytes] | IO[str], *, source: str, limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, str | RecordError]]:
    """Lines of a stream (bytes, or text as tests give) as ``(line number, text)``; a line
    longer than ``limit`` or not UTF-8 comes as a :class:`RecordError` instead (the rest of
    an overlong line is skipped without holding it in memory), so a reader can answer it
    and read on."""
    n = 0
    while True:
        raw: bytes | str = stream.readline(limit + 1)
        if not raw:
            return
        n += 1
        newline = b"\n" if isinstance(raw, bytes) else "\n"
        if len(raw) > limit and not raw.endswith(newline):  # type: ignore[arg-type]
            while raw and not raw.endswith(newline):  # type: ignore[arg-type]
                raw = stream.readline(limit + 1)
            yield (
                n,
                RecordError(
                    f"{source}: line {n}: longer than {_size(limit)}, the most a line may be", rule=LIMITS_RULE
                ),
            )
            continue
        if isinstance(raw, str):
            yield n, raw
            continue
        try:
            yield n, decode(raw, source=source, error=RecordError, first_line=n)
        except RecordError as exc:
            yield n, exc


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n:,} bytes"
