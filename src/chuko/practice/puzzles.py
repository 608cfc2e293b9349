"""Crossroads puzzles: positions from seeded self-play where exactly one move keeps the
perfect-play value (the exact solver's, ruling C4), each with a theme in words drawn from
what the engine and the solver say about the moves, and a first rating calibrated from the
solver's values of every move (`puzzle_difficulty.py`).

The shipped set (`data/crossroads-puzzles.txt`) is one line per puzzle:

    ID DEAL FIRST MOVES ANSWER RATING THEME:CARD

DEAL is the twelve cards, comma-separated, row by row; FIRST the seat that started; MOVES
the moves so far, comma-separated ("-" for none); ANSWER the one best move; RATING the first
rating on the club's scale; THEME a code from `THEMES` and CARD the card it speaks of.
`python -m chuko.practice.puzzles --seed 1 --count 2000 --out FILE` makes it again.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from random import Random

from chuko.bots.crossroads import CrossroadsBot, ending, solver_for, taking
from chuko.bots.layout import DealSolver, played
from chuko.core.errors import ConfigError, ParseError
from chuko.core.layout import LayoutMove, layout_text
from chuko.core.protocol import Json
from chuko.core.words import count
from chuko.games.crossroads import Crossroads, CrossroadsState
from chuko.practice.puzzle_difficulty import calibrated_rating
from chuko.solvers.crossroads import CrossroadsSolver

SHIPPED = "crossroads-puzzles.txt"
SEED = 1
MIN_CHOICES = 3  # a position with fewer legal moves is no puzzle
PER_GAME = 2  # puzzles taken from one self-play game at most, so deals vary
LEVELS = ("random", "easy", "hard", "perfect")

# theme code → its sentence; {card} is the card the theme speaks of
THEMES = {
    "quiet-loss": "A point now loses the game: the quiet {card} wins it back later.",
    "quiet-draw": "A point now only draws: the quiet {card} keeps the win.",
    "quiet-cost": "A point now costs more later: the quiet {card} keeps the best result.",
    "deny": "Deny your opponent the {card}: it would score for them next.",
    "end": "The end matters: {card} goes to the {side} end; the other end costs you later.",
    "point": "Several moves score now, but only {card} keeps the best result.",
    "take": "Take the point: {card} is the one move that scores, and it keeps the best result.",
    "build": "No point is there now: {card} builds the trail that scores later.",
    "start": "The first card decides a lot: start your trail with {card}.",
}
# how much a game's positions with each theme are wanted in the set (the rarer, the more)
INTEREST = {"quiet-loss": 3, "quiet-draw": 3, "quiet-cost": 3, "deny": 2, "build": 2,
            "end": 1, "point": 1, "take": 0, "start": 0}


@dataclass(frozen=True)
class Puzzle:
    """One position and its one best move."""

    id: str
    deal: tuple[int, ...]
    first: int
    moves: tuple[str, ...]
    answer: str
    rating: int
    theme: str
    card: int

    def state(self) -> CrossroadsState:
        """The position: the deal with the moves so far played through the engine."""
        return Crossroads.replay({"game": Crossroads.id, "deal": layout_text(self.deal),
                                  "first": self.first, "moves": list(self.moves)})

    @property
    def sentence(self) -> str:
        """The theme in words."""
        side = "left" if self.answer.endswith("L") else "right"
        return THEMES[self.theme].format(card=self.card, side=side)

    def line(self) -> str:
        return " ".join((self.id, ",".join(map(str, self.deal)), str(self.first),
                         ",".join(self.moves) or "-", self.answer, str(self.rating),
                         f"{self.theme}:{self.card}"))

    @classmethod
    def parse(cls, line: str) -> Puzzle:
        words = line.split()
        if len(words) != 7:
            raise ParseError(f"A puzzle line has seven fields, not {len(words)}.")
        ident, deal, first, moves, answer, rating, theme = words
        code, card = theme.split(":")
        return cls(ident, tuple(int(c) for c in deal.split(",")), int(first),
                   tuple(moves.split(",")) if moves != "-" else (), answer, int(rating),
                   code, int(card))


def gain(state: CrossroadsState, move: LayoutMove) -> int:
    """What `move` scores at once for the player to move."""
    seat = state.to_move[0]
    return played(state, seat, move).totals()[seat] - state.totals()[seat]


def best_reply_gain(state: CrossroadsState) -> int:
    """The most the player to move can score at once (0 when the game is over)."""
    if not state.to_move:
        return 0
    return max(gain(state, m) for m in state.legal_moves(state.to_move[0]))


def theme_of(state: CrossroadsState, values: dict[LayoutMove, int],
             best: LayoutMove) -> str:
    """The theme code of a position whose one best move is `best`, from the engine's and
    the solver's facts about every move."""
    gains = {m: gain(state, m) for m in values}
    if best.end is None:
        return "start"
    tempting = [m for m in values if gains[m] > gains[best]]
    if tempting:
        lure = max(values[m] for m in tempting)
        return ("quiet-loss" if lure < 0 <= values[best] else
                "quiet-draw" if lure == 0 < values[best] else "quiet-cost")
    seat = state.to_move[0]
    others = [m for m in values if m.position != best.position]
    if others and any(_lets_score(state, seat, m, best.position) for m in others) and (
            best_reply_gain(played(state, seat, best))
            < max(best_reply_gain(played(state, seat, m)) for m in others)):
        return "deny"
    # The end is the lesson when the same card at the other end is the one near miss.
    twin = next((m for m in values if m.position == best.position and m != best), None)
    if twin is not None and all(values[twin] > v for m, v in values.items()
                                if m not in (best, twin)):
        return "end"
    if not gains[best]:
        return "build"
    return "point" if sum(gains.values()) > 1 else "take"


def _lets_score(state: CrossroadsState, seat: int, move: LayoutMove, position: int) -> bool:
    """Whether, after `move`, the opponent scores at once by taking the card at `position`."""
    after = played(state, seat, move)
    if not after.to_move or after.to_move[0] == seat:
        return False
    return any(gain(after, m) for m in after.legal_moves(after.to_move[0])
               if m.position == position)


def first_rating(state: CrossroadsState, values: dict[LayoutMove, int],
                 best: LayoutMove) -> int:
    """A first rating calibrated from the solver's values of every move and what each
    scores at once (`puzzle_difficulty.py`), on the club's scale."""
    gains = {m: gain(state, m) for m in values}
    return calibrated_rating(values, gains, best, len(state.layout) - len(state.moves))


def candidate(state: CrossroadsState, solver: CrossroadsSolver) -> LayoutMove | None:
    """The one move that keeps the position's value, when exactly one does and the
    position offers enough choice."""
    values = solver.move_values(state)
    if len(values) < MIN_CHOICES:
        return None
    top = max(values.values())
    best = [m for m, v in values.items() if v == top]
    return best[0] if len(best) == 1 else None


def self_play(rng: Random) -> Iterator[CrossroadsState]:
    """The positions of one seeded self-play game between two bots of random levels."""
    game = Crossroads(first=rng.randrange(2))
    state = game.new(rng.getrandbits(32))
    bots = [CrossroadsBot(rng.choice(LEVELS), Random(rng.getrandbits(32))) for _ in range(2)]
    while state.to_move:
        seat = state.to_move[0]
        yield state.copy()
        move = bots[seat].choose(state.view(seat), state.legal_moves(seat))
        state.play(seat, move)


def mine(seed: int, count: int) -> list[Puzzle]:
    """`count` puzzles from seeded self-play: the same seed gives the same puzzles. From
    each game, the positions with the rarer themes first (`INTEREST`), ties at random."""
    rng = Random(seed)
    solve: DealSolver[CrossroadsState, CrossroadsSolver] = DealSolver(solver_for)
    puzzles: list[Puzzle] = []
    seen: set[tuple[tuple[int, ...], tuple[str, ...]]] = set()
    while len(puzzles) < count:
        found = []
        for state in self_play(rng):
            key = (state.layout, tuple(map(str, state.moves)))
            puzzle = None if key in seen else _puzzle(state, solve(state))
            if puzzle is not None:
                found.append((-INTEREST[puzzle.theme], rng.random(), puzzle))
                seen.add(key)
        for *_, puzzle in sorted(found)[:min(PER_GAME, count - len(puzzles))]:
            puzzles.append(replace(puzzle, id=str(len(puzzles) + 1)))
    return puzzles


def _puzzle(state: CrossroadsState, solver: CrossroadsSolver) -> Puzzle | None:
    best = candidate(state, solver)
    if best is None:
        return None
    values = solver.move_values(state)
    return Puzzle("", state.layout, state.first, tuple(map(str, state.moves)), str(best),
                  first_rating(state, values, best), theme_of(state, values, best),
                  state.layout[best.position])


def by_id(ident: str) -> Puzzle:
    """A shipped puzzle by its id; a ChukoError for one there is not."""
    found = catalogue().get(ident)
    if found is None:
        raise ConfigError(f"There is no puzzle {ident!r}: the ids run from 1 to "
                          f"{len(catalogue())}.")
    return found


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Puzzle]:
    """The shipped puzzles by id, read once."""
    return {p.id: p for p in shipped()}


def task(puzzle: Puzzle) -> Json:
    """What a player is shown: the position (the engine's view for the seat to move), the
    legal moves and the puzzle's rating; never the answer or the theme."""
    state = puzzle.state()
    seat = state.to_move[0]
    return {"id": puzzle.id, "rating": puzzle.rating, "seat": seat,
            "state": state.view(seat), "legal": [str(m) for m in state.legal_moves(seat)],
            "prompt": "Find the one move that keeps your best result."}


def judge(puzzle: Puzzle, text: str) -> Json:
    """A try judged by the exact solver: solved when the move keeps the position's
    perfect-play value. The engine refuses a move that is not legal (a ChukoError)."""
    state = puzzle.state()
    seat = state.to_move[0]
    after = played(state, seat, LayoutMove.parse(text))
    move = after.moves[-1]  # as the engine applied it (a first card has no end)
    values = solver_for(state).move_values(state)
    best = max(values.values())
    answer = next(m for m in values if str(m) == puzzle.answer)
    verdict = {"id": puzzle.id, "move": str(move), "solved": values[move] == best,
               "answer": puzzle.answer, "yours": ending(values[move]), "best": ending(best),
               "move_words": placing(state, move), "answer_words": placing(state, answer),
               "value": values[move], "best_value": best,
               "theme": puzzle.theme, "sentence": puzzle.sentence}
    return {**verdict, "text": verdict_text(verdict)}


def placing(state: CrossroadsState, move: LayoutMove) -> str:
    """A move in words: "14 to the left end", "10 to start the trail"."""
    return taking(state.layout, move).removeprefix("taking ")


def verdict_text(verdict: Json) -> str:
    """The verdict as a sentence: "Right! After KL (30 to the left end) you draw with perfect
    play, the best you can.", "Not this one: after AL (14 to the left end) you lose by 1
    point with perfect play; after KL (30 to the left end) you draw."."""
    answer = f"{verdict['answer']} ({verdict['answer_words']})"
    if verdict["solved"]:
        return (f"Right! After {answer} you {outcome(verdict['best_value'])} with perfect "
                "play, the best you can.")
    return (f"Not this one: after {verdict['move']} ({verdict['move_words']}) you "
            f"{outcome(verdict['value'])} with perfect play; after {answer} you "
            f"{outcome(verdict['best_value'])}.")


def outcome(value: int) -> str:
    """The mover's end at the solver's `value`: "win by 2 points", "draw", "lose by 1 point"."""
    if value > 0:
        return f"win by {count(value, 'point')}"
    return f"lose by {count(-value, 'point')}" if value else "draw"


def read(lines: Sequence[str]) -> list[Puzzle]:
    return [Puzzle.parse(line) for line in lines if line.strip()]


def shipped() -> list[Puzzle]:
    """The puzzles that ship with chuko."""
    return read(files("chuko").joinpath("data", SHIPPED).read_text().splitlines())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chuko.practice.puzzles",
                                     description="Mine Crossroads puzzles from self-play.")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--out", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    text = "".join(p.line() + "\n" for p in mine(args.seed, args.count))
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
