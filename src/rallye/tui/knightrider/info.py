"""``rallye rules knightrider``: what the box holds and how a turn goes, German by default.

Every word comes from the ``kr`` catalog in the chosen language (German, Hungarian,
English or French): the rules texts under ``rules.``, the card names under ``card.``, the
ram and oil tables under ``ram.<roll>`` / ``oil.<roll>`` (the rolls of the engine's
``RAM_TABLE`` / ``OIL_TABLE``; a test checks every language has them). The components
come from the piece data files (the tile mix counted from the tiles, the escape cards'
moves from their grids).
"""

from __future__ import annotations

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from rallye.i18n import translator
from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS
from rallye.knightrider.engine import MAX_PLAYERS, MIN_PLAYERS, OIL_TABLE, RAM_TABLE
from rallye.knightrider.pieces import ESCAPE_KINDS, SHAPES, Pieces, load_pieces
from rallye.knightrider.state import DEFAULT_TURN_LIMIT
from rallye.tui.knightrider.render import detour_glyph, pick_language, tile_picture

#: The variants' flags, as typed; what each does is the catalog's ``rules.v_*``.
_VARIANTS = (
    ("v_quick", "--quick-build"),
    ("v_rolled", "--rolled-start"),
    ("v_tour", "--tour N"),
    ("v_spares", "--deal-spares"),
    ("v_shuffle", "--shuffle-cards"),
)


def ram_rows(lang: str) -> list[tuple[int, str]]:
    """The ram table's rows (roll, effect) in ``lang`` (one of :data:`rallye.i18n.LANGUAGES`),
    keyed by the engine's ``RAM_TABLE`` rolls (the catalog's ``ram.<roll>``)."""
    t = translator(lang, "kr")
    return [(r, t(f"ram.{r}")) for r in sorted(RAM_TABLE)]


def oil_rows(lang: str) -> list[tuple[int, str]]:
    """The oil table's rows (roll, effect) in ``lang`` (the catalog's ``oil.<roll>``)."""
    t = translator(lang, "kr")
    return [(r, t(f"oil.{r}")) for r in sorted(OIL_TABLE)]


def _arrow(dx: int, dy: int) -> str:
    parts = []
    if dy:
        parts.append(f"{abs(dy)}{'↑' if dy < 0 else '↓'}")
    if dx:
        parts.append(f"{abs(dx)}{'→' if dx > 0 else '←'}")
    return " ".join(parts)


def print_rules(console: Console, lang: str | None = None, pieces: Pieces | None = None) -> None:
    """Print the components, the turn, the cards and the ram and oil tables."""
    lang, note = pick_language(lang)
    if note:
        console.print(Text(note, style="yellow"))
    t = translator(lang, "kr")

    def w(key: str) -> str:
        return t(f"rules.{key}")

    pieces = pieces if pieces is not None else load_pieces()
    console.print(Text(w("title"), style="bold"))
    console.print(Text(f"{MIN_PLAYERS}–{MAX_PLAYERS} {w('players')}", style="dim"))

    comp = Table(title=w("components"), title_justify="left")
    comp.add_column(w("piece"))
    comp.add_column(w("count"), justify="right")
    comp.add_column("")
    shapes = {k: 0 for k in SHAPES}
    example: dict[str, int] = {}
    for tile in pieces.tiles:
        shapes[tile.shape] += 1
        example.setdefault(tile.shape, tile.openings)
    comp.add_row(w("tiles"), str(len(pieces.tiles)), "")
    for k in SHAPES:
        pic = tile_picture(example[k]) if k in example else []
        shape_pic = Text("\n").join(pic) if pic else Text("")
        comp.add_row(f"  {w(k)}", str(shapes[k]), shape_pic)
    comp.add_row(w("escape_cards"), str(len(pieces.escape)), "")
    kinds = {k: [c for c in pieces.escape if c.kind == k] for k in ESCAPE_KINDS}
    for k in ESCAPE_KINDS:
        moves = ", ".join(f"#{c.id} {_arrow(c.dx, c.dy)}" for c in kinds[k])
        comp.add_row(f"  {w(k)}", str(len(kinds[k])), moves)
    comp.add_row(w("kitt_cards"), str(len(KITT_KINDS)), ", ".join(t(f"card.{k}") for k in KITT_KINDS))
    comp.add_row(w("detour_cards"), str(len(DETOUR_KINDS)), ", ".join(t(f"card.{k}") for k in DETOUR_KINDS))
    console.print(comp)
    console.print(Text(w("cars")))

    console.print(Text(w("build"), style="bold"))
    console.print(Text(w("build_text")))
    console.print(Text(w("turn"), style="bold"))
    for step in ("step1", "step2", "step3", "step_roof"):
        console.print(Padding(Text(w(step)), (0, 0, 0, 2)))
    console.print(Text(t("rules.win", limit=DEFAULT_TURN_LIMIT)))

    cards = Table(title=w("cards"), title_justify="left")
    cards.add_column(w("card"))
    cards.add_column("")
    cards.add_column(w("text"))
    for k in KITT_KINDS:
        cards.add_row(t(f"card.{k}"), "", w(f"card.{k}"))
    for k in DETOUR_KINDS:
        cards.add_row(t(f"card.{k}"), detour_glyph(k, 0), w(f"card.{k}"))
    cards.caption = w("detour_note")
    cards.caption_justify = "left"
    console.print(cards)

    for title, rows in ((w("ram"), ram_rows(lang)), (w("oil"), oil_rows(lang))):
        tab = Table(title=title, title_justify="left")
        tab.add_column(w("roll"), justify="right")
        tab.add_column(w("effect"))
        for r, text in rows:
            tab.add_row(str(r), text)
        if title == w("ram"):
            tab.caption = w("ram6")
            tab.caption_justify = "left"
        console.print(tab)

    console.print(Text(w("variants"), style="bold"))
    variants = Table.grid(padding=(0, 2))
    variants.add_column(no_wrap=True)
    variants.add_column()
    for k, flag in _VARIANTS:
        variants.add_row(flag, w(k))
    console.print(Padding(variants, (0, 0, 0, 2)))
