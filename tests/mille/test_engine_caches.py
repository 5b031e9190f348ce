"""The engine's small caches give exactly what they stand in for."""

from rallye.core.rng import Rng
from rallye.mille import editions, engine


def test_shuffled_deck_cache_returns_the_shuffle_it_stands_for() -> None:
    # core "Deal": every hand's deck is the seeded shuffle of the edition's deck for the players
    for ed in editions():
        for players in ed.players:
            for seed, hand_no in ((0, 0), (0, 1), (7, 3), (2**40, 2)):
                want, _ = Rng.from_seed("mille", seed, hand_no).shuffle(ed.deck_for(players))
                assert engine.shuffled_deck(ed, players, seed, hand_no) == want
                assert engine.shuffled_deck(ed, players, seed, hand_no) == want  # the cached copy
    assert len(engine._SHUFFLED) <= 64


def test_shuffled_deck_cache_tells_editions_apart() -> None:
    # asked in turn for the same seed and hand, each edition gets the shuffle of its own deck
    eds = [ed for ed in editions() if 2 in ed.players]
    assert len({ed.deck_for(2) for ed in eds}) > 1
    for _ in range(2):
        for ed in eds:
            want, _ = Rng.from_seed("mille", 1, 1).shuffle(ed.deck_for(2))
            assert engine.shuffled_deck(ed, 2, 1, 1) == want
