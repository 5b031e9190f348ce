"""The online table server: ``rallye serve``.

:mod:`rallye.server.table` is the transport-free authority of one table, playing each
game through its face (:mod:`rallye.games`); :mod:`rallye.server.games` keeps what is the
server's own of each game (its JSON, a match's record); :mod:`rallye.server.store` keeps
every table in a database (SQLAlchemy, Alembic migrations), :mod:`rallye.server.app` is
the ASGI app (Starlette, websockets), :mod:`rallye.server.cli` the command. The protocol
is ``docs/protocol.md``.
"""
