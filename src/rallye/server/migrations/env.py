"""Alembic's environment: the server passes its open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from rallye.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes one
    raise RuntimeError("run the migrations through rallye.server.store.Store.upgrade()")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
