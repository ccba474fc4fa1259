"""sprtec on the web: the read API (/api/v1/...), the spectators' pages and their static files.

Why on the game's port: one address to type or scan (http://HOST:PORT/ for people, ws://HOST:PORT/ for clients).
Every request reaches websockets' ``process_request`` hook before the handshake (``server.web.routes``); the
operators' paths are answered first from their own table (``server.ops.http_endpoints``), a websocket upgrade goes
on to the game, and every other GET is answered here. Everything here is read-only: a spectator's page reads what
the server already keeps, the live parts come through the game's own websocket (a browser is a spectator like the
desktop client) or the API's ETags.
"""
