"""Agents for the arena's tests, each a `callable(game, rng)` returning a bot (or failing to)."""

from chuko.bots import make_bot

NOT_CALLABLE = 42


class FirstMove:
    """Always the first legal move."""

    level = "first"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, view, legal_moves):
        return legal_moves[0]


class EverySecondMoveIllegal:
    """A legal move, then an illegal one (a move that is not in the list), and so on."""

    level = "sloppy"

    def __init__(self):
        self.moves = 0

    def choose(self, view, legal_moves):
        self.moves += 1
        return legal_moves[0] if self.moves % 2 else "nonsense"


class Raising:
    level = "raising"

    def choose(self, view, legal_moves):
        raise RuntimeError("the network is unreachable")


def easy(game, rng):
    """The built-in easy bot, by another name."""
    return make_bot(game.id, "easy", rng)


def first_move(game, rng):
    return FirstMove(rng)


def sloppy(game, rng):
    return EverySecondMoveIllegal()


def raising(game, rng):
    return Raising()


def illegal_at_once(game, rng):
    bot = EverySecondMoveIllegal()
    bot.moves = 1
    return bot


def not_a_bot(game, rng):
    return "a bot"


def broken(game, rng):
    raise ValueError("no weights")


class Factories:
    first_move = staticmethod(first_move)
