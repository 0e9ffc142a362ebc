import random
import re


class ValveFountainEnv:
    """Causal inference: four valves in a park; only one of them feeds the fountain. Closing a
    valve for a moment shows whether the fountain depends on it."""

    VALVES = 4

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.feeder = 1
        self.tested = {}

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.feeder = rng.randint(1, self.VALVES)
        self.tested = {}
        self.turn_count = 0
        return self._observe("The fountain is splashing."), {}

    def _observe(self, head):
        notes = "; ".join(f"valve {v}: {r}" for v, r in sorted(self.tested.items())) or "none yet"
        untested = ", ".join(str(v) for v in range(1, self.VALVES + 1) if v not in self.tested) or "none"
        return (f"{head} Valves 1-{self.VALVES}. Checks so far: {notes}. Unchecked valves: {untested}. "
                "Actions: \\boxed{close V} shuts valve V for a moment; \\boxed{answer V} names the feeding valve (final).")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).strip().lower().split()
        if len(words) != 2 or words[0] not in ("close", "answer") or words[1] not in [str(v) for v in range(1, self.VALVES + 1)]:
            return self._observe("The park keeper frowns: close V or answer V."), 0.0, False, truncated, {}
        valve = int(words[1])
        if words[0] == "answer":
            if valve == self.feeder:
                return f"Valve {valve} feeds the fountain. Correct!", 1.0, True, False, {}
            return f"Valve {valve} only waters the lawn; valve {self.feeder} feeds the fountain.", 0.0, True, False, {}
        stopped = valve == self.feeder
        self.tested[valve] = "fountain stopped" if stopped else "fountain kept splashing"
        head = f"With valve {valve} shut, the fountain {'stops' if stopped else 'keeps splashing'}."
        return self._observe(head), 0.0, False, truncated, {}

    def solution(self):
        return f"Close valves one at a time; the fountain stops for valve {self.feeder}."
