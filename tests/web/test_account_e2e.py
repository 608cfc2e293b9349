"""The account page in Chromium: a visitor names themself (a guest), signs up, logs out,
fails a log-in with one sentence, logs in again, changes the password and deletes the
account, all through the session's HttpOnly cookie, which the page's scripts never see."""

from __future__ import annotations

import secrets

from play_helpers import account_form as submit


def test_a_guest_signs_up_logs_out_and_in_changes_the_password_and_deletes(pages, shot):
    page = pages.new(width=390, height=844)
    username = f"ada_{secrets.token_hex(3)}"
    page.goto("/account")
    who = page.locator("#who")
    who.get_by_text("You have not played yet").wait_for()
    submit(page, "Your name", {"Display name": "Ada"}, "Save")
    who.get_by_text("You play as a guest, Ada.").wait_for()
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script reads the session
    submit(page, "Sign up", {"Username": username, "Password": "correct horse"}, "Sign up")
    who.get_by_text(f"You are logged in as {username} (shown as Ada).").wait_for()
    shot(page, "account-logged-in")
    submit(page, "Log out", {}, "Log out")
    who.get_by_text("You have not played yet").wait_for()
    submit(page, "Log in", {"Username": username, "Password": "wrong horse"}, "Log in")
    page.locator("#notice.error").get_by_text(
        "That username and password do not match an account.").wait_for()
    submit(page, "Log in", {"Username": username.upper(), "Password": "correct horse"},
           "Log in")
    who.get_by_text(f"You are logged in as {username}").wait_for()
    submit(page, "Change password", {"Current password": "correct horse",
                                     "New password": "battery staple"}, "Change password")
    page.locator("#notice.good").get_by_text("Your password is changed.").wait_for()
    panel = page.locator("section.game-panel", has=page.get_by_role("heading",
                                                                    name="Delete account"))
    panel.get_by_label("Password", exact=True).fill("battery staple")
    panel.get_by_label("I want to delete my account").check()
    panel.get_by_role("button", name="Delete my account").click()
    page.locator("#notice.good").get_by_text("Your account is deleted.").wait_for()
    who.get_by_text("You have not played yet").wait_for()
