"""`chuko daily`: the day's deal in JSON is the module's, and a scripted terminal game on it
(a refused line, an undo) ends with the share line and the solver's facts."""

import datetime
import json
import re

from chuko.practice.daily import deal_for, facts_for

DAY = "2026-11-30"


def test_json_gives_the_modules_deal_and_par(run_chuko):
    status, out, _ = run_chuko("daily", "--date", DAY, "--json")
    daily = deal_for(datetime.date(2026, 11, 30))
    assert status == 0
    document = json.loads(out)
    assert document["date"] == DAY and document["par"] == daily.par
    assert document["deal"] == daily.deal and document["bridges"] == 2


def test_a_scripted_daily_won_on_the_solvers_line_with_an_undo(run_chuko):
    day = datetime.date(2026, 11, 30)
    line = [str(move) for move in facts_for(day).line]
    script = "\n".join(["hint", "zz", *line[:3], "undo", *line[2:]]) + "\n"
    status, out, err = run_chuko("daily", "--date", DAY, stdin=script)
    assert status == 0 and "Traceback" not in out + err
    assert "Your last move is taken back" in out and "no hints" in out
    par = deal_for(day).par
    used = "1 bridge" if par else "0 bridges"
    assert re.search(rf"\nchuko daily Caravan {DAY}: won with {used} \(par {par}\) in \d+:\d\d\n",
                     out)
    assert "first moves keep a win" in out
    assert "A winning line with the fewest bridges: " + " ".join(line) in out


def test_a_quit_daily_says_goodbye_and_no_share_line(run_chuko):
    status, out, _ = run_chuko("daily", "--date", DAY, stdin="")
    assert status == 0 and "Goodbye" in out and "chuko daily Caravan" not in out


def test_bad_and_future_dates_exit_with_status_2(run_chuko):
    status, _, err = run_chuko("daily", "--date", "30/11/2026")
    assert status == 2 and "YYYY-MM-DD" in err
    status, _, err = run_chuko("daily", "--date", "9999-12-31")
    assert status == 2 and "not out yet" in err


def test_the_daily_never_offers_a_hint_and_says_why_when_asked_anyway(run_chuko):
    status, out, _ = run_chuko("daily", "--date", DAY, stdin="help\nhint\nquit\n")
    assert status == 0
    prompts = [line for line in out.splitlines() if "Your move" in line]
    assert prompts and not any("hint" in line.partition(":")[0] for line in prompts)
    listed = out.split("help\n", 1)[1].split("hint\n", 1)[0]  # what help listed
    assert "undo" in listed and "rules" in listed and "hint" not in listed
    assert "The daily gives no hints; undo is free." in out
