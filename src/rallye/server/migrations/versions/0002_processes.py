"""The serving processes (each writes who is connected to its tables at every lease
renewal, read by ``rallye admin tables``) and a table's hand-over between processes
(``tables.wanted_by``: the process its players now reach, docs/server.md).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("wanted_by", sa.String(64), nullable=True))
    op.create_table(
        "processes",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(200), nullable=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
        sa.Column("connections", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("processes")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("wanted_by")
