import random
import re
from itertools import combinations


class CargoLoaderEnv:
    """Optimization: load crates onto a truck with a weight limit to carry the most value, then ship."""

    def __init__(self, max_turns=14):
        self.max_turns = max_turns
        self.turn_count = 0
        self.crates = []
        self.capacity = 0
        self.loaded = set()
        self.best_value = 0
        self.best_set = ()

    def _optimum(self):
        best_value, best_set = 0, ()
        for size in range(1, len(self.crates) + 1):
            for combo in combinations(range(len(self.crates)), size):
                weight = sum(self.crates[i][0] for i in combo)
                value = sum(self.crates[i][1] for i in combo)
                if weight <= self.capacity and value > best_value:
                    best_value, best_set = value, combo
        return best_value, best_set

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self.crates = [(rng.randint(2, 9), rng.randint(3, 20)) for _ in range(7)]
            self.capacity = rng.randint(14, 22)
            self.best_value, self.best_set = self._optimum()
            if len(self.best_set) >= 3:
                break
        self.loaded = set()
        self.turn_count = 0
        return self._observe("Plan the most valuable load."), {}

    def _totals(self):
        weight = sum(self.crates[i][0] for i in self.loaded)
        value = sum(self.crates[i][1] for i in self.loaded)
        return weight, value

    def _observe(self, head):
        listing = "; ".join(f"crate {i}: weight {w}, value {v}" for i, (w, v) in enumerate(self.crates))
        weight, value = self._totals()
        return (f"{head} Crates: {listing}. Truck limit: {self.capacity}. Loaded: {sorted(self.loaded)} "
                f"(weight {weight}, value {value}). Actions: \\boxed{{load i}}, \\boxed{{unload i}}, "
                f"\\boxed{{ship}}. Shipping ends the game; only the best possible value wins.")

    def step(self, action):
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).lower().split()
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        if words == ["ship"]:
            _, value = self._totals()
            if value == self.best_value:
                return f"Shipped value {value}: the best possible!", 1.0, True, False, {}
            share = round(value / self.best_value, 3)
            return f"Shipped value {value}; the best was {self.best_value}.", share * 0.5, True, False, {}
        if len(words) != 2 or words[0] not in ("load", "unload") or not words[1].isdigit():
            return self._observe("Unreadable action."), 0.0, False, truncated, {}
        index = int(words[1])
        if index >= len(self.crates):
            return self._observe(f"There is no crate {index}."), 0.0, False, truncated, {}
        if words[0] == "load":
            weight, _ = self._totals()
            if index in self.loaded:
                return self._observe(f"Crate {index} is already loaded."), 0.0, False, truncated, {}
            if weight + self.crates[index][0] > self.capacity:
                return self._observe(f"Crate {index} would exceed the limit."), 0.0, False, truncated, {}
            self.loaded.add(index)
            return self._observe(f"Loaded crate {index}."), 0.0, False, truncated, {}
        self.loaded.discard(index)
        return self._observe(f"Unloaded crate {index}."), 0.0, False, truncated, {}

    def solution(self):
        return "Load crates " + ", ".join(str(i) for i in self.best_set) + f" (value {self.best_value}), then ship."
