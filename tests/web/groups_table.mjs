// The screen's answers to the table of Chuchula groups (tests/games/chuchula_groups.json), for
// tests/games/test_chuchula_groups.py: `node groups_table.mjs TABLE` prints, as JSON, groups.js's
// {type, label, written} for each group (written: its cards in the order a group is written).
// One process answers the whole table. (How strong a group is, and so the order of groups,
// the screen takes from the engine.)

import { readFileSync } from "node:fs";
import { displayOrder, groupInfo } from "../../src/chuko/web/js/groups.js";

const split = (cards) => cards.split(" ");
const table = JSON.parse(readFileSync(process.argv[2], "utf8"));
console.log(JSON.stringify({
  groups: table.groups.map((g) => ({ ...groupInfo(split(g.cards)), written: displayOrder(split(g.cards)) })),
}));
