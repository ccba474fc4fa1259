"""The names a player reads for what the protocol names by id: a ruleset (``standard``, ``ko``, ``quick``…) and a
bot's display name (``bot (medium) K7QZP3``), in his language (pure: no arcade).

Why: the server speaks ids and names as it keeps them; a Czech or Polish player should read "rychlá" or "bot
(střední)", never a raw id, wherever the lobby, the room list, the tournament screen or the HUD show them.
"""

from __future__ import annotations

import re

from client.common.i18n import N_, _

RULESET_NAMES = {"standard": N_("standard"), "ko": N_("knockout"), "final": N_("final"), "strict": N_("strict"),
                 "quick": N_("quick")}
BOT_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
BOT_NAME = re.compile(r"^bot \((easy|medium|hard)\)( \S+)?$")  # client.player.bot_process.bot_name


def ruleset_name(ruleset: str) -> str:
    """A ruleset's name in the player's language (an id this client does not know stays as it is)."""
    return _(RULESET_NAMES[ruleset]) if ruleset in RULESET_NAMES else ruleset


def shown_name(name: str) -> str:
    """A coach's name as shown: a bot's level in the player's language ("bot (střední) K7QZP3"), anyone else's
    as it is."""
    found = BOT_NAME.match(name)
    if found is None:
        return name
    level, rest = found.group(1), found.group(2) or ""
    return _("bot ({level})").format(level=_(BOT_LEVELS[level])) + rest
