"""How a game describes itself to every front end: a `Descriptor` of data, declared once by
the game's module, and read by the menu, `--help`, `/api/games`, the home page, simulations
and the conformance suite. Nothing outside a game's own files names it.

A descriptor says what a game is (`Traits`) apart from what serves it (`Integrations`):
its bots, screens, hints, lessons, studies, each named by a reference "module:attr" that
the registry checks when it loads, so the rules layer never imports a layer above it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, get_args

from .errors import ConfigError
from .numbers import whole_number
from .packs import PACKS
from .text import Text

Json = dict[str, Any]

# Where the browser loads a game's screen from: the front end's scripts.
SCRIPTS_PACKAGE, SCRIPTS = "chuko.web", "js/"
OPTION_KINDS = ("int", "choice", "text", "pack")
MAX_OPTION_TEXT = 2_000


@dataclass(frozen=True)
class Option:
    """One setting of a game as a form or a command line shows it.

    kind: "int" (a whole number within min/max, or one of the `named` values), "choice"
    (one of `choices`), "text", or "pack" (a pack name, list or range, read by `core.packs`;
    `choices` are the names).

    max_online: the highest value a room on a shared server may use (an "int" option; the
    engine and the command line keep `max`). There, where `min` is 0 and so 0 means none,
    0 means `max_online` in a game with a person (a game of bots alone is the engine's to
    bound, `Game.from_options(bots_only=True)`).
    """

    name: str
    label: str
    kind: str
    default: Any
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None
    help: str = ""
    # Names for numbers, in the order offered, e.g. ("hard", 1): the command line takes the
    # names, and the browser's forms offer them as presets beside the number.
    named: tuple[tuple[str, int], ...] = ()
    # What a form shows for each choice, where the values alone would read badly.
    choice_labels: tuple[str, ...] = ()
    # What a form shows for each named number, in the reader's language (the names are
    # what the command line types).
    named_labels: tuple[str, ...] = ()
    max_online: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option kind {self.kind!r} is not one of {OPTION_KINDS}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"the choice option {self.name!r} lists no choices")
        if self.choice_labels and len(self.choice_labels) != len(self.choices or ()):
            raise ValueError(f"the option {self.name!r} needs one label per choice")
        if self.named_labels and len(self.named_labels) != len(self.named):
            raise ValueError(f"the option {self.name!r} needs one label per named number")
        if self.max_online is not None and self.kind != "int":
            raise ValueError(f"the option {self.name!r} has max_online but is not an int")

    def to_json(self) -> Json:
        data: Json = {"name": self.name, "label": self.label, "kind": self.kind,
                      "default": self.default, "help": self.help}
        if self.choices is not None:
            data["choices"] = list(self.choices)
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        if self.max_online is not None:
            data["max_online"] = self.max_online
        if self.named:
            data["named"] = dict(self.named)
        if self.named_labels:
            data["named_labels"] = list(self.named_labels)
        if self.choice_labels:
            data["choice_labels"] = list(self.choice_labels)
        return data

    def value(self, given: Any) -> Any:
        """The option's value from what a form or a command line gave (None or "": the
        default); ConfigError says in one sentence what is wrong."""
        if given is None or given == "":
            return self.default
        if self.kind == "int":
            return self._int(given)
        if self.kind == "choice":
            for choice in self.choices or ():
                # (true == 1 in Python, but true is no choice of a number)
                if not isinstance(given, bool) and (
                        given == choice or str(given).strip().lower() == str(choice).lower()):
                    return choice
            known = ", ".join(map(str, self.choices or ()))
            raise ConfigError(Text("{option} must be one of {known}, not {given}.",
                                    option=self.label, known=known, given=repr(given)))
        if isinstance(given, list):
            given = " ".join(map(str, given))
        if not isinstance(given, str) or len(given) > MAX_OPTION_TEXT:
            raise ConfigError(Text("{option} must be a short text.", option=self.label))
        return given.strip()

    def _int(self, given: Any) -> int:
        text = str(given).strip()
        for name, named in self.named:
            if text.lower() == name:
                return named
        negative = text.startswith("-")
        digits = text.lstrip("-")
        number = None if isinstance(given, bool) or len(digits) > 18 else whole_number(digits)
        if number is None:
            if self.named:
                raise ConfigError(Text(
                    "{option} must be a whole number or one of {names}, not {given}.",
                    option=self.label, names=", ".join(name for name, _ in self.named),
                    given=repr(given)))
            raise ConfigError(Text("{option} must be a whole number, not {given}.",
                                   option=self.label, given=repr(given)))
        number = -number if negative else number
        low = self.min if self.min is not None else number
        high = self.max if self.max is not None else number
        if not low <= number <= high:
            if self.max is None:
                raise ConfigError(Text("{option} must be a whole number from {low} up, not "
                                       "{number}.", option=self.label, low=self.min,
                                       number=number))
            raise ConfigError(Text("{option} must be a whole number from {low} to {high}, not "
                                   "{number}.", option=self.label, low=self.min,
                                   high=self.max, number=number))
        return number


def pack_option(default: str = "standard", label: str | None = None) -> Option:
    """The pack option every Chükö-card game shares (ruling G5: `standard` by default),
    labelled "Pack" unless `label` says otherwise."""
    return Option("pack", Text("Pack") if label is None else label, "pack", default,
                  choices=tuple(PACKS),
                  help=Text("a pack name, a list such as 2,6,7 or a range such as 2-30"))


@dataclass(frozen=True)
class Varied:
    """One of the game's options a study tries at several values, in the order given."""

    option: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Study:
    """What `chuko study GAME` measures for the designer.

    - `module`: the game's own study, "module:run_study" (under chuko.analysis.study), whose
      module also has `add_arguments(parser, game_id)`; None: the generic study of bot
      games, which plays every combination of `varies` with each of `lineups`.
    - `varies`: the options the generic study tries, each with its values; its table has a
      column per option, in this order, and the first varies slowest.
    - `lineups`: the bot lineups it tries (such as "easy" or "hard,easy"); empty: the
      weakest level alone.
    - `turn_kinds`: "module:function"; `function(record)` counts a finished game's turns of
      each kind worth a column ({"reset": 3}); None: no turns counted.
    """

    module: str | None = None
    varies: tuple[Varied, ...] = ()
    lineups: tuple[str, ...] = ()
    turn_kinds: str | None = None


Information = Literal["perfect", "imperfect"]
INFORMATION: tuple[Information, ...] = get_args(Information)


@dataclass(frozen=True)
class Traits:
    """What a game is, which front ends, environments and the conformance suite read
    rather than name the game.

    - `min_players`, `max_players`: the seats a game may have (None: no upper bound).
    - `players_option`: the "int" option that sets the number of seats, which a game whose
      number of players varies names (None: the seats are fixed).
    - `information`: "perfect" where every seat's view shows the whole state, so no seat
      ever holds a secret (OpenSpiel's perfect information; the deal may still be chance;
      rule 'perfect information hides nothing'); else "imperfect".
    - `chance`: the deal (or a draw later) is left to chance, so seeds deal different games
      (rule 'seeded deals').
    - `simultaneous`: seats move at once in secret (the front ends word waiting so).
    - `lists_moves`: False where the legal moves are too many to list (Chuchula's ~200,000
      groupings): front ends send no list and bots build their move from the view.
    - `seat_lists`: the view's keys, at any depth, whose lists hold one entry per seat in
      seat order (scores, bids, hand sizes), so the generic screens label each entry with
      its seat's name (rule 'seat lists have a value per seat').
    - `seat_numbers`: the view's keys, at any depth, whose value is one seat's number (a
      dealer) or null (rule 'seat numbers name a seat').
    """

    min_players: int
    max_players: int | None
    players_option: str | None = None
    information: Information = "imperfect"
    chance: bool = True
    simultaneous: bool = False
    lists_moves: bool = True
    seat_lists: tuple[str, ...] = ()
    seat_numbers: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.information not in INFORMATION:
            raise ValueError(f"the information {self.information!r} is not one of "
                             f"{INFORMATION}")
        if self.max_players is not None and not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.min_players} to {self.max_players} players is no range")


@dataclass(frozen=True)
class Integrations:
    """What serves a game, each named by a reference "module:attr": an attribute of a
    module for code, a file inside a package for data ("chuko.games:rules/chuko.md"). The
    registry checks every reference when it loads (`chuko.core.references`), and a front
    end imports a module only when it uses it, so the rules layer never imports a layer
    above it.

    - `bots`: "module:make_bot"; `make_bot(level, rng, **options)` gives a bot. None: the
      protocol's random bot. Rule 'bots play legal moves': every level's choice is a move
      the engine accepts.
    - `hints`: "module:factory"; `factory(game)` gives an object whose `hint(state, seat)`
      answers `{"values": {move text: label}, "note": sentence}`, and `"outlook"` (each
      move's "win", "draw" or "loss") where it knows how each move ends. None: no hints.
    - `review`: "module:function"; `function(record)` judges a finished game's moves, one
      `{"text": sentence, "mistake": bool}` per move in order ("best", "lost 1 point: taking
      14 to the right end would have won by 1 point instead of drawing"), with `better`
      (the better move's text, for the board to mark) where it names one and `"opinion":
      True` where it is the bots' judgement rather than a solver's; None for a move past a
      bounded review's budget. None: no post-game review.
    - `commands`: command-line verbs the game serves itself, verb → "module:run", whose
      module also has `add_arguments(parser, game_id)` and optionally `HELP`; `play` is its
      terminal screen. Verbs it leaves out fall back to the generic front end where one
      exists.
    - `encoding`: "module:factory"; `factory(game)` gives the game's `Encoding`
      (core/encoding.py) for research environments: integer actions, observation arrays.
      None: the game offers no environment. Rule 'encodings number the legal moves'.
    - `twin`: "module:factory"; `factory(game)` gives a compiled twin of the rules for
      batched environments (chuko/envs/twins: the engine stays the reference, and a
      differential test holds the twin to it). None: no vector environment.
    - `study`: what `chuko study` measures (`Study`): the game's own study, or what the
      generic study of bot games varies.
    - `screen`: the browser's screen, a file of the front end's scripts
      ("chuko.web:js/chuko.js"); None: the generic screen.
    - `rules`: the rules text (Markdown), a file of the game's package; None: the summary
      only.
    - `lessons`: the game's lesson (JSON steps, read by practice/lessons.py); None: none.
    - `facts`: facts for the Lab that a game from another package ships with it (a study,
      a list of studies, or {"studies": [...]}, as `chuko study --json` writes them); None:
      only those in chuko's own data folder.
    """

    bots: str | None = None
    hints: str | None = None
    review: str | None = None
    commands: Mapping[str, str] = field(default_factory=dict)
    encoding: str | None = None
    twin: str | None = None
    study: Study = Study()
    screen: str | None = None
    rules: str | None = None
    lessons: str | None = None
    facts: str | None = None

    # The fields that name a file of a package rather than an attribute of a module.
    FILES: ClassVar[tuple[str, ...]] = ("screen", "rules", "lessons", "facts")

    def references(self) -> dict[str, str]:
        """Every reference by the field that holds it ("commands.play", "study.module"),
        the ones left out omitted."""
        found = {name: getattr(self, name) for name in (
            "bots", "hints", "review", "encoding", "twin", "screen", "rules", "lessons",
            "facts")}
        found |= {f"commands.{verb}": target for verb, target in self.commands.items()}
        found |= {"study.module": self.study.module, "study.turn_kinds": self.study.turn_kinds}
        return {name: target for name, target in found.items() if target is not None}


# The quick clocks a pool offers unless it says otherwise: seconds a move, and a reserve for
# the moves that take longer (10 s + 30 s, 30 s + 1 min, 1 min + 2 min).
QUICK_CLOCKS: tuple[Mapping[str, Any], ...] = (
    {"kind": "move", "seconds": 10, "reserve": 30},
    {"kind": "move", "seconds": 30, "reserve": 60},
    {"kind": "move", "seconds": 60, "reserve": 120},
)
# And the slow ones: days a move (correspondence), for players who come and go.
SLOW_CLOCKS: tuple[Mapping[str, Any], ...] = (
    {"kind": "days", "days": 1},
    {"kind": "days", "days": 3},
)
CLOCK_KINDS = ("move", "days")


@dataclass(frozen=True)
class Pool:
    """One of a game's standard set-ups that the lobby pairs strangers for at one click.

    - `id`: short, unique within the game (the lobby calls it "game/id", e.g. "chuko/duel").
    - `label`: what its button says ("Heads-up").
    - `players`: the seats of a table; 2 pairs heads-up, more fill tables.
    - `options`: the game's options for its rooms (read by `Descriptor.read_online`; the
      ones left out take their defaults).
    - `clocks`: the time controls a player may choose from (each a small menu's entry, as
      `POST /api/rooms` takes it: `{"kind": "move", "seconds": 30, "reserve": 60}`); the
      first is the one chosen when a player names none: per move (`QUICK_CLOCKS`), and
      days a move (`SLOW_CLOCKS`), which the lobby pairs while its players are away.
      Every pool's room has a clock.
    """

    id: str
    label: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    clocks: tuple[Mapping[str, Any], ...] = QUICK_CLOCKS + SLOW_CLOCKS

    def to_json(self, game_id: str) -> Json:
        return {"id": f"{game_id}/{self.id}", "game": game_id, "label": self.label,
                "players": self.players, "options": dict(self.options),
                "clocks": [dict(clock) for clock in self.clocks]}


@dataclass(frozen=True)
class Descriptor:
    """A game's self-description: what it is (`traits`), what serves it (`integrations`),
    and the settings and set-ups every front end offers.

    - `options`: the settings `Game.from_options` reads, in the order forms show them.
    - `levels`: bot levels, weakest first (`perfect` where an exact solver exists).
    - `examples`: option mappings the conformance suite plays, as small as can be.
    - `notation`: the characters of the move notation, for the conformance check that
      `play` accepts exactly the legal moves (empty: skipped).
    - `pools`: the standard set-ups the lobby's quick pairing offers (`Pool`); none for a
      game played alone. The registry refuses a pool whose options seat another number of
      players than it says.
    """

    id: str
    title: str
    summary: str
    traits: Traits
    integrations: Integrations = Integrations()
    options: tuple[Option, ...] = ()
    levels: tuple[str, ...] = ("random",)
    examples: tuple[Mapping[str, Any], ...] = ({},)
    notation: str = ""
    pools: tuple[Pool, ...] = ()

    def __post_init__(self) -> None:
        known = {o.name: o for o in self.options}
        self._check_players_option()
        self._check_pools()
        for varied in self.integrations.study.varies:
            if varied.option not in known or not varied.values:
                raise ValueError(f"{self.id}'s study varies {varied.option!r}, which is not "
                                 "one of its options with values to try")
            for value in varied.values:
                known[varied.option].value(value)  # a ConfigError names a bad value

    def _check_players_option(self) -> None:
        """Where the number of players varies, an option sets it: a whole number within the
        game's seats."""
        named = self.traits.players_option
        if named is None and self.traits.min_players != self.traits.max_players:
            raise ValueError(f"{self.id} seats a varying number of players, so its "
                             "players_option must name the option that sets it")
        if named is None:
            return
        option = next((o for o in self.options if o.name == named), None)
        top = self.traits.max_players
        if option is None or option.kind != "int" or (option.min or 0) < self.traits.min_players \
                or (top is not None and (option.max is None or option.max > top)):
            raise ValueError(f"{self.id}'s players_option {named!r} is not one of its whole "
                             "number options within its players")

    def _check_pools(self) -> None:
        """A pool's id is unique, its seats within the game's and its options readable."""
        ids = [pool.id for pool in self.pools]
        for pool in self.pools:
            if not pool.id or "/" in pool.id or ids.count(pool.id) > 1:
                raise ValueError(f"{self.id}'s pool id {pool.id!r} is empty, holds a slash "
                                 "or is given twice")
            low, top = self.traits.min_players, self.traits.max_players
            if not low <= pool.players <= (pool.players if top is None else top) \
                    or pool.players < 2:
                raise ValueError(f"{self.id}'s pool {pool.id!r} seats {pool.players} "
                                 "players, which the game does not allow")
            values = self.read_options(pool.options)  # a ConfigError names a bad option
            if not pool.clocks or any(clock.get("kind") not in CLOCK_KINDS
                                      for clock in pool.clocks):
                raise ValueError(f"{self.id}'s pool {pool.id!r} needs clocks, each per move "
                                 "or days a move")
            named = self.traits.players_option
            if named is not None and values[named] != pool.players:
                raise ValueError(f"{self.id}'s pool {pool.id!r} seats {pool.players} players "
                                 f"but its options set {named} to {values[named]}")

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    def read_options(self, given: Mapping[str, Any] | None) -> Json:
        """Every option with its value, defaults filled in; ConfigError names an unknown
        option or a bad value."""
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise ConfigError(Text("The options must be an object of name → value."))
        known = {o.name: o for o in self.options}
        unknown = sorted(str(name) for name in set(given) - set(known))
        if unknown:
            if not known:
                raise ConfigError(Text("{game} has no option {name}; its options are none.",
                                       game=self.title, name=repr(unknown[0])))
            raise ConfigError(Text("{game} has no option {name}; its options are {names}.",
                                   game=self.title, name=repr(unknown[0]),
                                   names=", ".join(known)))
        return {name: option.value(given.get(name)) for name, option in known.items()}

    def read_online(self, given: Mapping[str, Any] | None, *, bots_only: bool) -> Json:
        """`read_options` for a room on a shared server, where options with `max_online`
        stay within it: ConfigError in one sentence above it; none (0, where `min` is 0)
        becomes `max_online` unless bots alone play."""
        values = self.read_options(given)
        for option in self.options:
            cap, value = option.max_online, values[option.name]
            if cap is None:
                continue
            if value > cap:
                raise ConfigError(Text("{option} goes up to {most:,} in a room on this server, "
                                       "not {value:,}; longer games can be played in the "
                                       "terminal.", option=option.label, most=cap,
                                       value=value))
            if value == 0 == option.min and not bots_only:
                values[option.name] = cap
        return values

    def screen_file(self) -> str | None:
        """The browser's screen module, as a path under /static/js/."""
        screen = self.integrations.screen
        return None if screen is None else screen.partition(":")[2].removeprefix(SCRIPTS)

    def to_json(self) -> Json:
        """What `GET /api/games` tells the browser about the game."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "min_players": self.traits.min_players,
            "max_players": self.traits.max_players,
            "options": [o.to_json() for o in self.options],
            "levels": list(self.levels),
            "hints": self.integrations.hints is not None,
            "review": self.integrations.review is not None,
            "lessons": self.integrations.lessons is not None,
            "screen": self.screen_file(),
            "simultaneous": self.traits.simultaneous,
            "seat_lists": list(self.traits.seat_lists),
            "lists_moves": self.traits.lists_moves,
            "pools": [pool.to_json(self.id) for pool in self.pools],
        }
