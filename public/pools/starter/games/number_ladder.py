class NumberLadderEnv:
    """Mathematical reasoning: climb from a start number to a target with three fixed operations.

    No imports on purpose: `random` and `deque` come from the sandbox's pre-injected names.
    """

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.value = 0
        self.start = 0
        self.target = 0
        self.ops = {}
        self.best = []

    def _apply(self, value, op):
        kind, amount = self.ops[op]
        if kind == "add":
            return value + amount
        if kind == "sub":
            return value - amount
        return value * amount

    def _shortest(self, start, target):
        queue = deque([(start, [])])
        seen = {start}
        while queue:
            value, path = queue.popleft()
            if value == target:
                return path
            if len(path) >= 6:
                continue
            for op in sorted(self.ops):
                nxt = self._apply(value, op)
                if -50 <= nxt <= 300 and nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, path + [op]))
        return None

    def _describe(self, head):
        ops = ", ".join(f"{name} = {kind} {amount}" for name, (kind, amount) in sorted(self.ops.items()))
        return (f"{head} Current value: {self.value}. Target: {self.target}. Operations: {ops}. "
                f"Turn {self.turn_count}/{self.max_turns}. Send one operation per turn, e.g. \\boxed{{A}}.")

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            start = rng.randint(2, 9)
            self.ops = {
                "A": ("add", rng.randint(2, 7)),
                "B": ("mul", rng.randint(2, 3)),
                "C": ("sub", rng.randint(1, 4)),
            }
            target = rng.randint(20, 60)
            path = self._shortest(start, target)
            if path is not None and len(path) >= 3:
                break
        self.start, self.value, self.target, self.best = start, start, target, path
        self.turn_count = 0
        return self._describe("Reach the target exactly."), {}

    def step(self, action):
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        op = (match.group(1) if match else str(action)).strip().upper()
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        if op not in self.ops:
            return self._describe(f"Unknown operation {op!r}; use A, B or C."), 0.0, False, truncated, {}
        self.value = self._apply(self.value, op)
        if self.value == self.target:
            return self._describe("Target reached!"), 1.0, True, False, {"moves": self.turn_count}
        return self._describe(f"Applied {op}."), 0.0, False, truncated, {}

    def solution(self):
        return "Shortest sequence: " + " ".join(self.best)
