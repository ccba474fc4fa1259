"""The match screen, for a coach and a spectator: state, playback, HUD, move list, chat, aiming,
choices, placement, and replays of finished matches.
"""
