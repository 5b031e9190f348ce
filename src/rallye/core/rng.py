"""Seeded chance as a value.

``Rng`` is an immutable splitmix64 generator: every draw returns the value and the next
generator, so a game state can carry its chance source and ``apply`` stays pure. The same
seed always gives the same sequence on every platform and Python version (no dependence on
``random``'s internals).

>>> r = Rng.from_seed(7)
>>> a, r2 = r.randbelow(6)
>>> b, _ = Rng.from_seed(7).randbelow(6)
>>> a == b
True
>>> sorted(Rng.from_seed(1).shuffle(range(5))[0])
[0, 1, 2, 3, 4]
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15

#: The bits of a new game's seed (:func:`new_seed`).
SEED_BITS = 128


def new_seed() -> int:
    """A fresh seed for a new game: :data:`SEED_BITS` bits from the operating system's
    cryptographic source (``secrets``), so nobody can search the seeds for the one that
    deals the cards they hold. Every use hashes it with its own parts (:func:`derive_seed`)
    into a 64-bit generator state: a hand's deck (a Knight Rider game's chance) is a keyed
    hash of the secret, and one hand's state tells nothing of the seed or of another hand's.

    >>> new_seed() < 2**SEED_BITS
    True
    """
    return secrets.randbits(SEED_BITS)


def derive_seed(*parts: object) -> int:
    """A 64-bit seed derived from any printable parts (e.g. match seed and hand number)."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


@dataclass(frozen=True, slots=True)
class Rng:
    """An immutable splitmix64 generator state."""

    state: int

    @classmethod
    def from_seed(cls, *parts: object) -> Rng:
        return cls(derive_seed(*parts))

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + _GOLDEN) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def randbelow(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            v, rng = rng.next64()
            if v < limit:
                return v % n, rng

    def die(self, sides: int = 6) -> tuple[int, Rng]:
        """A die roll 1..sides."""
        v, rng = self.randbelow(sides)
        return v + 1, rng

    def shuffle(self, items: Iterable[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher-Yates shuffle returning a new tuple and the next generator.

        The draws of :meth:`randbelow`, inlined (a hand's deck is shuffled this way: one
        method call and one generator object less per card); the tests check it against
        the plain loop."""
        out = list(items)
        s = self.state
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - (_TWO64 % n)
            while True:
                s = (s + _GOLDEN) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                v = z ^ (z >> 31)
                if v < limit:
                    break
            j = v % n
            out[i], out[j] = out[j], out[i]
        return tuple(out), Rng(s)
