"""``rallye rules knightrider``: what the box holds and how a turn goes, German by default.

The components come from the piece data files (the tile mix counted from the tiles, the
escape cards' moves from their grids), the card names from
:mod:`rallye.knightrider.names`, the ram and oil tables from the engine's
``RAM_TABLE`` / ``OIL_TABLE`` (the German rows are translations keyed by the same rolls;
a test checks the keys agree).
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS
from rallye.knightrider.engine import MAX_PLAYERS, MIN_PLAYERS, OIL_TABLE, RAM_TABLE
from rallye.knightrider.names import card_name
from rallye.knightrider.pieces import ESCAPE_KINDS, SHAPES, Pieces, load_pieces
from rallye.knightrider.state import DEFAULT_TURN_LIMIT
from rallye.tui.knightrider.render import detour_glyph, pick_language, tile_picture

RAM_TABLE_DE = {
    1: "von der Straße abgekommen: das Auto liegt auf dem Dach",
    2: "schleudert 2 Felder zurück und steht dann gegen die Fahrtrichtung",
    3: "schleudert 2 Felder zurück",
    4: "schleudert 1 Feld zurück",
    5: "dreht sich: steht gegen die Fahrtrichtung",
    6: "der Rammversuch misslingt",
}
OIL_TABLE_DE = {
    1: "von der Straße abgekommen: das Auto liegt auf dem Dach",
    2: "schleudert 2 Felder zurück",
    3: "schleudert 1 Feld zurück",
    4: "steht gegen die Fahrtrichtung",
    5: "nichts passiert",
    6: "nichts passiert",
}

_W: dict[str, dict[str, str]] = {
    "de": {
        "title": "Knight Rider – Ein Mann und sein Auto gegen das Unrecht (ASS)",
        "components": "Spielmaterial",
        "piece": "Teil",
        "count": "Anzahl",
        "tiles": "Streckenteile (Nr. 11–66)",
        "t_junction": "T-Kreuzung",
        "curve": "Kurve",
        "straight": "Gerade",
        "dead_end": "Sackgasse",
        "orthogonal": "1 Feld gerade",
        "diagonal": "1 Feld schräg",
        "two_step": "2 Felder gerade",
        "knight": "Rösselsprung (1 + 2)",
        "escape_cards": "Flucht-Karten",
        "kitt_cards": "K.I.T.T.-Karten, je Spieler",
        "detour_cards": "Umleitungs-Karten, je Spieler",
        "cars": "5 schwarze Autos (Spieler), 1 rotes Auto (Gangster), 1 Würfel",
        "players": "Spieler",
        "move": "Zug",
        "effect": "Wirkung",
        "roll": "Wurf",
        "ram": "Rammtabelle (der Gerammte würfelt)",
        "oil": "Öltabelle (der fahrende Spieler würfelt)",
        "ram6": (
            "Bei 6 würfelt der Gerammte noch einmal: bei 5 oder 6 schleudert der Rammende – er verliert "
            "die restlichen Augen und bleibt neben dem anderen stehen, gegen die Fahrtrichtung; bei 1–4 "
            "passiert nichts. Rammt der Gangster und der Gerammte würfelt 6, gewinnt dieser sofort."
        ),
        "build": "Phase 1: Strecke bauen",
        "build_text": (
            "Vier verdeckte Teile bilden die Mitte. Reihum zieht jeder ein verdecktes Teil und legt es "
            "an (das erste an die Mitte): Straße an Straße, Bebauung an Bebauung; führen mehrere "
            "Straßen in ein leeres Feld, muss das Teil alle fortsetzen. Zuletzt werden die vier "
            "Mittelteile ebenso angelegt; die Mitte bleibt frei (dort liegen die Flucht-Karten)."
        ),
        "turn": "Phase 2: die Jagd – ein Zug",
        "turn_steps": (
            "1. Würfeln.|"
            "2. In beliebiger Reihenfolge: fahren (genau die gewürfelten Augen; 1 Auge je Feld, "
            "90°-Drehung 1 Auge mehr, 180° 2 Augen, auch als letzter Schritt auf dem Feld; kein "
            "Rückwärtsfahren; wer ein Auto überholen und so alle Augen nutzen kann, weicht dem "
            "Rammen nicht aus), höchstens eine K.I.T.T.-Karte, höchstens eine Umleitungs-Karte "
            "spielen.|"
            "3. Zuletzt die oberste Flucht-Karte aufdecken: der Gangster flieht in die Mitte des "
            "gezeigten Teils (liegt dort keins, bleibt er stehen).|"
            "Ausnahme: ein Auto auf dem Dach wird in diesem Zug nur wieder auf die Räder gestellt."
        ),
        "win": (
            "Wer als Erster mit seinem Zug auf dem Feld des Gangsters endet, gewinnt. Wer ein anderes "
            "Auto überholt, rammt es (Rammtabelle); wer direkt hinter einem Auto endet, gerät in "
            f"dessen Öl (Öltabelle). Auf einem Feld stehen höchstens zwei Autos. Nach {DEFAULT_TURN_LIMIT} Zügen ohne "
            "Fang ist der Gangster entkommen: niemand gewinnt (--turn-limit)."
        ),
        "cards": "Karten",
        "card": "Karte",
        "text": "Wirkung",
        "MANTLE": "schützt vor jedem Rammen (auch durch den Gangster) bis zum nächsten eigenen Zug",
        "TURBO1": "verdoppelt den Wurf dieses Zuges (vor dem Fahren)",
        "TURBO2": "nur bei einer gewürfelten 1: sie zählt als 6",
        "JUMP": "überspringt ein Hindernis (zwei Autos, Straßensperre); das Feld kostet kein Auge, "
        "eine Drehung darauf schon",
        "STRAIGHT": "auf die Mitte eines Teils: nur zwei gegenüberliegende Ausgänge bleiben verbunden",
        "DEADEND": "nur ein Ausgang führt noch zur Mitte",
        "ROADBLOCK": "die Mitte des Teils wird zum Hindernis",
        "RIGHT": "nur die Rechtskurve (aus der Einfahrt gesehen) bleibt",
        "LEFT": "nur die Linkskurve (aus der Einfahrt gesehen) bleibt",
        "detour_note": "Umleitungen bleiben bis zum Ende liegen, höchstens 3 je Teil; die oberste gilt.",
        "variants": "Varianten (rallye play knightrider …)",
        "v_quick": "--quick-build      der Computer legt alle Teile und führt dabei die Straßen weiter",
        "v_rolled": "--rolled-start     auch das Start-Teil wird ausgewürfelt",
        "v_tour": "--tour N           N Ziel-Teile müssen vorher angefahren werden",
        "v_spares": "--deal-spares      bei weniger als 5 Spielern werden die übrigen Karten verteilt",
        "v_shuffle": "--shuffle-cards    Karten gemischt und reihum verteilt statt je ein Satz",
    },
    "en": {
        "title": "Knight Rider – a man and his car against injustice (ASS)",
        "components": "Components",
        "piece": "piece",
        "count": "count",
        "tiles": "track tiles (numbered 11–66)",
        "t_junction": "T-junction",
        "curve": "curve",
        "straight": "straight",
        "dead_end": "dead end",
        "orthogonal": "1 step straight",
        "diagonal": "1 step diagonal",
        "two_step": "2 steps straight",
        "knight": "knight's move (1 + 2)",
        "escape_cards": "escape cards",
        "kitt_cards": "K.I.T.T. cards per player",
        "detour_cards": "detour cards per player",
        "cars": "5 black cars (players), 1 red car (the villain), 1 die",
        "players": "players",
        "move": "move",
        "effect": "effect",
        "roll": "roll",
        "ram": "Ram table (the rammed player rolls)",
        "oil": "Oil table (the moving player rolls)",
        "ram6": (
            "On a 6 the rammed player rolls again: on 5 or 6 the ramming car skids – it loses its "
            "remaining pips and stays beside the other, facing against its direction; on 1–4 nothing "
            "happens. When the villain rams and the rammed player rolls a 6, that player wins at once."
        ),
        "build": "Phase 1: building the track",
        "build_text": (
            "Four face-down tiles form the centre. In turn each player draws a face-down tile and lays "
            "it (the first one against the centre): road to road, built-up to built-up; where several "
            "roads lead into an empty square the tile must continue all of them. Last, the four centre "
            "tiles are laid the same way; the centre stays empty (the escape cards lie there)."
        ),
        "turn": "Phase 2: the chase – a turn",
        "turn_steps": (
            "1. Roll the die.|"
            "2. In any order: move (exactly the pips rolled; 1 pip a field, a 90° turn 1 more, 180° "
            "2 more, also as the move's last step, on its field; no reversing; a car that can use "
            "every pip by passing a car does not dodge the ram), play at most one K.I.T.T. card, "
            "play at most one detour card.|"
            "3. Last, turn the top escape card: the villain flees to the middle of the tile shown "
            "(no tile there: it stays).|"
            "Exception: a car on its roof only turns back onto its wheels this turn."
        ),
        "win": (
            "The first player whose move ends on the villain's field wins. Passing another car rams "
            "it (ram table); ending right behind a car puts you on its oil (oil table). At most two "
            f"cars stand on a field. After {DEFAULT_TURN_LIMIT} chase turns without a capture the villain has escaped: "
            "nobody wins (--turn-limit)."
        ),
        "cards": "Cards",
        "card": "card",
        "text": "effect",
        "MANTLE": "protects from every ram (the villain's too) until its owner's next turn",
        "TURBO1": "doubles this turn's roll (before moving)",
        "TURBO2": "only on a rolled 1: it counts as 6",
        "JUMP": "jumps one obstacle (two cars, a roadblock); the jumped field costs no pip, a turn on it does",
        "STRAIGHT": "on a tile's middle: only two opposite openings stay connected",
        "DEADEND": "only one opening still leads to the middle",
        "ROADBLOCK": "the tile's middle field becomes an obstacle",
        "RIGHT": "only the right curve (seen when driving in) stays",
        "LEFT": "only the left curve (seen when driving in) stays",
        "detour_note": "Detours stay to the end, at most 3 on a tile; the topmost counts.",
        "variants": "Variants (rallye play knightrider …)",
        "v_quick": "--quick-build      the computer lays all tiles, continuing the roads",
        "v_rolled": "--rolled-start     the start tile is rolled too",
        "v_tour": "--tour N           N target tiles must be reached first",
        "v_spares": "--deal-spares      with fewer than 5 players the spare cards are dealt",
        "v_shuffle": "--shuffle-cards    cards shuffled and dealt round instead of one set each",
    },
}


def ram_rows(lang: str) -> list[tuple[int, str]]:
    """The ram table's rows (roll, effect) in ``lang`` ("de" or "en")."""
    table = RAM_TABLE if lang == "en" else RAM_TABLE_DE
    return [(r, table[r]) for r in sorted(RAM_TABLE)]


def oil_rows(lang: str) -> list[tuple[int, str]]:
    table = OIL_TABLE if lang == "en" else OIL_TABLE_DE
    return [(r, table[r]) for r in sorted(OIL_TABLE)]


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
    w = _W[lang]
    pieces = pieces if pieces is not None else load_pieces()
    console.print(Text(w["title"], style="bold"))
    console.print(Text(f"{MIN_PLAYERS}–{MAX_PLAYERS} {w['players']}", style="dim"))

    comp = Table(title=w["components"], title_justify="left")
    comp.add_column(w["piece"])
    comp.add_column(w["count"], justify="right")
    comp.add_column("")
    shapes = {k: 0 for k in SHAPES}
    example: dict[str, int] = {}
    for tile in pieces.tiles:
        shapes[tile.shape] += 1
        example.setdefault(tile.shape, tile.openings)
    comp.add_row(w["tiles"], str(len(pieces.tiles)), "")
    for k in SHAPES:
        pic = tile_picture(example[k]) if k in example else []
        shape_pic = Text("\n").join(pic) if pic else Text("")
        comp.add_row(f"  {w[k]}", str(shapes[k]), shape_pic)
    comp.add_row(w["escape_cards"], str(len(pieces.escape)), "")
    kinds = {k: [c for c in pieces.escape if c.kind == k] for k in ESCAPE_KINDS}
    for k in ESCAPE_KINDS:
        moves = ", ".join(f"#{c.id} {_arrow(c.dx, c.dy)}" for c in kinds[k])
        comp.add_row(f"  {w[k]}", str(len(kinds[k])), moves)
    comp.add_row(w["kitt_cards"], str(len(KITT_KINDS)), ", ".join(card_name(k, lang) for k in KITT_KINDS))
    comp.add_row(w["detour_cards"], str(len(DETOUR_KINDS)), ", ".join(card_name(k, lang) for k in DETOUR_KINDS))
    console.print(comp)
    console.print(Text(w["cars"]))

    console.print(Text(w["build"], style="bold"))
    console.print(Text(w["build_text"]))
    console.print(Text(w["turn"], style="bold"))
    for step in w["turn_steps"].split("|"):
        console.print(Text("  " + step))
    console.print(Text(w["win"]))

    cards = Table(title=w["cards"], title_justify="left")
    cards.add_column(w["card"])
    cards.add_column("")
    cards.add_column(w["text"])
    for k in KITT_KINDS:
        cards.add_row(card_name(k, lang), "", w[k])
    for k in DETOUR_KINDS:
        cards.add_row(card_name(k, lang), detour_glyph(k, 0), w[k])
    cards.caption = w["detour_note"]
    cards.caption_justify = "left"
    console.print(cards)

    for title, rows in ((w["ram"], ram_rows(lang)), (w["oil"], oil_rows(lang))):
        t = Table(title=title, title_justify="left")
        t.add_column(w["roll"], justify="right")
        t.add_column(w["effect"])
        for r, text in rows:
            t.add_row(str(r), text)
        if title == w["ram"]:
            t.caption = w["ram6"]
            t.caption_justify = "left"
        console.print(t)

    console.print(Text(w["variants"], style="bold"))
    for k in ("v_quick", "v_rolled", "v_tour", "v_spares", "v_shuffle"):
        console.print(Text("  " + w[k]))
