"""rallye: exact rules engines, bots and research environments for car-race tabletop games."""

__version__ = "0.1.0"
