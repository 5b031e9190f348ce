"""Analyses being made (docs/analysis.md, "On the server"): one row a game whose analysis a
process has claimed, so that two processes on one database asked for the same game make it
once. Keyed as ``analyses`` is; the process that holds it, its progress, and a lease it
renews while the analysis runs (a dead process's claim runs out and another takes it over).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_claims",
        sa.Column("subject", sa.String(40), primary_key=True),
        sa.Column("bot", sa.String(40), primary_key=True),
        sa.Column("seed", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("analyser", sa.String(60), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("error", sa.String(400), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=False),
        sa.Column("claimed_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analysis_claims")
