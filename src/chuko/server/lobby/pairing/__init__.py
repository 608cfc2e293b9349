"""Pairing, pure: who plays whom in a pool's wave (`waves`), by a maximum-weight matching
(`blossom`) or along a line of ratings (`line`, `sweep`).

Imports nothing of the server."""
