"""The discipline ledger: cards counted across the whole tournament and the suspensions they bring.

Why a ledger folded round by round: a suspension is "for his next match", which depends on the rounds that
follow the card, so the engine walks the tournament in order (``course``) and, per round, first lets the
players who have a suspension pending serve it, then adds that round's cards. The rules (TOURNAMENT.md
"Discipline", from the futsal sheets):

- a red card suspends the player for his next match;
- ``yellows_for_suspension`` yellows accumulated in the tournament suspend him for his next match, and the
  count starts again; with ``two_yellows_in_a_match_is_red`` a further yellow in the same match is a red
  (counted as a red, not as a yellow);
- suspensions add up (a red and a third yellow in one match: two matches);
- ``disqualified`` withdraws him from the rest of the tournament after that round; his results stay.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from shared.tournament.model import Card, TournamentSettings


@dataclass(frozen=True, kw_only=True, slots=True)
class CardRecord:
    """One player's line of the ledger."""

    yellow: int = 0
    red: int = 0
    yellows_toward_suspension: int = 0
    pending: int = 0
    disqualified_at: tuple[int, int] | None = None


_CLEAN = CardRecord()


@dataclass(frozen=True, kw_only=True, slots=True)
class Ledger:
    """Every player's cards and pending suspensions at one moment of the tournament (players without cards
    are not stored)."""

    records: Mapping[str, CardRecord] = field(default_factory=lambda: MappingProxyType({}))

    def of(self, player: str) -> CardRecord:
        """The player's line (a clean one when he has had no card)."""
        return self.records.get(player, _CLEAN)

    def suspended_next(self, player: str) -> bool:
        """True when the player has a suspension still to serve."""
        return self.of(player).pending > 0

    def serve(self, player: str) -> Ledger:
        """The ledger after the player has sat out one match of a suspension."""
        record = self.of(player)
        return self._with(player, replace(record, pending=record.pending - 1))

    def add_cards(self, cards: Iterable[Card], settings: TournamentSettings) -> Ledger:
        """The ledger after the cards of one round (in the order they were given)."""
        records = dict(self.records)
        yellows_this_match: dict[str, int] = {}
        for card in cards:
            record = records.get(card.player, _CLEAN)
            if card.card == "disqualified":
                record = replace(record, disqualified_at=(card.stage, card.round))
            elif card.card == "red":
                record = replace(record, red=record.red + 1, pending=record.pending + 1)
            else:
                earlier = yellows_this_match.get(card.player, 0)
                yellows_this_match[card.player] = earlier + 1
                if settings.two_yellows_in_a_match_is_red and earlier >= 1:
                    record = replace(record, red=record.red + 1, pending=record.pending + 1)
                else:
                    count = record.yellows_toward_suspension + 1
                    suspended = count >= settings.yellows_for_suspension
                    record = replace(
                        record,
                        yellow=record.yellow + 1,
                        yellows_toward_suspension=0 if suspended else count,
                        pending=record.pending + (1 if suspended else 0),
                    )
            records[card.player] = record
        return Ledger(records=MappingProxyType(records))

    def _with(self, player: str, record: CardRecord) -> Ledger:
        """A copy with one line changed."""
        records = dict(self.records)
        records[player] = record
        return Ledger(records=MappingProxyType(records))
