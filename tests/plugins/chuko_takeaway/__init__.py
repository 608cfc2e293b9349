"""A toy fifth game, packaged as another project would package it: it reaches every front
end of chuko only through the `chuko.games` entry point."""
