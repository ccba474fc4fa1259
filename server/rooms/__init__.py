"""Rooms: the pure room core (``room_core``) and its thin asyncio shell (``room``), the lobby that
opens, finds and closes them, the registry of codes and queues, the physics workers, and the
rebuild of rooms from the store after a restart or a takeover.
"""
