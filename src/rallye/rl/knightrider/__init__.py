"""Knight Rider for the research environments: the observation encodings and compact
action codes (:mod:`~rallye.rl.knightrider.encoding`, version 1;
:mod:`~rallye.rl.knightrider.compact`, version 2), the environments' adapter and the
OpenSpiel game (:mod:`~rallye.rl.knightrider.spiel`).

The PettingZoo environment is :mod:`rallye.rl.knightrider_v0`; Gymnasium's is
``rallye/KnightRider-v0``.
"""
