import random
import re

DRUGS = ("Amberol", "Brixin", "Corvane")


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().capitalize() if match else None


class WardRecordsEnv:
    """Causal inference: compare treatments within severity groups, not in the pooled totals (Simpson's paradox)."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.table = {}
        self.best = DRUGS[0]

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            best, decoy, other = rng.sample(DRUGS, 3)
            sizes = {best: (rng.randint(10, 30), rng.randint(70, 90)), decoy: (rng.randint(70, 90), rng.randint(10, 30)),
                     other: (rng.randint(40, 60), rng.randint(40, 60))}
            self.table = {}
            for drug, (mild, severe) in sizes.items():
                bonus = 0.12 if drug == best else 0.0
                rate_mild, rate_severe = rng.uniform(0.55, 0.8) + bonus, rng.uniform(0.15, 0.4) + bonus
                self.table[drug] = ((round(rate_mild * mild), mild), (round(rate_severe * severe), severe))
            rates = lambda g: {d: self.table[d][g][0] / self.table[d][g][1] for d in DRUGS}
            pooled = {d: (self.table[d][0][0] + self.table[d][1][0]) / sum(self.table[d][g][1] for g in (0, 1)) for d in DRUGS}
            wins = all(max(rates(g), key=rates(g).get) == best and sorted(rates(g).values())[1] < rates(g)[best] for g in (0, 1))
            if wins and max(pooled, key=pooled.get) != best:
                break
        self.best = best
        self.turn_count = 0
        groups = [", ".join(f"{d} {self.table[d][g][0]} of {self.table[d][g][1]} recovered" for d in DRUGS) for g in (0, 1)]
        return (f"[Ward Records] A hospital used three treatments, and doctors chose freely which patient got which. "
                f"Mild cases: {groups[0]}. Severe cases: {groups[1]}. Severe cases recover less often whatever they "
                "get. Which treatment gives a new patient the best chance to recover, mild or severe? Reply with "
                "\\boxed{name}. One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        choice = _boxed(action)
        if choice not in DRUGS:
            return "Expected one treatment name, e.g. \\boxed{" + DRUGS[1] + "}.", 0.0, False, truncated, {}
        if choice == self.best:
            return f"Correct: {self.best} does best within both groups.", 1.0, True, False, {}
        return f"Wrong: {self.best} does best within both the mild and the severe group.", 0.0, True, False, {}

    def solution(self):
        return (f"{self.best}: compare recovery rates within the mild group and within the severe group; {self.best} "
                "is best in both, while the pooled totals favour a treatment mostly given to mild cases.")
