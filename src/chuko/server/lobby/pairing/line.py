"""Quick pairing's linear pieces (`waves.py`), on a pool's players sorted by rating:
ratings `t`, windows `w`. Who may meet anyone, where the line falls into independent parts,
the neighbour pairing of a part and the parity bound that can prove it best.
"""

from __future__ import annotations

Pairs = list[tuple[int, int]]  # positions in the sorted line


def has_partner(t: list[float], w: list[float], i: int) -> bool:
    """Whether anyone may meet player `i` (only those within i's window are looked at)."""
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(t) and abs(t[j] - t[i]) <= w[i]:
            if abs(t[j] - t[i]) <= w[j]:
                return True
            j += step
    return False


def parts(t: list[float], w: list[float]) -> list[list[int]]:
    """The positions of the line in runs no acceptable pair spans: a cut after k when no
    player up to k reaches past the next rating or no player after k reaches back to t[k]."""
    n = len(t)
    back = [0.0] * (n + 1)
    back[n] = float("inf")
    for j in range(n - 1, -1, -1):
        back[j] = min(back[j + 1], t[j] - w[j])
    found, run, reach = [], [], float("-inf")
    for k in range(n):
        run.append(k)
        reach = max(reach, t[k] + w[k])
        if k + 1 < n and (reach < t[k + 1] or back[k + 1] > t[k]):
            found.append(run)
            run, reach = [], float("-inf")
    if run:
        found.append(run)
    return found


def certified(t: list[float], w: list[float]) -> Pairs | None:
    """The neighbour pairing of a part when it is provably optimal (`waves.py`),
    else None."""
    count, cost, pairs = neighbour_pairs(t, w)
    bound = parity_bound(t)
    if count == len(t) // 2 and cost <= bound + 1e-9 * (1.0 + abs(bound)):
        return pairs
    return None


def neighbour_pairs(t: list[float], w: list[float]) -> tuple[int, float, Pairs]:
    """The best pairing (most pairs, then least total gap) among those whose pairs enclose
    no matched player (`neighbour_table`), as its count, gap and pairs."""
    count, cost, back = neighbour_table(t, w)
    pairs, j = [], len(t) - 1
    while j >= 0:
        if back[j] < 0:
            j -= 1
        else:
            pairs.append((back[j], j))
            j = back[j] - 1
    return count[-1], cost[-1], pairs


def neighbour_table(t: list[float], w: list[float]) -> tuple[list[int], list[float], list[int]]:
    """best[j], the best such pairing of the first j players, as counts, gaps and each
    player's partner to the left (-1: none). It ends either with player j-1 left out, or
    with j-1 paired to some x after best[x]; the largest acceptable x is the best one:
    best[] never decreases and a later x closes a smaller gap."""
    n = len(t)
    count, cost, back = [0] * (n + 1), [0.0] * (n + 1), [-1] * n
    for j in range(n):
        best_count, best_cost, choice = count[j], cost[j], -1
        x = j - 1
        while x >= 0 and t[j] - t[x] <= w[j]:
            if t[j] - t[x] <= w[x]:
                c, g = count[x] + 1, cost[x] + t[j] - t[x]
                if c > best_count or (c == best_count and g < best_cost):
                    best_count, best_cost, choice = c, g, x
                break
            x -= 1
        count[j + 1], cost[j + 1], back[j] = best_count, best_cost, choice
    return count, cost, back


def parity_bound(t: list[float]) -> float:
    """The least total gap of any matching of len(t) // 2 pairs, windows aside: with an even
    count every other gap; with an odd count, the best player to leave out (gaps before it
    counted at odd positions, after it at even ones)."""
    n = len(t)
    gaps = [t[k + 1] - t[k] for k in range(n - 1)]
    if n % 2 == 0:
        return sum(gaps[0::2])
    before = [0.0]
    for k, g in enumerate(gaps):
        before.append(before[-1] + (g if k % 2 == 0 else 0.0))
    after = [0.0] * n
    for k in range(n - 2, -1, -1):
        after[k] = after[k + 1] + (gaps[k] if k % 2 == 1 else 0.0)
    return min(before[u] + after[u] for u in range(n))


