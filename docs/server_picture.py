"""Draws docs/server.svg, the picture of the server in docs/architecture.md: on the left its
packages, each above those it may import; on the right the events on the bus: for each, the
modules that publish it and those that hear it. Plain Python, no dependency:

    python docs/server_picture.py        # writes docs/server.svg beside this file

Change the picture here and run it again; a test checks that the SVG is what this draws.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

WIDTH, HEIGHT = 1100, 610
FONT = "font-family='Helvetica, Arial, sans-serif'"
INK, GREY, EVENT = "#222", "#888", "#b5451b"
FILL = {"web": "#e8f0fb", "domain": "#eef7e8", "rooms": "#fdf3e1", "store": "#f3eafa",
        "shared": "#f0f0f0", "cluster": "#fbe9e9"}

# name, job lines, x, y, width, height, fill
PACKAGES = [
    ("web/", ["the transport: the ASGI app and router, the HTTP API (*_api.py),",
              "pages, sockets, connection limits, headers, cookies, origin"],
     20, 70, 600, 62, "web"),
    ("lobby/", ["pools, seeks,", "matchmaking"], 20, 172, 112, 62, "domain"),
    ("club/", ["sessions, ratings,", "follows, blocks"], 138, 172, 112, 62, "domain"),
    ("practice/", ["daily, lessons,", "puzzles, facts"], 256, 172, 112, 62, "domain"),
    ("challenge/", ["challenges sent", "and answered"], 374, 172, 112, 62, "domain"),
    ("notify/", ["each player's", "channel, turns"], 492, 172, 112, 62, "domain"),
    ("rooms/", ["the hub and its services: a room, opening, the move path, bots,",
                "clocks and deadlines, forfeits, presence, peers, history, hints"],
     20, 274, 600, 62, "rooms"),
    ("store/", ["schema, migrations, the writer and its lanes,",
                "the readers, every query (database.py, *_rows.py)"],
     20, 376, 600, 62, "store"),
    ("shared/", ["messages, limits, the work pool, the player (players.py),",
                 "the event bus (bus.py)"],
     20, 478, 600, 62, "shared"),
]
CLUSTER = ("cluster/", ["an adapter the app builds:", "Redis, the lease,", "shared buckets"],
           660, 70, 170, 78, "cluster")
# (from the bottom of one row, to the top of the next): the imports run downwards only.
IMPORTS = [(132, 172), (234, 274), (336, 376), (438, 478)]

# event, who publishes it, who hears it (each one or two lines; empty: nobody)
EVENTS = [
    ("MoveStored", ["rooms/move_path.py", "a move committed"],
     ["rooms/bots.py", "the next bot moves"]),
    ("GameOver", ["rooms/move_path.py,", "rooms/forfeits.py"],
     ["rooms/deadlines.py", "the room's deadline"]),
    ("SeatLeft", ["rooms/forfeits.py", "a bot takes the seat"],
     ["rooms/bots.py,", "rooms/deadlines.py"]),
    ("ClockFlagged", ["rooms/forfeits.py", "a clock run out"], []),
    ("PlayerPaired", ["lobby/matchmaking.py", "a player seated"],
     ["lobby/board.py", "tells them their room"]),
    ("RoomChanged", ["rooms/*.py", "any change committed"],
     ["cluster/workers.py,", "notify/turns.py"]),
]


def box(x: int, y: int, width: int, height: int, fill: str, dashed: bool = False) -> str:
    dash = " stroke-dasharray='6 4'" if dashed else ""
    return (f"<rect x='{x}' y='{y}' width='{width}' height='{height}' rx='8' fill='{fill}' "
            f"stroke='{INK}' stroke-width='1.2'{dash}/>")


def text(x: float, y: float, words: str, size: int = 13, weight: str = "normal",
         colour: str = INK, anchor: str = "start") -> str:
    return (f"<text x='{x}' y='{y}' {FONT} font-size='{size}' font-weight='{weight}' "
            f"fill='{colour}' text-anchor='{anchor}'>{escape(words)}</text>")


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str, marker: str,
          dashed: bool = False) -> str:
    dash = " stroke-dasharray='5 4'" if dashed else ""
    return (f"<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='{colour}' "
            f"stroke-width='1.6'{dash} marker-end='url(#{marker})'/>")


def package(name: str, lines: list[str], x: int, y: int, width: int, height: int,
            kind: str) -> list[str]:
    drawn = [box(x, y, width, height, FILL[kind], dashed=kind == "cluster"),
             text(x + 12, y + 21, name, 15, "bold")]
    drawn += [text(x + 12, y + 40 + 16 * i, line, 12) for i, line in enumerate(lines)]
    return drawn


def markers() -> str:
    shapes = []
    for name, colour in (("import", GREY), ("event", EVENT)):
        shapes.append(f"<marker id='{name}' viewBox='0 0 10 10' refX='9' refY='5' "
                      f"markerWidth='8' markerHeight='8' orient='auto-start-reverse'>"
                      f"<path d='M0,0 L10,5 L0,10 z' fill='{colour}'/></marker>")
    return "<defs>" + "".join(shapes) + "</defs>"


def packages_panel() -> list[str]:
    drawn = [text(20, 40, "The packages of src/chuko/server/", 17, "bold"),
             text(20, 58, "each imports only the rows below it, never a neighbour in its row "
                  "(import-linter, pyproject.toml)", 12, colour=GREY)]
    for entry in PACKAGES:
        drawn += package(*entry)
    drawn += package(*CLUSTER)
    for top, bottom in IMPORTS:
        drawn += [arrow(x, top, x, bottom - 2, GREY, "import") for x in (115, 320, 525)]
    drawn.append(arrow(660, 109, 622, 101, GREY, "import", dashed=True))
    drawn.append(text(745, 168, "built by web/app.py,", 12, colour=GREY, anchor="middle"))
    drawn.append(text(745, 184, "hears RoomChanged on the bus", 12, colour=GREY,
                      anchor="middle"))
    return drawn


# The package a module at an end of an event's row is in, by its folder: its colour.
END_FILL = {"rooms": FILL["rooms"], "lobby": FILL["domain"], "cluster": FILL["cluster"]}


def end_box(x: int, y: int, lines: list[str], nobody: str) -> list[str]:
    """One end of an event's row: the modules at that end (in their package's colour), or a
    grey word for nobody."""
    if not lines:
        return [text(x + 65, y + 25, nobody, 11, colour=GREY, anchor="middle")]
    drawn = [box(x, y, 130, 40, END_FILL[lines[0].split("/")[0]])]
    for i, line in enumerate(lines):
        module = "/" in line
        drawn.append(text(x + 65, y + 17 + 14 * i, line, 11, "bold" if module else "normal",
                          INK if module else GREY, "middle"))
    return drawn


def events_panel() -> list[str]:
    left, bus_x, right, row = 660, 815, 960, 50
    drawn = [text(left, 232, "Events on the bus", 17, "bold"),
             text(left, 250, "published once committed, heard on the same worker",
                  12, colour=GREY)]
    bus_top = 262
    drawn.append(box(bus_x, bus_top, 120, 30 + row * len(EVENTS), FILL["shared"]))
    drawn.append(text(bus_x + 60, bus_top + 18, "shared/bus.py", 12, "bold", anchor="middle"))
    for i, (event, publishers, subscribers) in enumerate(EVENTS):
        y = bus_top + 28 + row * i
        drawn.append(text(bus_x + 60, y + 25, event, 12, colour=EVENT, anchor="middle"))
        drawn += end_box(left, y, publishers, "published by none")
        drawn += end_box(right, y, subscribers, "heard by none")
        if publishers:
            drawn.append(arrow(left + 130, y + 20, bus_x - 2, y + 20, EVENT, "event"))
        if subscribers:
            drawn.append(arrow(bus_x + 120, y + 20, right - 2, y + 20, EVENT, "event"))
    return drawn


def picture() -> str:
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
             f"viewBox='0 0 {WIDTH} {HEIGHT}'>", markers(),
             f"<rect width='{WIDTH}' height='{HEIGHT}' fill='white'/>",
             *packages_panel(), *events_panel(), "</svg>"]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    (Path(__file__).parent / "server.svg").write_text(picture(), encoding="utf-8")
