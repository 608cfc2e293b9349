"""The rules page says how to play each game in the browser with the labels the table
shows: Caravan's bridge places and Chuchula's "Place for me", read at desktop and phone
sizes."""

import pytest

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
NAMED = {"caravan": ["start here", "◀ left end", "right end ▶", "◀ bridge", "bridge ▶", "Play"],
         "chuchula": ["Order strongest first", "Place for me", "Clear", "Commit"]}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", sorted(NAMED))
def test_the_rules_page_names_the_tables_own_controls(pages, shot, game, size):
    page = pages.new(*SIZES[size])
    page.goto(f"/rules/{game}")
    heading = page.get_by_role("heading", name="In the browser")
    heading.scroll_into_view_if_needed()
    said = heading.locator("xpath=following-sibling::p[1]")
    assert set(NAMED[game]) <= set(said.locator("strong").all_inner_texts())
    assert "Suggest" not in said.inner_text() and "Face down (bridge)" not in said.inner_text()
    shot(page, f"rules-controls-{game}-{size}")
