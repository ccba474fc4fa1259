"""The desk's Czech Cup part and its round tools: an entry's year of birth, sex and veteran mark on the registration
form, the final ranking with a view per category, and the acts on a round whose matches have not begun - taking it
back, swapping two of its players (pure: no arcade).

Why apart from ``desk_model``: these screens read the tournament as the server tells it (the ranking, the round's
tables) and give one request each, confirmed first like every act of the desk; the model dispatches its screens and
commands here, so each part stays small enough to read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from client.common.i18n import _
from client.common.menu import Item
from client.common.ranking_model import RankingRow, category_name, ranking_categories, ranking_rows
from shared.protocol import SwapEntries, TakeBackRound, TournamentUpdate
from shared.tournament.categories import category_of
from shared.tournament.model import Player, Sex

if TYPE_CHECKING:
    from client.desk.desk_model import DeskModel, Pending

SEXES: tuple[str | None, ...] = (None, "m", "f")
BORN_DIGITS = 4
RANKING_ROWS = 14  # lines of the ranking a page of the desk shows (a field of 40 in three pages)


def sex_text(sex: str | None) -> str:
    """The registration form's sex as shown."""
    return {None: _("not given"), "m": _("man"), "f": _("woman")}[sex]


def register_items(model: DeskModel) -> list[Item]:
    """The Czech Cup's fields of the registration form: year of birth, sex, veteran (the category follows)."""
    return [model._input("born", _("Year of birth: {value}"),
                         _("Four digits, e.g. 2011: the category follows from it")),
            Item(_("Sex: {value}").format(value=sex_text(model.form["sex"])), "cycle:sex", "choice",
                 _("Women play in category L"), group="cup-row"),
            Item(_("Veteran: {value}").format(value=_("yes") if model.form["veteran"] else _("no")), "cycle:veteran",
                 "choice", _("Veterans play in category V"), group="cup-row"),
            *([Item(preview, "none", "text")] if (preview := category_preview(model)) else [])]


def category_preview(model: DeskModel) -> str:
    """The category the form's fields give in the tournament's season (TOURNAMENT.md "Categories"), in words; ""
    when the tournament has no season."""
    update = model.update
    if update is None or update.season is None:
        return ""
    form = model.form
    born = int(form["born"]) if form["born"].isdigit() and len(form["born"]) == BORN_DIGITS else None
    player = Player(id="x", name="x", category=form["category"].strip(), year_of_birth=born,
                    sex=cast(Sex | None, form["sex"]), veteran=bool(form["veteran"]))
    code = category_of(player, update.season)
    shown = category_name(code) if code != "?" else _("not known yet (give the year of birth)")
    return _("Czech Cup category in {season}: {category}").format(season=update.season, category=shown)


def born_ok(text: str, this_year: int) -> bool:
    """An empty year of birth, or four digits of a year not in the future."""
    return text == "" or (len(text) == BORN_DIGITS and text.isdigit() and 1900 <= int(text) <= this_year)


def ranking_items(model: DeskModel) -> list[Item]:
    """The ranking is drawn above; here a button per view: the whole field, then each category."""
    update = model.update
    if update is None or not update.ranking:
        return [Item(_("Nobody is ranked before the first round is finished"), "none", "text"),
                Item(_("Back"), "back")]
    chosen = model.form["view"]
    found = [Item(_("Everybody") + ("  ✓" if not chosen else ""), "view:", group="views")]
    for code in ranking_categories(update):
        found.append(Item(code + ("  ✓" if chosen == code else ""), f"view:{code}", group="views",
                          hint=category_name(code)))
    found += model._pager(len(ranking_rows(update, chosen)), RANKING_ROWS)
    found.append(Item(_("Back"), "back"))
    return found


def ranking_page(model: DeskModel) -> tuple[RankingRow, ...]:
    """The ranking's lines on the page shown: the view chosen, a page of RANKING_ROWS at a time."""
    rows = ranking_rows(model.update, model.form["view"])
    return rows[model.page * RANKING_ROWS:(model.page + 1) * RANKING_ROWS]


def round_entries(update: TournamentUpdate | None) -> list[str]:
    """The entries of the round being played, table by table (home, away), then those with a bye."""
    if update is None:
        return []
    found: list[str] = []
    for line in sorted(update.tables, key=lambda t: t.table):
        found += [line.home, line.away]
    return found + list(update.byes)


def round_untouched(update: TournamentUpdate | None) -> bool:
    """True while a round is paired and no table's match has begun or ended (the server checks it again: a walkover
    may be a result)."""
    return update is not None and update.round > 0 and update.status == "playing" and all(
        t.status in ("waiting", "walkover") and t.score is None for t in update.tables)


def round_items(model: DeskModel) -> list[Item]:
    """The round's tools: take the round back, or swap two of its players, with a reason."""
    update = model.update
    on = round_untouched(update) and model.running()
    entries = round_entries(update)
    number = update.round if update is not None else 0
    found = [Item(_("Only while none of the round's matches has begun: its tables close"), "none", "text")]
    if entries:
        found.append(Item(_("First: {value}").format(value=model.entry_label(entries[model.form["first"] %
                                                                                   len(entries)])),
                          "cycle:first", "choice", _("The player who moves"), group="swap-row"))
        found.append(Item(_("Second: {value}").format(value=model.entry_label(entries[model.form["second"] %
                                                                                     len(entries)])),
                          "cycle:second", "choice", _("The player he changes places with"), group="swap-row"))
    found.append(model._input("reason", _("Reason: {value}"), _("Why: it is kept in the audit log")))
    ready = on and bool(model.form["reason"].strip())
    found.append(Item(_("Swap the two players"), "swap", enabled=ready and len(entries) >= 2, group="acts"))
    found.append(Item(_("Take back round {n}").format(n=number), "take-back", enabled=ready, group="acts",
                      hint=_("The round goes; Start round pairs it again")))
    found.append(Item(_("Back"), "back"))
    return found


def cycle(model: DeskModel, key: str, step: int) -> bool:
    """←/→ on one of this module's choices (False: not one of them)."""
    form = model.form
    if key == "sex":
        form["sex"] = SEXES[(SEXES.index(form["sex"]) + step) % len(SEXES)]
    elif key == "veteran":
        form["veteran"] = not form["veteran"]
    elif key in ("first", "second"):
        form[key] = (form[key] + step) % max(1, len(round_entries(model.update)))
    else:
        return False
    return True


def act(model: DeskModel, verb: str, cannot: str) -> Pending | None:
    """Taking the round back or swapping two players, in words (None: not one of these acts)."""
    from client.desk.desk_model import Pending

    update = model.update
    tid, secret = model.tournament or "", model.secret or ""
    reason = model.form["reason"].strip()
    if verb == "take-back" and update is not None:
        return Pending(_("Take back round {n}? Its tables close and its pairing goes; Start round pairs it again. "
                         "Reason: {reason}").format(n=update.round, reason=reason), cannot,
                       TakeBackRound(tournament=tid, secret=secret, reason=reason, stage=update.stage,
                                     round=update.round))
    if verb == "swap":
        entries = round_entries(update)
        if len(entries) < 2:
            return None
        first, second = entries[model.form["first"] % len(entries)], entries[model.form["second"] % len(entries)]
        if first == second:
            model.error = _("Choose two different players")
            return None
        return Pending(_("Swap {first} and {second} in this round? Each takes the other's place; their tables open "
                         "again. Reason: {reason}").format(first=model.entry_label(first),
                                                           second=model.entry_label(second), reason=reason),
                       _("Can be undone by swapping them back before the matches begin."),
                       SwapEntries(tournament=tid, secret=secret, first=first, second=second, reason=reason))
    return None
