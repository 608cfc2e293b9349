"""Quick pairing by Edmonds' blossom algorithm (`waves.py`): the best pairing of a part of
the sorted line (ratings `t`, windows `w`) by networkx's maximum weight matching, exact on
any input in time cubic in the part's size, so it is given small parts only.

networkx's matcher is exact with integer weights. Each rating is a binary fraction, so one
power of two (`_whole`) makes every rating an integer and every gap exact; an edge weighs
`big` minus its gap, with `big` more than all the gaps of the part together, and networkx is
asked for the most pairs (`maxcardinality`), so among those it minimises the total gap.
"""

from __future__ import annotations

from chuko.server.lobby.pairing.line import Pairs, certified


def blossom(t: list[float], w: list[float]) -> Pairs:
    """The pairing of most pairs, then least total gap, of the players in `t` (sorted)."""
    # Imported at the first hard part, not with the server: networkx is slow to load
    # (docs/performance.md), and most servers' waves never need it.
    import networkx as nx

    n = len(t)
    whole = _whole(t)
    big = (whole[-1] - whole[0] + 1) * (n + 1) if n else 1
    graph = nx.Graph()
    for i in range(n):
        j = i + 1
        while j < n and t[j] - t[i] <= w[i]:
            if t[j] - t[i] <= w[j]:
                graph.add_edge(i, j, weight=big - (whole[j] - whole[i]))
            j += 1
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matched)


def chunked(t: list[float], w: list[float], size: int) -> Pairs:
    """A pairing of the part cut into `runs` of at most `size` players, each run paired
    best: by its neighbour pairing where the parity bound proves it (most runs of a long
    part: a blossom for each would cost seconds), else by `blossom`. The best within each
    run, not across runs."""
    pairs: Pairs = []
    for start, end in runs(t, size):
        rt, rw = t[start:end], w[start:end]
        found = certified(rt, rw)
        pairs += [(start + a, start + b) for a, b in (blossom(rt, rw) if found is None else found)]
    return pairs


def runs(t: list[float], size: int) -> list[tuple[int, int]]:
    """The part's positions cut into runs [start, end) of at most `size` (at least 2)
    players. A run ends at the widest gap between neighbours in the second half of its
    reach, where the fewest acceptable pairs are likely lost to the cut."""
    size = max(2, size)
    found, start, n = [], 0, len(t)
    while start < n:
        end = n
        if n - start > size:
            low = start + size // 2
            end = max(range(low, start + size + 1), key=lambda k: (t[k] - t[k - 1], k))
        found.append((start, end))
        start = end
    return found


def _whole(t: list[float]) -> list[int]:
    """The ratings of `t` times one power of two that makes each an integer, exactly."""
    ratios = [r.as_integer_ratio() for r in t]
    scale = max((den for _, den in ratios), default=1)  # every denominator divides it
    return [num * (scale // den) for num, den in ratios]
