"""Exact solvers for the perfect-information layout games.

A solver keeps a compact private encoding for speed (ruling-level logic lives in the
games' modules); its tests compare it with the engine on many random deals.
"""
