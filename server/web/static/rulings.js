// The referee's decisions in words, each with the rule it applies (the desktop client's sentences, the same
// catalogue words): rulingText(decision, names) and headline(decisions, names).
"use strict";

const DISALLOWED = {
  FIRST_MOVE_AFTER_RESTART: ["V.9", "scored with the first move from the start"],
  GOALIE_MOVE: ["XII.9", "scored by a goalie's move"],
  ILLEGAL_MOVE: ["XIV.1", "scored after an illegal move"],
  PENALTY_SHOT_FIRST_MOVE: ["XV.12", "scored with the first move of a penalty shot"],
  OWN_GOAL_IN_PENALTY_SHOT: ["XV.12", "an own goal in a penalty shot"],
  REBOUND_FROM_PENALTY_POSITION: ["XIV.6", "rebounded off a stone in a penalty position"],
};
const PENALTY_SHOT_ENDINGS = {
  a: ["XV.13a", "the puck did not leave the centre circle with the first move"],
  b: ["XV.13b", "a goal with the first move does not count"],
  c: ["XV.13c", "the puck touched the goalie without a goal"],
  d: ["XV.13d", "the puck crossed the goal line beside the goal"],
  e: ["XV.13e", "the shooter overtook the puck"],
  f: ["XV.13f", "an illegal move"],
  g: ["XV.13g", "the shooter fouled the goalie"],
  h: ["XV.13h", "a backward move"],
  i: ["XV.13i", "the puck went into the shooting team's own goal"],
  SCORED: ["XV.12", "scored"],
  NO_GOAL_IN_3: ["XV.12", "no goal in three moves"],
};
const RESPOT_REASONS = {
  LEFT_BOARD: ["VI.5", "flew over the board; the referee puts it back at the board where it left"],
  ON_GOAL: ["VI.3", "landed on top of the goal; the referee puts it behind the goal"],
};
const CHOICE_DEFAULTS = {
  choose_exclusion: "the stone the referee named stays excluded",
  setup: "the stone stays where the referee set it up",
  count: "the last move is counted",
};
const END_REASONS = {
  REGULAR_TIME: "regular time", OVERTIME: "overtime", DRAW: "draw", SUDDEN_DEATH: "sudden death",
  SHOOTOUT: "shootout", FORFEIT_DISCONNECTED: "forfeit disconnected", RESIGNED: "resigned", CLEARED: "cleared",
  EARLY_ENTRY: "early entry", FOUL: "foul", NOT_COUNTED: "not counted", NOT_RETURNED: "not returned",
  PUCK_TOUCHED: "puck touched", STOPPED: "stopped",
};
// Every English text above is in the catalogue: listed here for the extraction, translated where shown.
const N_ = (text) => text;
[N_("scored with the first move from the start"), N_("scored by a goalie's move"), N_("scored after an illegal move"),
  N_("scored with the first move of a penalty shot"), N_("an own goal in a penalty shot"),
  N_("rebounded off a stone in a penalty position"),
  N_("the puck did not leave the centre circle with the first move"), N_("a goal with the first move does not count"),
  N_("the puck touched the goalie without a goal"), N_("the puck crossed the goal line beside the goal"),
  N_("the shooter overtook the puck"), N_("an illegal move"), N_("the shooter fouled the goalie"),
  N_("a backward move"), N_("the puck went into the shooting team's own goal"), N_("scored"),
  N_("no goal in three moves"),
  N_("flew over the board; the referee puts it back at the board where it left"),
  N_("landed on top of the goal; the referee puts it behind the goal"),
  N_("the stone the referee named stays excluded"), N_("the stone stays where the referee set it up"),
  N_("the last move is counted"), N_("regular time"), N_("overtime"), N_("draw"), N_("sudden death"),
  N_("forfeit disconnected"), N_("resigned"), N_("cleared"), N_("early entry"), N_("foul"), N_("not counted"),
  N_("not returned"), N_("puck touched"), N_("stopped")];

function teamName(team, names) {
  if (team === null || team === undefined) return _("nobody");
  if (names && names[team]) return names[team];
  return team === "home" ? _("Home") : team === "away" ? _("Away") : String(team);
}

function reasonWords(code) {
  const words = END_REASONS[code];
  return words ? _(words) : String(code || "").toLowerCase().replace(/_/g, " ");
}

function said(entry) {
  return [entry[0], _(entry[1])];
}

const WRITERS = {
  GOAL: (d, n) => (d.own_goal ? fmt(_("Own goal (XIV.6): counts for {team}"), {team: teamName(d.team, n)})
    : fmt(_("Goal (XIV.1): {team} scores"), {team: teamName(d.team, n)})),
  GOAL_DISALLOWED: (d, n) => {
    const found = DISALLOWED[d.reason];
    const [rule, why] = found ? said(found) : ["XIV", String(d.reason || "").toLowerCase().replace(/_/g, " ")];
    return fmt(_("No goal ({rule}): {team}'s goal — {why}"), {rule, team: teamName(d.team, n), why});
  },
  FOUL: (d, n) => fmt(d.kind === "through_teammate" ? _("Foul (VIII.1b): {stone} of {team} hit {victim} through a team-mate")
    : _("Foul (VIII.1a): {stone} of {team} hit {victim} directly"), {stone: d.stone, team: teamName(d.team, n), victim: d.victim}),
  GOALIE_OUTSIDE_THIRD: (d, n) => fmt(_("Foul (XII.8): {team}'s goalie left its defensive third"), {team: teamName(d.team, n)}),
  ACTIVITY_FAILED: (d, n) => fmt(_("Activity rule broken (XI.9): {stone} of {team} is excluded"), {stone: d.stone, team: teamName(d.team, n)}),
  EXCLUSION: (d, n) => fmt(d.deferred ? _("Exclusion deferred (X.3): {stone} of {team} goes off when a stone returns")
    : _("Exclusion (X.1): {stone} of {team} leaves the board"), {stone: d.stone, team: teamName(d.team, n)}),
  RETURN: (d, n) => fmt(_("Return (X.2): {stone} of {team} comes back at the half-circle"), {stone: d.stone, team: teamName(d.team, n)}),
  PRIVILEGE: (d, n) => fmt(_("Privilege ({rule}): {team} plays {moves} moves"), {rule: d.moves === 3 ? "VIII.7" : "IX.1", team: teamName(d.team, n), moves: d.moves}),
  PRIVILEGE_CANCELLED: (d, n) => fmt(_("Privilege ended (IX.8): {team} loses its remaining moves"), {team: teamName(d.team, n)}),
  PENALTY_SHOT: (d, n) => fmt(_("Penalty shot (XV.1) for {team}"), {team: teamName(d.team, n)}),
  ADVANTAGE: (d, n) => fmt(_("Advantage (IX.3): {team} may play on or take the penalty shot"), {team: teamName(d.team, n)}),
  PENALTY_SHOT_ENDED: (d, n) => {
    const found = PENALTY_SHOT_ENDINGS[d.reason];
    const [rule, why] = found ? said(found) : ["XV.13", String(d.reason)];
    return fmt(d.scored ? _("Penalty shot scored ({rule}): {team} — {why}") : _("Penalty shot failed ({rule}): {team} — {why}"),
      {rule, team: teamName(d.team, n), why});
  },
  ACTIVITY_COUNT: (d, n) => fmt(_("Counting (XI.3): {team} counts {count} of {limit}"), {team: teamName(d.team, n), count: d.count, limit: d.limit}),
  ACTIVITY_ENDED: (d) => fmt(_("Counting stops (XI.4): {reason}"), {reason: reasonWords(d.reason)}),
  POWER_PLAY: (d, n) => fmt(d.on ? _("Power play (XIII.2): {team} plays without its goalie") : _("Power play over (XIII.4): {team}'s goalie is back"),
    {team: teamName(d.team, n)}),
  RESPOT: (d) => {
    const found = RESPOT_REASONS[d.reason];
    const [rule, why] = found ? said(found) : ["VI.5", _("put back by the referee")];
    return fmt(_("Referee ({rule}): {body} {why}"), {rule, body: d.body === "puck" ? _("the puck") : d.body, why});
  },
  FLIP: (d) => fmt(_("Referee (VI.4): {stone} lay upside down and is turned over"), {stone: d.stone}),
  RESTART: (d, n) => fmt(_("Face-off (V.1): {team} starts from the basic setup"), {team: teamName(d.team, n)}),
  PART_ENDED: (d) => fmt(_("Siren (III.6): end of {part}"), {part: partName(d.part)}),
  MATCH_ENDED: (d, n) => {
    const head = d.winner ? fmt(_("Match over — {team} wins (III.1)"), {team: teamName(d.winner, n)}) : _("Match over — a draw (III.1)");
    const reason = reasonWords(d.reason);
    return reason ? `${head}: ${reason}` : head;
  },
  TIMEOUT: (d, n, moveClockMs) => {
    if (d.kind === null || d.kind === undefined) {
      const opponent = d.team === "home" ? "away" : "home";
      return fmt(_("Time (A35): {team} did not move in {seconds} — {opponent} to move"),
        {team: teamName(d.team, n), seconds: `${(moveClockMs || 30000) / 1000} s`, opponent: teamName(opponent, n)});
    }
    const found = CHOICE_DEFAULTS[d.kind];
    const what = found ? _(found) : fmt(_("the default {kind} applies"), {kind: String(d.kind).replace(/_/g, " ")});
    return fmt(_("Time: the default was chosen for {team} — {what}"), {team: teamName(d.team, n), what});
  },
};

function rulingText(decision, names, moveClockMs) {
  const writer = WRITERS[decision.code];
  if (writer) return writer(decision, names || {}, moveClockMs);
  const fields = Object.entries(decision).filter(([k]) => k !== "code").map(([k, v]) => `${k}=${v}`).join(", ");
  const code = decision.code.replace(/_/g, " ").toLowerCase();
  return `${code.charAt(0).toUpperCase()}${code.slice(1)}${fields ? ` (${fields})` : ""}`;
}

function headline(decisions, names, moveClockMs) {
  const find = (code) => decisions.find((d) => d.code === code);
  for (const code of ["MATCH_ENDED", "GOAL", "GOAL_DISALLOWED", "PENALTY_SHOT_ENDED", "PENALTY_SHOT", "ADVANTAGE"]) {
    if (find(code)) return rulingText(find(code), names, moveClockMs);
  }
  const foul = find("FOUL") || find("GOALIE_OUTSIDE_THIRD") || find("ACTIVITY_FAILED");
  if (foul) {
    let rule = {FOUL: "VIII.1", GOALIE_OUTSIDE_THIRD: "XII.8", ACTIVITY_FAILED: "XI.9"}[foul.code];
    if (foul.code === "FOUL") rule = foul.kind === "through_teammate" ? "VIII.1b" : "VIII.1a";
    const parts = [];
    const exclusion = find("EXCLUSION");
    if (exclusion) parts.push(fmt(exclusion.deferred ? _("{stone} is excluded (deferred)") : _("{stone} is excluded"), {stone: exclusion.stone}));
    const privilege = find("PRIVILEGE");
    if (privilege) parts.push(fmt(_("{team} plays {moves} moves"), {team: teamName(privilege.team, names), moves: privilege.moves}));
    const what = parts.length ? parts.join(" — ") : rulingText(foul, names, moveClockMs);
    return fmt(foul.code === "ACTIVITY_FAILED" ? _("Activity rule ({rule}): {what}") : _("Foul ({rule}): {what}"), {rule, what});
  }
  for (const code of ["PART_ENDED", "TIMEOUT", "POWER_PLAY", "RESPOT", "FLIP", "RETURN", "PRIVILEGE", "ACTIVITY_COUNT", "RESTART"]) {
    if (find(code)) return rulingText(find(code), names, moveClockMs);
  }
  return decisions.length ? rulingText(decisions[0], names, moveClockMs) : null;
}
