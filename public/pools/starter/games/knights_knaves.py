class IslandersEnv:
    """Logical deduction: label four islanders as knights (always truthful) or knaves (always lying).

    Uses `product` and `random` from the sandbox's pre-injected names.
    """

    NAMES = ("A", "B", "C", "D")

    def __init__(self, max_turns=12):
        self.max_turns = max_turns
        self.turn_count = 0
        self.kinds = {}
        self.statements = []
        self.labelled = {}

    @staticmethod
    def _holds(statement, kinds):
        kind, first, second = statement
        if kind == "knight":
            return kinds[first]
        if kind == "knave":
            return not kinds[first]
        if kind == "same":
            return kinds[first] == kinds[second]
        return kinds[first] != kinds[second]

    @staticmethod
    def _negate(statement):
        flip = {"knight": "knave", "knave": "knight", "same": "differ", "differ": "same"}
        return (flip[statement[0]],) + tuple(statement[1:])

    def _consistent(self, kinds):
        return all(self._holds(s, kinds) == kinds[speaker] for speaker, s in self.statements)

    def _generate(self, rng):
        kinds = {name: rng.random() < 0.5 for name in self.NAMES}
        statements = []
        for speaker in self.NAMES:
            others = [n for n in self.NAMES if n != speaker]
            kind = rng.choice(["knight", "knave", "same", "differ"])
            first, second = rng.sample(others, 2)
            statement = (kind, first, second)
            if self._holds(statement, kinds) != kinds[speaker]:
                statement = self._negate(statement)
            statements.append((speaker, statement))
        return kinds, statements

    @staticmethod
    def _text(speaker, statement):
        kind, first, second = statement
        if kind in ("knight", "knave"):
            return f"{speaker} says: '{first} is a {kind}.'"
        word = "the same kind" if kind == "same" else "different kinds"
        return f"{speaker} says: '{first} and {second} are {word}.'"

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self.kinds, self.statements = self._generate(rng)
            worlds = [dict(zip(self.NAMES, bits)) for bits in product([True, False], repeat=4)]
            if sum(1 for w in worlds if self._consistent(w)) == 1:
                break
        self.labelled = {}
        self.turn_count = 0
        return self._observe("Knights always tell the truth, knaves always lie."), {}

    def _observe(self, head):
        said = " ".join(self._text(s, st) for s, st in self.statements)
        done = ", ".join(f"{n}={'knight' if k else 'knave'}" for n, k in sorted(self.labelled.items())) or "none"
        return (f"{head} {said} Labelled so far: {done}. Label one islander per turn, "
                f"e.g. \\boxed{{A knight}} or \\boxed{{B knave}}. A wrong label ends the game.")

    def step(self, action):
        match = re.search(r"\\boxed\{([^{}]*)\}", str(action))
        words = (match.group(1) if match else str(action)).split()
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        if len(words) != 2 or words[0].upper() not in self.NAMES or words[1].lower() not in ("knight", "knave"):
            return self._observe("Could not read that label."), 0.0, False, truncated, {}
        name, is_knight = words[0].upper(), words[1].lower() == "knight"
        if self.kinds[name] != is_knight:
            return self._observe(f"Wrong: {name} is not a {words[1].lower()}."), 0.0, True, False, {}
        self.labelled[name] = is_knight
        if len(self.labelled) == len(self.NAMES):
            return self._observe("All islanders labelled correctly!"), 1.0, True, False, {}
        return self._observe(f"Correct, {name} is a {words[1].lower()}."), 0.0, False, truncated, {}

    def solution(self):
        return ", ".join(f"{n} {'knight' if self.kinds[n] else 'knave'}" for n in self.NAMES)
