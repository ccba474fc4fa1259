// The parts of a match screen that the live match and the replay share: the scoreboard, the clocks and the move
// list with the referee's rulings in words.
"use strict";

function actionWords(move, names) {
  const a = move.action;
  if (!a) return fmt(_("{team}: the referee's call"), {team: teamName(move.team, names)});
  if (a.action === "flick") {
    const speed = Math.round(Math.hypot(a.vx, a.vy));
    return fmt(_("{team}: {stone} flicked at {speed} mm/s"), {team: teamName(a.team, names), stone: a.stone, speed});
  }
  return fmt(_("{team}: {action}"), {team: teamName(a.team, names), action: String(a.action).replace(/_/g, " ")});
}

// The move list: one line per move, its rulings under it; newest at the top. `onPick(i)` makes lines links.
class MoveList {
  constructor(node, onPick) {
    this.node = node;
    this.onPick = onPick;
    this.moves = [];
    this.names = {};
    this.moveClockMs = 30000;
  }

  set(moves) {
    this.moves = moves.slice();
    this.render();
  }

  add(move) {
    this.moves.push(move);
    this.render();
  }

  render(current) {
    clear(this.node);
    const items = this.moves.map((move, i) => {
      const rulings = move.decisions.map((d) => el("li", {class: `ruling ${d.code.toLowerCase()}`, text: rulingText(d, this.names, this.moveClockMs)}));
      const head = this.onPick ? el("a", {href: "#", text: actionWords(move, this.names), onclick: (e) => { e.preventDefault(); this.onPick(i + 1); }})
        : actionWords(move, this.names);
      return el("li", {class: i + 1 === current ? "move current" : "move", "data-version": move.version},
        el("span", {class: "number", text: `${i + 1}.`}), head, rulings.length ? el("ul", {}, rulings) : null);
    });
    add(this.node, el("ol", {reversed: true}, items.reverse()));
  }
}

// The scoreboard: both coaches with their ratings, the score, the part and its time left, who is to move.
class Scoreboard {
  constructor(node) {
    this.node = node;
    this.seats = {home: null, away: null};
    this.names = {};
    this.position = null;
    this.clocks = null;
    this.clocksAt = performance.now();
    this.frozen = false;
    this.build();
    setInterval(() => this.tickClocks(), 250);
  }

  build() {
    this.home = el("span", {class: "coach home"});
    this.away = el("span", {class: "coach away"});
    this.score = el("span", {class: "score", text: "0 : 0"});
    this.part = el("span", {class: "part"});
    this.time = el("span", {class: "time"});
    this.move = el("span", {class: "to-move"});
    add(clear(this.node), el("div", {class: "scoreline"}, this.home, this.score, this.away),
      el("div", {class: "clockline"}, this.part, this.time, this.move));
  }

  setSeats(seats) {
    this.seats = seats || {home: null, away: null};
    for (const team of ["home", "away"]) {
      const seat = this.seats[team];
      if (seat) this.names[team] = seat.name;
      const node = team === "home" ? this.home : this.away;
      add(clear(node), el("span", {class: "kit"}), el("b", {text: seat ? seat.name : teamName(team)}),
        seat && rating(seat) ? el("small", {text: ` ${rating(seat)}`}) : null,
        seat && seat.connected === false ? el("small", {class: "away-flag", text: ` ${_("disconnected")}`}) : null);
    }
  }

  setNames(names) {
    this.names = {...names};
    this.setSeats({home: names.home ? {name: names.home} : null, away: names.away ? {name: names.away} : null});
  }

  setPosition(position) {
    this.position = position;
    this.score.textContent = `${position.score.home} : ${position.score.away}`;
    this.part.textContent = partName(position.part);
  }

  setClocks(clocks) {
    this.clocks = clocks;
    this.clocksAt = performance.now();
    this.tickClocks();
  }

  freeze(on) { // the clocks wait while a move is played back (D3)
    if (!on && this.frozen) this.clocksAt = performance.now();
    this.frozen = on;
  }

  tickClocks() {
    if (!this.clocks) return;
    const running = !this.clocks.paused && !this.frozen && !(this.position && this.position.result);
    const gone = running ? performance.now() - this.clocksAt : 0;
    this.time.textContent = clock(this.clocks.part_ms - gone);
    this.move.textContent = this.position && this.position.result ? "" :
      fmt(_("{team} to move"), {team: teamName(this.clocks.to_move, this.names)}) +
      (this.clocks.move_ms ? ` · ${clock(this.clocks.move_ms - gone)}` : "");
  }
}

// The match screen's frame: scoreboard above the board, the latest ruling under it, the move list beside it.
function matchScreen() {
  const scoreboard = el("div", {class: "scoreboard"});
  const canvas = el("canvas", {class: "board", id: "board"});
  const banner = el("p", {class: "banner", id: "banner"});
  const status = el("p", {class: "status", id: "status"});
  const moves = el("div", {class: "moves", id: "moves"});
  const controls = el("div", {class: "controls", id: "controls"});
  add(clear(main()), el("div", {class: "match"}, el("div", {class: "stage"}, scoreboard, canvas, banner, controls, status),
    el("aside", {class: "side"}, el("h2", {text: _("Moves and rulings")}), moves)));
  return {scoreboard, canvas, banner, status, moves, controls};
}
