"""The rules of the protocol that the conformance suite (`chuko.testing`) checks on every
registered game, one sentence each. The suite words every failure with `broke`,
and docs/architecture.md lists every sentence, so a game's author reads the rules before a
test fails and, when one does, reads which rule it broke.
"""

from __future__ import annotations

RULES: dict[str, str] = {
    "games end": "A game of random legal moves ends, with an outcome holding one score "
                 "per seat, nobody to move and no legal move left.",
    "views are JSON": "`view(seat)` is JSON-ready for every seat and for a spectator (None).",
    "seeded deals": "`new(seed)` deals the same game for the same seed, and different games "
                    "for different seeds where the traits leave the deal to `chance`.",
    "refused moves change nothing": "A move that is not legal (another seat's move, text "
                                    "that is no move) raises a ChukoError and leaves the "
                                    "state exactly as it was.",
    "copies are independent": "Playing on a `copy()` leaves the original unchanged.",
    "replays rebuild the game": "`Game.replay(record)` rebuilds the same record, calling its "
                                "observer with the deal and then once after every move.",
    "cards are conserved": "`cards()` holds the same cards after every move of a deal.",
    "cards come from the deck": "`cards()` holds only cards of `deck()`, no more often than "
                                "the deck holds them.",
    "hidden values are null": "A view shows a value its seat may not know as null: the key "
                              "stays and a list keeps its length.",
    "full views keep the view's shape": "`full_view(seat)` is `view(seat)` with the nulls "
                                        "filled in: the same keys (it may add some), the "
                                        "same list lengths, and every other value the same.",
    "seat lists have a value per seat": "Under every key the descriptor's traits name in "
                                        "`seat_lists`, at any depth, a view holds a list "
                                        "with one entry per seat, in seat order.",
    "seat numbers name a seat": "Under every key the descriptor's traits name in "
                                "`seat_numbers`, at any depth, a view holds a seat's number "
                                "or null.",
    "perfect information hides nothing": "Where the traits say the information is perfect, "
                                         "every seat's view is its full view.",
    "moves are described": "`describe` and `describe_revealed` give one sentence about each "
                           "move, which ends with the result when the move ended the game.",
    "move text is canonical": "`parse_move(str(move))` gives the move back, and its text "
                              "again.",
    "any text is a move or a sentence": "`play` with any text plays a move or raises a "
                                        "ChukoError with a sentence, never another error.",
    "play accepts exactly the legal moves": "Among the strings of the descriptor's "
                                            "`notation`, `play` accepts exactly the texts "
                                            "of the legal moves.",
    "descriptors make games": "The descriptor's option defaults, and its examples, make "
                              "games, seated as its traits say; an unknown option is "
                              "refused; it names at least one bot level and one example.",
    "bots play legal moves": "Every bot level of the descriptor chooses a move the engine "
                             "accepts.",
    "deals rebuild the game": "`from_deal(record()['deal'])` starts the recorded game again, "
                              "never drawing who starts, and refuses what is no deal in "
                              "one sentence.",
    "orders are permutations of the deck": "`from_order` deals from a permutation of "
                                            "`deck()` and the choices of `deal_choices()`, "
                                            "and refuses anything else in one sentence.",
    "chance nodes list their outcomes": "At a chance node nobody is to move and "
                                        "`chance_outcomes()` lists JSON-ready outcomes with "
                                        "positive probabilities adding up to 1; elsewhere "
                                        "it is empty and `apply_chance` raises IllegalMove.",
    "encodings number the legal moves": "An encoding numbers every legal move, its mask "
                                        "is exactly the legal moves, its observations are "
                                        "built from the view alone in the declared shape, "
                                        "and its utilities and `truncated` agree with the "
                                        "outcome.",
}


def broke(rule: str) -> str:
    """The sentence a conformance failure is worded with: the rule's name and the rule."""
    return f"The game broke the rule '{rule}': {RULES[rule]}"


def keeps_shape(full: object, seen: object) -> bool:
    """Whether `full` has the shape of `seen` (rule 'full views keep the view's shape'):
    every key of an object (it may add some), and every list's length."""
    if isinstance(seen, dict):
        return isinstance(full, dict) and all(
            key in full and keeps_shape(full[key], value) for key, value in seen.items())
    if isinstance(seen, list):
        return (isinstance(full, list) and len(full) == len(seen)
                and all(keeps_shape(a, b) for a, b in zip(full, seen, strict=True)))
    return True


def reveals(full: object, seen: object) -> bool:
    """Whether `full` is `seen` with hidden values shown (rules 'hidden values are null' and
    'full views keep the view's shape'): a null may hold anything, an object may gain keys,
    a list keeps its length, and everything else is the same."""
    if seen is None:
        return True
    if isinstance(seen, dict):
        return isinstance(full, dict) and all(
            key in full and reveals(full[key], value) for key, value in seen.items())
    if isinstance(seen, list):
        return (isinstance(full, list) and len(full) == len(seen)
                and all(reveals(a, b) for a, b in zip(full, seen, strict=True)))
    return full == seen
