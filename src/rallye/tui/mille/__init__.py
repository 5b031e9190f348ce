"""Mille Bornes in the terminal: the game's screens, its loop and its rules texts."""
