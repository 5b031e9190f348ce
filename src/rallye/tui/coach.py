"""The coach in the terminal: ``hint`` at a person's prompt shows the move the analysis bot
prefers, why (the coach's reasons) and by how much (docs/playing.md, "Hints").

The hint comes from the view of the person to act (:class:`rallye.analysis.coach.Coach`,
which never sees a hidden card) and is only shown: the person still chooses the move.
"""

from __future__ import annotations

from collections.abc import Callable

from rallye.analysis.coach import Hint, Who
from rallye.tui.words import common


def margin_text(hint: Hint, lang: str) -> str | None:
    """How much better the hint's move is than the next best, in ``lang`` (None: there is
    no next best)."""
    t = common(lang)
    if hint.next_text is None:
        return None
    if hint.equal:
        return t("hint.equal", move=hint.next_text)
    parts = []
    if hint.margin_points is not None and round(hint.margin_points) > 0:
        parts.append(t("hint.points", points=round(hint.margin_points)))
    if hint.margin_win is not None and round(100 * hint.margin_win, 1) > 0:
        parts.append(t("hint.win", pct=f"{100 * hint.margin_win:.1f}"))
    if not parts:
        return t("hint.equal", move=hint.next_text)
    return t("hint.better", move=hint.next_text, margin=", ".join(parts))


def hint_lines(
    hint: Hint, lang: str, names: Callable[[str], str] | None = None, number: int | None = None, who: Who | None = None
) -> list[str]:
    """The hint as lines for the screen, in ``lang``: the move (with its number in the
    menu, if it has one), the margin, the reasons (a side or a player named by ``who``, as
    the screen names them)."""
    t = common(lang)
    move = hint.best_text if number is None else t("hint.numbered", n=number, move=hint.best_text)
    lines = [t("hint.title", move=move)]
    margin = margin_text(hint, lang)
    if margin is not None:
        lines.append("  " + margin)
    lines += ["  · " + r.text(lang, names, who) for r in hint.reasons]
    return lines
