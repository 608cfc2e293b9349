"""Practice: the lessons, the daily Caravan and the Crossroads puzzles, above the bots and
solvers they ask and below the front ends that show them."""
