import random
import re


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


def _optimum(times):
    sums = {0}
    for t in times:
        sums |= {s + t for s in sums}
    return min(max(s, sum(times) - s) for s in sums)


def _greedy(times):
    ovens = [0, 0]
    for t in times:
        ovens[ovens.index(min(ovens))] += t
    return max(ovens)


class TwinOvensEnv:
    """Optimization: split baking jobs between two ovens to finish as early as possible."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.times = []
        self.best = 0

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self.times = [rng.randint(3, 20) for _ in range(7)]
            self.best = _optimum(self.times)
            if _greedy(self.times) > self.best and _greedy(sorted(self.times, reverse=True)) > self.best:
                break
        self.turn_count = 0
        return (f"[Twin Ovens] Seven trays must be baked. Baking times: {', '.join(map(str, self.times))} minutes. "
                "Two identical ovens each bake one tray at a time, and both start now. What is the shortest time "
                "until every tray is baked? Reply with \\boxed{minutes}. One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"\d{1,9}", text):
            return "Expected a whole number of minutes, e.g. \\boxed{40}.", 0.0, False, truncated, {}
        if int(text) == self.best:
            return f"Correct: {self.best} minutes is the best possible.", 1.0, True, False, {}
        return f"Wrong: the best possible is {self.best} minutes.", 0.0, True, False, {}

    def solution(self):
        total = sum(self.times)
        return (f"Split the trays into two groups with totals as close to {total / 2:g} as possible; the better "
                f"oven plan finishes after {self.best} minutes.")
