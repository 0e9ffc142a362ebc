import random
import re

NAMES = ("Ash", "Bea", "Cal", "Dot", "Eve", "Fin", "Gus", "Hal")
FEATURES = ("hat", "glasses", "scarf", "boots")


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().lower() if match else None


def _solvable(group, left):
    if len(group) <= 1:
        return True
    for f in range(len(FEATURES)):
        yes = [s for s in group if s[1][f]]
        no = [s for s in group if not s[1][f]]
        if left > 0 and yes and no and _solvable(yes, left - 1) and _solvable(no, left - 1):
            return True
    return False


class LineupEnv:
    """Logical deduction: three yes/no questions to a witness must single out the thief among eight suspects."""

    QUESTIONS = 3

    def __init__(self, max_turns=6):
        self.max_turns = max_turns
        self.turn_count = 0
        self.suspects = []
        self.thief = NAMES[0]
        self.answers = []

    def reset(self, seed=None):
        rng = random.Random(seed)
        combos = [tuple(bool(n >> f & 1) for f in range(4)) for n in range(16)]
        while True:
            looks = rng.sample(combos, len(NAMES))
            self.suspects = list(zip(NAMES, looks))
            both_ways = all(0 < sum(look[f] for look in looks) < len(looks) for f in range(4))
            if both_ways and _solvable(self.suspects, self.QUESTIONS):
                break
        self.thief = rng.choice(NAMES)
        self.answers = []
        self.turn_count = 0
        return self._observe("[Lineup] One of eight suspects is the thief."), {}

    def _observe(self, head):
        yn = lambda v: "yes" if v else "no"
        people = "; ".join(f"{n} ({', '.join(f'{f} {yn(v)}' for f, v in zip(FEATURES, look))})" for n, look in self.suspects)
        said = ", ".join(f"{f}={yn(v)}" for f, v in self.answers) or "none"
        return (f"{head} Suspects: {people}. Ask the witness about the thief with \\boxed{{ask hat}} (or glasses, "
                f"scarf, boots); then accuse with \\boxed{{accuse Name}}. A wrong accusation ends the game. "
                f"Witness answers so far: {said}. Questions left: {self.QUESTIONS - len(self.answers)}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = (_boxed(action) or "").split()
        look = dict(self.suspects)[self.thief]
        if len(words) == 2 and words[0] == "ask" and words[1] in FEATURES:
            if len(self.answers) >= self.QUESTIONS:
                return self._observe("The witness has left: accuse now."), 0.0, False, truncated, {}
            value = look[FEATURES.index(words[1])]
            self.answers.append((words[1], value))
            return self._observe(f"Witness: {'yes' if value else 'no'}."), 0.0, False, truncated, {}
        if len(words) == 2 and words[0] == "accuse" and words[1].capitalize() in NAMES:
            if words[1].capitalize() == self.thief:
                return f"Caught: {self.thief} is the thief!", 1.0, True, False, {}
            return f"Wrong: the thief was {self.thief}.", 0.0, True, False, {}
        return self._observe("Unreadable action."), 0.0, False, truncated, {}

    def solution(self):
        return (f"The thief is {self.thief}. Ask each time about a feature that splits the remaining suspects "
                "into halves, so three answers leave one suspect.")
