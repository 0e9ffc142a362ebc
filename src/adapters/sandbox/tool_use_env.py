"""SPADE Lab's base class for tool-use environments, and the facts the validator reads from one.

Loaded with the harness into its private namespace; the harness hands ToolUseBaseEnv to every
environment namespace, so designed code subclasses it without importing it. The agent acts with
<tool_call>{"name": ..., "arguments": {...}}</tool_call> or <answer>...</answer>; a subclass
writes reset(seed), one tool_<name>(**kwargs) -> str per tool, and usually solution().
"""

import json
import re

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
_CALL_TAG = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL | re.IGNORECASE)
FORMAT_ERROR_REWARD = -0.1
_FORMAT_ERROR = (
    'Format error: call a tool with <tool_call>{"name": "...", "arguments": {...}}</tool_call> '
    "or give the final answer as <answer>...</answer>."
)


def _call_of(body):
    """(name, arguments) of a tool-call body, or None when it is not a JSON object naming a tool."""
    try:
        call = json.loads(body)
    except ValueError:
        return None
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        return None
    arguments = call.get("arguments", call.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if arguments is None:
        arguments = {}
    return (call["name"], arguments) if isinstance(arguments, dict) else None


def _is_closing_word(expected):
    """True when a task's expected answer only closes it: unset, or "done" in any case."""
    return expected is None or str(expected).strip().lower() == "done"


def _as_number(text):
    return float(text.replace("$", "").replace(",", "").strip())


def _same_answer(given, expected):
    """Equal ignoring case and surrounding spaces, or both numbers within 0.01 once `$` and `,` are removed."""
    if expected is None:
        return False
    mine, theirs = str(given).strip(), str(expected).strip()
    if mine.lower() == theirs.lower():
        return True
    try:
        return abs(_as_number(mine) - _as_number(theirs)) < 0.01
    except (ValueError, OverflowError):
        return False


class ToolUseBaseEnv:
    """Simulated tools behind a text protocol; subclasses write reset, their tool_<name> methods and solution.

    reset(seed) fills self._tools ({name: {"description": str, "parameters": JSON schema}}),
    self._state and self._expected_answer; a multi-turn task also sets self._user_messages (the
    instructions, revealed one at a time), self._message_criteria (one callable per instruction,
    state -> bool) and self._current_msg = 0, and returns the first instruction.
    """

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.turn_count = 0
        self._tools = {}
        self._state = {}
        self._call_history = []
        self._expected_answer = None
        self._user_messages = []
        self._message_criteria = []
        self._current_msg = 0
        self.reset()

    def reset(self, seed=None):
        raise NotImplementedError("a tool-use environment defines reset(seed) and returns (first observation, {})")

    def get_tools(self):
        """The tools in the function-calling form: [{"type": "function", "function": {name, description, parameters}}]."""
        return [
            {
                "type": "function",
                "function": {
                    "name": name,
                    "description": spec.get("description", ""),
                    "parameters": spec.get("parameters", {"type": "object", "properties": {}}),
                },
            }
            for name, spec in self._tools.items()
        ]

    def execute_tool(self, name, arguments):
        """Runs tool_<name>(**arguments) and returns its result as text; an unknown tool or a raising one gives an error text."""
        method = getattr(self, "tool_" + name, None) if isinstance(name, str) and name else None
        if not callable(method):
            known = ", ".join(str(key) for key in self._tools) or "none"
            return f"Error: there is no tool named {name!r}. The tools are: {known}."
        try:
            result = str(method(**arguments))
        except Exception as exc:
            return f"Error: {name} failed with {type(exc).__name__}: {exc}"
        self._call_history.append({"name": name, "arguments": dict(arguments), "result": result})
        return result

    def step(self, action):
        self.turn_count += 1
        last_turn = self.turn_count >= self.max_turns
        text = str(action)
        answer = _ANSWER_TAG.search(text)
        reward = 0.0
        if answer is not None:
            if self._check_answer(answer.group(1).strip()):
                return "Correct!", 1.0, True, False, {}
            observation = self._wrong_answer_text()
        else:
            tag = _CALL_TAG.search(text)
            call = _call_of(tag.group(1)) if tag is not None else None
            if call is None:
                observation, reward = _FORMAT_ERROR, FORMAT_ERROR_REWARD
            else:
                observation = "Tool result:\n" + self.execute_tool(*call)
        if last_turn:
            return observation + "\n\n" + self._out_of_turns_text(), reward, False, True, {}
        return observation, reward, False, False, {}

    def _check_answer(self, answer):
        """Whether a submitted answer wins. Override for other rules.

        A multi-turn task needs every instruction done; then, when its expected answer is "done"
        (or unset), any non-empty closing answer wins ("Done.", "$408", "all set"): the criteria
        already judged the work. Otherwise the answer must match the expected one (_same_answer).
        """
        steps = self._instructions()
        if steps and self._current_msg < len(steps):
            return False
        if steps and _is_closing_word(self._expected_answer):
            return str(answer).strip() != ""
        return _same_answer(answer, self._expected_answer)

    def _advance_if_done(self):
        """Moves on once the current instruction's criterion holds; a tool result ends with the text this returns."""
        steps = self._instructions()
        if self._current_msg >= len(steps) or not self._message_criteria[self._current_msg](self._state):
            return ""
        self._current_msg += 1
        if self._current_msg >= len(steps):
            return "\n\n[ALL INSTRUCTIONS DONE] Reply with <answer>done</answer>."
        return f"\n\n[INSTRUCTION {self._current_msg} DONE. NEXT INSTRUCTION] {steps[self._current_msg]}"

    def _instructions(self):
        steps = getattr(self, "_user_messages", None)
        return steps if isinstance(steps, (list, tuple)) else []

    def _wrong_answer_text(self):
        steps, at = self._instructions(), getattr(self, "_current_msg", None)
        if steps and isinstance(at, int) and 0 <= at < len(steps):
            return f'Not accepted: instruction {at + 1} of {len(steps)} is still open: "{steps[at]}" Finish it with the tools first.'
        if steps and isinstance(at, int) and at >= len(steps):
            return "Not accepted: every instruction is done, but this is not the answer the task expects. Reply with the final answer the last tool result asked for."
        return "Not accepted. Keep using the tools."

    def _out_of_turns_text(self):
        solve = getattr(self, "solution", None)
        try:
            shown = str(solve()) if callable(solve) else ""
        except Exception:
            shown = ""
        return "Out of turns." + (f" A solution:\n{shown}" if shown else "")


def _criterion_outcome(criterion, state):
    try:
        return bool(criterion(state))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:300]


def tool_use_facts(env):
    """What validation checks on a tool-use environment after a reset, as plain data; None for other environments."""
    if not isinstance(env, ToolUseBaseEnv):
        return None
    facts = {"methods": sorted(n[5:] for n in dir(env) if n.startswith("tool_") and callable(getattr(env, n, None)))}
    try:
        facts["tools"] = env.get_tools()
    except Exception as exc:
        facts["tools_error"] = f"{type(exc).__name__}: {exc}"[:300]
    messages, criteria = getattr(env, "_user_messages", None), getattr(env, "_message_criteria", None)
    facts["messages"] = list(messages) if isinstance(messages, (list, tuple)) else None
    state = getattr(env, "_state", None)
    facts["criteria"] = [_criterion_outcome(c, state) for c in criteria] if isinstance(criteria, (list, tuple)) else None
    facts["current"] = getattr(env, "_current_msg", None)
    return facts
