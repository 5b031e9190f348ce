"""What the server sends for each move, and where the bytes go (docs/server.md, "Bytes a move").

Plays whole Mille Bornes matches between bots through the server's own authority
(:class:`rallye.server.table.Table`, on a throwaway SQLite file) with every seat connected,
and after each move builds exactly the ``state`` messages a broadcast sends (one a seat). It
reports the bytes a move sends each player, split by the message's fields (and the view's),
and what per-message deflate (RFC 7692, with its context kept between messages, as browsers
and the ``websockets`` library negotiate it) would make of them, with the CPU it costs.

    PYTHONPATH=src python benchmarks/message_bytes.py --players 4 --matches 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path

import orjson

from rallye.server import table as table_module
from rallye.server.store import Store
from rallye.server.table import Table


class Deflate:
    """One direction of a permessage-deflate connection: raw deflate, context kept, each
    message flushed and its 4-byte tail cut (RFC 7692, section 7.2.1)."""

    def __init__(self, level: int) -> None:
        self.z = zlib.compressobj(level, zlib.DEFLATED, -15)

    def size(self, data: bytes) -> int:
        return len(self.z.compress(data) + self.z.flush(zlib.Z_SYNC_FLUSH)) - 4


def measure(edition: str, players: int, matches: int, seed: int, level: int, full_log: bool) -> dict[str, object]:
    rng = random.Random(seed)
    # the same deals at every run (the server draws each table's seed from secrets)
    drawn = table_module.new_seed  # type: ignore[attr-defined]
    table_module.new_seed = lambda: rng.getrandbits(128)  # type: ignore[attr-defined]
    try:
        fields: Counter[str] = Counter()
        view: Counter[str] = Counter()
        raw = deflated = messages = moves = 0
        build = squeeze = 0.0
        with tempfile.TemporaryDirectory() as folder:
            store = Store(f"sqlite:///{Path(folder) / 'bytes.db'}")
            store.upgrade()
            for _ in range(matches):
                seats = [{"kind": "bot", "level": "easy"}] * players
                request = {"game": "mille", "edition": edition, "players": players, "seats": seats}
                table, _, _ = Table.create(store, request, owner="bytes")
                table.connected = set(range(players))
                streams: dict[int | None, Deflate] = {s: Deflate(level) for s in range(players)}
                while not table.over:
                    legal = table.game.legal_actions(table.match.state)
                    table.submit(table.current(), table.move_no, str(rng.choice(list(legal))))
                    moves += 1
                    t0 = time.perf_counter()
                    states = table.states_for(range(players)) if full_log else table.broadcast_states(range(players))
                    texts = {s: orjson.dumps(m) for s, m in states.items()}
                    build += time.perf_counter() - t0
                    for seat, msg in states.items():
                        data = texts[seat]
                        raw += len(data)
                        messages += 1
                        for key, value in msg.items():
                            fields[key] += len(orjson.dumps(value)) + len(key) + 4
                        for key, value in msg["view"].items():
                            view[key] += len(orjson.dumps(value)) + len(key) + 4
                        t0 = time.perf_counter()
                        deflated += streams[seat].size(data)
                        squeeze += time.perf_counter() - t0
            store.close()

    finally:
        table_module.new_seed = drawn  # type: ignore[attr-defined]
    per = moves * players
    return {
        "edition": edition,
        "players": players,
        "moves": moves,
        "bytes_per_move_per_player": round(raw / per),
        "by_field": {k: round(v / per) for k, v in fields.most_common()},
        "view_by_field": {k: round(v / per) for k, v in view.most_common(8)},
        "deflated_per_move_per_player": round(deflated / per),
        "deflate_level": level,
        "log": "last 30 moves" if full_log else "delta",
        "build_us_per_message": round(build / messages * 1e6, 1),
        "deflate_us_per_message": round(squeeze / messages * 1e6, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--edition", default="wm2006")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--matches", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--level", type=int, default=6, help="deflate level (the websockets library's default: 6)")
    p.add_argument("--full-log", action="store_true", help="every state with the last 30 moves (as before the delta)")
    args = p.parse_args(argv)
    out = measure(args.edition, args.players, args.matches, args.seed, args.level, args.full_log)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
