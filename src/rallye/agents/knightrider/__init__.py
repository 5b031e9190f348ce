"""The Knight Rider bots: the heuristic, the searches and the levels."""
