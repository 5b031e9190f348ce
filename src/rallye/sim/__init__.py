"""Simulation, tournaments, ratings and distributed runs."""
