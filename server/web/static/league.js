// /leagues/ID: a team league - its table (exactly `sprtec league table` of its file), then each match day's team
// matches with their team scores and, once both line-ups are in, the k x k grid of their games (A's line-up down,
// B's across; a square is A's player's goals first). Read from /api/v1/leagues/ID and its table every few seconds
// with their ETags (a 304 when nothing changed).
"use strict";

(function league() {
  const id = SUBJECT;
  const standing = el("div", {id: "table"}, el("p", {class: "empty", text: _("Loading…")}));
  const matches = el("div", {id: "fixtures"});
  const title = el("h1", {text: id});
  add(clear(main()), title, section(_("League table"), standing), section(_("Team matches"), matches));
  let names = {};
  let teams = {};

  function winner(game) { // "home", "away" or null: the side of the game that won it
    if (game.walkover) return game.walkover;
    if (!game.score || game.score[0] === game.score[1]) return null;
    return game.score[0] > game.score[1] ? "home" : "away";
  }

  function teamScore(fixture) { // games won by A (home team) and B: A's player is home in odd rounds
    let a = 0, b = 0;
    for (const g of fixture.games || []) {
      const side = winner(g);
      if (!side) continue;
      if ((side === "home") === (g.round % 2 === 1)) a += 1; else b += 1;
    }
    return [a, b];
  }

  function grid(fixture, size) {
    const home = fixture.lineups.home, away = fixture.lineups.away;
    const games = {};
    for (const g of fixture.games || []) games[`${g.home}|${g.away}`] = g;
    const rows = home.map((a, i) => el("tr", {}, el("th", {text: names[a] || a}), away.map((b, j) => {
      const round = ((j - i) % size + size) % size + 1;
      const g = round % 2 === 1 ? games[`${a}|${b}`] : games[`${b}|${a}`];
      if (!g || (!g.score && !g.walkover)) return el("td", {class: "later", text: g ? "…" : ""});
      const aHome = round % 2 === 1;
      const side = winner(g);
      const mine = side === null ? "draw" : ((side === "home") === aHome ? "won" : "lost");
      const text = g.walkover ? (mine === "won" ? _("W") : _("L")) :
        (aHome ? `${g.score[0]}:${g.score[1]}` : `${g.score[1]}:${g.score[0]}`);
      return el("td", {class: mine, title: fmt(_("round {round}"), {round}), text});
    })));
    return table([{text: ""}, ...away.map((b) => names[b] || b)], rows, {class: "grid"});
  }

  function showFile(file, status) {
    if (status === 404) { notFound(_("There is no such league on this server.")); return; }
    title.textContent = file.name || id;
    names = {};
    teams = {};
    for (const t of file.teams) { teams[t.id] = t.name; for (const p of t.players) names[p.id] = p.name; }
    clear(matches);
    const days = [...new Set(file.fixtures.map((f) => f.day))].sort((x, y) => x - y);
    for (const day of days) {
      add(matches, el("h3", {text: fmt(_("Match day {day}"), {day})}));
      for (const f of file.fixtures.filter((x) => x.day === day)) {
        const [a, b] = teamScore(f);
        const referee = f.referee_team ? ` · ${fmt(_("referee: {team}"), {team: teams[f.referee_team] || f.referee_team})}` : "";
        add(matches, el("div", {class: "fixture"},
          el("p", {class: "scoreline"}, el("b", {text: teams[f.home] || f.home}), el("b", {class: "score", text: ` ${a} : ${b} `}),
            el("b", {text: teams[f.away] || f.away}), el("small", {text: referee})),
          f.lineups && f.lineups.home && f.lineups.away ? grid(f, file.settings.team_size) : null));
      }
    }
  }

  function showTable(data, status) {
    if (status !== 200) return;
    clear(standing);
    add(standing, table(["#", _("Team"), _("Played"), _("W-D-L"), _("Games won:lost"), _("Points")],
      data.table.map((r) => el("tr", {}, el("td", {text: `${r.rank}${r.shared ? "=" : ""}`}),
        el("td", {text: teams[r.team] || r.team}), el("td", {text: String(r.played)}),
        el("td", {text: `${r.wins}-${r.draws}-${r.losses}`}), el("td", {text: `${r.games_for}:${r.games_against}`}),
        el("td", {class: "points", text: String(r.points)})))));
  }

  poll(`/api/v1/leagues/${id}`, 5000, showFile);
  poll(`/api/v1/leagues/${id}/table`, 5000, showTable);
})();
