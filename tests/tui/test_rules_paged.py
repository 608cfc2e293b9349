"""`rules` in a game at a terminal: the rules go through the pager (they are taller than the
screen), and the position they scrolled away is drawn again under them, ready for a move."""

import pytest

from chuko.games import rules_text
from terminal_session import chuko

# game → (options, a line of the position as it is drawn, the prompt)
GAMES = {
    "caravan": (["--seed", "1"], r"Caravan \(0/12\)", r"Your move \(number"),
    "crossroads": (["--seed", "1", "--first", "0"], r"You 0 points", r"Your move \(number"),
    "chuko": (["--seed", "1"], r"Your hand: ", r"Your move\?"),
    "chuchula": (["--seed", "1", "--players", "2"], r"Your hand: ", r"Group 1 of 4:"),
}


def opening(game: str) -> str:
    """The first words of the rules' first paragraph."""
    paragraph = next(line for line in rules_text(game).splitlines()
                     if line.strip() and not line.startswith("#"))
    return " ".join(paragraph.split()[:6])


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_are_paged_then_the_position_is_drawn_again(tmp_path, game):
    options, position, prompt = GAMES[game]
    paged = tmp_path / "paged.txt"
    session = chuko("play", game, *options, columns=80, rows=24,
                    env={"PAGER": f"cat > {paged}"})
    asked = session.expect(prompt, after=session.expect(position))
    session.type("rules")
    shown = session.expect(position, after=asked)  # the position again, under the rules
    session.expect(prompt, after=shown)
    session.type("quit")
    assert session.wait() == 0
    assert opening(game) in " ".join(paged.read_text(encoding="utf-8").split())
    assert opening(game) not in " ".join(session.text.split())  # not dumped on the screen
    assert "Traceback" not in session.text


def test_rules_of_the_command_are_paged_on_a_terminal(tmp_path):
    paged = tmp_path / "paged.txt"
    session = chuko("rules", "caravan", env={"PAGER": f"cat > {paged}"})
    assert session.wait() == 0
    assert opening("caravan") in " ".join(paged.read_text(encoding="utf-8").split())
    assert session.text.strip() == ""


def test_scripted_rules_are_printed_and_the_position_follows(run_chuko):
    status, out, _ = run_chuko("play", "caravan", "--seed", "1", stdin="rules\nquit\n")
    assert status == 0
    after = out.split("Your move", 1)[1]
    assert opening("caravan") in " ".join(after.split())
    assert "Caravan (0/12)" in after.split("In the browser", 1)[1]
