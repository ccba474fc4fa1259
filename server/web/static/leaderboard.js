// /leaderboard: the established players of a ruleset family by rating (RD at most 75), a page at a time.
"use strict";

(function leaderboard() {
  const url = new URL(location.href);
  let ruleset = url.searchParams.get("ruleset") || "standard";
  let offset = Number(url.searchParams.get("offset") || 0);
  const PAGE = 50;
  const body = el("div", {id: "board-table"});
  const choose = el("select", {id: "ruleset", onchange: () => { ruleset = choose.value; offset = 0; load(); }},
    ["standard", "quick"].map((r) => el("option", {value: r, text: r === "standard" ? _("Standard") : _("Quick"), selected: r === ruleset})));
  const pager = el("p", {class: "pager"});
  add(clear(main()), el("h1", {text: _("Leaderboard")}), el("label", {}, `${_("Ruleset family")} `, choose), body, pager);

  async function load() {
    const found = await api(`/api/v1/leaderboard?ruleset=${ruleset}&offset=${offset}&limit=${PAGE}`);
    clear(body);
    clear(pager);
    if (found.status !== 200) return;
    const page = found.data;
    if (!page.players.length) { add(body, el("p", {class: "empty", text: _("Nobody is ranked yet: a player is ranked once his RD is 75 or less.")})); return; }
    add(body, table([{text: _("Rank"), class: "num"}, _("Player"), {text: _("Rating"), class: "num"}, {text: _("RD"), class: "num"}, {text: _("Matches"), class: "num"}], page.players.map((p) => el("tr", {},
      el("td", {class: "num", text: p.rank}), el("td", {}, el("a", {href: `/players/${encodeURIComponent(p.player)}`, text: p.player})),
      el("td", {class: "num", text: p.rating}), el("td", {class: "num", text: `±${p.rd}`}), el("td", {class: "num", text: p.games})))));
    if (offset > 0) add(pager, el("a", {href: "#", text: `← ${_("Previous")}`, onclick: (e) => { e.preventDefault(); offset = Math.max(0, offset - PAGE); load(); }}));
    if (offset + PAGE < page.total) add(pager, el("a", {href: "#", text: `${_("Next")} →`, onclick: (e) => { e.preventDefault(); offset += PAGE; load(); }}));
  }
  load();
})();
