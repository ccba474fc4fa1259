// /watch/ROOM: a match watched live through the game's websocket (Watch, then every MovePlayed the room
// broadcasts, each played back from its trajectory); a late arrival gets the moves so far from the API.
"use strict";

(async function watch() {
  const code = SUBJECT.toUpperCase();
  const geometry = await loadGeometry();
  const screen = matchScreen();
  const board = new BoardView(screen.canvas, geometry);
  const scores = new Scoreboard(screen.scoreboard);
  const list = new MoveList(screen.moves);
  let version = -1;
  let matchId = null;
  const player = new MovePlayer(board, (move) => {
    scores.setPosition(move.position);
    const words = headline(move.decisions, scores.names, list.moveClockMs);
    if (words) screen.banner.textContent = words;
    if (player.idle()) scores.freeze(false);
  });
  window.sprtec.player = player;
  window.sprtec.version = () => version;

  async function history(snapshot) {
    const found = await api(`/api/v1/rooms/${encodeURIComponent(code)}/moves`);
    if (found.status !== 200 || found.data.match_id !== snapshot.match_id) return;
    const before = found.data.moves.filter((m) => m.version <= snapshot.version);
    const later = list.moves.filter((m) => m.version > snapshot.version);
    list.set([...before, ...later]);
  }

  function joined(snapshot) {
    version = snapshot.version;
    matchId = snapshot.match_id;
    const overrides = snapshot.position.settings || {};
    if (overrides.move_clock_ms !== undefined) list.moveClockMs = overrides.move_clock_ms;
    scores.setSeats(snapshot.seats);
    list.names = scores.names;
    scores.setPosition(snapshot.position);
    scores.setClocks(snapshot.clocks);
    player.show(snapshot.position);
    screen.banner.textContent = snapshot.position.result ? headline([{code: "MATCH_ENDED", ...snapshot.position.result}], scores.names) || "" : "";
    list.set([]);
    history(snapshot);
  }

  const live = new Live((connection) => connection.send({t: "Watch", code}), (message, connection) => {
    switch (message.t) {
      case "RoomJoined":
        joined(message.snapshot);
        break;
      case "Snapshot":
        if (message.match_id !== matchId || message.version > version) joined(message);
        break;
      case "MovePlayed":
        if (message.version <= version) break;
        if (message.version > version + 1) { // a gap: ask for what was missed
          connection.send({t: "Resync", code, since_version: version});
          break;
        }
        version = message.version;
        list.add(message);
        scores.freeze(true);
        scores.setClocks(message.clocks);
        player.play(message);
        break;
      case "ClockUpdate":
        scores.setClocks(message.clocks);
        break;
      case "Presence":
        scores.setSeats(message.seats);
        list.names = scores.names;
        break;
      case "MatchEnded":
        screen.status.textContent = fmt(_("Match over: {home} {score} {away}"), {home: teamName("home", scores.names),
          away: teamName("away", scores.names), score: `${message.score.home} : ${message.score.away}`});
        add(screen.status, " ", el("a", {href: `/replays/${message.match_id}`, text: _("Replay")}));
        break;
      case "Error":
        if (message.code === "ROOM_NOT_FOUND") notFound(fmt(_("No room {code} is open on this server."), {code}));
        break;
      default:
        break;
    }
  }, (state) => { document.body.dataset.live = state; });
  window.sprtec.live = live;
})();
