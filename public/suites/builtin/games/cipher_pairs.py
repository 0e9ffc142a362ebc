import random
import re

SHORT = ("stone", "river", "cloud", "maple", "tiger", "bread", "flint", "crisp", "ocean", "pilot", "mild", "harp", "wave")
LONG = ("lantern", "harvest", "compass", "granite", "whisper", "blanket", "orchard", "marble", "journey", "thunder")


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


def _encode(word, shifts):
    return "".join(chr((ord(ch) - 97 + shifts(i)) % 26 + 97) for i, ch in enumerate(word))


class CipherPairsEnv:
    """Pattern recognition: learn a position-dependent letter shift from examples and encode a longer word."""

    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0
        self.describe = ""
        self.target = ""
        self.answer = ""

    def reset(self, seed=None):
        rng = random.Random(seed)
        kind = rng.choice(["step", "pair", "triple"])
        if kind == "step":
            k, d = rng.randint(1, 25), rng.randint(1, 5)
            shifts, self.describe = (lambda i: k + d * i), f"shift {k} for the first letter, then {d} more each letter"
        else:
            size = 2 if kind == "pair" else 3
            keys = [rng.randint(1, 25) for _ in range(size)]
            while len(set(keys)) == 1:
                keys[-1] = rng.randint(1, 25)
            shifts = lambda i: keys[i % size]
            self.describe = "shifts repeat " + ", ".join(map(str, keys))
        words = rng.sample(SHORT, 3)
        if max(len(w) for w in words) < 5:
            words[0] = "stone"
        self.target = rng.choice(LONG)
        self.answer = _encode(self.target, shifts)
        pairs = "; ".join(f"{w} -> {_encode(w, shifts)}" for w in words)
        self.turn_count = 0
        return (f"[Cipher Pairs] A code moves every letter forward in the alphabet (z wraps round to a) by an amount "
                f"that depends only on the letter's position in the word. Examples: {pairs}. Encode: {self.target}. "
                "Reply with \\boxed{codeword}. One wrong answer ends the game."), {}

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        text = _boxed(action)
        if text is None or not re.fullmatch(r"[a-z]{1,20}", text):
            return "Expected one word in lower-case letters, e.g. \\boxed{qwerty}.", 0.0, False, truncated, {}
        if text == self.answer:
            return f"Correct: {self.target} -> {self.answer}.", 1.0, True, False, {}
        return f"Wrong: {self.target} -> {self.answer}.", 0.0, True, False, {}

    def solution(self):
        return f"The rule: {self.describe}. {self.target} encodes to {self.answer}."
