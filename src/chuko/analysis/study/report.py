"""A study shown to people: rich tables in the terminal, or a self-contained HTML page with
its plots drawn by matplotlib as inline SVG (the `lab` extra).

A study is JSON (see __init__.py): a title, how it was computed ("method"), findings in
words, tables (columns and rows of text) and plots (series of numbers, with the ends of
their 95% intervals where they were sampled). Every plot's caption says how it was
computed, and whether its bars are exact or show intervals.
"""

from __future__ import annotations

import html
import io
import math
import re
import textwrap
from collections.abc import Sequence

from rich.console import Console

from chuko.console import console as default_console
from chuko.console import print_table, say
from chuko.core.protocol import Json
from chuko.core.text import Text


def print_study(study: Json, console: Console | None = None) -> None:
    out = console or default_console
    out.print(f"[bold]{say(study['title'])}[/]")
    out.print(say(Text("How: {method}.", method=study["method"])))
    for finding in study["findings"]:
        out.print(f"• {say(finding)}")
    for shown in study["tables"]:
        print_table(say(shown["title"]), [say(column) for column in shown["columns"]],
                    [[say(cell) for cell in row] for row in shown["rows"]], out=out)


def _interval_caption(plot: Json) -> str:
    sampled = any("low" in s for s in plot["series"])
    marks = "Bars" if plot["kind"] == "bar" else "Whiskers"
    few = (f" Points from fewer than {plot['few']} are greyed and hollow, their n beside "
           "them: too few to show a rate."
           if plot.get("few") and "greyed" not in plot.get("note", "") else "")
    return (f"{marks} show 95% intervals." if sampled else "Exact: no interval.") + few + (
        f" Computed from {plot['note']}." if plot.get("note") else "")


def _tick_labels(labels: list[str], width: float) -> tuple[list[str], int]:
    """The x labels wrapped at spaces to fit their share of `width` (characters of the
    axis), and the rotation needed when a single word is still too wide."""
    room = max(4, int(width / max(1, len(labels))) - 1)
    wrapped = [textwrap.fill(label, room, break_long_words=False) for label in labels]
    too_wide = any(len(line) > room for label in wrapped for line in label.split("\n"))
    return (labels, 30) if too_wide else (wrapped, 0)


def _errors(one: Json, shown: list[bool]) -> list[list[float]] | None:
    if "low" not in one:
        return None
    return [[max(0, v - lo) if ok and v is not None and lo is not None else 0
             for v, lo, ok in zip(one["y"], one["low"], shown, strict=True)],
            [max(0, hi - v) if ok and v is not None and hi is not None else 0
             for v, hi, ok in zip(one["y"], one["high"], shown, strict=True)]]


def _draw_series(axes, plot: Json, index: int, one: Json, count: int) -> None:
    """One series: bars side by side, or a line moved a little beside the others so that
    equal values do not hide each other; points from fewer than `plot["few"]` greyed."""
    few = plot.get("few") or 0
    sizes = one.get("n") or [None] * len(one["y"])
    shown = [n is None or n >= few for n in sizes]
    y = [math.nan if v is None or not ok else v for v, ok in zip(one["y"], shown, strict=True)]
    if plot["kind"] == "bar":
        width = 0.8 / max(1, count)
        spots = [i + (index - (count - 1) / 2) * width for i in range(len(y))]
        axes.bar(spots, y, width, yerr=_errors(one, shown), capsize=3, label=one["label"])
    else:
        spots = [i + (index - (count - 1) / 2) * min(0.04, 0.3 / max(1, count))
                 for i in range(len(y))]
        line = axes.errorbar(spots, y, yerr=_errors(one, shown), capsize=3, marker="o",
                             linestyle="--" if one.get("style") == "dashed" else "-",
                             label=one["label"])
        colour = line[0].get_color()
        for x, v, n, ok in zip(spots, one["y"], sizes, shown, strict=True):
            if not ok and v is not None:
                axes.plot([x], [v], marker="o", markerfacecolor="none", color="0.6",
                          markeredgecolor=colour, alpha=0.7)
                axes.annotate(f"n={n}", (x, v), textcoords="offset points", xytext=(5, 4),
                              fontsize="x-small", color="0.45")


def svg(plot: Json) -> str:
    """One plot as an SVG element (matplotlib, no XML prologue)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 3.6))
    try:
        series = plot["series"]
        for index, one in enumerate(series):
            _draw_series(axes, plot, index, one, len(series))
        labels, slant = _tick_labels([str(x) for x in plot["x"]], 70)
        axes.set_xticks(range(len(labels)), labels, rotation=slant,
                        ha="right" if slant else "center")
        axes.set_xlabel(plot["xlabel"])
        axes.set_ylabel(plot["ylabel"])
        axes.set_title(plot["title"])
        axes.grid(axis="y", alpha=0.3)
        if len(series) > 1:  # beside the axes, where it hides no line or bar
            axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
                        borderaxespad=0)
        figure.tight_layout()
        buffer = io.StringIO()
        # no metadata block: a figure is data for this page, not a document of its own
        figure.savefig(buffer, format="svg", bbox_inches="tight",
                       metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    finally:
        plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _table_html(shown: Json) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in shown["columns"])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in shown["rows"])
    return (f"<table><caption>{html.escape(shown['title'])}</caption><thead><tr>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table>")


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; padding: 0 1.5rem;
       max-width: 70rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
.method { color: #555; } table { border-collapse: collapse; margin: 1rem 0; }
caption { text-align: left; font-weight: bold; padding: 0.3rem 0; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: left; }
th { background: #f3f3f3; } figure { margin: 1.5rem 0; } figure svg { max-width: 100%;
height: auto; } figcaption { color: #555; font-size: 0.9rem; max-width: 45rem; }
"""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def html_report(studies: Sequence[Json], title: str = "chuko study") -> str:
    """A whole HTML page, with no outside resource: styles inline, plots as inline SVG."""
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
             f"<h1>{html.escape(title)}</h1>"]
    for study in studies:
        # A report of one study already carries its title as the page's heading.
        heading = "" if study["title"] == title else f"<h2>{html.escape(study['title'])}</h2>"
        parts.append(f"<section id='{_slug(study['title'])}'>{heading}"
                     f"<p class='method'>How: {html.escape(study['method'])}.</p>")
        if study["findings"]:
            parts.append("<ul>" + "".join(f"<li>{html.escape(f)}</li>"
                                          for f in study["findings"]) + "</ul>")
        for plot in study["plots"]:
            parts.append(f"<figure class='plot'>{svg(plot)}<figcaption>"
                         f"{html.escape(_interval_caption(plot))}</figcaption></figure>")
        parts.extend(_table_html(t) for t in study["tables"])
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)
