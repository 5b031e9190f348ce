"""Simulation, tournaments, ratings and distributed runs.

* :mod:`rallye.sim.play` – one whole match with bots (views only) into a plain result, one
  loop for both games through the game face, with each game's statistics;
* :mod:`rallye.sim.runner` – many matches in-process, on a process pool or on Ray,
  always returned in match order;
* :mod:`rallye.sim.simulate` – ``rallye simulate``: win rates and score-sheet means;
* :mod:`rallye.sim.tournament` – ``rallye tournament``: duplicate deals, Elo ratings;
* :mod:`rallye.sim.ratings`, :mod:`rallye.sim.stats` – Bradley-Terry/Elo, bootstrap,
  Wilson intervals, quantiles;
* :mod:`rallye.sim.progress` – the progress bar on standard error.
"""
