"""``sprtec tournament status``: a tournament's standings and tables as text, live in a terminal or once.

Why text from the update alone: a TournamentUpdate carries everything a watcher needs (standings, the current
round's tables with their rooms, scores and time, cards, cases), so the terminal view is a pure function of the
latest update - the same lines whether printed once (``--once``, for scripts and tests) or redrawn on every push.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from shared.protocol import TableLine, TournamentUpdate

CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen: the live view redraws in place
AUDIT_LINES = 8  # the latest acts of the audit log shown


def local_clock(at_ms: int) -> str:
    """An act's moment in this machine's local time (the epoch milliseconds are printed beside it)."""
    return datetime.fromtimestamp(at_ms / 1000).astimezone().strftime("%H:%M:%S")


def render(update: TournamentUpdate, server: str = "") -> str:
    """The whole status: a header, the standings, the current round's tables, cards, open cases, the ranking (at
the end, or once a later stage is played: with categories and cup points), the latest acts of the audit log."""
    round_text = f"stage {update.stage} round {update.round}" if update.round else "before round 1"
    lines = [f"{update.name or update.tournament} [{update.tournament}] - {update.status}, {round_text} "
             f"({update.system})"]
    if update.next_round_ms is not None:
        lines.append(f"next round in {update.next_round_ms / 1000:.0f} s")
    names = {e.entry: e.name for e in update.entries}
    refereed = any(s.refereed is not None for s in update.standings)  # matches on boards: the boards refereed
    standing_rows = [[str(s.rank) + ("=" if s.shared else ""), s.name, str(s.points), str(s.played),
                      f"{s.wins}-{s.draws}-{s.losses}", f"{s.goals_for}:{s.goals_against}",
                      " ".join(f"{k}={v}" for k, v in s.tiebreaks.items()),
                      *([] if not refereed else [f"{s.refereed or 0}{'!' if s.refereed_short else ''}"]),
                      "S" if s.suspended_next else ""] for s in update.standings]
    after = f"after round {update.after_round}" if update.after_round else "before any round"
    lines += ["", f"Standings of stage {update.standings_stage}, {after}" + (" - final" if update.complete else "")]
    lines += columns(("#", "player", "pts", "pl", "W-D-L", "goals", "tie-breaks", *(("ref",) if refereed else ()),
                      ""), standing_rows)
    if update.tables or update.byes:
        lines += ["", f"Round {update.round} tables"]
        lines += columns(("table", "home", "score", "away", "status", "room", "part"),
                        [_table_row(t) for t in update.tables])
        if update.byes:
            lines.append("byes: " + ", ".join(names.get(b, b) for b in update.byes))
    if update.cards:
        lines += ["", "Cards"] + [f"  {c.card} to {names.get(c.entry, c.entry)} (stage {c.stage} round {c.round}): "
                                  f"{c.reason}" for c in update.cards]
    open_cases = [c for c in update.cases if c.status == "open"]
    if open_cases:
        lines += ["", "Open cases"] + [f"  #{c.id} {c.kind} of stage {c.stage} round {c.round} table {c.table} by "
                                       f"{names.get(c.by, c.by)}: {c.proposal or c.reason}" for c in open_cases]
    if update.ranking and (update.complete or update.standings_stage > 0):
        title = "Final ranking" if update.complete else "Ranking so far"
        if update.cup_tier is not None:
            title += f" - Czech Cup {update.cup_tier}, {update.cup_field} ranked"
        lines += ["", title]
        lines += columns(("#", "player", "club", "cat.", "cup points"),
                        [[str(r.rank) + ("=" if r.shared else ""), r.name + (" (out)" if r.out else ""), r.club,
                          f"{r.category} {r.category_rank}" + (" *" if r.category_winner else ""),
                          "" if r.cup_points is None else str(r.cup_points)] for r in update.ranking])
    if update.audit:
        lines += ["", "Latest acts"] + [f"  {local_clock(a.at_ms)} ({a.at_ms})  {a.who}: {a.act} {a.detail}"
                                        + (f" - {a.reason}" if a.reason else "") for a in update.audit[-AUDIT_LINES:]]
    if server:
        lines += ["", f"watch a table: sprtec watch --server {server} --room ROOM"]
    return "\n".join(lines) + "\n"


def _table_row(t: TableLine) -> list[str]:
    """One table's cells."""
    score = "" if t.score is None else f"{t.score.home}:{t.score.away}"
    if t.shootout:
        score += f" (so {t.shootout})"
    status = t.status if t.walkover is None else f"walkover {t.walkover}"
    part = t.part or ""
    if t.part_ms is not None:
        part += f" {t.part_ms // 60000}:{t.part_ms // 1000 % 60:02d}"
    if t.no_show_ms is not None:
        part = f"no-show in {t.no_show_ms / 1000:.0f} s"
    kind = "" if t.kind == "match" else f" {t.kind.replace('_', ' ')}"
    if t.on_board:  # a physical board: no room; its referee, and a result one coach entered
        part = f"referee {t.referee_name}" if t.referee_name else "no referee yet"
        if t.entered_by is not None:
            entered = "walkover " + t.entered_walkover if t.entered_walkover else (
                "" if t.entered_score is None else f"{t.entered_score.home}:{t.entered_score.away}")
            part += f", {t.entered_by} entered {entered}"
        return [f"{t.table}{kind}", t.home_name, score, t.away_name, status, "on the board", part]
    return [f"{t.table}{kind}", t.home_name, score, t.away_name, status, t.room or "", part]


def columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=False)]
    return ["  ".join(str(cell).ljust(w) for cell, w in zip(row, widths, strict=False)).rstrip()
            for row in (header, *rows)]
