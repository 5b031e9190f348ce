"""Mille Bornes for the research environments: the observation encoding and action masks
(:mod:`~rallye.rl.mille.encoding`), the environments' adapter, the OpenSpiel game
(:mod:`~rallye.rl.mille.spiel`), the vector environment on the batched engine
(:mod:`~rallye.rl.mille.vector`) and the self-play collectors (:mod:`~rallye.rl.mille.collect`).

The PettingZoo environment is :mod:`rallye.rl.mille_v0`; Gymnasium's is ``rallye/Mille-v0``.
"""
