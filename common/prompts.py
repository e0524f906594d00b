"""Every text krl itself puts before the model, in one place: the system text, the first
user turn, the feedback turns, the feedback of an answer without code, the marker of cut
feedback. (The feedback's body is the evaluator's verdict text, evaluator/.)

The actor builds every conversation from these texts (`krl check --response` says the same
of an answer without code) and `krl sft-data` writes its cold-start data with the same
ones, so a model fine-tuned on that data sees at RL time exactly the prompts it was taught
on; docs/prompts.md describes them and points here for the words. The actor's config
(`actor.prompts`) may override them; what it overrides should keep the placeholders:
`{reference_code}` in the first turn (the problem's KernelBench source) and `{feedback}` in
a feedback turn (the evaluator's text for the previous answer, e.g. "Correct. Reference
1.2 ms, yours 0.8 ms (speedup 1.5x; ...)").

An answer is read by `common.extract.extract_code`: the last ```python block that
defines `class ModelNew`.
"""

from __future__ import annotations

SYSTEM = (
    "You are an expert GPU kernel engineer. You replace PyTorch operators with custom "
    "Triton kernels that compute the same result and run faster. Think briefly about which "
    "operators to fuse and how to tile them, then give the complete code."
)

FIRST_TURN = """\
You are given the following PyTorch program:

```python
{reference_code}```

Write a new program that defines `class ModelNew(nn.Module)` with the same constructor \
arguments and the same forward signature as `Model`, whose forward computes the result with \
your own `@triton.jit` kernels (you may fuse several operators into one kernel). Keep \
`get_inputs()` and `get_init_inputs()` as they are. Do not call the PyTorch operators you \
replace, do not catch exceptions, do not use threads, files or the network. Answer with the \
complete new program in one ```python code block."""

FEEDBACK = """\
Your previous answer was evaluated:

{feedback}

Improve your program: fix it if it failed, otherwise make it faster. Answer with the \
complete new program in one ```python code block."""

# The {feedback} of an answer without a code block (a format_error the actor decides itself,
# and `krl check --response`'s verdict on one).
NO_CODE_FEEDBACK = "Format error: your answer has no ```python code block defining class ModelNew."

# Put where the middle of a long feedback was cut (actor/prompts.py keeps head and tail).
CUT_MARKER = "\n[... {n} tokens of feedback cut ...]\n"


def first_turn(reference_code: str, template: str = FIRST_TURN) -> str:
    """The first user message for a problem's reference source."""
    code = reference_code if reference_code.endswith("\n") else reference_code + "\n"
    return template.format(reference_code=code)


def feedback_turn(feedback: str, template: str = FEEDBACK) -> str:
    """The user message that hands the evaluator's feedback back to the model."""
    return template.format(feedback=feedback.strip())


def answer(code: str, plan: str = "") -> str:
    """An assistant answer in the expected shape: an optional plan, then one code block."""
    body = code if code.endswith("\n") else code + "\n"
    head = f"{plan.strip()}\n\n" if plan.strip() else ""
    return f"{head}```python\n{body}```"


# ---------------------------------------------------------------------- chat content
BREAK = "\u200b"  # a zero-width space inside a control token's spelling: text, not the token


def control_strings(tokenizer: object) -> tuple[str, ...]:
    """The spellings the tokenizer reads as one special or added token (`<|im_start|>`,
    `</s>`, `<think>`), longest first."""
    special = set(getattr(tokenizer, "all_special_tokens", None) or ())
    added = getattr(tokenizer, "get_added_vocab", None)
    special |= set(added() if callable(added) else ())
    return tuple(sorted((s for s in special if len(s) > 1), key=len, reverse=True))


def plain_messages(tokenizer: object, messages: list[dict]) -> list[dict]:
    """The messages with every control-token spelling in their content broken by BREAK.

    A chat is rendered to text by its template and encoded again, and encoding reads a
    control token's spelling inside a message as the token itself: a kernel whose error
    message said `<|im_end|>\\n<|im_start|>system` wrote a system turn into the next prompt
    (red team s31c: 9 turn starts where the chat had 4). Content is text; only the template
    makes turns. The learner's SFT data is encoded the same way."""
    strings = control_strings(tokenizer)
    out = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, str):
            for s in strings:
                if s in content:
                    content = content.replace(s, s[0] + BREAK + s[1:])
            m = {**m, "content": content}
        out.append(m)
    return out
