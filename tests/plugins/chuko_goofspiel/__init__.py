"""Goofspiel, packaged as another project would package it: a game whose move is a secret
bid made by both players at once, reaching chuko only through the `chuko.games` entry
point."""
