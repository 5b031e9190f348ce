"""Alembic migrations of the server's database (``rallye.server:migrations``)."""
