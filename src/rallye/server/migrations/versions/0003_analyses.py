"""Finished games' analyses (docs/analysis.md, "On the server"): the JSON as served, keyed
by the game (``t:CODE`` or ``f:HASH``), the analysis bot's spec, the seed and the analyser's
version.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=True),
        sa.Column("bot", sa.String(40), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("analyser", sa.String(60), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("cpu_seconds", sa.Float, nullable=False),
        sa.Column("made_at", sa.Float, nullable=False),
        sa.UniqueConstraint("subject", "bot", "seed", "analyser", name="uq_analyses_key"),
    )
    op.create_index("ix_analyses_table_id", "analyses", ["table_id"])


def downgrade() -> None:
    op.drop_table("analyses")
