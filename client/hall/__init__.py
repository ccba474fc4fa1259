"""The spectators' hall of a tournament (``sprtec hall``): its cycle of pages and ``hall_director``,
its controller.
"""
