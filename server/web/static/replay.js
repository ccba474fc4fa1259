// /replays/MATCH: a finished match replayed from its moves (/api/v1/matches/ID/moves: each move the MovePlayed
// its room broadcast): step forward and back, jump to any move, or let it play.
"use strict";

(async function replay() {
  const id = SUBJECT.toLowerCase();
  const [geometry, found] = await Promise.all([loadGeometry(), api(`/api/v1/matches/${encodeURIComponent(id)}/moves`)]);
  if (found.status !== 200) {
    notFound(found.status === 403 ? _("This match is still being played: watch it live.") : fmt(_("No match {id} on this server."), {id}));
    return;
  }
  const data = found.data;
  const screen = matchScreen();
  const board = new BoardView(screen.canvas, geometry);
  const scores = new Scoreboard(screen.scoreboard);
  scores.setNames(data.players);
  let index = 0; // moves shown so far
  let playing = false;
  const list = new MoveList(screen.moves, (i) => { stop(); go(i); });
  list.names = scores.names;
  const player = new MovePlayer(board, (move) => {
    scores.setPosition(move.position);
    scores.setClocks(move.clocks);
    screen.banner.textContent = headline(move.decisions, scores.names, list.moveClockMs) || "";
    counter();
    if (playing) setTimeout(() => { if (playing) forward(); }, 400);
  });
  window.sprtec.player = player;
  window.sprtec.index = () => index;

  function positionAt(i) {
    return i === 0 ? data.start : data.moves[i - 1].position;
  }

  function counter() {
    screen.status.textContent = fmt(_("Move {n} of {total}"), {n: index, total: data.moves.length});
    list.render(index);
  }

  function go(i) { // straight to the position after move i
    index = Math.max(0, Math.min(i, data.moves.length));
    const position = positionAt(index);
    player.show(position);
    scores.setPosition(position);
    scores.setClocks(index ? data.moves[index - 1].clocks : {part_ms: data.start.part.clock_ms, move_ms: 0, to_move: data.start.to_move, paused: true});
    screen.banner.textContent = index ? headline(data.moves[index - 1].decisions, scores.names) || "" : "";
    counter();
  }

  function forward() { // play the next move back
    if (index >= data.moves.length) { stop(); return; }
    if (!player.idle()) return;
    player.position = positionAt(index);
    index += 1;
    player.play(data.moves[index - 1]);
  }

  function stop() {
    playing = false;
    play.textContent = "▶";
  }

  const button = (label, title, action) => el("button", {type: "button", title, "aria-label": title, text: label, onclick: action});
  const play = button("▶", _("Play"), () => {
    playing = !playing;
    play.textContent = playing ? "⏸" : "▶";
    if (playing) forward();
  });
  add(screen.controls, button("⏮", _("Start"), () => { stop(); go(0); }),
    button("◀", _("Back"), () => { stop(); go(index - 1); }), play,
    button("▶|", _("Next move"), () => { stop(); forward(); }),
    button("⏭", _("End"), () => { stop(); go(data.moves.length); }));
  screen.controls.querySelector("button:nth-child(4)").id = "next";
  play.id = "play";
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") { stop(); forward(); }
    if (event.key === "ArrowLeft") { stop(); go(index - 1); }
  });
  list.set(data.moves);
  go(0);
})();
