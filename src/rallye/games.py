"""Every game rallye plays, by key: the one face (:class:`rallye.core.game.Game`) each
game package exports.

>>> from rallye.games import GAMES, game_for
>>> list(GAMES), game_for("mille").title
(['mille', 'knightrider'], 'Mille Bornes')
"""

from __future__ import annotations

from typing import Any

from rallye.core.errors import ConfigError
from rallye.core.game import Game
from rallye.knightrider.game import GAME as KNIGHTRIDER
from rallye.mille.game import GAME as MILLE

#: the games by key (each a Game over its own state, action and view types)
GAMES: dict[str, Game[Any, Any, Any]] = {g.key: g for g in (MILLE, KNIGHTRIDER)}


def game_for(key: object) -> Game[Any, Any, Any]:
    """The game named ``key``, or a :class:`ConfigError` listing the games."""
    if not isinstance(key, str) or key not in GAMES:
        raise ConfigError(f"'game' must be one of {', '.join(GAMES)}", rule="table-settings")
    return GAMES[key]
