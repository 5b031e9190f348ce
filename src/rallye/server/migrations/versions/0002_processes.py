"""The serving processes: each writes who is connected to its tables at every lease renewal
(read by ``rallye admin tables``).

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
