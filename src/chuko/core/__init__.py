"""Core: numbers and packs, card text, notation, the game protocol, errors, randomness.

Nothing here imports a game, a bot or a front end, and nothing here needs a
third-party package.
"""
