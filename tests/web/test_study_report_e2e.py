"""The study's HTML report opens in Chromium on its own (no server, no outside resource)
and shows every plot, each captioned with how it was computed and its intervals."""

from __future__ import annotations

import pytest

pytest.importorskip("numba", reason="the study's exact solving needs the fast extra")
pytest.importorskip("matplotlib", reason="the report's plots need the lab extra")

from chuko.cli.main import main  # noqa: E402

pytestmark = pytest.mark.e2e


def test_study_report_shows_its_plots_with_captions(browser, shot, tmp_path, capsys):
    report = tmp_path / "caravan.html"
    assert main(["study", "caravan", "--pack", "plain", "--sample", "2000", "--seed", "1",
                 "--report", str(report)]) == 0
    capsys.readouterr()
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    fetched: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("request", lambda request: fetched.append(request.url))
        page.goto(report.as_uri())
        plots = page.locator("figure.plot")
        assert plots.count() == 1
        figure = plots.first.locator("svg")
        assert figure.is_visible()
        box = figure.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 150
        assert "95% intervals" in plots.first.locator("figcaption").inner_text()
        assert page.locator("table caption").first.inner_text().startswith("Deals winnable")
        assert "Wilson" in page.locator("p.method").inner_text()
        shot(page, "study-report-caravan")
    finally:
        context.close()
    assert not errors
    assert fetched == [report.as_uri()]  # self-contained: nothing else is fetched


def test_exact_report_says_exact(browser, tmp_path, capsys):
    report = tmp_path / "exact.html"
    assert main(["study", "caravan", "--pack", "2,2,2,2,2,2,2,2,3,3,3,6", "--exact", "--jobs",
                 "1", "--checkpoint", str(tmp_path / "c.json"), "--report", str(report)]) == 0
    capsys.readouterr()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(report.as_uri())
        assert page.locator("figcaption").first.inner_text().startswith("Exact: no interval.")
        assert page.locator("figure.plot svg").first.is_visible()
    finally:
        context.close()
