"""Mille Bornes' rules in the terminal (``rallye rules mille``): what each box holds, how it
is played and scored, in its own words (the commands are :mod:`rallye.tui.info`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rallye.mille.cards import CARDS, REMEDY_FOR, SAFETY_FOR, kind
from rallye.mille.edition import SCORE_LINES, Edition

if TYPE_CHECKING:
    from rich.console import Console


def rules_text(ed: Edition, lang: str | None = None, players: int | None = None) -> list[tuple[str, str, str]]:
    """(card id, count, name) rows for an edition's deck; a player count the edition is
    not played by is a :class:`~rallye.core.errors.ConfigError`, not silently ignored."""
    if players is not None:
        ed.sides_for(players)
    deck = ed.deck_for(players) if players is not None else tuple(c for c, k in ed.deck for _ in range(k))
    return [(c, str(deck.count(c)), ed.card_name(c, lang)) for c in CARDS if deck.count(c)]


#: How to play, sentence by sentence, in each language rallye has rules in. The fields are
#: filled from the edition (its card names, score words and values), so every box reads its
#: own game. ``rules_language`` picks English for an edition language missing here.
HOW_TO_PLAY: dict[str, dict[str, str]] = {
    "en": {
        "sep": "; ",
        "how": "How to play",
        "cards": "The cards",
        "hand": "hand",
        "players_alone": "{players} players; everyone plays alone.",
        "players_teams": "{players} players. {teams}.",
        "otherwise": "{teams}; otherwise everyone plays alone",
        "team": "with {n}: {k} teams of {size}",
        "target": "The trip is {alone} km for a player alone and {team} km for a team.",
        "target_same": "The trip is {km} km.",
        "goal": "Each side lays distance cards until its total reaches the trip exactly; hazards slow the others down.",
        "deal": "Everyone gets 6 cards; the rest is the draw pile. The player left of the dealer begins.",
        "small": "With {players} players these cards leave the deck: {cards}.",
        "turn": (
            "Your turn: draw a card, then do one thing: lay a card on your own side, lay a hazard on an "
            "opponent, or discard a card face up."
        ),
        "rolling": (
            "You may lay distance only while {roll} lies on top of your battle pile (or you have {row} and no "
            "hazard lies there); never past the trip's end, and at most two {d200} a hand."
        ),
        "limit": "Under {limit} only {d25} and {d50} may be laid, until {end}.",
        "hazard": "Hazard",
        "remedy": "Remedy",
        "remedies": (
            "A remedy goes on your own pile, onto its hazard only; after it you need {roll} again (not with {row})."
        ),
        "safeties": "{safeties} protect your side until the hand ends and clear their hazard.",
        "extra": "Whoever lays one draws and plays again.",
        "cf": (
            "{cf}: when an opponent lays a hazard on your side and you hold its safety, you lay it at once, "
            "crosswise (rallye does it for you); you draw a card and play next."
        ),
        "cf_more": "If you lay another safety in that turn, you draw and play once more.",
        "end": "The hand ends when a side reaches the trip exactly.",
        "ext": (
            "A player alone who reaches exactly {from_km} km may extend the hand to {to_km} km ({word}): whoever "
            "then completes {to_km} km scores the trip's bonuses and {points} for the extension."
        ),
        "ext_empty": "An extended hand also ends when the draw pile runs out.",
        "ext_opponents": "If the caller falls short, every opponent that laid distance scores the {points}.",
        "ext_nobody": "If nobody completes it, nobody scores the trip's bonuses.",
        "empty_on": (
            "When the draw pile is empty, play goes on from the hands; the hand ends when every hand is empty."
        ),
        "empty_ends": "It also ends after the turn that draws the last card.",
        "closest": "If nobody reached {km} km, the sides closest to it score the {trip} points.",
        "in_hand": "Distance cards left in a hand are taken off their side's score.",
        "match_to": "A match goes on hand after hand until a side has {target} points; the highest total wins.",
        "match_one": "A game is one hand, won by distance: exactly {km} km, or else the closest.",
        "line": "Line",
        "scores": "Scores",
        "s_distance": "1 point a km",
        "s_safeties": "{v} each",
        "s_all_four": "+{v} for all four",
        "s_coup_fourre": "+{v} each",
        "s_cf_total": "+{v} each ({total} with the safety)",
        "s_trip": "{v} for completing the trip",
        "s_safe_trip": "{v} if completed without {d200}",
        "s_delayed_action": "{v} if completed after the draw pile ran out",
        "s_shutout_completer": "{v} for each opposing side without distance, to the side that completed the trip",
        "s_shutout_placed": "{v} for each opposing side without distance, to every side that laid distance",
        "s_extension": "{v} for completing an extended trip",
        "s_hand_penalty": "minus the distance left in hand",
        "id": "id",
        "kind": "kind",
        "count": "count",
        "name": "name",
        "k_distance": "distance",
        "k_hazard": "hazard",
        "k_remedy": "remedy",
        "k_safety": "safety",
        "deck": "{n} cards",
        "deck_players": "{n} cards with {players} players",
    },
    "de": {
        "sep": "; ",
        "how": "Spielregeln",
        "cards": "Die Karten",
        "hand": "Runde",
        "players_alone": "{players} Spieler; alle spielen allein.",
        "players_teams": "{players} Spieler. {teams}.",
        "otherwise": "{teams}; sonst spielt jeder allein",
        "team": "zu {n}: {k} Teams zu je {size}",
        "target": "Die Strecke ist {alone} km lang für einen Spieler allein und {team} km für ein Team.",
        "target_same": "Die Strecke ist {km} km lang.",
        "goal": (
            "Jede Seite legt Kilometerkarten aus, bis ihre Summe genau das Ziel erreicht; mit Hinderniskarten "
            "bremst man die anderen."
        ),
        "deal": "Jeder erhält 6 Karten, der Rest ist der Stapel. Der Spieler links vom Geber beginnt.",
        "small": "Mit {players} Spielern werden diese Karten aussortiert: {cards}.",
        "turn": (
            "Wer am Zug ist, zieht eine Karte und tut dann genau eines: eine Karte auf die eigene Seite legen, "
            "ein Hindernis bei einem Gegner ausspielen oder eine Karte offen abwerfen."
        ),
        "rolling": (
            "Kilometer darf nur auslegen, wer {roll} oben auf dem Fahrtstapel hat (oder {row} besitzt und dort "
            "kein Hindernis liegt); nie über das Ziel hinaus und höchstens zwei {d200} je Runde."
        ),
        "limit": "Unter {limit} sind nur {d25} und {d50} erlaubt, bis {end} kommt.",
        "hazard": "Hindernis",
        "remedy": "Abhilfe",
        "remedies": (
            "Eine Abhilfe kommt auf den eigenen Stapel, nur auf ihr Hindernis; danach braucht man wieder {roll} "
            "(außer mit {row})."
        ),
        "safeties": "{safeties} schützen die eigene Seite bis zum Ende der Runde und räumen ihr Hindernis weg.",
        "extra": "Wer eine davon auslegt, zieht und spielt gleich noch einmal.",
        "cf": (
            "{cf}: Legt ein Gegner ein Hindernis auf deine Seite und hast du die passende Karte dagegen, legst du "
            "sie sofort quer aus (rallye tut das für dich); du ziehst eine Karte und bist als Nächster dran."
        ),
        "cf_more": "Legst du in diesem Zug noch eine solche Karte aus, ziehst und spielst du noch einmal.",
        "end": "Die Runde endet, sobald eine Seite das Ziel genau erreicht.",
        "ext": (
            "Wer allein genau {from_km} km erreicht, darf auf {to_km} km verlängern ({word}): Wer dann {to_km} km "
            "schafft, bekommt die Prämien für die Strecke und {points} für die Verlängerung."
        ),
        "ext_empty": "Eine verlängerte Runde endet auch, wenn der Stapel leer ist.",
        "ext_opponents": (
            "Schafft es der Ansager nicht, bekommt jeder Gegner, der Kilometer ausgelegt hat, die {points}."
        ),
        "ext_nobody": "Schafft es niemand, bekommt niemand die Prämien für die Strecke.",
        "empty_on": (
            "Ist der Stapel leer, wird aus der Hand weitergespielt; die Runde endet, wenn alle Hände leer sind."
        ),
        "empty_ends": "Sie endet auch nach dem Zug, der die letzte Karte vom Stapel zieht.",
        "closest": "Hat niemand {km} km erreicht, bekommen die Seiten, die am nächsten dran sind, die {trip} Punkte.",
        "in_hand": "Kilometerkarten, die noch auf der Hand sind, werden von der eigenen Seite abgezogen.",
        "match_to": "Gespielt wird Runde um Runde, bis eine Seite {target} Punkte hat; die höchste Summe gewinnt.",
        "match_one": (
            "Ein Spiel ist eine einzige Runde und wird nach Strecke entschieden: genau {km} km, sonst wer am "
            "nächsten dran ist."
        ),
        "line": "Zeile",
        "scores": "Punkte",
        "s_distance": "1 Punkt je km",
        "s_safeties": "je {v}",
        "s_all_four": "+{v} für alle vier",
        "s_coup_fourre": "je +{v}",
        "s_cf_total": "je +{v} (mit der Karte selbst {total})",
        "s_trip": "{v} für das Erreichen des Ziels",
        "s_safe_trip": "{v}, wenn ohne {d200} erreicht",
        "s_delayed_action": "{v}, wenn erst nach dem Ende des Stapels erreicht",
        "s_shutout_completer": "{v} je gegnerische Seite ohne Kilometer, für die Seite, die das Ziel erreicht",
        "s_shutout_placed": "{v} je gegnerische Seite ohne Kilometer, für jede Seite, die Kilometer ausgelegt hat",
        "s_extension": "{v} für eine geschaffte Verlängerung",
        "s_hand_penalty": "minus die Kilometer auf der Hand",
        "id": "id",
        "kind": "Art",
        "count": "Anzahl",
        "name": "Name",
        "k_distance": "Kilometer",
        "k_hazard": "Hindernis",
        "k_remedy": "Abhilfe",
        "k_safety": "Schutz",
        "deck": "{n} Karten",
        "deck_players": "{n} Karten mit {players} Spielern",
    },
    "hu": {
        "sep": "; ",
        "how": "Játékszabály",
        "cards": "A kártyák",
        "hand": "menet",
        "players_alone": "{players} játékos; mindenki egyedül játszik.",
        "players_teams": "{players} játékos. {teams}.",
        "otherwise": "{teams}; különben mindenki egyedül játszik",
        "team": "{n} játékosnál {k} csapat, csapatonként {size} fő",
        "target": "A táv egyedül {alone} km, csapatban {team} km.",
        "target_same": "A táv {km} km.",
        "goal": (
            "Minden fél addig rakja ki a kilométerkártyáit, amíg az összege pontosan eléri a célt; az "
            "akadályokkal a többieket lassítja."
        ),
        "deal": "Mindenki 6 lapot kap, a többi a húzópakli. Az osztótól balra ülő kezd.",
        "small": "{players} játékosnál ezek a lapok kimaradnak: {cards}.",
        "turn": (
            "A körödben húzol egy lapot, majd egyet teszel: kijátszol egy lapot a saját oldaladra, akadályt "
            "raksz egy ellenfélre, vagy eldobsz egy lapot képpel felfelé."
        ),
        "rolling": (
            "Kilométert csak akkor rakhatsz ki, ha a menetoszlopod tetején {roll} van (vagy {row} lapod van kint, "
            "és nincs ott akadály); a célon túl soha, és menetenként legfeljebb két {d200} lapot."
        ),
        "limit": "{limit} alatt csak {d25} és {d50} rakható ki, amíg {end} nem jön.",
        "hazard": "Akadály",
        "remedy": "Elhárítás",
        "remedies": (
            "Az elhárító lap a saját oszlopodra kerül, csak a saját akadályára; utána újra {roll} kell "
            "(kivéve, ha {row} lapod van)."
        ),
        "safeties": "{safeties}: a menet végéig védik az oldaladat, és leveszik a hozzájuk tartozó akadályt.",
        "extra": "Aki kijátszik egyet, újra húz és játszik.",
        "cf": (
            "{cf}: ha egy ellenfél akadályt rak rád, és nálad van a hozzá tartozó adu, azonnal keresztbe "
            "kirakod (a rallye megteszi helyetted); húzol egy lapot, és te következel."
        ),
        "cf_more": "Ha ebben a körben még egy adut kijátszol, újra húzol és játszol.",
        "end": "A menet véget ér, amikor egy fél pontosan eléri a célt.",
        "ext": (
            "Aki egyedül pontosan {from_km} km-t ér el, {to_km} km-re hosszabbíthatja a menetet ({word}): aki "
            "ezután {to_km} km-t teljesít, az kapja a célba érés pontjait és a hosszabbításért járó {points} pontot."
        ),
        "ext_empty": "A meghosszabbított menet akkor is véget ér, ha elfogy a húzópakli.",
        "ext_opponents": (
            "Ha a bejelentő nem teljesíti, minden ellenfele, aki rakott ki kilométert, {points} pontot kap."
        ),
        "ext_nobody": "Ha senki sem teljesíti, a célba érés pontjait senki sem kapja meg.",
        "empty_on": (
            "Ha elfogy a húzópakli, a kézben lévő lapokkal folytatjátok; a menet akkor ér véget, amikor minden "
            "kéz kiürül."
        ),
        "empty_ends": "Akkor is véget ér, amikor lezárul a kör, amelyben valaki az utolsó lapot húzza.",
        "closest": "Ha senki sem ért el {km} km-t, a hozzá legközelebb álló felek kapják a célba érés {trip} pontját.",
        "in_hand": "A kézben maradt kilométerkártyákat levonják a fél pontjaiból.",
        "match_to": "A játszma menetről menetre tart, amíg egy félnek {target} pontja nem lesz; a legtöbb pont nyer.",
        "match_one": "A játék egyetlen menet, amelyet a táv dönt el: pontosan {km} km, különben a hozzá legközelebbi.",
        "line": "Sor",
        "scores": "Pont",
        "s_distance": "kilométerenként 1 pont",
        "s_safeties": "darabonként {v}",
        "s_all_four": "+{v} mind a négyért",
        "s_coup_fourre": "darabonként +{v}",
        "s_cf_total": "darabonként +{v} (az aduval együtt {total})",
        "s_trip": "{v} a célba érésért",
        "s_safe_trip": "{v}, ha {d200} nélkül ért célba",
        "s_delayed_action": "{v}, ha a húzópakli kifogyása után ért célba",
        "s_shutout_completer": "{v} minden ellenfélért, amely nem rakott ki kilométert; a célba érő fél kapja",
        "s_shutout_placed": "{v} minden ellenfélért, amely nem rakott ki kilométert; minden fél kapja, amely rakott ki",
        "s_extension": "{v} a meghosszabbított táv teljesítéséért",
        "s_hand_penalty": "mínusz a kézben maradt kilométer",
        "id": "azonosító",
        "kind": "fajta",
        "count": "db",
        "name": "név",
        "k_distance": "kilométer",
        "k_hazard": "akadály",
        "k_remedy": "elhárítás",
        "k_safety": "adu",
        "deck": "{n} lap",
        "deck_players": "{n} lap {players} játékosnál",
    },
    "fr": {
        "sep": " ; ",
        "how": "Règles du jeu",
        "cards": "Les cartes",
        "hand": "manche",
        "players_alone": "{players} joueurs ; chacun joue seul.",
        "players_teams": "{players} joueurs. {teams}.",
        "otherwise": "{teams} ; sinon chacun joue seul",
        "team": "à {n} : {k} équipes de {size}",
        "target": "Le voyage fait {alone} km pour un joueur seul et {team} km pour une équipe.",
        "target_same": "Le voyage fait {km} km.",
        "goal": (
            "Chaque camp pose des cartes d'étape jusqu'à atteindre exactement le but ; les attaques ralentissent "
            "les autres."
        ),
        "deal": "Chacun reçoit 6 cartes ; le reste forme la pioche. Le joueur à gauche du donneur commence.",
        "small": "À {players} joueurs, ces cartes sont retirées : {cards}.",
        "turn": (
            "À ton tour : pioche une carte, puis fais une seule chose : pose une carte de ton côté, attaque un "
            "adversaire ou défausse une carte face visible."
        ),
        "rolling": (
            "Tu ne poses des étapes que si {roll} est en haut de ta pile de bataille (ou si tu as {row} et "
            "qu'aucune attaque n'y est) ; jamais au-delà du but, et au plus deux {d200} par manche."
        ),
        "limit": "Sous {limit}, seules {d25} et {d50} sont permises, jusqu'à {end}.",
        "hazard": "Attaque",
        "remedy": "Parade",
        "remedies": (
            "Une parade se pose sur ta propre pile, seulement sur son attaque ; ensuite il te faut de nouveau "
            "{roll} (sauf avec {row})."
        ),
        "safeties": "{safeties} : elles protègent ton camp jusqu'à la fin de la manche et enlèvent leur attaque.",
        "extra": "Qui en pose une pioche et rejoue.",
        "cf": (
            "{cf} : quand un adversaire t'attaque et que tu as la botte correspondante, tu la poses aussitôt, "
            "en travers (rallye le fait pour toi) ; tu pioches une carte et c'est à toi de jouer."
        ),
        "cf_more": "Si tu poses une autre botte pendant ce tour, tu pioches et rejoues encore une fois.",
        "end": "La manche se termine quand un camp atteint exactement le but.",
        "ext": (
            "Un joueur seul qui atteint exactement {from_km} km peut prolonger la manche jusqu'à {to_km} km "
            "({word}) : celui qui atteint alors {to_km} km marque les primes du voyage et {points} pour l'allonge."
        ),
        "ext_empty": "Une manche prolongée se termine aussi quand la pioche est vide.",
        "ext_opponents": "Si l'annonceur échoue, chaque adversaire qui a posé des étapes marque les {points}.",
        "ext_nobody": "Si personne n'y parvient, personne ne marque les primes du voyage.",
        "empty_on": (
            "Quand la pioche est vide, on continue avec les cartes en main ; la manche se termine quand toutes "
            "les mains sont vides."
        ),
        "empty_ends": "Elle se termine aussi après le tour qui prend la dernière carte de la pioche.",
        "closest": "Si personne n'a atteint {km} km, les camps les plus proches marquent les {trip} points.",
        "in_hand": "Les cartes d'étape restées en main sont déduites du score de leur camp.",
        "match_to": (
            "La partie se joue manche après manche jusqu'à ce qu'un camp ait {target} points ; le plus haut "
            "total gagne."
        ),
        "match_one": "La partie est une seule manche, gagnée à la distance : exactement {km} km, sinon le plus proche.",
        "line": "Ligne",
        "scores": "Points",
        "s_distance": "1 point par km",
        "s_safeties": "{v} chacune",
        "s_all_four": "+{v} pour les quatre",
        "s_coup_fourre": "+{v} chacun",
        "s_cf_total": "+{v} chacun ({total} avec la botte)",
        "s_trip": "{v} pour le voyage terminé",
        "s_safe_trip": "{v} si terminé sans {d200}",
        "s_delayed_action": "{v} si terminé après l'épuisement de la pioche",
        "s_shutout_completer": "{v} par camp adverse sans étape, pour le camp qui a terminé le voyage",
        "s_shutout_placed": "{v} par camp adverse sans étape, pour chaque camp qui a posé des étapes",
        "s_extension": "{v} pour une allonge réussie",
        "s_hand_penalty": "moins les étapes restées en main",
        "id": "id",
        "kind": "sorte",
        "count": "nombre",
        "name": "nom",
        "k_distance": "étape",
        "k_hazard": "attaque",
        "k_remedy": "parade",
        "k_safety": "botte",
        "deck": "{n} cartes",
        "deck_players": "{n} cartes à {players} joueurs",
    },
}


def rules_language(ed: Edition, lang: str | None) -> str:
    """The language to explain ``ed`` in: the one asked for, else the edition's; English when
    rallye has no rules text in it. (Card names and score words come in it where the edition
    has them, else in the edition's own language: see ``_shown``.)

    >>> from rallye.mille.edition import get_edition
    >>> rules_language(get_edition("hu"), None), rules_language(get_edition("wm2006"), "hu")
    ('hu', 'hu')
    """
    want = lang or ed.language
    return want if want in HOW_TO_PLAY else "en"


def _shown(ed: Edition, lang: str) -> tuple[str, str]:
    """The languages for the box's card names and score words: ``lang`` where the edition has
    them, else its own (a house file may name its cards in one language only)."""
    names = lang if lang in ed.languages() else ed.language
    words = lang if lang in dict(ed.score_words) else ed.language
    return names, words


def _players_line(ed: Edition, w: dict[str, str], players: int | None) -> str:
    counts = (players,) if players else ed.players
    teams = []
    for n in counts:
        sides = ed.sides_for(n)
        if any(len(s) > 1 for s in sides):
            teams.append(w["team"].format(n=n, k=len(sides), size=len(sides[0])))
    shown = ", ".join(map(str, counts))
    if not teams:
        return w["players_alone"].format(players=shown)
    text = w["sep"].join(teams)
    if len(teams) < len(counts):
        text = w["otherwise"].format(teams=text)
    return w["players_teams"].format(players=shown, teams=text[0].upper() + text[1:])


def how_to_play(ed: Edition, lang: str | None = None, players: int | None = None) -> list[str]:
    """The edition's game in paragraphs: who plays, the turn, the cards, the end of a hand and
    of the match, in ``lang`` (default: the edition's), with the box's card names and words.
    ``players`` narrows it to that player count (which must be one the edition has)."""
    if players is not None:
        ed.sides_for(players)  # a ConfigError naming the counts the edition has
    lang = rules_language(ed, lang)
    nl, wl = _shown(ed, lang)
    w = HOW_TO_PLAY[lang]
    n = {c: ed.card_name(c, nl) for c in CARDS}
    sizes = {len(s) for k in ((players,) if players else ed.players) for s in ed.sides_for(k)}
    if ed.target_alone == ed.target_team or sizes == {1}:
        target = w["target_same"].format(km=ed.target_alone if sizes == {1} else ed.target_team)
    elif sizes == {2} or sizes == {3} or 1 not in sizes:
        target = w["target_same"].format(km=ed.target_team)
    else:
        target = w["target"].format(alone=ed.target_alone, team=ed.target_team)
    small = [k for k in ((players,) if players else ed.small_game_players) if k in ed.small_game_players]
    deal = w["deal"]
    if small and ed.small_game_removed:
        cards = ", ".join(n[c] for c in ed.small_game_removed)
        deal += " " + w["small"].format(players="/".join(map(str, small)), cards=cards)
    paragraphs = [
        _players_line(ed, w, players) + " " + target + " " + w["goal"],
        deal,
        w["turn"],
        w["rolling"].format(roll=n["ROLL"], row=n["RIGHT_OF_WAY"], d200=n["D200"])
        + " "
        + w["limit"].format(limit=n["SPEED_LIMIT"], d25=n["D25"], d50=n["D50"], end=n["END_OF_LIMIT"]),
    ]
    safeties = w["safeties"].format(safeties=ed.word("safeties", wl))
    if ed.extra_turn_after_safety:
        safeties += " " + w["extra"]
    paragraphs.append(w["remedies"].format(roll=n["ROLL"], row=n["RIGHT_OF_WAY"]) + " " + safeties)
    cf = w["cf"].format(cf=ed.word("coup_fourre", wl))
    if ed.extra_turn_after_safety_in_coup_fourre_turn and not ed.extra_turn_after_safety:
        cf += " " + w["cf_more"]
    paragraphs.append(cf)
    end = [w["end"]]
    ex = ed.extension
    alone_ok = any(len(s) == 1 for k in ((players,) if players else ed.players) for s in ed.sides_for(k))
    if ex.allowed and (alone_ok or not ex.alone_only):
        end.append(
            w["ext"].format(
                from_km=ex.from_km, to_km=ex.to_km, word=ed.word("extension", wl), points=ed.scoring.extension
            )
        )
        if ex.ends_on_empty_draw:
            end.append(w["ext_empty"])
        end.append(
            w["ext_opponents" if ex.failed_bonus_to == "opponents" else "ext_nobody"].format(
                points=ed.scoring.extension
            )
        )
    if ed.empty_draw_ends_hand:
        end.append(w["empty_ends"])
    else:
        end.append(w["empty_on"])
    if ed.closest_gets_trip_when_no_completion:
        end.append(w["closest"].format(km=ed.target_alone, trip=ed.scoring.trip))
    if ed.subtract_distance_in_hand:
        end.append(w["in_hand"])
    paragraphs.append(" ".join(end))
    if ed.match_target is None:
        paragraphs.append(w["match_one"].format(km=ed.target_alone))
    else:
        paragraphs.append(w["match_to"].format(target=ed.match_target))
    return paragraphs


def scoring_rows(ed: Edition, lang: str | None = None) -> list[tuple[str, str]]:
    """(the box's word for a score-sheet line, what it scores) for every line the edition has."""
    lang = rules_language(ed, lang)
    nl, wl = _shown(ed, lang)
    w = HOW_TO_PLAY[lang]
    sc = ed.scoring
    d200 = ed.card_name("D200", nl)
    values: dict[str, str | None] = {
        "distance": w["s_distance"],
        "safeties": w["s_safeties"].format(v=sc.safety),
        "all_four": w["s_all_four"].format(v=sc.all_four_bonus) if sc.all_four_bonus else None,
        "coup_fourre": (
            w["s_coup_fourre"].format(v=sc.coup_fourre_bonus)
            if sc.coup_fourre_bonus + sc.safety == 400
            else w["s_cf_total"].format(v=sc.coup_fourre_bonus, total=sc.coup_fourre_bonus + sc.safety)
        )
        if sc.coup_fourre_bonus
        else None,
        "trip": w["s_trip"].format(v=sc.trip),
        "safe_trip": w["s_safe_trip"].format(v=sc.safe_trip, d200=d200) if sc.safe_trip else None,
        "delayed_action": w["s_delayed_action"].format(v=sc.delayed_action) if sc.delayed_action else None,
        "shutout": w[f"s_shutout_{sc.shutout_to}"].format(v=sc.shutout)
        if sc.shutout and sc.shutout_to != "none"
        else None,
        "extension": w["s_extension"].format(v=sc.extension) if ed.extension.allowed and sc.extension else None,
        "hand_penalty": w["s_hand_penalty"] if ed.subtract_distance_in_hand else None,
    }
    return [(ed.word(line, wl), text) for line in SCORE_LINES if (text := values[line]) is not None]


def print_rules(console: Console, ed: Edition, lang: str | None = None, players: int | None = None) -> None:
    """``rallye rules mille``: the edition's game in paragraphs, which card answers which,
    its score sheet and its cards, in ``lang`` (default: the edition's)."""
    from rich.table import Table
    from rich.text import Text

    from rallye.tui.mille.render import edition_title

    paragraphs = how_to_play(ed, lang, players)
    lang = rules_language(ed, lang)
    nl, wl = _shown(ed, lang)
    w = HOW_TO_PLAY[lang]
    n = {c: ed.card_name(c, nl) for c in CARDS}
    console.print(Text(f"{edition_title(ed, lang)} · {ed.key}", style="bold"))
    console.print(Text(w["how"], style="bold underline"))
    for i, para in enumerate(paragraphs):
        console.print(Text(para))
        if i == 3:  # after the driving rules: which card answers which
            pairs = Table(show_edge=False, pad_edge=False)
            for head in (w["hazard"], w["remedy"], ed.word("safeties", wl)):
                pairs.add_column(head)
            for hazard in ("STOP", "SPEED_LIMIT", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT"):
                remedy = next(r for r, h in REMEDY_FOR.items() if h == hazard)
                pairs.add_row(n[hazard], n[remedy], n[SAFETY_FOR[hazard]])
            console.print(pairs)
    pts = Table(title=ed.word("score_sheet", wl), title_justify="left", title_style="bold")
    pts.add_column(w["line"])
    pts.add_column(w["scores"])
    for word, text in scoring_rows(ed, lang):
        pts.add_row(word, text)
    console.print(pts)
    cards = Table(title=w["cards"], title_justify="left", title_style="bold")
    for col in ("id", "kind", "count", "name"):
        cards.add_column(w[col], justify="right" if col == "count" else "left")
    deck = rules_text(ed, nl, players)
    for cid, count, name in deck:
        cards.add_row(cid, w[f"k_{kind(cid)}"], count, name)
    console.print(cards)
    total = sum(int(c) for _, c, _ in deck)
    console.print(w["deck_players"].format(n=total, players=players) if players else w["deck"].format(n=total))
