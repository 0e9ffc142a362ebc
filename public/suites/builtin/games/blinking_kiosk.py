import random
import re

BUTTONS = "ABCDE"


def _boxed(action):
    match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
    return match.group(1).strip().upper() if match else None


class BlinkingKioskEnv:
    """Causal inference: a lamp blinks on a hidden beat; find the one button that really lights it."""

    def __init__(self, max_turns=10):
        self.max_turns = max_turns
        self.turn_count = 0
        self.real = "A"
        self.beat = (3, 0)
        self.log = []

    def _timer(self, turn):
        return turn % self.beat[0] == self.beat[1]

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.real, decoy = rng.sample(BUTTONS, 2)
        period = rng.choice([3, 4])
        self.beat = (period, rng.randrange(period))
        idle = [b for b in BUTTONS if b not in (self.real, decoy)]
        self.log = []
        for turn in range(1, 10):
            press = decoy if self._timer(turn) else rng.choice(idle + [None, None])
            self.log.append((turn, press, self._timer(turn)))
        self.turn_count = 0
        return self._observe("[Blinking Kiosk] A kiosk has buttons A to E and a lamp. One button really lights the "
                             "lamp; the lamp also blinks by itself on a steady beat."), {}

    def _observe(self, head):
        entries = "; ".join(f"Turn {t}: {f'{p} pressed' if p else 'no press'}, {'blink' if lit else 'dark'}"
                            for t, p, lit in self.log)
        return (f"{head} Each turn press one button with \\boxed{{press C}} or wait with \\boxed{{wait}}; name the "
                "real button with \\boxed{answer C}. A wrong answer ends the game. Turns 1 to 9 were a previous "
                f"visitor. Log: {entries}. Next is turn {len(self.log) + 1}.")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        words = (_boxed(action) or "").split()
        turn = len(self.log) + 1
        if words == ["WAIT"] or (len(words) == 2 and words[0] == "PRESS" and words[1] in list(BUTTONS)):
            press = words[1] if len(words) == 2 else None
            lit = self._timer(turn) or press == self.real
            self.log.append((turn, press, lit))
            return self._observe(f"The lamp {'blinked' if lit else 'stayed dark'}."), 0.0, False, truncated, {}
        if len(words) == 2 and words[0] == "ANSWER" and words[1] in list(BUTTONS):
            if words[1] == self.real:
                return f"Correct: button {self.real} lights the lamp.", 1.0, True, False, {}
            return f"Wrong: the real button is {self.real}.", 0.0, True, False, {}
        return self._observe("Unreadable action."), 0.0, False, truncated, {}

    def solution(self):
        period, phase = self.beat
        return (f"Button {self.real}. The lamp blinks by itself on turns that leave remainder {phase} when divided by "
                f"{period}; press buttons on other turns and see which one lights it.")
