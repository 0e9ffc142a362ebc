import random
import re

FACTORS = ("light", "water", "compost", "music")


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


class GreenhouseTrialsEnv:
    """Causal inference: old records confound two factors; controlled trials reveal which ones cause growth."""

    TRIALS = 5

    def __init__(self, max_turns=8):
        self.max_turns = max_turns
        self.turn_count = 0
        self.base = 0
        self.effects = {}
        self.records = []
        self.trials = []

    def _growth(self, on):
        return self.base + sum(self.effects.get(f, 0) for f in on)

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            causes = rng.sample(FACTORS, 2)
            tagalong = rng.choice([f for f in FACTORS if f not in causes])
            self.base, self.effects = rng.randint(3, 8), {f: rng.randint(2, 6) for f in causes}
            self.records = []
            for _ in range(6):
                on = [f for f in FACTORS if f != tagalong and rng.random() < 0.5]
                on += [tagalong] if causes[0] in on else []
                self.records.append(([f for f in FACTORS if f in on], self._growth(on)))
            top = max(self.records, key=lambda r: r[1])[0]
            if set(top) != set(causes) and any(causes[0] in r[0] for r in self.records):
                break
        self.trials = []
        self.turn_count = 0
        return self._observe("[Greenhouse Trials] Four things might matter for seedling growth: light, water, compost, music."), {}

    def _observe(self, head):
        show = lambda rows, tag: " ".join(f"{tag} [{', '.join(on)}] {g} cm." for on, g in rows)
        return (f"{head} Old records (what was on, growth): {show(self.records, 'Record')} Some of the four truly cause "
                "growth; others only tagged along. Run a trial with \\boxed{test light water} (the named ones on, the "
                f"rest off; \\boxed{{test none}} for all off), {self.TRIALS - len(self.trials)} trial(s) left, then name "
                "exactly the causes with \\boxed{causes light, water}. A wrong answer ends the game. "
                f"Your trials: {show(self.trials, 'Trial') or 'none yet.'}")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = re.findall(r"[a-z]+", _boxed(action) or "")
        named = [w for w in words[1:] if w != "and"]
        if not words or words[0] not in ("test", "causes") or not set(named) <= set(FACTORS) | {"none"}:
            return self._observe("Unreadable action."), 0.0, False, truncated, {}
        on = [f for f in FACTORS if f in named]
        if words[0] == "test":
            if len(self.trials) >= self.TRIALS:
                return self._observe("No trials left: name the causes."), 0.0, False, truncated, {}
            self.trials.append((on, self._growth(on)))
            return self._observe(f"Trial done: {self._growth(on)} cm."), 0.0, False, truncated, {}
        if set(on) == set(self.effects):
            return "Correct: " + " and ".join(sorted(self.effects)) + " cause growth.", 1.0, True, False, {}
        return "Wrong: the causes are " + " and ".join(sorted(self.effects)) + ".", 0.0, True, False, {}

    def solution(self):
        return ("Test all off, then one factor at a time; the causes are " + " and ".join(sorted(self.effects))
                + ", the others add nothing.")
