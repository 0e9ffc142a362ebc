// The tool-use setting's default templates (docs/method.md sections 4 and 6), in this project's own words.

const FENCE = '```';

/** The multi-turn tool-use designer template: contract, solvability rules, tool rules, an example, then the slot's inputs (those most requests share first). */
export const TOOL_DESIGNER =
  String.raw`You design executable training environments for tool use, written in Python: a simulated service (a mocked backend behind a few tools) and a user who gives an agent one instruction at a time. The agent reaches the goal only by calling the tools.

WHAT THE AGENT DOES
- It sees the current instruction, calls one tool per reply as <tool_call>{"name": "<tool>", "arguments": {...}}</tool_call>, reads the result, and when every instruction is done it replies <answer>done</answer>.

WHAT YOU WRITE: one class that subclasses ToolUseBaseEnv
- ToolUseBaseEnv is already defined in the namespace: write "class SomethingEnv(ToolUseBaseEnv):" and do not import it. It already parses the agent's replies, dispatches tool calls to your methods, turns an unknown tool or a raising tool into an error text, gives -0.1 for a reply that is neither a call nor an answer, counts turns, and stops at the turn cap. Do not write step() and do not parse <tool_call> yourself.
- reset(self, seed=None): draw every random value here (random.seed(seed) or random.Random(seed)); build self._state (the mutable backend: records, flags, what was last looked at); declare self._tools; write the instructions in self._user_messages (3 to 5 short strings) and one criterion per instruction in self._message_criteria (callables that take the state and return a bool); set self._current_msg = 0 and self._expected_answer = "done"; return (self._user_messages[0], {}).
- self._tools maps each tool name to {"description": "...", "parameters": {"type": "object", "properties": {...}, "required": [...]}} (JSON Schema).
- One method tool_<name>(self, ...) -> str per tool, whose keyword parameters are exactly the property names of its schema, each with a default. Every tool ends with: return <its result text> + self._advance_if_done()
- _advance_if_done(self) -> str: write this helper yourself. When the current instruction's criterion holds on self._state, move self._current_msg on by one and return "\n\n" plus either the next instruction (announced as a new instruction) or, after the last one, a line telling the agent to reply <answer>done</answer>; otherwise return "".
- _check_answer(self, answer) -> bool: true only when answer.strip().lower() == "done" and every instruction has been completed.
- solution(self) -> str: the whole sequence of calls, with their arguments, and the final answer. It must never raise.
- Standard library only; no network, files or processes. Tools are deterministic: no randomness outside reset().

THE INSTRUCTIONS
- Each is one short, concrete request a real user would make (one or two sentences). Never name a tool, a state key or how the code works.
- They are revealed one by one: the first comes from reset(), each next one only when the one before it is done. Do not describe the whole workflow up front.
- Together they need several dependent calls: look something up, then change it using what was found, then confirm or report.

SOLVABILITY (a broken criterion wastes every play of the environment)
1. False at reset. Every criterion is False on the state reset() builds, at every seed. For a change, check the change itself. For a "check" or "confirm" instruction, let the read tool record that it ran (for example s["last_viewed"] = ...) and check that record, not a fact that already holds.
2. Same shape. A criterion reads the state with the keys and types the tools write: if orders are a list of dicts, test any(o["id"] == ... for o in s["orders"]), not membership of a string. Use .get for keys that appear later.
3. Derivable. Every value a criterion needs is stated in its instruction or returned by some tool. Never require an id, amount, name or date the agent can only guess.
4. Reachable. The tool that satisfies a criterion has a path to success: any key it looks up is written by reset() or by another tool.
5. Matching. Each instruction asks for exactly what its criterion checks, no more and no less.
6. Self-trace. Before you answer, run it in your head: reset(seed=0), then your solution() one call at a time. After each call the matching criterion turns True, in order, and no later one is True early; at the end self._current_msg == len(self._user_messages) and _check_answer("done") is True. Write this trace as a short comment block (# TRACE: ...) just above the class. If a criterion is True at reset, can never become True, or raises, fix the code before you answer.

THE TOOLS
- 3 to 8 tools, each returning a string. Both kinds: lookup tools that read the state and tools that change it.
- A changing tool refuses clearly when its preconditions fail ("Error: no order 17 for this customer"), so the agent must look before it acts.
- At least one parameter is constrained: give it an "enum" of allowed values, and list the tool's needed parameters in "required".
- Add one or two distractor tools that fit the domain but are not needed for this task; their descriptions must not say they are unneeded.
- Generate realistic data in reset() (a dozen records or more, varied by the seed); compute what the criteria need from that data, never hard-code it.
- An episode stops after {max_turns} agent turns: the whole task must fit in them with room to spare; never require visiting every record one by one.

SHAPE OF THE CODE (a smaller task in another domain; write your own for this one)
` +
  FENCE +
  String.raw`python
import random

# TRACE: reset(seed=0) picks a room; set_light on it turns instruction 1 True; set_heating
# with the asked mode turns instruction 2 True; status records the room and turns 3 True.
class HomeRoutineEnv(ToolUseBaseEnv):
    def reset(self, seed=None):
        self.turn_count = 0
        self._call_history = []
        rng = random.Random(seed)
        rooms = ["kitchen", "office", "bedroom", "garage", "den"]
        room = rng.choice(rooms)
        self._state = {"lights": {r: "off" for r in rooms}, "heating": {r: "eco" for r in rooms}, "room": room, "viewed": None}
        self._tools = {
            "set_light": {"description": "Switch a room's light on or off.", "parameters": {"type": "object", "properties": {"room": {"type": "string"}, "power": {"type": "string", "enum": ["on", "off"]}}, "required": ["room", "power"]}},
            "set_heating": {"description": "Set a room's heating mode.", "parameters": {"type": "object", "properties": {"room": {"type": "string"}, "mode": {"type": "string", "enum": ["eco", "comfort", "off"]}}, "required": ["room", "mode"]}},
            "status": {"description": "Show the light and heating of a room.", "parameters": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}},
            "list_scenes": {"description": "List the saved lighting scenes.", "parameters": {"type": "object", "properties": {}}},
        }
        self._user_messages = [
            "I'm heading to the " + room + "; please turn its light on.",
            "Make it warm in there: comfort mode.",
            "Show me how that room is set up now.",
        ]
        self._message_criteria = [
            lambda s: s["lights"][s["room"]] == "on",
            lambda s: s["heating"][s["room"]] == "comfort",
            lambda s: s["viewed"] == s["room"],
        ]
        self._current_msg = 0
        self._expected_answer = "done"
        return self._user_messages[0], {}

    def _advance_if_done(self):
        if self._current_msg >= len(self._user_messages) or not self._message_criteria[self._current_msg](self._state):
            return ""
        self._current_msg += 1
        if self._current_msg >= len(self._user_messages):
            return "\n\n[ALL DONE] Reply with <answer>done</answer>."
        return "\n\n[DONE. NEXT INSTRUCTION] " + self._user_messages[self._current_msg]

    def _check_answer(self, answer):
        return answer.strip().lower() == "done" and self._current_msg >= len(self._user_messages)

    def tool_set_light(self, room="", power=""):
        if room not in self._state["lights"] or power not in ("on", "off"):
            return "Error: unknown room or power value" + self._advance_if_done()
        self._state["lights"][room] = power
        return room + " light: " + power + self._advance_if_done()

    def tool_set_heating(self, room="", mode=""):
        if room not in self._state["heating"] or mode not in ("eco", "comfort", "off"):
            return "Error: unknown room or mode" + self._advance_if_done()
        self._state["heating"][room] = mode
        return room + " heating: " + mode + self._advance_if_done()

    def tool_status(self, room=""):
        if room not in self._state["lights"]:
            return "Error: no room " + room + self._advance_if_done()
        self._state["viewed"] = room
        return room + ": light " + self._state["lights"][room] + ", heating " + self._state["heating"][room] + self._advance_if_done()

    def tool_list_scenes(self):
        return "evening, away, movie" + self._advance_if_done()

    def solution(self):
        room = self._state["room"]
        return "set_light(room=%s, power=on); set_heating(room=%s, mode=comfort); status(room=%s); <answer>done</answer>" % (room, room, room)
` +
  FENCE +
  String.raw`

THIS ENVIRONMENT
Build the service, its data, its tools and the user's goal for the domain named below: a realistic person getting something done (search, book, order, change, cancel, pay, schedule), not a quiz.
Difficulty: {difficulty}.
Target skill: {skill}: {skill_description}.
{skill_focus}
Domain: {domain}.
{task_variant}
{memory_block}
{document_block}
Reply with the complete code in one fenced python block.`;

/** The tool-use hint template: a procedure in terms of tool roles, never a concrete value. */
export const TOOL_HINT =
  `An agent will work through the tool-use task below: it sees one instruction at a time, calls tools with <tool_call>{"name": ..., "arguments": {...}}</tool_call>, and replies <answer>done</answer> once every instruction is done. It cannot read the code; you can. Write a hint of two or three sentences, under 100 words, that describes the procedure: which kinds of tools to use in which order (look up, then change, then confirm), that the exact arguments must be found with the lookup tools and read from each instruction, which tools to skip because they are beside the point, and to answer done only at the end. Name tools by their tool name or by what they do, as you like. Never write a concrete value from the data: no ids, names of people, places or items, file names, amounts, dates or status words; say "the order the user means" or <order_id> instead. Do not give a call-by-call walkthrough with filled-in arguments, and do not mention variable names or criteria. Reply with the hint only.

The task:
` +
  FENCE +
  'python\n{code}\n' +
  FENCE;

/** The first user message of a tool-use episode: the protocol (the same for every environment), then the tools, then the first instruction. */
export const TOOL_AGENT = `You are an assistant that completes a user's requests by calling tools. Call one tool per reply as <tool_call>{"name": "<tool name>", "arguments": {<arguments>}}</tool_call>. Tool results come back to you; new instructions may arrive with them. When every instruction is done, reply with <answer>done</answer>; when the task asks for a value, put only that value inside the tags, for example <answer>42</answer>. Never put an answer in the same reply as a tool call.

The available tools (JSON Schema):
{tools}

User: {observation}`;

/** The same-model solvability judge: trace every criterion to a tool that can make it true. */
export const JUDGE =
  `Audit the multi-turn tool-use environment below for solvability. The agent calls its tools one reply at a time and answers done after every instruction is complete. It is SOLVABLE when some sequence of tool calls makes every instruction's criterion true, in order.

Check each criterion: which state value does it need, and which tool writes that value on a path that can succeed? Reject (no) only when a criterion can never be true: no tool ever writes the value it needs, it compares values of different types or shapes, the tool that would write it always fails, it needs a hidden id, amount or date that neither its instruction states nor any tool returns, two criteria contradict each other, or most criteria are already true at reset. A random value that some tool returns is discoverable and fine. Do not reject for difficulty, distractor tools, long sequences or cosmetic issues: a hard environment with a path is exactly what is wanted.

` +
  FENCE +
  'python\n{code}\n' +
  FENCE +
  `

Think it through, then end with your verdict: \\boxed{YES} when it is solvable, \\boxed{NO} when it is impossible.`;
