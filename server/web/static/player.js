// /players/NAME: a player's profile - ratings with RD, his record, his last matches linking to their replays.
"use strict";

(async function profile() {
  const found = await api(`/api/v1/players/${encodeURIComponent(SUBJECT)}`);
  if (found.status !== 200) { notFound(fmt(_("No player called {name} on this server."), {name: SUBJECT})); return; }
  const p = found.data;
  const RESULTS = {win: _("win"), draw: _("draw"), loss: _("loss")};
  const ratings = p.ratings.length ? table([_("Ruleset family"), {text: _("Rating"), class: "num"}, {text: _("RD"), class: "num"}, {text: _("Matches"), class: "num"}], p.ratings.map((r) =>
    el("tr", {}, el("td", {text: r.family}), el("td", {class: "num", text: `${r.rating}${r.provisional ? "?" : ""}`}),
      el("td", {class: "num", text: `±${r.rd}`}), el("td", {class: "num", text: r.games})))) : el("p", {class: "empty", text: _("No rated match yet.")});
  const last = p.last.length ? table([_("Ended"), _("Opponent"), {text: _("Score"), class: "num"}, _("Result"), {text: _("Rating"), class: "num"}, ""], p.last.map((m) =>
    el("tr", {class: m.result}, el("td", {text: when(m.ended_ms)}),
      el("td", {}, el("a", {href: `/players/${encodeURIComponent(m.opponent)}`, text: m.opponent})),
      el("td", {class: "num", text: m.team === "home" ? `${m.score.home} : ${m.score.away}` : `${m.score.away} : ${m.score.home}`}),
      el("td", {text: RESULTS[m.result]}),
      el("td", {class: "num", text: m.rating_change === null ? "" : `${m.rating_change > 0 ? "+" : ""}${m.rating_change}`}),
      el("td", {}, el("a", {href: `/replays/${m.match_id}`, text: _("Replay")}))))) : el("p", {class: "empty", text: _("No match yet.")});
  add(clear(main()), el("h1", {text: p.player}),
    el("p", {class: "record", text: fmt(_("Matches: {played} – won {won}, drawn {drawn}, lost {lost}"), p)}),
    section(_("Ratings"), ratings), section(_("Last matches"), last));
})();
