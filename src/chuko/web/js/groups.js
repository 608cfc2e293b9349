// Chuchula group types, for display while arranging a hand (rulings H2–H4). The server's
// engine decides; this mirrors chuko.games.chuchula._classify, group_strength and
// order_problem so the screen can name each group and warn about the order before the
// commit. tests/games/test_chuchula_groups.py holds both to one table of cases.

import { parseCard } from "./cards.js";

export const TYPES = ["INDIVIDUAL", "PAIR", "COLOR", "SEQUENCE", "DOUBLE_SEQUENCE", "TRIAL"];

/** A three-card group's [type index, ranks in comparison order]. */
function classify(cards) {
  const [high, mid, low] = cards.map((c) => c.rank).sort((a, b) => b - a);
  const oneSuit = cards[0].suit === cards[1].suit && cards[1].suit === cards[2].suit;
  if (high === low) return [5, [high]];
  if ((high - mid === 1 && mid - low === 1) || (high === 14 && mid === 3 && low === 2)) {
    return [oneSuit ? 4 : 3, [high, mid, low]];
  }
  if (oneSuit) return [2, [high, mid, low]];
  if (high === mid || mid === low) return [1, [mid, mid === low ? high : low]];
  return [0, [high, mid, low]];
}

/** A type as players read it, "DOUBLE_SEQUENCE" → "double sequence" (GroupType.label). */
export function typeLabel(type) {
  return type.toLowerCase().replaceAll("_", " ");
}

/** {type: "PAIR", label: "pair", strength} for three card texts, or null if not three cards. */
export function groupInfo(texts) {
  if (texts.length !== 3) return null;
  const cards = texts.map(parseCard);
  if (cards.some((c) => !c)) return null;
  const [kind, ranks] = classify(cards);
  let strength = kind;
  for (const rank of [...ranks, 0, 0].slice(0, 3)) strength = strength * 15 + rank;
  const type = TYPES[kind];
  return { type, label: typeLabel(type), strength };
}

/** Why four full groups are not strongest first, or null (ruling H4: the player orders). */
export function orderProblem(groups) {
  const infos = groups.map(groupInfo);
  for (let i = 1; i < infos.length; i += 1) {
    if (infos[i] && infos[i - 1] && infos[i].strength > infos[i - 1].strength) {
      return `Group ${i + 1} (${infos[i].label}) is stronger than group ${i} (${infos[i - 1].label}): put the groups strongest first.`;
    }
  }
  return null;
}
