"""Whole terminal games of Crossroads and Caravan played from scripted input, bad lines
included: every bad line gets one clear sentence and the prompt again."""

import re

from chuko.core.layout import parse_layout
from chuko.games.caravan import Caravan
from chuko.solvers.caravan import CaravanSolver

DEAL = "6 15 10 7 / 9 14 8 11 / 2 21 22 30"
BAD_LINES = ["zz", "99", "", "help", "hint", "M", "AL*"]


def test_a_whole_crossroads_game_against_the_perfect_bot(run_chuko):
    script = "\n".join(BAD_LINES + ["1"] + BAD_LINES[:3] + ["1"] * 5) + "\n"
    status, out, err = run_chuko(
        "play", "crossroads", "--deal", DEAL, "--vs", "perfect", "--first", "0", stdin=script
    )
    assert status == 0 and "Traceback" not in out + err
    assert re.search(r"\n(You|Perfect bot) won \d+–\d+\.\n|\nDraw, \d+–\d+\.\n", out)
    assert "is not a move" in out and "Pick a number from 1 to 3" in out
    assert "no bridges" in out  # AL* refused by the engine
    assert re.search(r"\n  1\) [AEI]  \w", out)  # the hint: each move under its label
    assert out.count("  Perfect bot took ") == 6 and out.count("  You took ") == 6
    assert "seat" not in out.lower()


def test_crossroads_undo_takes_back_my_move_and_the_bots_reply(run_chuko):
    script = "1\nundo\nundo\n2\nquit\n"
    status, out, _ = run_chuko("play", "crossroads", "--deal", DEAL, "--first", "0",
                               "--seed", "1", stdin=script)
    assert status == 0
    assert "Your last move is taken back" in out and "nothing to undo" in out
    assert out.rstrip().endswith("Goodbye.")


def test_a_whole_caravan_game_won_by_typing_the_solvers_line(run_chuko):
    state = Caravan(deal=parse_layout(DEAL)).new()
    line = [str(m) for m in CaravanSolver(state.layout, 2).solution(state)]
    script = "\n".join(["hint", "zz", "BR", *line[:3], "undo", *line[2:]]) + "\n"
    status, out, err = run_chuko("play", "caravan", "--deal", DEAL, stdin=script)
    assert status == 0 and "Traceback" not in out + err
    assert "\nYou laid all 12 cards in one caravan with " in out
    assert re.search(r"\n  1\) [AEI]  \w", out) and "B is not available" in out
    assert out.count("  You laid ") == len(line) + 1  # every move told, the undone one too


def test_a_lost_caravan_says_whether_the_deal_could_be_won(run_chuko):
    status, out, _ = run_chuko("play", "caravan", "--deal", "2 3 3 3 / 5 5 5 5 / 7 7 7 7",
                               "--bridges", "0", stdin="A\n")
    assert status == 0 and "No card can go on: 1 of 12 laid." in out and "cannot be won" in out


def test_end_of_input_quits_cleanly(run_chuko):
    status, out, _ = run_chuko("play", "caravan", "--seed", "2", stdin="")
    assert status == 0 and "Goodbye" in out


def test_bad_options_exit_with_status_2(run_chuko):
    for argv in (["play", "caravan", "--bridges", "x"], ["play", "crossroads", "--vs", "god"],
                 ["play", "crossroads", "--pack", "2-5"], ["play", "caravan", "--deal", "1"]):
        status, out, err = run_chuko(*argv)
        assert status == 2 and len(err.strip().splitlines()) == 1, argv



def test_a_crossroads_match_ends_with_the_match_first_then_each_round(run_chuko):
    status, out, err = run_chuko("play", "crossroads", "--deal", DEAL, "--rounds", "2",
                                 "--vs", "easy", "--first", "0", "--seed", "3",
                                 stdin="1\n" * 12)
    assert status == 0 and "Traceback" not in out + err
    end = out[out.rindex("Crossroads — "):]  # the last screen: the match, then its rounds
    result = re.search(r"\n(You|Easy bot) won the match (\d+)–(\d+) \(round 1: .*; round 2: .*\)"
                       r"\.\n|\nThe match is a draw, (\d+)–\4 \(round 1: .*\)\.\n", end)
    assert result, end
    first, second = end.index("Round 1"), end.index("Round 2")
    assert result.start() < first < second
    # Each round shows its own points beside its own trails; the match's total is said once.
    rounds = [end[first:second], end[second:]]
    for text in rounds:
        assert len(re.findall(r"\d+ points? +L ◀", text)) == 2
        assert "total" not in text


def test_crossroads_score_lines_keep_the_seats_order_whoever_moves(run_chuko):
    status, out, _ = run_chuko("play", "crossroads", "--deal", DEAL, "--rounds", "2",
                               "--vs", "easy", "--first", "1", "--seed", "4", stdin="1\n" * 12)
    assert status == 0
    for number in (1, 2):
        said = [(int(a), int(b)) for a, b in re.findall(rf"\((\d+)–(\d+) in round {number}\)", out)]
        assert len(said) == 10  # every move of the round but each player's first card
        # In the seats' order ("You" first) the two numbers only ever grow.
        assert all(x <= y and u <= v for (x, u), (y, v) in zip(said, said[1:], strict=False))
