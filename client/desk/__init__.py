"""The organiser's desk (``sprtec organise``): its model, its screens, and ``desk_window``, its
controller, which also reads the server's data beside it for exports.
"""
