"""Every game at the terminal takes the same commands — hint, undo, rules, help, quit — and
echoes the player's own moves in the engine's words; driven by scripted input, with a bad
line at the prompt. Take-away (a plug-in game) stands for the generic screen."""

import re

import pytest

from chuko.games import rules_text

# game → (options, the lines of one move, how the engine tells that move)
GAMES = {
    "crossroads": (["--seed", "1", "--first", "0", "--vs", "easy"], ["1"], "  You took "),
    "caravan": (["--seed", "1"], ["1"], "  You laid "),
    "chuko": (["--seed", "3", "--first", "0"], ["r"], "  You reset and drew "),
    "chuchula": (["--seed", "1", "--players", "2", "--length", "2"], ["take", "y"],
                 "  You committed: "),
    "takeaway": (["--seed", "1", "--vs", "random"], ["1"], "  You took 1 stone"),
}
COMMANDS = ("hint", "undo", "rules", "help", "quit")


def first_words(game):
    """The opening words of the rules' first paragraph, as any rendering keeps them."""
    paragraph = next(line for line in rules_text(game).splitlines()
                     if line.strip() and not line.startswith("#"))
    return " ".join(paragraph.split()[:4])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_takes_the_same_commands_and_echoes_my_move(run_chuko, game):
    options, move, told = GAMES[game]
    script = ["zz!", "help", "rules", "hint", *move, "undo", "quit"]
    status, out, err = run_chuko("play", game, *options, stdin="".join(f"{x}\n" for x in script))
    assert status == 0 and "Traceback" not in out + err
    for word in COMMANDS:  # help lists each shared command
        assert re.search(rf"\n{word} +\w", out), word
    assert first_words(game) in " ".join(out.split())  # rules: the game's own rules text
    assert told in out  # my move, in the engine's words
    assert "Your last move is taken back." in out
    assert out.rstrip().endswith("Goodbye.")
    assert "seat" not in out.lower()


@pytest.mark.parametrize("game", sorted(set(GAMES) - {"takeaway"}))
def test_hint_gives_the_advisers_view_and_a_bad_line_one_sentence(run_chuko, game):
    options, _, _ = GAMES[game]
    status, out, _ = run_chuko("play", game, *options, stdin="zz!\nhint\nquit\n")
    assert status == 0
    assert out.count("✗") == 1  # the bad line only
    advice = out.split("hint\n", 1)[1].rsplit("quit\n", 1)[0]
    assert len(advice.strip().splitlines()) >= 2  # the values and the note


def test_a_game_without_hints_says_so_in_one_sentence(run_chuko):
    status, out, _ = run_chuko("play", "takeaway", *GAMES["takeaway"][0], stdin="hint\n")
    assert status == 0 and "✗ Take-away gives no hints." in out


def test_chukos_hint_is_the_hard_bots_choice_under_its_letter(run_chuko):
    status, out, _ = run_chuko("play", "chuko", *GAMES["chuko"][0], stdin="hint\n")
    assert status == 0
    assert re.search(r"\n  ([a-gi-pr-z])\) (\d+|reset)  .*\nThe hard bot would (play \d+|reset)",
                     out)


def test_undo_between_two_people_is_refused(run_chuko):
    status, out, _ = run_chuko("play", "crossroads", "--vs", "human", "--seed", "1",
                               stdin="1\nundo\nquit\n")
    assert status == 0 and "✗ Undo is for games against bots only." in out


def test_chuko_undo_takes_back_my_play_and_the_bots_reply(run_chuko):
    status, out, _ = run_chuko("play", "chuko", *GAMES["chuko"][0], stdin="a\nundo\nquit\n")
    assert status == 0
    screens = re.findall(r"Top card: .*\nYour hand: .*", out)
    assert len(screens) == 3 and screens[0] == screens[2]  # back where it started
