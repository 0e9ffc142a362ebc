"""SPADE Lab's base classes for tool-use environments, and the facts the validator reads from one.

Loaded with the harness into its private namespace; the harness hands one of the two classes to
every environment namespace under the name ToolUseBaseEnv, so designed code subclasses it without
importing it. ToolUseBaseEnv has the reference's API and rules (docs/method.md section 6);
AidedToolUseBaseEnv, the tab's default, adds the multi-turn state and helpers a small model's
designs tend to lean on, lenient call parsing and its own feedback texts. The agent acts with
<tool_call>{"name": ..., "arguments": {...}}</tool_call> or <answer>...</answer>; a subclass writes
reset(seed), one tool_<name>(**kwargs) per tool, and solution().
"""

import json
import re

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
_CALL_TAG = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL | re.IGNORECASE)
_EXACT_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
_EXACT_CALL_TAG = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
FORMAT_ERROR_REWARD = -0.1
_FORMAT_ERROR = (
    'Format error: call a tool with <tool_call>{"name": "...", "arguments": {...}}</tool_call> '
    "or give the final answer as <answer>...</answer>."
)
_REFERENCE_FORMAT_ERROR = "Format error: call a tool, or submit the result as <answer>result</answer>."
_REFERENCE_BAD_CALL = "Format error: the tool call's arguments could not be read."


def tool_output(result):
    """The text of what execute_tool returned: the "output" of a dict (the reference's form), else the value as text."""
    if isinstance(result, dict):
        return str(result.get("output", ""))
    return str(result)


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


def _same_text_or_number(mine, theirs):
    """Equal ignoring case, or both numbers within 0.01 once `$` and `,` are removed."""
    if mine.lower() == theirs.lower():
        return True
    try:
        return abs(_as_number(mine) - _as_number(theirs)) < 0.01
    except (ValueError, OverflowError):
        return False


def _same_answer(given, expected):
    """The tab's comparison: no expected answer never matches; else _same_text_or_number on the trimmed texts."""
    if expected is None:
        return False
    return _same_text_or_number(str(given).strip(), str(expected).strip())


class ToolUseBaseEnv:
    """The reference's base class: a subclass writes reset, solution and tool_<name> methods.

    reset(seed) fills self._tools ({name: {"description": str, "parameters": JSON schema}}),
    self._state and self._expected_answer and returns (observation, {}). A multi-turn task keeps
    its own instructions, criteria and progress (this class gives no defaults for them).
    """

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.turn_count = 0
        self._tools = {}
        self._state = {}
        self._call_history = []
        self._expected_answer = None
        self.reset()

    def reset(self, seed=None):
        raise NotImplementedError("a tool-use environment defines reset(seed) and returns (first observation, {})")

    def solution(self):
        raise NotImplementedError("a tool-use environment defines solution(): the calls that solve it and the answer")

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
        """Runs tool_<name>(**arguments): {"output": text, "returncode": 0}, or returncode 1 with an error text."""
        method = getattr(self, f"tool_{name}", None)
        if method is None:
            return {"output": f"Unknown tool '{name}'", "returncode": 1}
        try:
            result = method(**arguments)
        except Exception as exc:
            return {"output": f"Error calling {name}: {exc}", "returncode": 1}
        self._call_history.append({"name": name, "arguments": arguments, "result": str(result)})
        return {"output": str(result), "returncode": 0}

    def step(self, action):
        """One reply: an <answer> is checked, else a <tool_call> runs its tool directly; the last turn shows solution()."""
        self.turn_count += 1
        last_turn = self.turn_count >= self.max_turns
        answer = _EXACT_ANSWER_TAG.search(action)
        if answer is not None:
            if self._check_answer(answer.group(1).strip()):
                return "Correct!", 1.0, True, False, {}
            if last_turn:
                return f"Not correct, and no turns are left. A solution:\n{self.solution()}", 0.0, False, True, {}
            return self._incorrect_answer_feedback(), 0.0, False, False, {}
        tag = _EXACT_CALL_TAG.search(action)
        if tag is None:
            return self._unless_last_turn(last_turn, _REFERENCE_FORMAT_ERROR, FORMAT_ERROR_REWARD)
        try:
            call = json.loads(tag.group(1))
            name = call.get("name", "")
            arguments = call.get("arguments", {})
        except (ValueError, AttributeError):
            return self._unless_last_turn(last_turn, _REFERENCE_BAD_CALL, FORMAT_ERROR_REWARD)
        if not isinstance(arguments, dict):
            arguments = {}
        method = getattr(self, f"tool_{name}", None)
        if method is None:
            known = ", ".join(self._tools.keys())
            return self._unless_last_turn(last_turn, f"There is no tool '{name}'. The tools: {known}", 0.0)
        try:
            result = method(**arguments)
            self._call_history.append({"name": name, "arguments": arguments, "result": str(result)})
        except Exception as exc:
            result = f"Error calling {name}: {exc}"
        observation = f"Tool result:\n{result}"
        if last_turn:
            return f"{observation}\n\nNo turns are left. A solution:\n{self.solution()}", 0.0, False, True, {}
        return observation, 0.0, False, False, {}

    def _unless_last_turn(self, last_turn, observation, reward):
        if last_turn:
            return f"No turns are left. A solution:\n{self.solution()}", 0.0, False, True, {}
        return observation, reward, False, False, {}

    def _obs_suffix(self):
        """Kept for designs that append it to an observation: the tools travel with the request, so it adds nothing."""
        return ""

    def _incorrect_answer_feedback(self):
        """What a wrong <answer> gets: with _user_messages and an in-range _current_msg, the instruction still open."""
        steps, at = getattr(self, "_user_messages", None), getattr(self, "_current_msg", None)
        if isinstance(steps, (list, tuple)) and isinstance(at, int) and 0 <= at < len(steps):
            return f'Incorrect: step {at + 1} of {len(steps)} is not done yet: "{steps[at]}" Use the tools to finish it, then answer done.'
        return "Incorrect. Keep using the tools."

    def _check_answer(self, answer):
        """Equal to the expected answer's text ignoring case, or both numbers within 0.01. Override for other rules."""
        return _same_text_or_number(str(answer).strip(), str(self._expected_answer).strip())

    def close(self):
        """Releases nothing; a subclass may override it, and it is called when the environment is done with."""


class AidedToolUseBaseEnv(ToolUseBaseEnv):
    """The tab's base class: ToolUseBaseEnv with multi-turn defaults, lenient calls and its own feedback.

    A multi-turn task sets self._user_messages (the instructions, revealed one at a time),
    self._message_criteria (one callable per instruction, state -> bool) and self._current_msg = 0
    in reset and returns the first instruction; _advance_if_done() moves on and says what is next.
    """

    def __init__(self, max_turns=10, **kwargs):
        self._user_messages = []
        self._message_criteria = []
        self._current_msg = 0
        super().__init__(max_turns, **kwargs)

    def execute_tool(self, name, arguments):
        """Runs tool_<name>(**arguments); an unknown tool or a raising one gives an error text with returncode 1."""
        method = getattr(self, "tool_" + name, None) if isinstance(name, str) and name else None
        if not callable(method):
            known = ", ".join(str(key) for key in self._tools) or "none"
            return {"output": f"Error: there is no tool named {name!r}. The tools are: {known}.", "returncode": 1}
        try:
            result = str(method(**arguments))
        except Exception as exc:
            return {"output": f"Error: {name} failed with {type(exc).__name__}: {exc}", "returncode": 1}
        self._call_history.append({"name": name, "arguments": dict(arguments), "result": result})
        return {"output": result, "returncode": 0}

    def step(self, action):
        """One reply: an <answer> is checked, else the first well-formed <tool_call> goes through execute_tool."""
        self.turn_count += 1
        last_turn = self.turn_count >= self.max_turns
        text = str(action)
        answer = _ANSWER_TAG.search(text)
        reward = 0.0
        if answer is not None:
            if self._check_answer(answer.group(1).strip()):
                return "Correct!", 1.0, True, False, {}
            observation = self._incorrect_answer_feedback()
        else:
            tag = _CALL_TAG.search(text)
            call = _call_of(tag.group(1)) if tag is not None else None
            if call is None:
                observation, reward = _FORMAT_ERROR, FORMAT_ERROR_REWARD
            else:
                observation = "Tool result:\n" + tool_output(self.execute_tool(*call))
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

    def _incorrect_answer_feedback(self):
        """What a wrong <answer> gets: the open instruction, or that the answer is not the one expected."""
        steps, at = self._instructions(), getattr(self, "_current_msg", None)
        if steps and isinstance(at, int) and 0 <= at < len(steps):
            return f'Not accepted: instruction {at + 1} of {len(steps)} is still open: "{steps[at]}" Finish it with the tools first.'
        if steps and isinstance(at, int) and at >= len(steps):
            return "Not accepted: every instruction is done, but this is not the answer the task expects. Reply with the final answer the last tool result asked for."
        return "Not accepted. Keep using the tools."

    def _out_of_turns_text(self):
        shown = solution_text(self)
        return "Out of turns." + (f" A solution:\n{shown}" if shown else "")


def has_solution(env):
    """Whether the environment has a solution() of its own (the base class's raising one does not count)."""
    method = getattr(type(env), "solution", None)
    return callable(getattr(env, "solution", None)) and method is not ToolUseBaseEnv.solution


def solution_text(env):
    """What the environment's own solution() returns, as text; "" when it has none or it raises."""
    if not has_solution(env):
        return ""
    try:
        return str(env.solution())
    except Exception:
        return ""


def base_class(aided):
    """The class designed code gets as ToolUseBaseEnv: the tab's aided one, or the reference's own API."""
    return AidedToolUseBaseEnv if aided else ToolUseBaseEnv


def _criterion_outcome(criterion, state):
    try:
        return bool(criterion(state))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:300]


def tool_use_facts(env):
    """What validation checks on a tool-use environment, as plain data; None when it is played as a game.

    As in the reference, an environment is a tool-use one when get_tools() returns a non-empty list
    (subclassing ToolUseBaseEnv is not needed); a get_tools() that raises is reported as such.
    """
    get_tools = getattr(env, "get_tools", None)
    if not callable(get_tools):
        return None
    facts = {"methods": sorted(n[5:] for n in dir(env) if n.startswith("tool_") and callable(getattr(env, n, None)))}
    try:
        tools = get_tools()
    except Exception as exc:
        facts["tools_error"] = f"{type(exc).__name__}: {exc}"[:300]
        tools = None
    else:
        if not tools:
            return None
        facts["tools"] = tools
    messages, criteria = getattr(env, "_user_messages", None), getattr(env, "_message_criteria", None)
    facts["messages"] = list(messages) if isinstance(messages, (list, tuple)) else None
    state = getattr(env, "_state", None)
    facts["criteria"] = [_criterion_outcome(c, state) for c in criteria] if isinstance(criteria, (list, tuple)) else None
    facts["current"] = getattr(env, "_current_msg", None)
    return facts
