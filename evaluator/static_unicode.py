"""Strings the CPU check's Python and the GPU image's read apart: the static half of
evaluator.python_image's "Unicode".

The CPU check runs Python 3.11 (Unicode 14.0), the GPU image 3.12 (Unicode 15.0). A str holding
a character the two databases tell apart (`python_image.unknown_character`: one 14.0 does not
assign, or one of the five whose case 15.0 changed) answers every property test otherwise on the
two machines: `chr(0x11F04).isalpha()` was False on the CPU check and True on the GPU, and
`int(chr(0x11F51))` raised on one only (red team rt25, session 47). No such str may reach a
candidate's code. What makes one, and where it is refused:

  literal        a str constant holding one (`"\\U00011f04"`, the character itself): here
                 (`literal_findings`), anywhere in the file but its test block
  chr, format()  the candidate child's builtins refuse to make one (python_image)
  %-formatting   `"%c" % n`, with a template computed anywhere: compiled to refuse it in a
                 candidate child (python_image.checked_formatting)
  format spec c  an f-string's or a str.format template's spec of presentation type `c` (a
                 character from a number), or one whose end is computed: here
                 (`spec_refusal`, and static_expressions for f-strings)
  bytes          decoding: `.decode`, `str(b, encoding)` (str with more than one argument, or
                 handed to code that may call it so: static_expressions), and bytes literals,
                 which a str-mixin enum's member `(b"...", "utf-8")` decodes in its class body
  translate      `str.translate` maps to characters by number (`.translate`, `.maketrans`)

Each is a compile error (`unicode_version`) that says what to write instead; none is found in
honest kernel code (tests/unit/evaluator/honest*, kernelbench_style).
"""
from __future__ import annotations

import ast
import string
from collections.abc import Iterator

from evaluator.python_image import describe_character, unknown_character
from evaluator.static_scopes import is_main_guard

CODE = "unicode_version"
# attributes that turn numbers or bytes into characters
REFUSED_ATTRIBUTES = {
    "decode": "decoding bytes can make any character",
    "translate": "str.translate maps to characters by number",
    "maketrans": "str.maketrans maps to characters by number",
}
INSTEAD = "write the text as a literal of characters both Pythons know"


def literal_findings(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str]]:
    """(node, what, instead) for each str literal holding an unknown character and each bytes
    literal, outside the test block."""
    todo: list[ast.AST] = [n for n in tree.body if not is_main_guard(n)]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                c = unknown_character(node.value)
                if c is not None:
                    yield node, f"the string holds {describe_character(c)}", INSTEAD
            elif isinstance(node.value, bytes):
                yield node, ("a bytes literal: decoded (`.decode`, `str(b, encoding)`, a str-mixin enum's "
                             "member) it can make any character, which the CPU check's Python and the GPU's "
                             "read apart"), "keep text in str literals; a kernel file needs no bytes"
        todo.extend(ast.iter_child_nodes(node))


def spec_refusal(spec: str | None) -> str | None:
    """Why a str.format template's format spec is refused (None: it is not): presentation type
    `c` makes a character from a number; a spec that ends in a nested field could be `c`."""
    if not spec:
        return None
    if spec.endswith("}"):
        return "a format spec that ends in a nested field could be of type c (a character from a number)"
    if spec.endswith("c"):
        return "a format spec of type c makes a character from a number"
    return None


def template_refusal(template: str) -> str | None:
    """The first refused format spec of a str.format template, at any nesting."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:  # deliberate: a malformed template raises where it is formatted
        return None
    for _, field, spec, _ in fields:
        if field is None:
            continue
        why = spec_refusal(spec) or (template_refusal(spec) if spec else None)
        if why is not None:
            return why
    return None


def fstring_spec_refusal(spec: ast.JoinedStr | None) -> str | None:
    """Why an f-string field's format spec is refused: its type is its last character, so it
    must end in literal text other than `c`."""
    if spec is None or not spec.values:
        return None
    last = spec.values[-1]
    if not (isinstance(last, ast.Constant) and isinstance(last.value, str)):
        return "a format spec that ends in a computed field could be of type c (a character from a number)"
    return spec_refusal(last.value)
