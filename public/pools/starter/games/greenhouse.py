import random
import re


class GreenhouseEnv:
    """Causal inference: one device in a greenhouse causes mold overnight. An old log shows a device
    that shares a timer with the culprit, so it was on every mold night without causing anything.
    Only unplugging devices one night at a time separates cause from correlation."""

    DEVICES = ["heater", "lamp", "fan", "mister"]

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.cause = "mister"
        self.decoy = "lamp"
        self.results = {}

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.cause = rng.choice(self.DEVICES)
        self.decoy = rng.choice([d for d in self.DEVICES if d != self.cause])
        self.results = {}
        self.turn_count = 0
        return self._observe("The mold alarm rang again last night."), {}

    def _observe(self, head):
        done = "; ".join(f"night without the {d}: {r}" for d, r in self.results.items()) or "none"
        untested = ", ".join(d for d in self.DEVICES if d not in self.results) or "none"
        return (f"{head} Devices: heater, lamp, fan, mister (all plugged in). "
                f"Old log: the {self.decoy} was running on every mold night. Tests so far: {done}. Untested: {untested}. "
                "Actions: \\boxed{night without DEVICE} runs one night with that device unplugged; "
                "\\boxed{blame DEVICE} names the cause (final).")

    def step(self, action):
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).strip().lower().split()
        device = words[-1] if words else ""
        if device not in self.DEVICES:
            return self._observe("Nothing happens: name one of the devices."), 0.0, False, truncated, {}
        if words[0] == "blame":
            if device == self.cause:
                return f"You remove the {device} for good and the mold never returns. Correct!", 1.0, True, False, {}
            return f"You remove the {device}, but the mold is back the next night. The cause was the {self.cause}.", 0.0, True, False, {}
        if words[:2] == ["night", "without"]:
            result = "quiet night, no mold" if device == self.cause else "the alarm rang"
            self.results[device] = result
            if device == self.cause:
                head = f"A quiet night without the {device}: no mold at all."
            else:
                head = f"Without the {device}, the alarm still rang."
            return self._observe(head), 0.0, False, truncated, {}
        return self._observe("Nothing happens: use night without DEVICE or blame DEVICE."), 0.0, False, truncated, {}

    def solution(self):
        return f"Unplug one device per night; the night without the {self.cause} is quiet, so blame the {self.cause}."
