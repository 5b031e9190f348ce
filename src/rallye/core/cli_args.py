"""Bounded command-line values: every number an option takes has a range, so that no
option value (a 5,000-digit number, ``nan``, a billion games) ends in a traceback, a hang
or a record that cannot be read back. Used as argparse ``type=``; a bad value is argparse's
usage error (exit status 2) naming the option and the range.

>>> whole(1, 10)("3")
3
>>> whole(1, 10)("11")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be from 1 to 10, got 11
>>> seed("1" * 40)
Traceback (most recent call last):
...
argparse.ArgumentTypeError: a seed is a whole number of at most 39 digits
>>> size(1 << 16, 1 << 30)("512K")
524288
>>> size(1 << 16, 1 << 30)("512")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be from 64K to 1G, got 512
>>> seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a number of seconds from 0 to 60, got 'nan'
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

#: Seeds are stored in records, whose numbers have at most 40 characters (rallye.core.jsonio);
#: a new game's 128-bit seed (rallye.core.rng.new_seed) has up to 39 digits.
SEED_DIGITS = 39
#: The most matches one command plays (its jobs are listed up front).
MAX_GAMES = 1_000_000
#: The most worker processes.
MAX_WORKERS = 1024


def _int(text: str) -> int:
    t = text.strip()
    if len(t.lstrip("+-")) > 30 or not t.lstrip("+-").isascii() or not t.lstrip("+-").isdigit():
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}")
    return int(t)


def integer(text: str) -> int:
    """A whole number (of at most 30 digits) whose range depends on other options, so it
    is checked, and stated, where it is known (``--seat 99`` in a 2-player game).

    >>> integer("99")
    99
    """
    return _int(text)


integer.__name__ = "whole number"


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """A whole number from ``lo`` to ``hi``."""

    def parse(text: str) -> int:
        value = _int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo:,} to {hi:,}, got {value:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def seed(text: str) -> int:
    """A seed: a whole number (negative too) of at most :data:`SEED_DIGITS` digits."""
    t = text.strip()
    digits = t.lstrip("+-")
    if len(digits) > SEED_DIGITS or not digits.isascii() or not digits.isdigit():
        raise argparse.ArgumentTypeError(f"a seed is a whole number of at most {SEED_DIGITS} digits")
    return int(t)


def seconds(text: str) -> float:
    """A pause: from 0 to 60 seconds (not ``nan``, not ``inf``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 60.0:  # false for nan
        raise argparse.ArgumentTypeError(f"must be a number of seconds from 0 to 60, got {text[:40]!r}")
    return value


#: the units of :func:`size`: K, M and G are 1024, 1024² and 1024³ bytes
SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def size_text(value: int) -> str:
    """A number of bytes as :func:`size` reads it, in the largest unit that divides it.

    >>> size_text(524288), size_text(1 << 30), size_text(1000)
    ('512K', '1G', '1000')
    """
    for unit in ("G", "M", "K"):
        if value and value % SIZE_UNITS[unit] == 0:
            return f"{value // SIZE_UNITS[unit]}{unit}"
    return str(value)


def size(lo: int, hi: int) -> Callable[[str], int]:
    """A number of bytes from ``lo`` to ``hi``: a whole number, or one with K, M or G
    (:data:`SIZE_UNITS`; ``512K``, ``2M``, ``2MB``, case ignored)."""

    def parse(text: str) -> int:
        t = text.strip().upper()
        t = t[:-1] if t.endswith("B") else t
        unit = t[-1:] if t[-1:] in ("K", "M", "G") else ""
        digits = t[: len(t) - len(unit)]
        if not digits or len(digits) > 15 or not digits.isascii() or not digits.isdigit():
            raise argparse.ArgumentTypeError(f"not a size: {text[:40]!r} (bytes, or a number with K, M or G)")
        value = int(digits) * SIZE_UNITS[unit]
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {size_text(lo)} to {size_text(hi)}, got {text.strip()}")
        return value

    parse.__name__ = "size"
    return parse
