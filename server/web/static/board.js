// The board drawn on a canvas from the server's geometry (/api/v1/board: shared.geometry, RULES.md §1), the
// bodies on it, and a move played back from its MovePlayed trajectory: keyframes interpolated at the screen's rate,
// then each of the referee's interventions shown on its body (a stone turned over, the puck put back), as the
// desktop client plays them (client/common/playback.py: 0.9 s an intervention, a 0.3 s hold).
"use strict";

const COLOURS = {
  wood: "rgb(222,190,140)", frame: "rgb(120,72,38)", frameEdge: "rgb(78,44,20)", red: "rgb(200,30,36)",
  blue: "rgb(30,80,200)", crease: "rgba(120,170,230,0.59)", goalFrame: "rgb(205,205,210)", net: "rgba(250,250,250,0.67)",
  puck: "rgb(20,20,20)", puckRim: "rgb(90,90,90)", underside: "rgb(160,128,88)", undersideRim: "rgb(96,70,40)",
  mask: "rgb(250,210,40)", warning: "rgb(255,190,60)",
  kits: {home: ["rgb(190,25,35)", "rgb(255,255,255)", "rgb(105,14,19)"], away: ["rgb(250,215,50)", "rgb(20,40,120)", "rgb(138,118,28)"]},
};
const ON_BOARD = 0, UPSIDE_DOWN = 1, OFF_BOARD = 2, ON_GOAL = 3;
const INTERVENTION_SECONDS = 0.9;
const HOLD_SECONDS = 0.3;
const MRAD_TURN = 2000 * Math.PI;

async function loadGeometry() {
  const found = await api("/api/v1/board");
  return found.data;
}

// The bodies of a position at rest: id -> {x, y, angle, state, role, team}; `angles` keeps how stones were turned.
function posesOf(position, angles) {
  const poses = {};
  for (const s of position.stones) {
    poses[s.id] = {x: s.x, y: s.y, angle: (angles && angles[s.id]) || 0, state: s.flipped ? UPSIDE_DOWN : ON_BOARD,
      role: s.role, team: s.team};
  }
  poses.puck = {x: position.puck.x, y: position.puck.y, angle: 0, state: ON_BOARD, role: "puck"};
  return poses;
}

// A MovePlayed trajectory rebuilt frame by frame (docs/PROTOCOL.md "Trajectories": second differences per body).
function decodeTrajectory(wire) {
  const count = wire.bodies.length;
  const frames = [];
  const first = Int32Array.from(wire.start);
  for (let f = 0; f < wire.n; f++) frames.push(Int32Array.from(first));
  for (const track of wire.tracks) {
    const body = track[0], start = track[1], k = (track.length - 2) / 3;
    for (let c = 0; c < 3; c++) {
      let value = wire.start[4 * body + c];
      let delta = 0;
      for (let j = 0; j < k; j++) {
        delta += track[2 + 3 * j + c];
        value += delta;
        frames[start + j][4 * body + c] = value;
      }
      for (let f = start + k; f < wire.n; f++) frames[f][4 * body + c] = value;
    }
  }
  for (const [frame, body, state] of wire.states) {
    for (let f = frame; f < wire.n; f++) frames[f][4 * body + 3] = state;
  }
  return {hz: wire.hz, bodies: wire.bodies, frames, interventions: wire.interventions || [], count};
}

function framePoses(track, index, base) {
  const i = Math.max(0, Math.min(index, track.frames.length - 1));
  const frame = track.frames[i];
  const poses = {};
  track.bodies.forEach((body, b) => {
    const known = base[body] || {};
    poses[body] = {...known, x: frame[4 * b] / 100, y: frame[4 * b + 1] / 100, angle: frame[4 * b + 2] / 1000,
      state: frame[4 * b + 3]};
  });
  return poses;
}

function interpolated(track, at, base) {
  const last = track.frames.length - 1;
  if (at <= 0 || last <= 0) return framePoses(track, at <= 0 ? 0 : last, base);
  if (at >= last) return framePoses(track, last, base);
  const k = Math.floor(at), t = at - k;
  const a = track.frames[k], b = track.frames[k + 1];
  const poses = {};
  track.bodies.forEach((body, i) => {
    const j = 4 * i;
    const known = base[body] || {};
    if (a[j + 3] !== b[j + 3]) { // flew off, landed on a goal or turned over: no sliding between two worlds
      const src = t < 0.5 ? a : b;
      poses[body] = {...known, x: src[j] / 100, y: src[j + 1] / 100, angle: src[j + 2] / 1000, state: src[j + 3]};
      return;
    }
    const turn = ((b[j + 2] - a[j + 2] + MRAD_TURN / 2) % MRAD_TURN + MRAD_TURN) % MRAD_TURN - MRAD_TURN / 2;
    poses[body] = {...known, x: (a[j] + (b[j] - a[j]) * t) / 100, y: (a[j + 1] + (b[j + 1] - a[j + 1]) * t) / 100,
      angle: (a[j + 2] + turn * t) / 1000, state: a[j + 3]};
  });
  return poses;
}

// One move on a timeline: the bodies moving, then each intervention in turn, then a short hold.
class Playback {
  constructor(wire, base, speed) {
    this.track = decodeTrajectory(wire);
    this.base = base;
    this.speed = speed || 1;
    this.moveSeconds = Math.max(0, this.track.frames.length - 1) / this.track.hz;
    this.total = this.moveSeconds + INTERVENTION_SECONDS * this.track.interventions.length + HOLD_SECONDS;
  }

  poses(t) {
    const s = Math.max(0, t * this.speed);
    const poses = {...this.base};
    if (s <= this.moveSeconds) return Object.assign(poses, interpolated(this.track, s * this.track.hz, this.base));
    Object.assign(poses, framePoses(this.track, this.track.frames.length - 1, this.base));
    const applied = Math.floor((s - this.moveSeconds) / INTERVENTION_SECONDS);
    for (const iv of this.track.interventions.slice(0, applied)) {
      const before = poses[iv.body] || this.base[iv.body] || {};
      poses[iv.body] = {...before, x: iv.x / 100, y: iv.y / 100, state: ON_BOARD};
    }
    return poses;
  }

  intervention(t) {
    const s = t * this.speed - this.moveSeconds;
    if (s < 0) return null;
    return this.track.interventions[Math.floor(s / INTERVENTION_SECONDS)] || null;
  }

  done(t) {
    return t * this.speed >= this.total;
  }

  finalAngles() {
    const poses = framePoses(this.track, this.track.frames.length - 1, this.base);
    return Object.fromEntries(Object.entries(poses).map(([id, p]) => [id, p.angle]));
  }
}

// The board and its bodies on one canvas, fitted to the canvas's width.
class BoardView {
  constructor(canvas, geometry) {
    this.canvas = canvas;
    this.g = geometry;
    this.poses = {};
    this.highlight = null;
    this.margin = geometry.board_width + 30; // room outside the boards for a puck that flew over them
    new ResizeObserver(() => this.draw(this.poses, this.highlight)).observe(canvas);
  }

  fit() {
    const g = this.g, ratio = window.devicePixelRatio || 1;
    const width = this.canvas.clientWidth || 600;
    const halfX = g.half_length + this.margin, halfY = g.half_width + this.margin;
    const height = width * halfY / halfX;
    if (this.canvas.width !== Math.round(width * ratio)) {
      this.canvas.width = Math.round(width * ratio);
      this.canvas.height = Math.round(height * ratio);
      this.canvas.style.height = `${height}px`;
    }
    this.scale = this.canvas.width / (2 * halfX);
    this.cx = this.canvas.width / 2;
    this.cy = this.canvas.height / 2;
  }

  sx(x) { return this.cx + x * this.scale; }
  sy(y) { return this.cy - y * this.scale; }

  roundedRect(ctx, hx, hy, r) {
    const x0 = this.sx(-hx), x1 = this.sx(hx), y0 = this.sy(hy), y1 = this.sy(-hy), rr = r * this.scale;
    ctx.beginPath();
    ctx.moveTo(x0 + rr, y0);
    ctx.arcTo(x1, y0, x1, y1, rr);
    ctx.arcTo(x1, y1, x0, y1, rr);
    ctx.arcTo(x0, y1, x0, y0, rr);
    ctx.arcTo(x0, y0, x1, y0, rr);
    ctx.closePath();
  }

  rect(ctx, x0, x1, y0, y1, colour) {
    ctx.fillStyle = colour;
    ctx.fillRect(this.sx(Math.min(x0, x1)), this.sy(Math.max(y0, y1)), Math.abs(x1 - x0) * this.scale, Math.abs(y1 - y0) * this.scale);
  }

  line(ctx, x0, y0, x1, y1, colour, width) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(1.5, width * this.scale);
    ctx.beginPath();
    ctx.moveTo(this.sx(x0), this.sy(y0));
    ctx.lineTo(this.sx(x1), this.sy(y1));
    ctx.stroke();
  }

  drawBoard(ctx) {
    const g = this.g;
    this.roundedRect(ctx, g.half_length + g.board_width + 3, g.half_width + g.board_width + 3, g.corner_radius + g.board_width + 3);
    ctx.fillStyle = COLOURS.frameEdge; ctx.fill();
    this.roundedRect(ctx, g.half_length + g.board_width, g.half_width + g.board_width, g.corner_radius + g.board_width);
    ctx.fillStyle = COLOURS.frame; ctx.fill();
    this.roundedRect(ctx, g.half_length, g.half_width, g.corner_radius);
    ctx.fillStyle = COLOURS.wood; ctx.fill();
    ctx.save();
    this.roundedRect(ctx, g.half_length, g.half_width, g.corner_radius);
    ctx.clip();
    for (const end of [-1, 1]) {
      const front = end * g.crease_front_x, goal = end * g.goal_line_x;
      this.rect(ctx, front, goal, -g.crease_half_width, g.crease_half_width, COLOURS.crease);
      this.rect(ctx, goal, end * g.goal_inner_back_x, -g.goal_mouth_half_width, g.goal_mouth_half_width, COLOURS.crease);
      const w = 2 * g.goal_line_half_width;
      for (const y of [-g.crease_half_width, g.crease_half_width]) this.line(ctx, front, y, goal, y, COLOURS.red, w);
      this.line(ctx, front, -g.crease_half_width, front, g.crease_half_width, COLOURS.red, w);
      this.line(ctx, goal, -g.half_width, goal, g.half_width, COLOURS.red, w);
      const aux = end * g.aux_line_x;
      this.line(ctx, aux, -g.goal_mouth_half_width, aux, g.goal_mouth_half_width, COLOURS.red, 2 * g.aux_line_half_width);
      this.rect(ctx, end * (g.blue_line_x - g.blue_line_half_width), end * (g.blue_line_x + g.blue_line_half_width),
        -g.half_width, g.half_width, COLOURS.blue);
    }
    this.rect(ctx, -g.centre_line_half_width, g.centre_line_half_width, -g.half_width, g.half_width, COLOURS.red);
    ctx.restore();
    ctx.strokeStyle = COLOURS.red;
    ctx.lineWidth = Math.max(1.5, 2 * g.circle_line_half_width * this.scale);
    ctx.beginPath(); ctx.arc(this.sx(0), this.sy(0), g.centre_circle_radius * this.scale, 0, 2 * Math.PI); ctx.stroke();
    ctx.fillStyle = COLOURS.red;
    ctx.beginPath(); ctx.arc(this.sx(0), this.sy(0), 7 * this.scale, 0, 2 * Math.PI); ctx.fill();
    for (const [x, y] of g.faceoff_spots) {
      ctx.beginPath(); ctx.arc(this.sx(x), this.sy(y), Math.max(2, 4 * this.scale), 0, 2 * Math.PI); ctx.fill();
    }
    const [hx, hy] = g.half_circle_centre;
    ctx.lineWidth = Math.max(1.5, 2 * this.scale);
    ctx.beginPath(); ctx.arc(this.sx(hx), this.sy(hy), g.half_circle_radius * this.scale, Math.PI, 2 * Math.PI); ctx.stroke();
    this.drawGoals(ctx);
  }

  drawGoals(ctx) {
    const g = this.g, tube = g.goal_frame_tube, mouth = g.goal_mouth_half_width;
    for (const end of [-1, 1]) {
      const goal = end * g.goal_line_x, net = end * g.goal_inner_back_x, back = end * g.goal_outer_back_x;
      for (let i = 0; i <= 8; i++) {
        const y = -mouth + 2 * mouth * i / 8;
        ctx.strokeStyle = COLOURS.net; ctx.lineWidth = 1;
        ctx.beginPath(); ctx.moveTo(this.sx(goal), this.sy(y)); ctx.lineTo(this.sx(net), this.sy(y)); ctx.stroke();
      }
      this.rect(ctx, net, back, -mouth - tube, mouth + tube, COLOURS.net);
      for (const sign of [-1, 1]) this.rect(ctx, goal, back, sign * mouth, sign * (mouth + tube), COLOURS.goalFrame);
      this.rect(ctx, back - end * tube, back, -mouth - tube, mouth + tube, COLOURS.goalFrame);
    }
  }

  drawStone(ctx, id, pose, radius) {
    const x = this.sx(pose.x), y = this.sy(pose.y), r = radius * this.scale;
    ctx.fillStyle = "rgba(0,0,0,0.27)";
    ctx.beginPath(); ctx.arc(x + r * 0.12, y + r * 0.16, r, 0, 2 * Math.PI); ctx.fill();
    if (pose.state === UPSIDE_DOWN) {
      ctx.fillStyle = COLOURS.underside;
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
      ctx.strokeStyle = COLOURS.undersideRim;
      for (const [k, w] of [[1, 0.12], [0.62, 0.08], [0.3, 0.06]]) {
        ctx.lineWidth = Math.max(1, r * w);
        ctx.beginPath(); ctx.arc(x, y, r * k, 0, 2 * Math.PI); ctx.stroke();
      }
      return;
    }
    const team = pose.team || (id[0] === "h" ? "home" : "away");
    const [jersey, ink, rim] = COLOURS.kits[team];
    ctx.fillStyle = jersey;
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
    ctx.strokeStyle = rim; ctx.lineWidth = Math.max(1, r * 0.14);
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.stroke();
    if (pose.role === "goalie") {
      ctx.strokeStyle = COLOURS.mask; ctx.lineWidth = Math.max(1.5, r * 0.2);
      ctx.beginPath(); ctx.arc(x, y, r * 0.72, 0, 2 * Math.PI); ctx.stroke();
    }
    const nx = Math.cos(pose.angle), ny = -Math.sin(pose.angle);
    ctx.strokeStyle = ink; ctx.lineWidth = Math.max(1, r * 0.12);
    ctx.beginPath(); ctx.moveTo(x + nx * r * 0.78, y + ny * r * 0.78); ctx.lineTo(x + nx * r, y + ny * r); ctx.stroke();
    ctx.fillStyle = ink;
    ctx.font = `bold ${Math.max(6, r * 0.95)}px sans-serif`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(id.slice(1), x, y + r * 0.05);
  }

  drawPuck(ctx, pose, radius) {
    const g = this.g;
    let px = pose.x, py = pose.y;
    if (pose.state === OFF_BOARD) { // outside the boards, faded, where it flew
      const reach = g.board_width + radius + 4;
      px = Math.max(-g.half_length - reach, Math.min(g.half_length + reach, px));
      py = Math.max(-g.half_width - reach, Math.min(g.half_width + reach, py));
      if (Math.abs(px) < g.half_length + reach && Math.abs(py) < g.half_width + reach) {
        if (g.half_length - Math.abs(px) < g.half_width - Math.abs(py)) px = Math.sign(px || 1) * (g.half_length + reach);
        else py = Math.sign(py || 1) * (g.half_width + reach);
      }
      ctx.globalAlpha = 0.45;
    }
    let x = this.sx(px), y = this.sy(py), r = radius * this.scale;
    if (pose.state === ON_GOAL) {
      ctx.fillStyle = "rgba(0,0,0,0.35)";
      ctx.beginPath(); ctx.arc(x + r * 0.5, y + r * 0.7, r, 0, 2 * Math.PI); ctx.fill();
      r *= 1.2; y -= 3 * this.scale;
    }
    ctx.strokeStyle = "rgba(255,255,255,0.6)"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(x, y, r + 4, 0, 2 * Math.PI); ctx.stroke();
    ctx.fillStyle = COLOURS.puck;
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
    ctx.strokeStyle = COLOURS.puckRim; ctx.lineWidth = Math.max(1, r * 0.18);
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.stroke();
    ctx.globalAlpha = 1;
  }

  // Everything: the board, the stones (the excluded ones are not on the board), the puck, and the body the
  // referee is handling ringed.
  draw(poses, highlight, radii) {
    this.poses = poses;
    this.highlight = highlight || null;
    if (radii) this.radii = radii;
    const stone = (this.radii && this.radii.stone) || this.g.stone_radius;
    const puck = (this.radii && this.radii.puck) || this.g.puck_radius;
    this.fit();
    const ctx = this.canvas.getContext("2d");
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.drawBoard(ctx);
    for (const [id, pose] of Object.entries(poses)) {
      if (id !== "puck" && pose.state !== OFF_BOARD) this.drawStone(ctx, id, pose, stone);
    }
    if (poses.puck) this.drawPuck(ctx, poses.puck, puck);
    if (this.highlight && poses[this.highlight.body]) {
      const p = poses[this.highlight.body];
      ctx.strokeStyle = COLOURS.warning; ctx.lineWidth = 3; ctx.setLineDash([6, 4]);
      ctx.beginPath(); ctx.arc(this.sx(p.x), this.sy(p.y), (this.highlight.body === "puck" ? puck : stone) * this.scale + 8, 0, 2 * Math.PI);
      ctx.stroke(); ctx.setLineDash([]);
    }
  }
}

// Plays moves one after another on a BoardView: queue(move) with a MovePlayed (its trajectory, then its final
// position); a move without physics just takes its position. `onShown(move)` when a move has been shown.
class MovePlayer {
  constructor(view, onShown) {
    this.view = view;
    this.onShown = onShown || (() => {});
    this.queue = [];
    this.current = null;
    this.angles = {};
    this.position = null;
    this.speed = 1;
    this.tick = this.tick.bind(this);
  }

  radii() {
    const s = this.position && this.position.settings;
    return {stone: s && s.stone_radius, puck: s && s.puck_radius};
  }

  show(position) { // a position at rest, at once (a Snapshot, a replay's step back)
    this.queue = [];
    this.current = null;
    this.position = position;
    this.view.draw(posesOf(position, this.angles), null, this.radii());
  }

  play(move) {
    this.queue.push(move);
    if (!this.current) this.next();
  }

  next() {
    const move = this.queue.shift();
    if (!move) { this.current = null; return; }
    if (!move.trajectory || !this.position) {
      this.position = move.position;
      this.view.draw(posesOf(move.position, this.angles), null, this.radii());
      this.onShown(move);
      this.next();
      return;
    }
    const speed = this.queue.length > 2 ? 4 : this.speed; // a late or slow tab catches up
    this.current = {move, playback: new Playback(move.trajectory, posesOf(this.position, this.angles), speed), began: performance.now()};
    requestAnimationFrame(this.tick);
  }

  tick(now) {
    if (!this.current) return;
    const {move, playback, began} = this.current;
    const t = (now - began) / 1000;
    if (playback.done(t)) {
      this.angles = {...this.angles, ...playback.finalAngles()};
      this.position = move.position;
      this.view.draw(posesOf(move.position, this.angles), null, this.radii());
      this.current = null;
      this.onShown(move);
      this.next();
      return;
    }
    this.view.draw(playback.poses(t), playback.intervention(t), this.radii());
    requestAnimationFrame(this.tick);
  }

  idle() {
    return !this.current && this.queue.length === 0;
  }
}

// What the page shows now, for anyone who checks it (the browser tests): the position drawn at rest.
window.sprtec = {player: null, shown: () => (window.sprtec.player && window.sprtec.player.position)};
