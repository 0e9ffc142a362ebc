import random
import re

CASKETS = 5


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip() if match else None


def _true(statement, gem):
    kind, i = statement
    return {"in": gem == i, "not": gem != i, "above": gem > i, "below": gem < i,
            "odd": gem % 2 == 1, "even": gem % 2 == 0}[kind]


def _text(statement):
    kind, i = statement
    return {"in": f"The gem is in casket {i}.", "not": f"The gem is not in casket {i}.",
            "above": f"The gem is in a casket numbered higher than {i}.",
            "below": f"The gem is in a casket numbered lower than {i}.",
            "odd": "The gem is in an odd-numbered casket.", "even": "The gem is in an even-numbered casket."}[kind]


class GemCasketsEnv:
    """Logical deduction: five inscribed caskets, a known number of true inscriptions; find the gem."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.gem = 1
        self.labels = []
        self.truths = 0

    def reset(self, seed=None):
        rng = random.Random(seed)
        spots = range(1, CASKETS + 1)
        while True:
            labels = []
            for _ in spots:
                kind = rng.choice(["in", "not", "not", "above", "below", "odd", "even"])
                edge = {"above": range(1, CASKETS), "below": range(2, CASKETS + 1)}.get(kind, spots)
                labels.append((kind, rng.choice(list(edge))))
            counts = {g: sum(_true(s, g) for s in labels) for g in spots}
            gem = rng.choice(list(spots))
            majority = max(spots, key=lambda g: (counts[g], -g))
            if len(set(labels)) == CASKETS and list(counts.values()).count(counts[gem]) == 1 and majority != gem:
                break
        self.gem, self.labels, self.truths = gem, labels, counts[gem]
        self.turn_count = 0
        said = " ".join(f'Casket {i}: "{_text(s)}"' for i, s in zip(spots, labels))
        return (f"[Gem Caskets] One of five caskets, numbered 1 to 5, holds a gem. Inscriptions: {said} "
                f"Exactly {self.truths} of the 5 inscriptions are true. Which casket holds the gem? "
                "Reply with \\boxed{casket number}. One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"[1-5]", text):
            return "Expected a casket number from 1 to 5, e.g. \\boxed{2}.", 0.0, False, truncated, {}
        if int(text) == self.gem:
            return f"Correct: the gem is in casket {self.gem}!", 1.0, True, False, {}
        return f"Wrong: the gem was in casket {self.gem}.", 0.0, True, False, {}

    def solution(self):
        return (f"Casket {self.gem}: for each casket count the inscriptions that would be true if the gem were "
                f"there; only casket {self.gem} gives exactly {self.truths}.")
