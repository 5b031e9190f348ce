"""The online table server: ``rallye serve``.

:mod:`rallye.server.games` adapts each game, :mod:`rallye.server.table` is the
transport-free authority of one table, :mod:`rallye.server.store` keeps every table in a
database (SQLAlchemy, Alembic migrations), :mod:`rallye.server.app` is the ASGI app
(Starlette, websockets), :mod:`rallye.server.cli` the command. The protocol is
``docs/protocol.md``.
"""
