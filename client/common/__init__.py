"""What every application of the client uses: the window, the network thread, translations,
painting the board, menus and text, identity and settings, sounds, tournament tables.
"""
