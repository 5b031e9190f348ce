"""Research environments (Gymnasium, PettingZoo, OpenSpiel) and their encodings."""
