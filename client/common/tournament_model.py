"""A tournament as the client shows it: standings rows with their tie-breaks, rank changes and points by round, a
knockout bracket laid out as a bracket, and one tile per table (pure: no arcade, no sockets).

Why pure: the player's waiting screen, the spectators' hall and the organiser's desk all draw the same pictures of a
``TournamentUpdate`` (``client.common.tournament_widgets``); what goes where and what each line says are plain numbers
and words, tested without a screen. An update carries only the standings after the latest round, so the rank change
and the points by round come from the updates this client has seen (``StandingsHistory``): a client that started
watching mid-tournament shows them from the rounds it saw on.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from client.common.i18n import N_, _, team_word
from client.common.part_text import part_words
from client.common.ranking_model import categories_of, with_category
from shared.protocol import BracketLine, StandingLine, TableLine, TournamentUpdate

TIEBREAK_ORDER = ("buchholz", "goals_capped", "buchholz2", "mini_points", "goal_difference", "goals_for", "reached")
TIEBREAK_WORDS = {  # short column heads (TOURNAMENT.md's criteria by their contract names)
    "buchholz": N_("Bch"),
    "goals_capped": N_("Goals*"),
    "buchholz2": N_("Bch²"),
    "mini_points": N_("Mini"),
    "goal_difference": N_("Diff"),
    "goals_for": N_("GF"),
    "reached": N_("Round"),
}
TABLE_STATUS_WORDS = {
    "waiting": N_("waiting for the coaches"),
    "playing": N_("playing"),
    "ended": N_("ended"),
    "walkover": N_("walkover"),
    "replay": N_("to be played again"),
    "board": N_("on the board"),
}
TOURNAMENT_STATUS_WORDS = {
    "registering": N_("registering"),
    "playing": N_("round being played"),
    "between": N_("between rounds"),
    "finished": N_("finished"),
    "ended": N_("ended by the organiser"),
}


def clock_text(ms: int | None) -> str:
    """A time left as m:ss, rounded up (nothing for None)."""
    if ms is None:
        return ""
    seconds = (max(0, ms) + 999) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def rank_change_text(change: int | None) -> str:
    """A rank change since the last round: "▲2" up, "▼1" down, "=" the same, nothing when unknown."""
    if change is None:
        return ""
    if change > 0:
        return f"▲{change}"
    if change < 0:
        return f"▼{-change}"
    return "="


def tiebreak_names(standings: Sequence[StandingLine]) -> tuple[str, ...]:
    """The tie-break criteria of these standings, in the contract's order (unknown ones after, by name)."""
    present = {name for line in standings for name in line.tiebreaks}
    known = tuple(name for name in TIEBREAK_ORDER if name in present)
    return known + tuple(sorted(present - set(known)))


def tiebreak_heading(name: str) -> str:
    """A tie-break column's head in the language in use."""
    return _(TIEBREAK_WORDS[name]) if name in TIEBREAK_WORDS else name


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingRow:
    """One line of the standings as drawn: rank (blank when shared with the line above), name, points, record,
    goals, the tie-breaks in column order, the rank change since the previous round seen, the points after each
    round seen, the cards, whether he sits out his next match, and whether he has left the tournament (``out``:
    withdrawn or disqualified - he stays in the standings with what he scored, and is paired no more)."""

    rank: int
    rank_text: str
    entry: str
    name: str
    points: int
    played: int
    record: str  # wins-draws-losses
    goals: str  # for:against
    tiebreaks: tuple[int, ...]
    change: int | None  # positive: up that many places since the previous round seen
    points_by_round: tuple[int, ...]  # cumulative points after each round seen, oldest first
    yellow: int
    red: int
    suspended: bool
    out: bool = False
    refereed: str = ""  # boards refereed (XVII.1), "!" when below half his played rounds; empty: none on boards

    @property
    def change_text(self) -> str:
        """The rank change in arrows ("▲2")."""
        return rank_change_text(self.change)

    @property
    def cards_text(self) -> str:
        """Yellow and red cards and a suspension, short ("Y2 R1 ✕")."""
        parts = [f"Y{self.yellow}" if self.yellow else "", f"R{self.red}" if self.red else "",
                 "✕" if self.suspended else ""]  # ✕: sits out his next match
        return " ".join(part for part in parts if part)


class StandingsHistory:
    """The standings of every round this client has seen, per stage: where rank changes and points by round come
    from (an update carries only the latest standings)."""

    def __init__(self) -> None:
        """Nothing seen yet."""
        self.seen: dict[tuple[int, int], dict[str, tuple[int, int]]] = {}  # (stage, after_round) -> entry: (rank,
        # points)

    def absorb(self, update: TournamentUpdate) -> None:
        """Keep the standings of ``update`` as those after its round (a later update of one round replaces it)."""
        if update.after_round <= 0:
            return
        self.seen[(update.standings_stage, update.after_round)] = {
            line.entry: (line.rank, line.points) for line in update.standings}

    def rounds_of(self, stage: int, up_to: int) -> list[int]:
        """The rounds of ``stage`` seen, up to and including ``up_to``, in order."""
        return sorted(r for s, r in self.seen if s == stage and r <= up_to)

    def previous_rank(self, stage: int, after_round: int, entry: str) -> int | None:
        """``entry``'s rank after the round before ``after_round`` (None when that round was not seen or he was
        not in it)."""
        before = self.seen.get((stage, after_round - 1))
        return None if before is None or entry not in before else before[entry][0]

    def points_by_round(self, stage: int, after_round: int, entry: str) -> tuple[int, ...]:
        """``entry``'s points after each round of ``stage`` seen up to ``after_round``."""
        found: list[int] = []
        for number in self.rounds_of(stage, after_round):
            line = self.seen[(stage, number)].get(entry)
            if line is not None:
                found.append(line[1])
        return tuple(found)


def standing_rows(update: TournamentUpdate, history: StandingsHistory | None = None) -> tuple[StandingRow, ...]:
    """The standings of ``update`` as rows, tie-breaks in ``tiebreak_names`` order; with ``history`` (which
    should have absorbed ``update``) the rank changes and the points by round."""
    names = tiebreak_names(update.standings)
    categories = categories_of(update)
    suspended = set(update.suspended)
    out = {entry.entry for entry in update.entries if entry.out}
    rows: list[StandingRow] = []
    previous_rank: int | None = None
    stage, after = update.standings_stage, update.after_round
    for line in update.standings:
        before = history.previous_rank(stage, after, line.entry) if history is not None else None
        by_round = history.points_by_round(stage, after, line.entry) if history is not None else ()
        rows.append(StandingRow(
            rank=line.rank, rank_text="" if line.shared and line.rank == previous_rank else f"{line.rank}.",
            entry=line.entry, name=with_category(line.name, categories.get(line.entry, "")), points=line.points,
            played=line.played,
            record=f"{line.wins}-{line.draws}-{line.losses}", goals=f"{line.goals_for}:{line.goals_against}",
            tiebreaks=tuple(line.tiebreaks.get(name, 0) for name in names),
            change=None if before is None else before - line.rank, points_by_round=by_round,
            yellow=line.yellow, red=line.red, suspended=line.suspended_next or line.entry in suspended,
            out=line.entry in out,
            refereed="" if line.refereed is None else f"{line.refereed}{'!' if line.refereed_short else ''}"))
        previous_rank = line.rank
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the standings table: its head and where it starts (a fraction of the table's width)."""

    key: str
    heading: str
    start: float


def refereed_shown(lines: Sequence[StandingLine]) -> bool:
    """The standings carry refereed counts: matches are played on boards (XVII.1)."""
    return any(line.refereed is not None for line in lines)


def standings_columns(tiebreaks: Sequence[str], *, refereed: bool = False) -> tuple[Column, ...]:
    """The standings table's columns: rank, change, name, points, played, record, goals, every tie-break, the boards
    refereed (``refereed``: on boards), cards and the points-by-round chart, with their starts (fractions of the
    width, the name taking what is left)."""
    fixed = [("rank", _("#"), 0.04), ("change", "", 0.045), ("name", _("Player"), 0.0), ("points", _("Pts"), 0.055),
             ("played", _("Pl"), 0.045), ("record", _("W-D-L"), 0.085), ("goals", _("Goals"), 0.075)]
    tail = [*((f"tb:{name}", tiebreak_heading(name), 0.07) for name in tiebreaks),
            *([("refereed", _("Ref"), 0.05)] if refereed else []), ("cards", _("Cards"), 0.075),
            ("chart", _("By round"), 0.09)]
    widths = [w for _key, _head, w in fixed + tail]
    name_width = max(0.12, 1.0 - sum(widths))
    columns: list[Column] = []
    start = 0.0
    for key, heading, width in fixed + tail:
        columns.append(Column(key, heading, start))
        start += name_width if key == "name" else width
    scale = 1.0 / start if start > 1.0 else 1.0  # many tie-breaks: every column narrower
    return tuple(Column(c.key, c.heading, c.start * scale) for c in columns)


def row_cells(row: StandingRow, columns: Sequence[Column]) -> tuple[str, ...]:
    """The text of each column of ``row`` (the chart's cell is empty: it is drawn)."""
    tiebreak_values = iter(row.tiebreaks)
    cells: list[str] = []
    for column in columns:
        if column.key.startswith("tb:"):
            cells.append(str(next(tiebreak_values, "")))
            continue
        name = _("{name} (out)").format(name=row.name) if row.out else row.name
        cells.append({"rank": row.rank_text, "change": row.change_text, "name": name, "points": str(row.points),
                      "played": str(row.played), "record": row.record, "goals": row.goals, "cards": row.cards_text,
                      "refereed": row.refereed, "chart": ""}.get(column.key, ""))
    return tuple(cells)


def chart_points(values: Sequence[int], scale_max: int, width: float, height: float) -> tuple[tuple[float, float],
                                                                                              ...]:
    """The points-by-round chart as points of a line in a ``width`` x ``height`` box (origin bottom left): one per
    round, x evenly spread, y by points on the scale 0..``scale_max`` shared by every line of the table."""
    if not values:
        return ()
    top = max(1, scale_max)
    if len(values) == 1:
        return ((width / 2, height * max(0, values[0]) / top),)
    last = len(values) - 1
    return tuple((width * i / last, height * max(0, min(top, v)) / top) for i, v in enumerate(values))


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True, slots=True, kw_only=True)
class Tile:
    """A table of the current round as a small board: number, both names, score, part, time left, status; ``room``
    to watch it in (None: nothing to watch)."""

    table: int
    home: str
    away: str
    home_name: str
    away_name: str
    score: str
    part: str
    time_left: str
    status: str
    status_text: str
    room: str | None
    winner: str | None  # home or away once decided

    @property
    def live(self) -> bool:
        """True while the match is being played (or its coaches are coming): a tile worth clicking."""
        return self.room is not None and self.status in ("waiting", "playing")


def tile_of(line: TableLine, categories: Mapping[str, str] | None = None, age_ms: int = 0) -> Tile:
    """One table as a tile (each name with its category, when ``categories`` gives them); ``age_ms`` is how old
    the update is: a waiting table's no-show time counts down from it."""
    categories = categories or {}
    score = f"{line.score.home}:{line.score.away}" if line.score is not None else \
        _("w/o") if line.walkover is not None else "–:–"  # a walkover's tile says it was one, not "not played yet"
    winner = line.walkover or line.shootout
    if winner is None and line.status == "ended" and line.score is not None and line.score.home != line.score.away:
        winner = "home" if line.score.home > line.score.away else "away"
    status_text = _(TABLE_STATUS_WORDS.get(line.status, line.status))
    if line.shootout is not None:
        status_text = _("ended: shoot-out to {side}").format(side=team_word(line.shootout))
    time_left = clock_text(line.part_ms) if line.status == "playing" else \
        clock_text(None if line.no_show_ms is None else max(0, line.no_show_ms - age_ms)) if line.status == "waiting" \
        else ""
    part = part_words(line.part) if line.part else ""
    if line.on_board:  # a physical board: its referee, and a result one coach entered for the other to confirm
        part = _("referee {name}").format(name=line.referee_name) if line.referee_name else _("no referee yet")
        time_left = entered_words(line)
    return Tile(table=line.table, home=line.home, away=line.away,
                home_name=with_category(line.home_name, categories.get(line.home, "")),
                away_name=with_category(line.away_name, categories.get(line.away, "")), score=score,
                part=part, time_left=time_left, status=line.status, status_text=status_text, room=line.room,
                winner=winner)


def entered_score(line: TableLine) -> str:
    """The result one coach of a board entered, as a short text ("3:1", "walkover home"); empty when none."""
    if line.entered_walkover is not None:
        return _("walkover {side}").format(side=team_word(line.entered_walkover))
    if line.entered_score is None:
        return ""
    text = f"{line.entered_score.home}:{line.entered_score.away}"
    if line.entered_shootout is not None:
        text += " " + _("(shoot-out {side})").format(side=team_word(line.entered_shootout))
    return text


def entered_words(line: TableLine) -> str:
    """Who entered which result of a board still to be confirmed ("Novák entered 3:1"); empty when none."""
    if line.entered_by is None:
        return ""
    name = line.home_name if line.entered_by == line.home else line.away_name
    return _("{name} entered {score}").format(name=name, score=entered_score(line))


def tiles_of(update: TournamentUpdate, age_ms: int = 0) -> tuple[Tile, ...]:
    """The current round's tables, by number."""
    categories = categories_of(update)
    return tuple(tile_of(line, categories, age_ms) for line in sorted(update.tables, key=lambda t: t.table))


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in pixels (origin bottom left)."""

    left: float
    bottom: float
    width: float
    height: float

    @property
    def top(self) -> float:
        """The top edge."""
        return self.bottom + self.height

    def contains(self, x: float, y: float) -> bool:
        """True when (x, y) lies inside."""
        return self.left <= x <= self.left + self.width and self.bottom <= y <= self.bottom + self.height


def tile_grid(area: Box, count: int, gap: float = 10.0, min_width: float = 220.0,
              aspect: float = 0.5) -> tuple[Box, ...]:
    """Where ``count`` tiles go in ``area``: as many columns as fit at ``min_width``, rows from the top, each tile
    ``aspect`` times as high as wide (smaller when the rows would not fit)."""
    if count <= 0 or area.width <= 0 or area.height <= 0:
        return ()
    columns = max(1, min(count, int((area.width + gap) // (min_width + gap))))
    rows = -(-count // columns)
    width = (area.width - gap * (columns - 1)) / columns
    height = min(width * aspect, (area.height - gap * (rows - 1)) / rows)
    top = area.bottom + area.height
    return tuple(Box(area.left + (i % columns) * (width + gap), top - (i // columns + 1) * height
                     - (i // columns) * gap, width, height) for i in range(count))


def tile_at(boxes: Sequence[Box], tiles: Sequence[Tile], x: float, y: float) -> Tile | None:
    """The tile under (x, y), if any."""
    for box, tile in zip(boxes, tiles, strict=False):
        if box.contains(x, y):
            return tile
    return None


# --------------------------------------------------------------------------- bracket


@dataclass(frozen=True, slots=True, kw_only=True)
class BracketSlot:
    """A match of the bracket where it is drawn: column (0: the first round), centre height (a fraction of the
    bracket's height, 1 at the top), the coaches' names, the result in words and who won."""

    round: int
    column: int
    y: float
    kind: str
    home: str
    away: str
    home_name: str
    away_name: str
    home_goals: str  # nothing before the match is played
    away_goals: str
    result: str  # the whole result in words ("2:2 (shoot-out)", "w/o")
    winner: str | None  # "home", "away" or None


@dataclass(frozen=True, slots=True)
class BracketLayout:
    """The bracket as drawn: its columns (one per round, the final's on the right), the matches with their
    places, and the lines joining a match to the one its winner went on to ((from, to, side) by index)."""

    columns: int
    slots: tuple[BracketSlot, ...]
    joins: tuple[tuple[int, int, str], ...]


def bracket_result(line: BracketLine) -> str:
    """A bracket match's result in words: "3:1", "2:2 (shoot-out)", "w/o", or nothing before it is played."""
    if line.walkover is not None:
        return _("w/o")
    if line.score is None:
        return ""
    text = f"{line.score.home}:{line.score.away}"
    return _("{score} (shoot-out)").format(score=text) if line.shootout is not None else text


def bracket_layout(bracket: Iterable[BracketLine], names: dict[str, str] | None = None) -> BracketLayout:
    """Lay the knockout matches out as a bracket: the first round's matches evenly from the top in the pairing's
    order, each later match level with the matches its coaches came from (evenly, in order, where they came from
    none: a bye), the match for third place under the final."""
    names = names or {}
    lines = list(bracket)
    main = [line for line in lines if line.kind != "third_place"]
    rounds = sorted({line.round for line in main})
    column_of = {number: i for i, number in enumerate(rounds)}
    slots: list[BracketSlot] = []
    joins: list[tuple[int, int, str]] = []
    winner_at: dict[tuple[int, str], int] = {}  # (round, winner) -> slot index
    for number in rounds:
        matches = [line for line in main if line.round == number]
        feeders = []
        for line in matches:
            feeders.append([winner_at.get((number - 1, player)) for player in (line.home, line.away)])
        spots = _spread(len(matches))
        order = sorted(range(len(matches)), key=lambda i: _mean_y(feeders[i], slots, spots[i]))
        for place, i in enumerate(order):
            line = matches[i]
            known = [f for f in feeders[i] if f is not None]
            y = sum(slots[f].y for f in known) / len(known) if len(known) == 2 else spots[place]
            index = len(slots)
            slots.append(_slot(line, column_of[number], y, names))
            for side, feeder in zip(("home", "away"), feeders[i], strict=True):
                if feeder is not None:
                    joins.append((feeder, index, side))
            if line.winner is not None:
                winner_at[(number, line.winner)] = index
    for line in lines:
        if line.kind == "third_place":
            slots.append(_slot(line, column_of.get(line.round, len(rounds) - 1), 0.12, names))
    return BracketLayout(len(rounds), tuple(slots), tuple(joins))


def column_titles(layout: BracketLayout) -> tuple[str, ...]:
    """Each bracket column's name, from the final backwards: final, semi-finals, quarter-finals, then by round. The
    rounds not paired yet count too: a last column that is not the final has as many rounds after it as its matches
    need to come down to one (four players' first round is the semi-finals before the final exists)."""
    named = (_("Final"), _("Semi-finals"), _("Quarter-finals"))
    main = [slot for slot in layout.slots if slot.kind != "third_place"]
    rounds = sorted({slot.round for slot in main})
    last = [slot for slot in main if rounds and slot.round == rounds[-1]]
    to_come = 0 if any(slot.kind == "final" for slot in last) else max(1, math.ceil(math.log2(max(1, len(last)))))
    titles = []
    for column, number in enumerate(rounds):
        from_end = len(rounds) - 1 - column + to_come
        titles.append(named[from_end] if from_end < len(named) else _("Round {n}").format(n=number))
    return tuple(titles)


def _spread(count: int) -> list[float]:
    """``count`` heights evenly from the top (fractions: 1 at the top)."""
    return [1.0 - (i + 0.5) / count for i in range(count)]


def _mean_y(feeders: Sequence[int | None], slots: Sequence[BracketSlot], fallback: float) -> float:
    """The sort key of a match: minus the mean height of the matches it came from (top first), else its place."""
    known = [slots[f].y for f in feeders if f is not None]
    return -(sum(known) / len(known)) if known else -fallback


def _slot(line: BracketLine, column: int, y: float, names: dict[str, str]) -> BracketSlot:
    """One bracket match at its place."""
    winner = None if line.winner is None else "home" if line.winner == line.home else "away"
    return BracketSlot(round=line.round, column=column, y=y, kind=line.kind, home=line.home, away=line.away,
                       home_name=names.get(line.home, line.home), away_name=names.get(line.away, line.away),
                       home_goals="" if line.score is None else str(line.score.home),
                       away_goals="" if line.score is None else str(line.score.away),
                       result=bracket_result(line), winner=winner)


def entry_names(update: TournamentUpdate) -> dict[str, str]:
    """Every entry's name by its id, as the screens show it: with its category where the tournament has them."""
    categories = categories_of(update)
    return {line.entry: with_category(line.name, categories.get(line.entry, "")) for line in update.entries}


def status_words(update: TournamentUpdate) -> str:
    """The tournament's state in words, with its round."""
    state = _(TOURNAMENT_STATUS_WORDS.get(update.status, update.status))
    if update.round <= 0:
        return state
    return _("Round {n} — {state}").format(n=update.round, state=state)


def next_round_words(update: TournamentUpdate | None, since_s: float) -> str:
    """When the next round starts by itself, counted down ``since_s`` seconds after the update came (nothing when
    the organiser starts the rounds)."""
    if update is None or update.next_round_ms is None or update.status in ("finished", "ended"):
        return ""
    left = update.next_round_ms - int(since_s * 1000)
    return _("next round in {time}").format(time=clock_text(left))
