"""The game-agnostic contract: errors, seeded chance, game records, the Game protocol.

Standard library only; every game package builds on this and nothing else.
"""

from rallye.core.errors import (
    ConfigError,
    GameError,
    GameOver,
    IllegalAction,
    InvalidNotation,
    NotYourTurn,
    RecordError,
)
from rallye.core.rng import Rng

__all__ = [
    "ConfigError",
    "GameError",
    "GameOver",
    "IllegalAction",
    "InvalidNotation",
    "NotYourTurn",
    "RecordError",
    "Rng",
]
