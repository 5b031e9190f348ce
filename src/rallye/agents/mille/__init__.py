"""The Mille Bornes bots: the heuristic, the searches, the deal sampler and hand tracker, the
distilled policy, the opponent zoo and the levels."""
