"""`chuko play chuchula` driven by scripted input, bad lines included."""


import re

import pytest

from chuko.core.deck52 import DECK, parse_cards
from chuko.games.chuchula import Game
from chuko.solvers.chuchula_advisor import greedy_grouping

SEED = 12


@pytest.fixture
def play(run_chuko):
    """Run `chuko play chuchula ARGS` on scripted lines; return (status, output)."""

    def run(lines, *argv):
        status, out, _ = run_chuko("play", "chuchula", *argv,
                                   stdin="".join(f"{line}\n" for line in lines))
        return status, out

    return run


def text(cards):
    return " ".join(map(str, cards))


def test_a_scripted_round_survives_bad_lines_and_ends_with_the_ranking(play):
    hand = parse_cards(" ".join(Game(2, "rounds", 1).new(SEED).view(0)["hand"]))
    greedy = greedy_grouping(hand)
    strongest, weakest = greedy.groups[0], greedy.groups[3]
    not_held = next(c for c in DECK if c not in hand)
    lines = [
        "help",
        "Zz 9q",  # not cards
        "1 2",  # two cards
        f"{not_held} {text(hand[:2])}",  # a card not held
        "1 2 99",  # no such card number
        text(weakest),
        text(strongest),  # stronger than group 1: refused
        "undo",
        " | ".join(text(g) for g in reversed(greedy.groups)) + f" ; {greedy.leftover}",
        "hint",
        "take",
        "n",  # not yet: drops the last group
        "hand",
        "scores",
        "take",
        "y",
    ]
    status, out = play(lines, "--players", "2", "--vs", "easy", "--mode", "rounds",
                       "--length", "1", "--seed", str(SEED))
    assert status == 0
    assert "is not a card" in out and "three different cards" in out
    assert "You do not hold" in out and "Card numbers go from 1 to 13" in out
    assert out.count("stronger than group 1") >= 1 and "strongest first" in out
    assert "expected" in out and "Position 4" in out
    assert "Final ranking" in out
    assert "You committed: " in out and "Easy bot committed a grouping." in out
    assert re.search(r"\n(You|Easy bot) (won|wins?) ", out)
    assert out.count("✗") == 6
    assert "seat" not in out.lower()


def test_the_end_of_input_says_goodbye_and_exits_cleanly(play):
    status, out = play(["As Ks"], "--vs", "hard,easy,random", "--seed", "3")
    assert status == 0 and "Goodbye" in out


def test_quit_leaves_a_points_game(play):
    status, out = play(["quit"], "--mode", "points", "--length", "10", "--seed", "1")
    assert status == 0 and "first to 10 points" in out and "Goodbye" in out


@pytest.mark.parametrize(
    "argv",
    [["--mode", "laps"], ["--length", "0"], ["--vs", "hard,easy,easy,easy"], ["--players", "5"],
     ["--vs", "wizard"], ["--vs", ","]],
)
def test_bad_options_are_one_line_and_status_2(play, argv, capsys):
    status, _ = play([], *argv)
    assert status == 2


LETTER_CARD = re.compile(r"\b(?:10|[2-9AKQJT])[shdc]\b")  # a card in record text, e.g. Js


def test_commit_asks_y_or_n_until_answered_and_drops_no_group_silently(play):
    status, out = play(["take", "maybe", "", "ok", "y"], "--players", "2", "--length",
                       "1", "--seed", str(SEED))
    assert status == 0
    assert out.count("Commit this grouping? (y/n)") == 4
    assert out.count("✗ Type y to commit this grouping, or n to take back its last group.") == 3
    assert "Group 4 of 4" not in out  # no group was dropped on the way
    assert "You committed: " in out


def test_no_puts_the_fourth_group_back_and_says_so(play):
    status, out = play(["take", "n", "hand"], "--players", "2", "--seed", str(SEED))
    assert status == 0
    back = re.search(r"Group 4 \((.+)\) is back in your hand\.", out)
    assert back and "Group 4 of 4:" in out
    left = out.split("Left in your hand: ")[-1].split("Group 4 of 4")[0]
    assert len(left.split()) == 4  # the three cards put back and the one left out


def test_hand_shows_only_the_cards_not_yet_grouped_with_their_numbers(play):
    hand = parse_cards(" ".join(Game(2, "rounds", 1).new(SEED).view(0)["hand"]))
    first = greedy_grouping(hand).groups[0]
    numbers = [str(hand.index(card) + 1) for card in first]
    status, out = play([" ".join(numbers), "hand"], "--players", "2", "--seed", str(SEED))
    assert status == 0
    left = out.split("Left in your hand: ")[-1].split("Group 2 of 4")[0].split()
    assert len(left) == 10
    assert not {card.symbol_text for card in first} & {word.split(":")[1] for word in left}
    assert {word.split(":")[0] for word in left}.isdisjoint(numbers)


def test_cards_are_written_with_suit_symbols_on_every_screen(play):
    lines = ["1 2 3", "hand", "undo", "hint", "take", "n", "take", "y", "scores"]
    status, out = play(lines * 2, "--players", "3", "--length", "2", "--seed", str(SEED))
    assert status == 0 and "Final ranking" in out and "Position 4" in out
    assert not LETTER_CARD.search(out)
    assert "♠" in out and "♥" in out


@pytest.mark.parametrize("argv, heading", [
    (("--mode", "rounds", "--length", "5"), "Round 1 of 5"),
    (("--mode", "points", "--length", "30"), "Round 1 · first to 30 points")])
def test_each_round_is_headed_in_words_not_option_syntax(play, argv, heading):
    _, out = play(["quit"], "--players", "2", "--seed", str(SEED), *argv)
    assert heading in out


def test_the_commit_prompt_takes_help_and_rules_as_every_prompt_does(play):
    status, out = play(["take", "help", "rules", "y"], "--players", "2", "--length", "1",
                       "--seed", str(SEED))
    assert status == 0 and "✗" not in out
    assert "Type y to commit this grouping, or n to take back its last group." in out
    assert "# Chuchula" in out or "Chuchula" in out.split("Commit this grouping?")[2]
    assert "You committed: " in out
