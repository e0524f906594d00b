"""Pull the candidate's code out of a raw model response.

Reasoning is dropped first (`<think>...</think>`, and an unterminated `<think>`
up to the end), then fenced blocks are read line by line: a block opens with a
line of ``` plus an optional language tag and closes at the next line starting
with ```. Blocks tagged python/py or untagged count; the last one that defines
`class ModelNew` wins, else the last one. No block: None (a format_error).
"""

from __future__ import annotations

import re

_THINK = re.compile(r"<think>.*?(</think>|\Z)", re.DOTALL | re.IGNORECASE)
_OPEN = re.compile(r"^\s*```+\s*([\w+-]*)\s*$")
_CLOSE = re.compile(r"^\s*```")
_PYTHON_TAGS = {"", "python", "python3", "py"}


def code_blocks(text: str) -> list[tuple[str, str]]:
    """(language tag, body) of every fenced block, in order."""
    blocks, tag, body = [], None, []
    for line in text.splitlines():
        if tag is None:
            match = _OPEN.match(line)
            if match:
                tag, body = match.group(1).lower(), []
        elif _CLOSE.match(line):
            blocks.append((tag, "\n".join(body) + "\n"))
            tag = None
        else:
            body.append(line)
    return blocks


def strip_thinking(text: str) -> str:
    """`text` without its reasoning (`<think>...</think>`, or an unterminated `<think>` to the
    end)."""
    return _THINK.sub("", text)


def extract_code(response: str) -> str | None:
    text = strip_thinking(response)
    blocks = [body for tag, body in code_blocks(text) if tag in _PYTHON_TAGS and body.strip()]
    if not blocks:
        return None
    with_model = [b for b in blocks if re.search(r"^\s*class\s+ModelNew\b", b, re.MULTILINE)]
    return (with_model or blocks)[-1]
