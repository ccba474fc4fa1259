"""What watchers see of a tournament: a ``TournamentUpdate`` built from its state and its tables' live play.

Why in two parts: the standings, the final ranking, the bracket, the entries, cards, cases and the audit change only
when an event is logged, and ranking the followed file (the state's ``course``) costs milliseconds, so they are made
once per version (``Board``); the live part - each table's status, score, part and time left - changes with every
move and is cheap, so it is added at every push (``update``). Everything here is pure: the caller passes the live
facts and the time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from server.tournaments.state import TableKey, TournamentState
from shared.protocol import (
    AuditLine,
    BracketLine,
    CardLine,
    CaseLine,
    EntryLine,
    RankingLine,
    RoomInfo,
    Score,
    StandingLine,
    TableLine,
    TournamentInfo,
    TournamentUpdate,
)
from shared.tournament.board_referees import refereed_counts, refereed_too_little
from shared.tournament.categories import category_of
from shared.tournament.model import Bye, Match, Tournament
from shared.tournament.progress import Course
from shared.tournament.ranking import Ranking, rank_course
from shared.tournament.standings import standings
from shared.tournament.table import Standings

AUDIT_SHOWN = 100  # the latest acts of the audit log an update carries


@dataclass(frozen=True, kw_only=True, slots=True)
class LiveTable:
    """What the bus has said about a table's room: whether its match started, its score, who is at the table."""

    started: bool = False
    score: tuple[int, int] = (0, 0)
    present: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Board:
    """The parts of an update that change only with the log (see the module docstring)."""

    version: int
    course: Course
    standings: Standings
    status: str
    stage: int
    round: int
    lines: tuple[StandingLine, ...]
    entries: tuple[EntryLine, ...]
    bracket: tuple[BracketLine, ...]
    cards: tuple[CardLine, ...]
    suspended: tuple[str, ...]
    cases: tuple[CaseLine, ...]
    audit: tuple[AuditLine, ...]
    ranking: Ranking
    ranking_lines: tuple[RankingLine, ...]


def board_of(state: TournamentState) -> Board:
    """The log-dependent part of the tournament's updates."""
    t = state.tournament
    course = state.course
    table = standings(course)
    stage, number = current_round(t)
    names = {p.id: p.name for p in t.players}
    refereed = refereed_of(state)
    lines = tuple(StandingLine(rank=row.rank, shared=row.shared, entry=row.player, name=names[row.player],
                               points=row.points, played=row.played, wins=row.wins, draws=row.draws,
                               losses=row.losses, byes=row.byes, goals_for=row.goals_for,
                               goals_against=row.goals_against, tiebreaks=dict(row.tiebreaks), yellow=row.yellow,
                               red=row.red, suspended_next=row.suspended_next,
                               refereed=None if refereed is None else refereed.get(row.player, 0),
                               refereed_short=refereed is not None
                               and refereed_too_little(refereed.get(row.player, 0), row.played))
                  for row in table.rows)
    out = {w.player for w in t.withdrawn} | {c.player for c in t.discipline if c.card == "disqualified"}
    season = t.season
    entries = tuple(EntryLine(entry=p.id, name=p.name, club=p.club, category=p.category, rating=p.rating,
                              claimed=p.id in state.coaches, checked_in=p.id in state.checked_in, out=p.id in out,
                              chat_muted=p.id in state.chat_muted, year_of_birth=p.year_of_birth, sex=p.sex,
                              veteran=p.veteran, cup_category=category_of(p, season))
                    for p in t.players)
    ranking = rank_course(course)
    cards = tuple(CardLine(c.stage, c.round, c.player, c.card, c.reason) for c in t.discipline)
    cases = tuple(CaseLine(id=c.id, kind=c.kind, stage=c.stage, round=c.round, table=c.table, by=c.by,
                           reason=c.reason, status=c.status, ruling=c.ruling, proposal=c.proposal())
                  for c in state.cases)
    audit = tuple(AuditLine(a.at_ms, a.who[:64], a.act, a.detail[:200], a.reason[:500])
                  for a in state.audit[-AUDIT_SHOWN:])
    return Board(version=state.version, course=course, standings=table, status=status_of(state, course), stage=stage,
                 round=number, lines=lines, entries=entries, bracket=_bracket(course), cards=cards,
                 suspended=tuple(row.player for row in table.rows if row.suspended_next), cases=cases, audit=audit,
                 ranking=ranking, ranking_lines=ranking_lines(ranking))


def ranking_lines(ranking: Ranking) -> tuple[RankingLine, ...]:
    """The final ranking as the update carries it: every row of ``sprtec-ranking/1``, typed."""
    return tuple(RankingLine(rank=r.rank, shared=r.shared, entry=r.player, name=r.name, club=r.club,
                             category=r.category, category_rank=r.category_rank, category_winner=r.category_winner,
                             stage=r.stage, cup_points=r.cup_points, out=r.out) for r in ranking.rows)


def update(state: TournamentState, board: Board, *, sequence: int, live: Mapping[str, LiveTable],
           room_info: Callable[[str], RoomInfo | None], now_ms: int, next_round_ms: int | None) -> TournamentUpdate:
    """The whole update: the board, the current round's tables as they are played now, the time to the next round."""
    t = state.tournament
    tables: list[TableLine] = []
    byes: list[str] = []
    names = {p.id: p.name for p in t.players}
    for r in t.results:
        if (r.stage, r.round) != (board.stage, board.round):
            continue
        matches = [e for e in r.matches if isinstance(e, Match)]
        byes = [e.player for e in r.matches if isinstance(e, Bye)]
        for number, m in enumerate(matches, start=1):
            key = (r.stage, r.round, number)
            tables.append(_table_line(state, key, m, names, live, room_info, now_ms))
    coming = board.course.round_to_start
    return TournamentUpdate(
        tournament=state.id, name=t.name[:100], sequence=sequence, version=state.version, status=board.status,
        system=t.stages[board.stage].system, stage=board.stage, round=board.round,
        standings_stage=board.standings.stage, after_round=board.standings.after_round,
        complete=board.standings.complete, entries=board.entries, standings=board.lines, tables=tuple(tables),
        byes=tuple(byes), bracket=board.bracket, cards=board.cards, suspended=board.suspended, cases=board.cases,
        audit=board.audit, next_round_ms=next_round_ms, date=t.date, cup_tier=None if t.cup is None else t.cup.tier,
        season=t.season, cup_field=None if board.ranking.cup is None else board.ranking.cup.field,
        ranking=board.ranking_lines, on_boards=state.stage_on_board(board.stage),
        next_stage=None if coming is None else coming[0], next_round=None if coming is None else coming[1])


def plays_on_boards(state: TournamentState) -> bool:
    """Some match of the tournament is, or will be, played on a physical board."""
    return state.on_boards or any(state.board_stages.values()) or any(state.board_tables.values()) \
        or bool(state.referees.boards)


def refereed_of(state: TournamentState) -> dict[str, int] | None:
    """How often each entry refereed a board whose match has a result (None: nothing is played on boards)."""
    return refereed_counts(state.tournament, state.referees) if plays_on_boards(state) else None


def info_of(state: TournamentState, board: Board, playing: int) -> TournamentInfo:
    """The tournament's line in TournamentList."""
    return TournamentInfo(tournament=state.id, name=state.tournament.name[:100], status=board.status,
                          stage=board.stage, round=board.round, entries=len(state.tournament.players),
                          playing=playing)


def current_round(t: Tournament) -> tuple[int, int]:
    """The (stage, round) of the last listed round; (0, 0) before round 1."""
    if not t.results:
        return 0, 0
    last = max(t.results, key=lambda r: (r.stage, r.round))
    return last.stage, last.round


def status_of(state: TournamentState, course: Course) -> str:
    """registering, playing, between, finished or ended (see TournamentUpdate)."""
    if state.ended is not None:
        return "ended"
    if not state.tournament.results:
        return "registering"  # no round paired yet, even while too few entries make the course look complete
    if course.complete and not state.replays:
        return "finished"
    sc = course.current
    if sc.last_listed > sc.finished or state.tables or state.replays:
        return "playing"
    return "between"


def _table_line(state: TournamentState, key: TableKey, m: Match, names: Mapping[str, str],
                live: Mapping[str, LiveTable], room_info: Callable[[str], RoomInfo | None], now_ms: int) -> TableLine:
    """One table of the current round as it stands now."""
    kind, ruleset = state.kinds.get(key, ("match", state.tournament.stages[key[0]].ruleset))

    board: dict[str, Any] = {}
    if state.on_board(key):
        referee = state.referees.referee_of(*key)
        board = {"on_board": True, "referee": referee, "referee_name": None if referee is None else names[referee]}
        entered = state.board_entries.get(key)
        if entered is not None and not m.finished:
            o = entered.outcome
            board |= {"entered_by": entered.by, "entered_score": None if o.score is None else Score(*o.score),
                      "entered_walkover": o.walkover, "entered_shootout": o.shootout}

    def line(status: str, **rest: Any) -> TableLine:
        """The table's line with what is known of its match."""
        return TableLine(table=key[2], home=m.home, away=m.away, home_name=names[m.home], away_name=names[m.away],
                         kind=kind, ruleset=ruleset, status=status, **board, **rest)

    if key in state.replays:
        return line("replay")
    if m.finished:
        score = None if m.score is None else Score(*m.score)
        return line("walkover" if m.walkover is not None else "ended", score=score, walkover=m.walkover,
                    shootout=m.shootout)
    if board:
        return line("board")
    table = state.tables.get(key)
    if table is None:
        return line("waiting")
    seen = live.get(table.room, LiveTable())
    if not seen.started:
        return line("waiting", room=table.room, no_show_ms=max(0, table.opened_at_ms + state.no_show_ms - now_ms))
    return line("playing", room=table.room, **played(seen, room_info(table.room)))


def played(seen: LiveTable, info: RoomInfo | None) -> dict[str, Any]:
    """A table being played as its line shows it: the live score and, when its room is played here (``info``), the
    room's own score, part and the part's time left (a tournament's table and a league's game alike)."""
    if info is None:
        return {"score": Score(*seen.score), "part": None, "part_ms": None}
    return {"score": info.score or Score(*seen.score), "part": info.part,
            "part_ms": None if info.clocks is None else info.clocks.part_ms}


def _bracket(course: Course) -> tuple[BracketLine, ...]:
    """Every knockout match known of the current stage, with its result once played."""
    sc = course.current
    if sc.stage.system != "knockout":
        return ()
    lines: list[BracketLine] = []
    for bracket in sc.brackets:
        played: dict[frozenset[str], Match] = {}
        if bracket.number <= len(sc.rounds):
            played = {frozenset(e.players()): e for e in sc.rounds[bracket.number - 1].matches
                      if isinstance(e, Match)}
        for bm in bracket.matches:
            m = played.get(frozenset((bm.home, bm.away)))
            if m is None or not m.finished:
                lines.append(BracketLine(round=bracket.number, kind=bm.kind, home=bm.home, away=bm.away))
                continue
            score = None if m.score is None else Score(*m.score)
            lines.append(BracketLine(round=bracket.number, kind=bm.kind, home=bm.home, away=bm.away, score=score,
                                     walkover=m.walkover, shootout=m.shootout, winner=m.winner))
    return tuple(lines)
