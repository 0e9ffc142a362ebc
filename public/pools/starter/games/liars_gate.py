import random
import re


class LiarsGateEnv:
    """Logical deduction: three guards, three doors, exactly one guard always lies about the exit."""

    GUARDS = ["Amber", "Basil", "Cyan"]

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.exit = 1
        self.liar = "Amber"
        self.claims = {}
        self.heard = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.exit = rng.randint(1, 3)
        self.liar = rng.choice(self.GUARDS)
        self.claims = {}
        for guard in self.GUARDS:
            if guard == self.liar:
                self.claims[guard] = rng.choice([d for d in (1, 2, 3) if d != self.exit])
            else:
                self.claims[guard] = self.exit
        self.heard = []
        self.turn_count = 0
        return self._observe("You stand before doors 1, 2 and 3: one leads out, the others drop into a pit."), {}

    def _observe(self, head):
        notes = " ".join(f"{g} says door {self.claims[g]}." for g in self.heard) or "nobody yet."
        return (f"{head} Guards: Amber, Basil, Cyan; exactly one of them always lies. Heard so far: {notes} "
                "Actions: \\boxed{ask NAME} to hear a guard, \\boxed{open N} to open door N (final).")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).strip().lower().split()
        if len(words) == 2 and words[0] == "ask" and words[1].capitalize() in self.GUARDS:
            guard = words[1].capitalize()
            if guard not in self.heard:
                self.heard.append(guard)
            return self._observe(f"{guard} speaks."), 0.0, False, truncated, {}
        if len(words) == 2 and words[0] == "open" and words[1] in ("1", "2", "3"):
            door = int(words[1])
            if door == self.exit:
                return f"Door {door} swings open onto daylight: you escaped! The liar was {self.liar}.", 1.0, True, False, {}
            return f"Door {door} opens onto the pit. The exit was door {self.exit}; {self.liar} was the liar.", 0.0, True, False, {}
        return self._observe("The guards stare at you: that is not an action here."), 0.0, False, truncated, {}

    def solution(self):
        return f"Ask two guards; if they agree open their door, else ask the third and follow the majority. Exit: door {self.exit}."
