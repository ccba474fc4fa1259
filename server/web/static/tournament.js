// /tournaments/ID: a tournament followed live through the game's websocket (WatchTournament: a TournamentUpdate
// on every change) - the current round's tables with live scores and a link to watch each, the standings with the
// stage system's tie-break columns, the bracket, the entries, cards and suspensions, cases, and the audit of
// rulings; a player finds his own line by his name.
"use strict";

(function tournament() {
  const id = SUBJECT.toUpperCase();
  const STATES = {registering: _("registration"), playing: _("round being played"), between: _("between rounds"),
    finished: _("finished"), ended: _("ended by the organiser")};
  const TIEBREAKS = {buchholz: _("Buchholz"), goals_capped: _("Capped goals"), buchholz2: _("Buchholz of Buchholz"),
    mini_points: _("Mini-table points"), goal_difference: _("Goal difference"), goals_for: _("Goals scored"),
    reached: _("Round reached")};
  const CARDS = {yellow: _("yellow card"), red: _("red card"), disqualified: _("disqualified")};
  const KINDS = {match: "", final: _("final"), third_place: _("match for third place")};
  const ACTS = {create: _("created"), register: _("registered"), claim: _("entry claimed"), "check-in": _("checked in"),
    withdraw: _("withdrawn"), "start round": _("round started"), walkover: _("walkover"), override: _("result overridden"),
    "yellow card": _("yellow card"), "red card": _("red card"), "disqualified card": _("disqualified"),
    "auto-start": _("rounds start by themselves"), dispute: _("dispute filed"), ruling: _("ruling"),
    "propose correction": _("correction proposed"), "agree correction": _("correction agreed"), end: _("tournament ended"),
    "take back round": _("round taken back"), swap: _("players swapped")};
  let update = null;
  let receivedAt = 0;
  let mine = localStorage.getItem("sprtec_mine") || "";

  const head = el("div", {class: "tournament-head"});
  const find = el("input", {type: "search", id: "find", placeholder: _("Your name"), value: mine,
    oninput: () => { mine = find.value; localStorage.setItem("sprtec_mine", mine); render(); }});
  const parts = {tables: el("div", {id: "tables"}), standings: el("div", {id: "standings"}), bracket: el("div", {id: "bracket"}),
    ranking: el("div", {id: "ranking"}),
    entries: el("div", {id: "entries"}), discipline: el("div", {id: "discipline"}), cases: el("div", {id: "cases"}),
    audit: el("div", {id: "audit"})};
  const titles = {tables: _("Current round"), standings: _("Standings"), bracket: _("Bracket"), ranking: _("Final ranking"),
    entries: _("Entries"),
    discipline: _("Cards and suspensions"), cases: _("Disputes and corrections"), audit: _("Rulings and acts")};
  add(clear(main()), head, el("label", {class: "find"}, `${_("Find your line")} `, find),
    ...Object.entries(parts).map(([key, node]) => el("section", {id: `section-${key}`}, el("h2", {text: titles[key]}), node)));

  const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const isMine = (name) => mine.trim() !== "" && fold(name).includes(fold(mine.trim()));
  const nameOf = (entry) => (update.entries.find((e) => e.entry === entry) || {name: entry}).name;
  const score = (s) => (s ? `${s.home} : ${s.away}` : "");
  const num = (text) => ({text, class: "num"}); // a numeric column's header, aligned with its figures

  function renderHead() {
    const u = update;
    const next = u.next_round_ms === null || u.next_round_ms === undefined ? null
      : Math.max(0, u.next_round_ms - (performance.now() - receivedAt));
    add(clear(head), el("h1", {text: u.name || u.tournament}),
      el("p", {class: "meta"}, `${STATES[u.status] || u.status}`, u.round ? ` · ${fmt(_("stage {stage}, round {round}"), {stage: u.stage + 1, round: u.round})}` : "",
        next !== null ? ` · ${fmt(_("next round in {time}"), {time: clock(next)})}` : "",
        u.complete ? ` · ${_("the tournament is complete")}` : ""));
  }

  function tableStatus(t) {
    const left = (ms) => clock(Math.max(0, ms - (performance.now() - receivedAt)));
    if (t.status === "waiting") return t.no_show_ms === null || t.no_show_ms === undefined ? _("waiting")
      : fmt(_("waiting for the coaches · walkover in {time}"), {time: left(t.no_show_ms)});
    if (t.status === "playing") return `${partName(t.part)}${t.part_ms !== null && t.part_ms !== undefined ? ` · ${left(t.part_ms)}` : ""}`;
    if (t.status === "walkover") return fmt(_("walkover for {name}"), {name: t.walkover === "home" ? t.home_name : t.away_name});
    if (t.status === "replay") return _("to be replayed");
    if (t.status === "board") return t.referee_name ? fmt(_("on the board · referee {name}"), {name: t.referee_name})
      : _("on the board");
    return t.shootout ? fmt(_("finished · shoot-out won by {name}"), {name: t.shootout === "home" ? t.home_name : t.away_name}) : _("finished");
  }

  function renderTables() {
    const u = update;
    clear(parts.tables);
    if (!u.tables.length && !u.byes.length) { add(parts.tables, el("p", {class: "empty", text: _("No round is being played.")})); return; }
    const rows = u.tables.map((t) => el("tr", {class: `${t.status}${isMine(t.home_name) || isMine(t.away_name) ? " mine" : ""}`, "data-table": t.table},
      el("td", {class: "num", text: t.table}), el("td", {class: "home", text: t.home_name}),
      el("td", {class: "score num", text: score(t.score)}), el("td", {class: "away", text: t.away_name}),
      el("td", {class: "state"}, tableStatus(t), KINDS[t.kind] ? ` · ${KINDS[t.kind]}` : ""),
      el("td", {}, t.room && (t.status === "playing" || t.status === "waiting") ? el("a", {href: `/watch/${t.room}`, class: "watch", text: _("Watch")}) : null)));
    add(parts.tables, table([_("Table"), _("Home"), _("Score"), _("Away"), _("State"), ""], rows, {class: "tables"}));
    if (u.byes.length) add(parts.tables, el("p", {class: "byes", text: `${_("Bye")}: ${u.byes.map(nameOf).join(", ")}`}));
  }

  function renderStandings() {
    const u = update;
    clear(parts.standings);
    if (!u.standings.length) { add(parts.standings, el("p", {class: "empty", text: _("No results yet.")})); return; }
    const breaks = Object.keys(u.standings[0].tiebreaks);
    const rows = u.standings.map((s) => el("tr", {class: isMine(s.name) ? "mine" : null, "data-entry": s.entry},
      el("td", {class: "num", text: `${s.rank}${s.shared ? "=" : ""}`}), el("td", {text: s.name}),
      el("td", {class: "num points", text: s.points}), el("td", {class: "num", text: s.played}),
      el("td", {class: "num", text: `${s.wins}-${s.draws}-${s.losses}`}), el("td", {class: "num", text: s.byes}),
      el("td", {class: "num", text: `${s.goals_for}:${s.goals_against}`}),
      breaks.map((b) => el("td", {class: "num", text: s.tiebreaks[b]})),
      el("td", {class: "discipline-cards"}, s.yellow ? el("span", {class: "card-yellow", title: CARDS.yellow, text: s.yellow}) : null,
        s.red ? el("span", {class: "card-red", title: CARDS.red, text: s.red}) : null,
        s.suspended_next ? el("span", {class: "suspended", text: _("suspended")}) : null)));
    add(parts.standings, u.after_round ? el("p", {class: "meta", text: fmt(_("stage {stage} after round {round}"), {stage: u.standings_stage + 1, round: u.after_round})}) : null,
      table([num(_("Rank")), _("Player"), num(_("Points")), num(_("Played")), num(_("W-D-L")), num(_("Byes")), num(_("Goals")),
        ...breaks.map((b) => num(TIEBREAKS[b] || b)), _("Cards")], rows, {class: "standings"}));
  }

  function renderBracket() {
    const u = update;
    const section = document.getElementById("section-bracket");
    section.hidden = !u.bracket.length;
    clear(parts.bracket);
    if (!u.bracket.length) return;
    const rounds = [...new Set(u.bracket.map((b) => b.round))].sort((a, b) => a - b);
    add(parts.bracket, el("div", {class: "bracket"}, rounds.map((r) => el("div", {class: "bracket-round"},
      el("h3", {text: fmt(_("round {round}"), {round: r})}),
      u.bracket.filter((b) => b.round === r).map((b) => el("div", {class: `bracket-match${KINDS[b.kind] ? ` ${b.kind}` : ""}`},
        KINDS[b.kind] ? el("small", {text: KINDS[b.kind]}) : null,
        ["home", "away"].map((side) => el("div", {class: `bracket-side${b.winner === b[side] ? " winner" : ""}${isMine(nameOf(b[side])) ? " mine" : ""}`},
          el("span", {text: nameOf(b[side])}),
          el("b", {text: b.score ? b.score[side] : b.walkover === side ? _("w/o") : ""})))))))));
  }

  // The final ranking (sprtec-ranking/1 from the API): everyone once across the stages, categories, cup points.
  function renderRanking(data) {
    const section = document.getElementById("section-ranking");
    clear(parts.ranking);
    section.hidden = !data || !data.ranking.length;
    if (section.hidden) return;
    document.body.dataset.ranking = data.complete ? "final" : "provisional";
    const winners = data.ranking.filter((r) => r.category_winner);
    const rows = data.ranking.map((r) => el("tr", {class: `${r.out ? "out" : ""}${isMine(r.name) ? " mine" : ""}`, "data-entry": r.player},
      el("td", {class: "num", text: `${r.rank}${r.shared ? "=" : ""}`}), el("td", {text: r.name}), el("td", {text: r.club}),
      el("td", {text: r.category}), el("td", {class: "num", text: r.category === "?" ? "" : r.category_rank}),
      el("td", {class: "num", text: r.cup_points === null ? "" : r.cup_points}),
      el("td", {text: r.out ? _("withdrawn") : ""})));
    add(parts.ranking,
      el("p", {class: "meta", text: data.complete ? _("The tournament is complete: this is its final ranking.")
        : _("Provisional: the tournament is still being played.")}),
      data.cup ? el("p", {class: "meta", text: fmt(_("Czech Cup {tier}, season {season}: {field} players ranked"),
        {tier: data.cup.tier, season: data.season === null ? "?" : data.season, field: data.cup.field})}) : null,
      winners.length ? el("p", {class: "winners"}, `${_("Category winners")}: `,
        winners.map((r) => `${r.category} ${r.name}`).join(", ")) : null,
      table([{text: _("Rank"), class: "num"}, _("Player"), _("Club"), _("Category"), {text: _("Category rank"), class: "num"},
        {text: _("Cup points"), class: "num"}, ""], rows, {class: "ranking"}));
  }

  function renderEntries() {
    const rows = update.entries.map((e) => el("tr", {class: `${e.out ? "out" : ""}${isMine(e.name) ? " mine" : ""}`},
      el("td", {text: e.name}), el("td", {text: e.club}), el("td", {text: e.category}),
      el("td", {class: "num", text: e.rating === null ? "" : e.rating}),
      el("td", {text: e.out ? _("withdrawn") : e.checked_in ? _("checked in") : e.claimed ? _("registered") : _("not yet connected")})));
    add(clear(parts.entries), table([_("Player"), _("Club"), _("Category"), _("Rating"), _("State")], rows, {class: "entries"}));
  }

  function renderDiscipline() {
    const u = update;
    clear(parts.discipline);
    if (!u.cards.length && !u.suspended.length) { add(parts.discipline, el("p", {class: "empty", text: _("No cards.")})); return; }
    if (u.cards.length) {
      add(parts.discipline, table([_("Round"), _("Player"), _("Card"), _("Why")], u.cards.map((c) => el("tr", {class: c.card},
        el("td", {text: fmt(_("stage {stage}, round {round}"), {stage: c.stage + 1, round: c.round})}), el("td", {text: nameOf(c.entry)}),
        el("td", {text: CARDS[c.card] || c.card}), el("td", {text: c.reason})))));
    }
    if (u.suspended.length) add(parts.discipline, el("p", {class: "suspended-list", text: `${_("Suspended for the next match")}: ${u.suspended.map(nameOf).join(", ")}`}));
  }

  function renderCases() {
    const u = update;
    clear(parts.cases);
    document.getElementById("section-cases").hidden = !u.cases.length;
    if (!u.cases.length) return;
    add(parts.cases, table([_("Case"), _("Match"), _("By"), _("Why"), _("State"), _("Ruling")], u.cases.map((c) => el("tr", {},
      el("td", {class: "num", text: c.id}),
      el("td", {text: fmt(_("round {round}, table {table}"), c)}), el("td", {text: nameOf(c.by)}),
      el("td", {text: c.reason}), el("td", {text: c.status}), el("td", {text: [c.ruling, c.proposal].filter(Boolean).join(" · ")})))));
  }

  function renderAudit() {
    const u = update;
    clear(parts.audit);
    if (!u.audit.length) { add(parts.audit, el("p", {class: "empty", text: _("Nothing yet.")})); return; }
    add(parts.audit, table([_("When"), _("Who"), _("What"), _("Details"), _("Why")], u.audit.slice().reverse().map((a) => el("tr", {},
      el("td", {text: when(a.at_ms)}), el("td", {text: update.entries.some((e) => e.entry === a.who) ? nameOf(a.who) : a.who}), el("td", {text: ACTS[a.act] || a.act}),
      el("td", {text: a.detail}), el("td", {text: a.reason})))));
  }

  function render() {
    if (!update) return;
    renderHead(); renderTables(); renderStandings(); renderBracket(); renderRanking(ranking); renderEntries(); renderDiscipline();
    renderCases(); renderAudit();
    const line = parts.standings.querySelector("tr.mine");
    document.body.dataset.mine = line ? line.dataset.entry : "";
  }

  setInterval(() => { if (update) { renderHead(); renderTables(); } }, 1000); // the tables' clocks count down
  let ranking = null;
  poll(`/api/v1/tournaments/${encodeURIComponent(id)}/ranking`, 5000, (data, status) => {
    ranking = status === 200 ? data : null;
    renderRanking(ranking);
  });
  const live = new Live((connection) => connection.send({t: "WatchTournament", tournament: id}), (message) => {
    if (message.t === "TournamentUpdate" && message.tournament === id) {
      update = message;
      receivedAt = performance.now();
      document.body.dataset.version = message.version;
      document.body.dataset.status = message.status;
      render();
    } else if (message.t === "Error" && message.code === "TOURNAMENT_NOT_FOUND") {
      notFound(fmt(_("No tournament {id} on this server."), {id}));
      live.closed = true;
    }
  }, (state) => { document.body.dataset.live = state; });
  window.sprtec.tournament = () => update;
})();
