import heapq
import random
import re

TOWNS = "ABCDEFG"


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


def _cheapest(roads, key):
    best, queue = {}, [((0, 0), "A")]
    while queue:
        cost, town = heapq.heappop(queue)
        if town in best:
            continue
        best[town] = cost
        for (x, y), toll in roads.items():
            if town in (x, y):
                other = y if town == x else x
                heapq.heappush(queue, (key(cost, toll), other))
    return best.get("G")


class TollRoadsEnv:
    """Optimization: find the cheapest total toll across a road network (fewest roads is not cheapest)."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.roads = {}
        self.best = 0

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            order = list(TOWNS)
            rng.shuffle(order)
            roads = {}
            for i in range(1, len(order)):
                roads[tuple(sorted((order[i], rng.choice(order[:i]))))] = rng.randint(1, 9)
            while len(roads) < 11:
                roads.setdefault(tuple(sorted(rng.sample(TOWNS, 2))), rng.randint(1, 9))
            cheap = _cheapest(roads, lambda c, t: (0, c[1] + t))
            few = _cheapest(roads, lambda c, t: (c[0] + 1, c[1] + t))
            hops = _cheapest(roads, lambda c, t: (c[0] + 1, 0))
            if ("A", "G") not in roads and hops[0] >= 2 and few[1] > cheap[1]:
                break
        self.roads, self.best = roads, cheap[1]
        self.turn_count = 0
        listing = ", ".join(f"{x}-{y} {t}" for (x, y), t in sorted(roads.items()))
        return (f"[Toll Roads] Roads between towns A to G, each with its toll: {listing}. Every road runs both ways. "
                "What is the smallest total toll for a drive from A to G? Reply with \\boxed{toll}. "
                "One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"\d{1,9}", text):
            return "Expected the total toll as a whole number, e.g. \\boxed{14}.", 0.0, False, truncated, {}
        if int(text) == self.best:
            return f"Correct: the cheapest drive costs {self.best}.", 1.0, True, False, {}
        return f"Wrong: the cheapest drive costs {self.best}.", 0.0, True, False, {}

    def solution(self):
        return f"Run a cheapest-path search (Dijkstra) from A: the cheapest drive to G costs {self.best}."
