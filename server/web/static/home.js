// /: the live matches (public rooms and tournaments' tables), the server's tournaments and leagues, each a link; kept
// fresh by asking the API every few seconds with its ETags (a 304 when nothing changed).
"use strict";

(function home() {
  const rooms = el("div", {id: "rooms"}, el("p", {class: "empty", text: _("Loading…")}));
  const tournaments = el("div", {id: "tournaments"});
  const leagues = el("div", {id: "leagues"});
  add(clear(main()), section(_("Live matches"), rooms), section(_("Tournaments"), tournaments),
    section(_("Leagues"), leagues));

  const STATES = {registering: _("registration"), playing: _("round being played"), between: _("between rounds"),
    finished: _("finished"), ended: _("ended by the organiser")};

  function seat(info, team) {
    const s = info.seats[team];
    return el("span", {class: `coach ${team}`}, el("span", {class: "kit"}), s ? s.name : "—", s && rating(s) ? el("small", {text: ` ${rating(s)}`}) : null);
  }

  function showRooms(data) {
    const live = data.rooms.filter((r) => r.status !== "ended");
    clear(rooms);
    if (!live.length) { add(rooms, el("p", {class: "empty", text: _("No match is being played right now.")})); return; }
    add(rooms, el("ul", {class: "cards"}, live.map((info) => {
      const score = info.score ? `${info.score.home} : ${info.score.away}` : "–";
      const where = info.tournament ? fmt(_("{name}, round {round}, table {table}"), info.tournament) : _("Open room");
      const time = info.clocks ? clock(info.clocks.part_ms) : "";
      return el("li", {class: `card ${info.status}`},
        el("a", {href: `/watch/${info.code}`, class: "match-link"},
          el("div", {class: "scoreline"}, seat(info, "home"), el("b", {class: "score", text: score}), seat(info, "away")),
          el("div", {class: "meta"}, info.status === "playing" ? `${partName(info.part)} · ${time}` : _("waiting for the coaches"),
            el("span", {class: "where", text: where}))));
    })));
  }

  function showTournaments(data) {
    clear(tournaments);
    if (!data.tournaments.length) { add(tournaments, el("p", {class: "empty", text: _("No tournament on this server yet.")})); return; }
    add(tournaments, el("ul", {class: "cards"}, data.tournaments.map((t) => el("li", {class: `card ${t.state}`},
      el("a", {href: `/tournaments/${t.id}`}, el("b", {text: t.name || t.id}),
        el("div", {class: "meta"}, STATES[t.state] || t.state,
          t.round ? ` · ${fmt(_("round {round}"), t)}` : "", ` · ${fmt(_("{entries} players"), t)}`,
          t.playing ? ` · ${fmt(_("{playing} tables playing"), t)}` : ""))))));
  }

  function showLeagues(data) {
    clear(leagues);
    if (!data.leagues.length) { add(leagues, el("p", {class: "empty", text: _("No league on this server yet.")})); return; }
    add(leagues, el("ul", {class: "cards"}, data.leagues.map((l) => el("li", {class: "card"},
      el("a", {href: `/leagues/${l.id}`}, el("b", {text: l.name || l.id}),
        el("div", {class: "meta"}, l.day ? fmt(_("match day {day}"), l) : _("no match day yet"),
          ` · ${fmt(_("{finished} of {fixtures} team matches played"), l)}`))))));
  }

  poll("/api/v1/rooms", 3000, showRooms);
  poll("/api/v1/leagues", 5000, showLeagues);
  poll("/api/v1/tournaments", 5000, showTournaments);
})();
