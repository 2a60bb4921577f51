"""Simulation: statistics over many dealt rounds and shuffles."""
