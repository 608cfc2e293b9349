"""`chuko study GAME`: facts about a game, exact where that is feasible and sampled with
95% intervals otherwise, as a terminal table, JSON, or an HTML report with plots.

One module per concern:
- deals.py: every distinct deal of a 12-card pack, with its weight, in shards;
- backends.py: shards solved in local processes or on Ray, with checkpoints and resume;
- tally.py, layout.py: deals counted by a measure, and what both layout games share;
- caravan.py, crossroads.py, chuchula.py: each game's own measures, named by its
  descriptor's `study`; play.py: the study of bot games, for every game that names no
  module of its own, varying the options its descriptor's `study` names;
- report.py: tables in the terminal, the HTML page and its plots;
- command.py: the command; facts.py: the facts shipped in chuko/data/facts.

A study is JSON: {"game", "title", "method" (how it was computed), "findings" (sentences),
"data" (the figures, each exact or with its interval), "tables", "plots"}.
"""
