// Chuchula group types, for naming a group on the screen (ruling H2). The server's engine
// decides; this mirrors chuko.games.chuchula._classify's types so the screen can name each
// group as it is laid out. How strong a group is, and so whether groups are in order, comes
// from the engine (the view's `group_strengths`). tests/games/test_chuchula_groups.py holds
// both to one table of cases.

import { parseCard } from "./cards.js";
import { t } from "./i18n.js";

export const TYPES = ["INDIVIDUAL", "PAIR", "COLOR", "SEQUENCE", "DOUBLE_SEQUENCE", "TRIAL"];

/** A three-card group's type index in TYPES. */
function classify(cards) {
  const [high, mid, low] = cards.map((c) => c.rank).sort((a, b) => b - a);
  const oneSuit = cards[0].suit === cards[1].suit && cards[1].suit === cards[2].suit;
  if (high === low) return 5;
  if ((high - mid === 1 && mid - low === 1) || (high === 14 && mid === 3 && low === 2)) {
    return oneSuit ? 4 : 3;
  }
  if (oneSuit) return 2;
  if (high === mid || mid === low) return 1;
  return 0;
}

const TYPE_WORDS = {
  INDIVIDUAL: t("individual"), PAIR: t("pair"), COLOR: t("colour"),
  SEQUENCE: t("sequence"), DOUBLE_SEQUENCE: t("double sequence"), TRIAL: t("trial"),
};

/** A type as players read it, "DOUBLE_SEQUENCE" → "double sequence" (GroupType.label). */
export function typeLabel(type) {
  return TYPE_WORDS[type] ?? type.toLowerCase().replaceAll("_", " ");
}

/** A suit's place when cards of one rank are written: spades, hearts, diamonds, clubs. */
const SUIT_ORDER = "shdc";

/**
 * A group's card texts in the order the engine writes a group (chuchula._display_order): a
 * pair first, then by rank, highest first; so a run reads 9 8 7 however it was put together.
 */
export function displayOrder(texts) {
  const cards = texts.map((text) => ({ text, card: parseCard(text) }));
  cards.sort((a, b) => b.card.rank - a.card.rank
    || SUIT_ORDER.indexOf(a.card.suit) - SUIT_ORDER.indexOf(b.card.suit));
  const [high, mid, low] = cards;
  const pairBelow = cards.length === 3 && mid.card.rank === low.card.rank && mid.card.rank !== high.card.rank;
  return (pairBelow ? [mid, low, high] : cards).map((entry) => entry.text);
}

/** {type: "PAIR", label: "pair"} for three card texts, or null if not three cards. */
export function groupInfo(texts) {
  if (texts.length !== 3) return null;
  const cards = texts.map(parseCard);
  if (cards.some((c) => !c)) return null;
  const type = TYPES[classify(cards)];
  return { type, label: typeLabel(type) };
}
