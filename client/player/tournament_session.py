"""The player's part in one tournament: his entry, the tournament as it stands, his table when a round starts and
when to take him there (pure: no arcade, no sockets).

Why a model: the player's screen says "Round 3 — table 7: you play Novák (home, red)" with the time left before a
coach who is not at his table loses by walkover, and takes him to the table by itself a few seconds later (or at
once, on his click); between rounds it shows the standings and the tables still being played, at the end the final
standings. All of that follows the server's messages (``TournamentJoined``, ``TournamentUpdate``,
``TableAssigned``) and a clock, so it is tested without a screen. ``apply`` takes a message and ``due`` says what to
send now; the navigator sends it.
"""

from __future__ import annotations

from client.common.i18n import N_, _, team_word
from client.common.ranking_model import categories_of, with_category
from client.common.ruleset_names import ruleset_name
from client.common.tournament_model import (
    TOURNAMENT_STATUS_WORDS,
    StandingRow,
    StandingsHistory,
    Tile,
    clock_text,
    next_round_words,
    standing_rows,
    status_words,
    tiles_of,
)
from client.match.net import ConnectionEvent, connection_words
from client.player import board_entry
from client.player.board_entry import BoardDraft
from shared.protocol import (
    CheckIn,
    ClientMessage,
    EntryLine,
    Error,
    JoinRoom,
    Leave,
    TableAssigned,
    TableLine,
    TournamentDone,
    TournamentJoined,
    TournamentUpdate,
    WatchTournament,
)

CARD_WORDS = {"yellow": N_("a yellow card"), "red": N_("a red card"), "disqualified": N_("a disqualification")}
NEWS_KEPT = 3  # the latest news told to the player
TAKE_TO_TABLE_S = 5.0  # the assignment is read for this long before the player is taken to his table
KIT_WORDS = {"home": N_("red"), "away": N_("yellow")}  # the kits' colours (client.common.palette.KITS)
TOURNAMENT_REFS = ("JoinTournament", "CheckIn", "WithdrawEntry", "WatchTournament", "FileDispute",
                   "ProposeCorrection", "ConfirmCorrection", "EnterResult")
REFUSALS = {  # the server's refusals of a player's tournament request, in words he acts on
    "NOT_ENTERED": N_("You coach no entry of this tournament now — the organiser may have unlinked or withdrawn it; "
                      "ask him"),
    "ALREADY_ENTERED": N_("You are entered in this tournament already"),
    "TOURNAMENT_CLOSED": N_("The tournament does not take this now: it has ended"),
    "REGISTRATION_CLOSED": N_("Registration has closed: the last round has started"),
    "TOURNAMENT_NOT_FOUND": N_("This tournament is no longer on the server"),
    "RATE_LIMITED": N_("Too many requests at once — wait a moment and try again"),
    "STORE_UNAVAILABLE": N_("The server cannot save right now — nothing changed; try again in a moment"),
    "RESULT_ENTERED": N_("That is not the score entered already: your opponent confirms or disputes yours, and the "
                         "organiser decides"),
    "BAD_RESULT": N_("That result cannot be: a drawn knockout match needs the shoot-out's winner"),
}


def result_words(result: str, names: dict[str, str]) -> str:
    """A result as the audit log writes it ("walkover to home", "1:1, shoot-out to away") in the player's words,
    the sides named by ``names`` (their side words where a name is not known)."""
    score, _sep, shootout = result.partition(", shoot-out to ")
    if score.startswith("walkover to "):
        side = score.removeprefix("walkover to ")
        return _("walkover to {name}").format(name=names.get(side) or team_word(side))
    if shootout:
        return _("{score}, shoot-out to {name}").format(score=score, name=names.get(shootout) or team_word(shootout))
    return result


def refusal_words(error: Error) -> str:
    """A refusal in the player's language (the server's own English words for a code without a meaning here)."""
    return _(REFUSALS[error.code]) if error.code in REFUSALS else _("Refused: {why}").format(why=error.message)


class TournamentSession:
    """One tournament the player is entered in (or has been given a table of)."""

    def __init__(self, tournament: str, entry: str | None = None, name: str = "") -> None:
        """Follow ``tournament``; ``entry`` is his entry once the server said so (None until known)."""
        self.tournament = tournament
        self.entry = entry
        self.name = name
        self.update: TournamentUpdate | None = None
        self.update_at = 0.0  # when the latest update came (the next round's countdown runs from it)
        self.history = StandingsHistory()
        self.assignment: TableAssigned | None = None
        self.assigned_at = 0.0
        self.taken = False  # the player was sent to his table (or is there)
        self.error = ""
        self.checking_in = False
        self.table_rooms: set[str] = set()  # every room he was given as his table (its results are a table's)
        self.draft = BoardDraft()  # the score he is about to enter for his match on a board
        self.my_tables: set[tuple[int, int, int]] = set()  # (stage, round, table) of every match of his
        self.news: list[str] = []  # what the organiser decided about him (a card, an overridden result), latest first
        self.fresh: list[str] = []  # news not yet shown in a match's log (the navigator takes them)
        self._heard: set[tuple[object, ...]] = set()  # the cards and audit lines already known
        self.sides: dict[tuple[int, int, int], dict[str, str]] = {}  # his tables' coaches' names by side
        self.connection = ""  # the connection's trouble in words (the server closed, reconnecting); "" when up

    def first_requests(self) -> list[ClientMessage]:
        """Follow the tournament's updates."""
        return [WatchTournament(self.tournament)]

    # ----------------------------------------------------------------- the server's news
    def apply(self, message: object, now: float) -> bool:
        """A server message; True when it was about this tournament (a connection's news is heard, and left to
        the others too)."""
        if isinstance(message, ConnectionEvent):
            self._connection(message)
            return False
        if isinstance(message, TournamentUpdate) and message.tournament == self.tournament:
            first = self.update is None
            self.update, self.update_at = message, now
            self.history.absorb(message)
            if self.entry is None and self.name:
                self.entry = next((e.entry for e in message.entries if e.name == self.name), None)
            self._hear(message, told=not first)
            if self.assignment is not None and self.round_over(message):
                self.assignment, self.taken = None, False
            self.board()  # the score to enter follows his board (his opponent's entry, to confirm it)
            return True
        if isinstance(message, TableAssigned) and message.tournament == self.tournament:
            self.my_tables.add((message.stage, message.round, message.table))
            if self.assignment is None or (message.round, message.table, message.room) != (
                    self.assignment.round, self.assignment.table, self.assignment.room):
                self.assignment, self.assigned_at, self.taken = message, now, False
            if message.room is not None:
                self.table_rooms.add(message.room)
            return True
        if isinstance(message, TournamentJoined) and message.tournament == self.tournament:
            self.entry, self.name = message.entry, message.name
            return True
        if isinstance(message, TournamentDone) and message.tournament == self.tournament:
            self.checking_in = self.checking_in and message.ref != "CheckIn"
            return True
        if isinstance(message, Error) and message.ref in TOURNAMENT_REFS:
            self.checking_in = False
            self.error = refusal_words(message)
            return True
        return False

    def _connection(self, event: ConnectionEvent) -> None:
        """The server closed or the connection lost is said until it is up again; the failed attempts that follow a
        closed server keep its words (why nothing happens)."""
        if event.kind == "up":
            self.connection = ""
        elif event.kind != "failed" or not self.connection:
            self.connection = connection_words(event)

    def notice(self) -> str:
        """The line over the buttons: the connection's trouble first, else the last refusal, else the latest news."""
        return self.connection or self.error or (self.news[0] if self.news else "")

    def _hear(self, update: TournamentUpdate, told: bool) -> None:
        """The organiser's decisions about him in an update - a card for his entry, his match's result overridden -
        become news (``told``: not those known before he came, on the first update)."""
        for line in update.tables:
            if self.entry in (line.home, line.away):
                self.my_tables.add((update.stage, update.round, line.table))
                self.sides[(update.stage, update.round, line.table)] = {"home": line.home_name,
                                                                        "away": line.away_name}
        heard: list[str] = []
        for card in update.cards:
            key: tuple[object, ...] = ("card", card.stage, card.round, card.entry, card.card, card.reason)
            if key in self._heard:
                continue
            self._heard.add(key)
            if card.entry == self.entry:
                heard.append(_("The organiser gave you {card} (round {n}): {reason}").format(
                    card=_(CARD_WORDS.get(card.card, card.card)), n=card.round, reason=card.reason))
        for audit in update.audit:
            key = ("audit", audit.at_ms, audit.act, audit.detail)
            if key in self._heard:
                continue
            self._heard.add(key)
            if audit.act == "override" and any(audit.detail.startswith(f"stage {s} round {r} table {t}:")
                                               for s, r, t in self.my_tables):
                where, _sep, result = audit.detail.partition(": ")
                words = where.split()
                number = words[3] if len(words) > 3 else "?"
                names = next((self.sides[t] for t in self.my_tables if where == "stage {} round {} table {}".format(
                    *t) and t in self.sides), {})
                result = " → ".join(result_words(part, names) for part in result.split(" → "))
                heard.append(_("The organiser set the result of your match of round {n}: {result} — {reason}").format(
                    n=number, result=result, reason=audit.reason))
        if told and heard:
            self.news = [*reversed(heard), *self.news][:NEWS_KEPT]
            self.fresh.extend(heard)

    def disputable(self) -> tuple[tuple[int, int, int], str] | None:
        """His decided match of the round shown, to dispute (XVII): where it is and the match in words; None when
        none of the update's tables is his and decided."""
        u = self.update
        line = next((t for t in (u.tables if u is not None else ()) if self.entry in (t.home, t.away)
                     and t.status in ("ended", "walkover")), None)
        if u is None or line is None:
            return None
        result = _("w/o") if line.walkover is not None else \
            f"{line.score.home}:{line.score.away}" if line.score is not None else "–:–"
        return ((u.stage, u.round, line.table), _("Round {round} — table {table}: {home} – {away} {result}").format(
            round=u.round, table=line.table, home=line.home_name, away=line.away_name, result=result))

    def bye_text(self) -> str:
        """His bye in the round being played, in words (empty when he plays, or it is not his)."""
        u = self.update
        if u is None or self.entry is None or self.entry not in u.byes or u.status != "playing":
            return ""
        return _("you have a bye in round {n}: a win's points without playing").format(n=u.round)

    def round_over(self, update: TournamentUpdate) -> bool:
        """True when the assigned table's round is behind the tournament, or its table is decided."""
        a = self.assignment
        if a is None:
            return False
        if (update.stage, update.round) != (a.stage, a.round):
            return True
        line = next((t for t in update.tables if t.table == a.table), None)
        return line is not None and line.status in ("ended", "walkover") and line.room in (None, a.room)

    # ----------------------------------------------------------------- what to send
    def due(self, now: float, room: str | None) -> list[ClientMessage]:
        """What to send now: the way to his table once the assignment has been read (leaving the room he is in
        first); nothing when he is there already (``room``: the room he is in)."""
        a = self.assignment
        if a is None or self.taken or a.room is None:  # a board has no room to go to
            return []
        if room == a.room:
            self.taken = True
            return []
        if now - self.assigned_at < TAKE_TO_TABLE_S:
            return []
        return self.go_to_table(room)

    def go_to_table(self, room: str | None) -> list[ClientMessage]:
        """The requests that seat him at his table now (his click, or the time is up)."""
        a = self.assignment
        if a is None or a.room is None:
            return []
        self.taken = True
        return [Leave(), JoinRoom(a.room)] if room is not None and room != a.room else [JoinRoom(a.room)]

    def check_in(self) -> ClientMessage | None:
        """Say he is here and plays (once; not for an entry that is out or no longer his)."""
        if self.checking_in or self.checked_in() or not self.may_check_in():
            return None
        self.checking_in = True
        return CheckIn(self.tournament)

    # ----------------------------------------------------------------- what to show
    def checked_in(self) -> bool:
        """True once the tournament knows he is here."""
        line = self._entry_line()
        return line is not None and line.checked_in

    def may_check_in(self) -> bool:
        """True while checking in means something: his entry is in the tournament, his, and not checked in."""
        line = self._entry_line()
        return not self.finished() and not self.checked_in() and (line is None or (line.claimed and not line.out))

    def standing(self) -> str:
        """Why he is not in the rounds, when he is not: his entry is out, or no longer his (unlinked)."""
        line = self._entry_line()
        if line is None or self.finished():
            return ""
        if line.out:
            return _("your entry {name} is out of the tournament (withdrawn or disqualified)").format(name=line.name)
        if not line.claimed:
            return _("the organiser unlinked you from {name}: enter again with your code").format(name=line.name)
        return ""

    def _entry_line(self) -> EntryLine | None:
        """His line of the entries, once an update came."""
        if self.update is None or self.entry is None:
            return None
        return next((e for e in self.update.entries if e.entry == self.entry), None)

    def finished(self) -> bool:
        """True once the tournament is over (finished, or ended by the organiser)."""
        return self.update is not None and self.update.status in ("finished", "ended")

    def phase(self, now: float) -> str:
        """``assigned`` (his table is waiting for him), ``final`` (the last standings), ``waiting`` (between rounds or
        while others play), or ``entered`` (before the first round)."""
        if self.assignment is not None and self.assignment.on_board:
            line = self.board()
            if line is None or line.status in ("board", "replay"):
                return "board"
        elif self.assignment is not None and not self.taken:
            return "assigned"
        if self.finished():
            return "final"
        if self.update is None or self.update.status == "registering":
            return "entered"
        return "waiting"

    def title(self) -> str:
        """The tournament's name (its id until the first update)."""
        return self.update.name if self.update is not None and self.update.name else self.tournament

    def state_line(self, now: float = 0.0) -> str:
        """The tournament's state with its round (and when the next starts by itself), and his own: checked in or
        not."""
        state = status_words(self.update) if self.update is not None else _("Asking the server…")
        a = self.assignment
        if a is not None and (self.update is None or self.update.round < a.round):  # his table came first
            state = _("Round {n} — {state}").format(n=a.round, state=_(TOURNAMENT_STATUS_WORDS["playing"]))
        if self.finished():
            return state
        me = self.standing() or board_entry.referee_duty(self.update, self.entry) or self.bye_text() or (
            _("you are checked in") if self.checked_in() else _("check in to be paired"))
        parts = (state, next_round_words(self.update, now - self.update_at), me)
        return "  ·  ".join(part for part in parts if part)

    def board(self) -> TableLine | None:
        """His match on a board as the update has it (None: he plays online, or the update has not come)."""
        line = board_entry.board_line(self.update, self.assignment)
        board_entry.follow(self.draft, line, self.entry)
        return line

    def enter_result(self) -> ClientMessage | None:
        """The score he entered for his board (or the confirmation of his opponent's)."""
        if self.assignment is None or not self.assignment.on_board:
            return None
        self.error = ""
        return board_entry.request(self.tournament, self.assignment, self.draft)

    def assignment_text(self) -> str:
        """"Round 3 — table 7: you play Novák (home, red)"."""
        heading, opponent = self.assignment_lines()
        return f"{heading}: {opponent}" if heading else ""

    def assignment_lines(self) -> tuple[str, str]:
        """The assignment in two lines: "Round 3 — table 7" and "you play Novák (home, red)"."""
        a = self.assignment
        if a is None:
            return ("", "")
        opponent = self.with_category(a.opponent)
        if a.on_board:
            return (board_entry.heading(a), _("you play {opponent} ({seat}, {kit})").format(
                opponent=opponent, seat=team_word(a.seat), kit=_(KIT_WORDS[a.seat])))
        return (_("Round {round} — table {table}").format(round=a.round, table=a.table),
                _("you play {opponent} ({seat}, {kit})").format(opponent=opponent, seat=team_word(a.seat),
                                                                 kit=_(KIT_WORDS[a.seat])))

    def with_category(self, name: str) -> str:
        """An entrant's name with his category beside it, where the tournament has categories."""
        categories = categories_of(self.update)
        entry = next((e.entry for e in self.update.entries if e.name == name), "") if self.update else ""
        return with_category(name, categories.get(entry, ""))

    def ruleset_text(self) -> str:
        """The table's ruleset, and when the match starts."""
        a = self.assignment
        if a is None:
            return ""
        return _("Ruleset {ruleset} — the match starts when both coaches are at the table").format(
            ruleset=ruleset_name(a.ruleset))

    def walkover_text(self, now: float) -> str:
        """The time left before a coach not at his table loses by walkover, counted down."""
        a = self.assignment
        if a is None or a.no_show_ms is None:
            return ""
        left = a.no_show_ms - int((now - self.assigned_at) * 1000)
        return _("Be at your table within {time} or lose by walkover").format(time=clock_text(left))

    def no_show_deadline(self, room: str | None) -> float | None:
        """When, on the session's clock, a coach who is not at the table in ``room`` loses by walkover (None: the
        room is not his table, or no time was told)."""
        a = self.assignment
        if a is None or room != a.room or a.no_show_ms is None:
            return None
        return self.assigned_at + a.no_show_ms / 1000

    def taking_text(self, now: float) -> str:
        """How soon he is taken to his table."""
        left = max(0.0, TAKE_TO_TABLE_S - (now - self.assigned_at))
        return _("Taking you to your table in {n} s…").format(n=int(left + 0.999))

    def rows(self) -> tuple[StandingRow, ...]:
        """The standings as drawn, with rank changes and points by round."""
        return standing_rows(self.update, self.history) if self.update is not None else ()

    def tiles(self, now: float | None = None) -> tuple[Tile, ...]:
        """The current round's tables (at ``now``, a waiting table's no-show time counted down since the update)."""
        if self.update is None:
            return ()
        return tiles_of(self.update, 0 if now is None else max(0, int((now - self.update_at) * 1000)))

    def playing_line(self) -> str:
        """Who is still playing, in words (between rounds)."""
        tiles = [t for t in self.tiles() if t.live]
        if not tiles:
            return _("No table is being played")
        return _("Still playing: {tables}").format(tables=", ".join(
            f"{t.home_name} – {t.away_name}" for t in tiles[:6]))
