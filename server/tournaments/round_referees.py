"""The referees of a round's boards as the server draws them when the round starts (XVII.1-XVII.3).

Why here and not in the engine: who is at the venue is the server's knowledge - the players of the round's boards,
its byes, and the entries checked in who do not play it (out of a later stage) - while the rule that picks among
them is the engine's pure function (``shared.tournament.referee_duty``). Players of a table played online are
elsewhere, and an entry absent, suspended, withdrawn or disqualified referees nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from server.tournaments.log import RefereesAssigned
from server.tournaments.state import TableKey, TournamentState, match_at, round_of
from shared.tournament.board_referees import refereed_counts
from shared.tournament.model import Bye, Match
from shared.tournament.referee_duty import Board, assign_referees, may_referee, played_rounds


def referees_for_round(state: TournamentState, stage: int, number: int, boards: Sequence[TableKey], *,
                       not_paired: Collection[str] = ()) -> RefereesAssigned:
    """The referee of each board of a round paired (``boards``: its tables on boards, in table order;
    ``not_paired``: the players of the stage its pairing left out)."""
    t = state.tournament
    r = round_of(t, stage, number)
    entries = () if r is None else r.matches
    on_boards = [Board(table=key[2], home=m.home, away=m.away) for key in boards for m in (match_at(t, key),)]
    playing = {p for e in entries if isinstance(e, Match) for p in e.players()}
    online = playing - {p for b in on_boards for p in (b.home, b.away)}
    field = set(state.course.stages[stage].field) if stage < len(state.course.stages) else set()
    byes = [e.player for e in entries if isinstance(e, Bye)]
    gone = set(not_paired) | {w.player for w in t.withdrawn} \
        | {c.player for c in t.discipline if c.card == "disqualified"} \
        | {a.player for a in t.absent if (a.stage, a.round) == (stage, number)} \
        | (field - playing - set(byes))  # in the stage but not in the round: absent or suspended
    here = [p for b in on_boards for p in (b.home, b.away)] + byes
    here += [p.id for p in t.players if p.id in state.checked_in and p.id not in playing and p.id not in here]
    candidates = [p for p in here if p not in online and p not in gone]
    chosen = assign_referees(on_boards, candidates, clubs={p.id: p.club for p in t.players},
                             refereed=refereed_counts(t, state.referees), played=played_rounds(t),
                             agreed={key[2] for key in state.agreed if key[:2] == (stage, number)})
    return RefereesAssigned(stage=stage, round=number, boards=tuple(chosen.items()))


def referee_conflict(state: TournamentState, key: TableKey, referee: str, *, agreed: bool) -> str | None:
    """Why ``referee`` may not referee the board at ``key`` (XVII.2; XVII.3 when its players ``agreed``), or None."""
    m = match_at(state.tournament, key)
    where = f"stage {key[0]} round {key[1]} table {key[2]}"
    if referee in m.players():
        return f"{referee} plays at {where}: he cannot referee it"
    clubs = {p.id: p.club for p in state.tournament.players}
    if not may_referee(referee, Board(table=key[2], home=m.home, away=m.away), half_of={}, board_half=0, clubs=clubs,
                       agreed=agreed):
        return f"{referee} is of the club of a player at {where} (XVII.2): only if both players agree (XVII.3)"
    return None
