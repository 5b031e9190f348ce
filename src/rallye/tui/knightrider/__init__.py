"""Knight Rider in the terminal: the game's screens, its loop, its event texts and its rules."""
