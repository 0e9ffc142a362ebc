import random
import re
from itertools import permutations

RUNNERS = ("Ada", "Bo", "Cy", "Dee", "Eli")


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


def _holds(clue, place):
    kind, x, y = clue
    if kind == "ahead":
        return place[x] < place[y]
    if kind == "behind":
        return place[x] == place[y] + 1
    if kind == "apart":
        return abs(place[x] - place[y]) > 1
    if kind == "place":
        return place[x] == y
    return place[x] != y


def _text(clue):
    kind, x, y = clue
    return {"ahead": f"{x} finished ahead of {y}.", "behind": f"{x} finished right behind {y}.",
            "apart": f"{x} and {y} did not finish next to each other.", "place": f"{x} finished in place {y}.",
            "notplace": f"{x} did not finish in place {y}."}[kind]


class FinishLineEnv:
    """Logical deduction: rebuild a race's finishing order from a minimal set of clues."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.order = list(RUNNERS)
        self.clues = []

    def _matches(self, clues):
        places = [{name: i + 1 for i, name in enumerate(p)} for p in permutations(RUNNERS)]
        return [p for p in places if all(_holds(c, p) for c in clues)]

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.order = list(RUNNERS)
        while self.order == list(RUNNERS):
            rng.shuffle(self.order)
        place = {name: i + 1 for i, name in enumerate(self.order)}
        pool = [(k, x, y) for k in ("ahead", "behind", "apart") for x in RUNNERS for y in RUNNERS if x != y]
        pool += [(k, x, n) for k in ("place", "notplace") for x in RUNNERS for n in range(1, 6)]
        pool = [c for c in pool if _holds(c, place) and not (c[0] == "apart" and c[1] > c[2])]
        rng.shuffle(pool)
        clues = []
        while len(self._matches(clues)) > 1:
            clues.append(pool.pop())
        for clue in list(clues):
            rest = [c for c in clues if c != clue]
            if len(self._matches(rest)) == 1:
                clues = rest
        self.clues = clues
        self.turn_count = 0
        return self._observe("[Finish Line] Five runners, Ada, Bo, Cy, Dee and Eli, finished a race with no ties."), {}

    def _observe(self, head):
        said = " ".join(_text(c) for c in self.clues)
        return (f"{head} Clues: {said} Give the finishing order from first to last, e.g. "
                "\\boxed{Eli Cy Bo Ada Dee}. One wrong order ends the game.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        names = [w.capitalize() for w in re.findall(r"[A-Za-z]+", _boxed(action) or "")]
        if sorted(names) != sorted(RUNNERS):
            return self._observe("Name each of the five runners exactly once."), 0.0, False, truncated, {}
        if names == self.order:
            return "Correct finishing order!", 1.0, True, False, {}
        return "Wrong: the order was " + " ".join(self.order) + ".", 0.0, True, False, {}

    def solution(self):
        return "Finishing order: " + " ".join(self.order) + " (the only order that satisfies every clue)."
