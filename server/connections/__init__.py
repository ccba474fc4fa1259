"""One websocket connection at a time: the handshake, the rate limit, the requests routed to
the lobby, the rooms and the services, and the quick end of an abusive connection.
"""
