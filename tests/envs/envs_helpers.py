"""What the environment tests share: the games that offer environments, each with its
smallest example configuration."""

from chuko.games import descriptors

# Every registered game with an encoding, and the first (smallest) of its examples.
GAMES = {d.id: dict(d.examples[0]) if d.examples else {}
         for d in descriptors() if d.integrations.encoding is not None}
