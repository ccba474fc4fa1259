"""The player's application (``sprtec play``): the lobby and its pages, results, profiles,
the tournament pages, the bot as an opponent; ``navigator`` is its controller.
"""
