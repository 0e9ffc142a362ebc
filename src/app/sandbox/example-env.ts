/** A small, valid environment the sandbox panel starts with. */
export const EXAMPLE_ENV = `class CodeBreakerEnv:
    """Find a hidden 3-digit code; each guess reports how many digits are in the right place."""

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.code = "000"

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.code = "".join(str(rng.randint(0, 9)) for _ in range(3))
        self.turn_count = 0
        return ("Guess the hidden 3-digit code. After each guess you learn how many digits "
                "are correct and in place. Answer like \\\\boxed{123}."), {}

    def step(self, action):
        self.turn_count += 1
        match = re.search(r"\\\\boxed\\{([^{}]*)\\}", action)
        guess = (match.group(1) if match else action).strip()
        truncated = self.turn_count >= self.max_turns
        if not (len(guess) == 3 and guess.isdigit()):
            return "Send exactly three digits, like \\\\boxed{123}.", 0.0, False, truncated, {}
        hits = sum(a == b for a, b in zip(guess, self.code))
        if hits == 3:
            return "Correct, the code is " + self.code + ".", 1.0, True, False, {}
        return f"{hits} digit{'' if hits == 1 else 's'} in the right place. Guess again as \\\\boxed{{ddd}}.", 0.0, False, truncated, {}

    def solution(self):
        return "Vary one digit at a time and keep the changes that raise the count."
`;
