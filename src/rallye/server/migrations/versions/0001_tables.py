"""Tables, seats, record lines and chat.

Revision ID: 0001
Revises:
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("move_no", sa.Integer, nullable=False),
        sa.Column("turn_timer", sa.Integer, nullable=True),
        sa.Column("timer_bot", sa.String(20), nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("next_code", sa.String(16), nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("owner_url", sa.String(200), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "record_lines",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("line_no", sa.Integer, primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])


def downgrade() -> None:
    op.drop_table("chat")
    op.drop_table("record_lines")
    op.drop_table("seats")
    op.drop_table("tables")
