import random
import re


class PeriodicBeadsEnv:
    """Pattern recognition: a bead necklace repeats a hidden block of 2 to 4 colours.
    Predict the next bead; every miss reveals the true bead. Four correct predictions win."""

    COLOURS = ["red", "blue", "green", "amber", "white", "black"]
    GOAL = 4

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.block = ["red", "blue"]
        self.beads = []
        self.correct = 0

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.block = rng.sample(self.COLOURS, rng.choice([2, 2, 3, 4]))
        shown = 2 * len(self.block) + rng.randint(0, len(self.block) - 1)
        self.beads = [self.block[i % len(self.block)] for i in range(shown)]
        self.correct = 0
        self.turn_count = 0
        return self._observe("A craftsman threads a necklace."), {}

    def _observe(self, head):
        return (f"{head} Necklace so far: {' '.join(self.beads)} ? (next bead). "
                f"Correct predictions: {self.correct} of {self.GOAL}. Colours: {', '.join(self.COLOURS)}. "
                "Predict the next bead with \\boxed{colour}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        guess = (match.group(1) if match else str(action)).strip().lower()
        actual = self.block[len(self.beads) % len(self.block)]
        self.beads.append(actual)
        if guess == actual:
            self.correct += 1
            if self.correct >= self.GOAL:
                return f"{actual.capitalize()} it is. Four beads called right: the necklace is yours!", 1.0, True, False, {}
            return self._observe(f"Yes, {actual}."), 0.0, False, truncated, {}
        return self._observe(f"The craftsman threads {actual}, not {guess[:20] or 'nothing'}."), 0.0, False, truncated, {}

    def solution(self):
        return "The necklace repeats the block " + " ".join(self.block) + "; copy the bead one block back."
