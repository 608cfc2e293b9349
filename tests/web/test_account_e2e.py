"""The account page in Chromium: a visitor names themself (a guest), signs up, logs out,
fails a log-in with one sentence, logs in again, changes the password and deletes the
account, all through the session's HttpOnly cookie, which the page's scripts never see."""

from __future__ import annotations

import json
import re
import secrets

from play_helpers import account_form as submit

CATALOGUE = re.compile(r'<script type="application/json" id="catalogue">.*?</script>', re.S)


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


def test_a_submit_the_browser_blocks_clears_the_previous_error(pages):
    page = pages.new()
    page.goto("/account")
    submit(page, "Log in", {"Username": "nobody_here", "Password": "wrong horse"}, "Log in")
    error = page.locator("#notice.error")
    error.get_by_text("That username and password do not match an account.").wait_for()
    # Too short a username: the browser's own message stops the form, and it alone shows.
    submit(page, "Sign up", {"Username": "ab", "Password": "correct horse"}, "Sign up")
    error.wait_for(state="detached")
    assert page.locator("#notice").inner_text() == ""


def test_with_registration_closed_the_page_says_so_and_offers_no_sign_up(pages, own_app, shot):
    _, url = own_app(open_registration=False)
    for size, name in (((1280, 800), "account-closed"), ((390, 844), "account-closed-phone")):
        page = pages.new(*size, base_url=url)
        page.goto("/account")
        page.get_by_text("This server takes no new accounts; you can go on playing as a "
                         "guest.").wait_for()
        page.get_by_role("heading", name="Log in").wait_for()
        assert page.get_by_role("heading", name="Sign up").count() == 0
        assert page.get_by_role("button", name="Sign up").count() == 0
        shot(page, name)


def test_the_page_says_its_words_from_the_catalogue_it_comes_with(pages):
    """What the scripts put on screen goes through the page's catalogue (js/i18n.js): given
    one, the account page's panels, sentences and the header's switch read in its language."""
    catalogue = {"lang": "de", "messages": {
        "Log in": "Anmelden", "Password": "Passwort",
        "You have not played yet: you become a guest as soon as you play or choose a name.":
            "Du hast noch nicht gespielt.",
        "Auto": "Automatisch"}}

    def with_catalogue(route):
        # The page's own catalogue (English's, which has these words as they are) swapped.
        page_text, swapped = CATALOGUE.subn(
            f'<script type="application/json" id="catalogue">{json.dumps(catalogue)}</script>',
            route.fetch().text())
        assert swapped == 1
        route.fulfill(body=page_text, headers={"content-type": "text/html"})

    page = pages.new()
    page.route("**/account", with_catalogue)
    page.goto("/account")
    page.locator("#who", has_text="Du hast noch nicht gespielt.").wait_for()
    panel = page.locator("section.game-panel", has=page.get_by_role("heading", name="Anmelden"))
    panel.get_by_label("Passwort", exact=True).wait_for()
    assert panel.get_by_role("button").inner_text() == "Anmelden"
    assert page.locator("select.theme option[value=system]").inner_text() == "◐ Automatisch"
