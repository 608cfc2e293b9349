// The screen's answers to the table of Chuchula groups (tests/games/chuchula_groups.json), for
// tests/games/test_chuchula_groups.py: `node groups_table.mjs TABLE` prints, as JSON, groups.js's
// {type, label, strength} for each group and its orderProblem (null when in order) for each
// ordering. One process answers the whole table.

import { readFileSync } from "node:fs";
import { groupInfo, orderProblem } from "../../src/chuko/web/js/groups.js";

const split = (cards) => cards.split(" ");
const table = JSON.parse(readFileSync(process.argv[2], "utf8"));
console.log(JSON.stringify({
  groups: table.groups.map((g) => groupInfo(split(g.cards))),
  orderings: table.orderings.map((o) => orderProblem(o.groups.map(split))),
}));
