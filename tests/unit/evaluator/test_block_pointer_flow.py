"""evaluator.block_pointer_calls.one_origin / no_while_carry: the block pointers Triton 3.6's
RewriteTensorPointer lowers differently from the CPU's rewrite, or not at all (red team rt62):
a read reached by two make_block_ptr sites through an if or a loop, one carried by a while."""
import textwrap

import pytest

from evaluator.block_pointers import lower

HEAD = "import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"


def _problems(body: str) -> list[tuple[int | None, str]]:
    source = HEAD + "def k(x_ptr, y_ptr, n, c, B: tl.constexpr, T: tl.constexpr):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    return lower(source)[1]


P = "p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (B,), (0,))\n"
Q = "q = tl.make_block_ptr(y_ptr, (n,), (1,), (0,), (B,), (0,))\n"

REFUSED = {
    "advanced from two pointers in the arms of an if": P + Q + (
        "if c > 0:\n    r = tl.advance(p, (B,))\nelse:\n    r = tl.advance(q, (B,))\nx = tl.load(r)\n"),
    "made at two sites in the arms of an if": (
        "if c > 0:\n    " + P + "else:\n    " + P.replace("x_ptr", "y_ptr") + "x = tl.load(p)\n"),
    "made before a loop and again inside, read after": P + (
        "for i in range(0, c):\n    " + P.replace("x_ptr", "y_ptr") + "x = tl.load(p)\n"),
    "made again late in a loop, read early in it": P + (
        "for i in range(0, c):\n    x = tl.load(p)\n    " + P.replace("x_ptr", "y_ptr")),
    "made at two sites in the arms of an if on a constexpr the body rebinds": (
        "T = c > 0\nif T:\n    " + P + "else:\n    " + P.replace("x_ptr", "y_ptr") + "x = tl.load(p)\n"),
    "made at two sites in the arms of an if on a constexpr and a runtime value": (
        "if T and c > 0:\n    " + P + "else:\n    " + P.replace("x_ptr", "y_ptr") + "x = tl.load(p)\n"),
    "made again inside a static_range nested in a runtime loop, read after it": P + (
        "for j in range(0, c):\n    for i in tl.static_range(2):\n        "
        + P.replace("x_ptr", "y_ptr") + "x = tl.load(p)\n"),
    "advanced inside a while": P + "i = 0\nwhile i < c:\n    x = tl.load(p)\n    p = tl.advance(p, (B,))\n    i += 1\n",
}

KEPT = {
    "a fresh pointer per pass (s50d's layernorm)": P + (
        "for i in range(0, c):\n    p = p.advance((B,))\n" + P + "for i in range(0, c):\n    x = tl.load(p)\n"),
    "advanced in one arm of an if": P + "if c > 0:\n    p = tl.advance(p, (B,))\nx = tl.load(p)\n",
    "advanced in a for loop": P + "for i in range(0, c):\n    x = tl.load(p)\n    p = tl.advance(p, (B,))\n",
    "made inside a while, not carried": "i = 0\nwhile i < c:\n    " + P + "    x = tl.load(p)\n    i += 1\n",
    # compile-time choices (3.6's front end emits one arm, or straight-line copies: no join)
    "made at two sites in the arms of an if on a tl.constexpr": (
        "if T:\n    " + P + "else:\n    " + P.replace("x_ptr", "y_ptr") + "x = tl.load(p)\n"),
    "made at two sites in the arms of an if on constexpr arithmetic": (
        "if not (B % 2 == 0 and T):\n    " + P + "else:\n    " + P.replace("x_ptr", "y_ptr")
        + "for i in range(0, c):\n    x = tl.load(p)\n    p = tl.advance(p, (B,))\n"),
    "made again in each copy of a static_range, read in the next": P + (
        "for i in tl.static_range(3):\n    x = tl.load(p)\n    " + P.replace("x_ptr", "y_ptr")
        + "x = tl.load(p)\n"),
    "two sites read only inside their arms": (
        "if c > 0:\n    " + P + "    x = tl.load(p)\nelse:\n    " + P.replace("x_ptr", "y_ptr") + "    x = tl.load(p)\n"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_two_origins_or_a_while_carry_are_refused(name):
    problems = _problems(REFUSED[name])
    assert problems and ("two tl.make_block_ptr sites" in problems[0][1] or "while loop" in problems[0][1])


@pytest.mark.parametrize("name", list(KEPT))
def test_one_origin_at_every_read_is_lowered(name):
    assert _problems(KEPT[name]) == []


@pytest.mark.parametrize("body", [
    "try:\n    pass\nexcept Exception as BLOCK:\n    pass",
    "match 1:\n    case BLOCK:\n        pass",
    "match [1]:\n    case [*BLOCK]:\n        pass",
    "match {}:\n    case {**BLOCK}:\n        pass",
    "match 1:\n    case int() as BLOCK:\n        pass",
])
def test_stored_counts_names_bound_without_a_name_node(body):
    """Red team rt63: an except handler's name and a match capture bind a name with no Name
    node; a block shape naming one is rebound in the kernel."""
    import ast

    from evaluator.block_pointer_calls import stored

    fn = ast.parse("def k(BLOCK):\n" + textwrap.indent(body, "    ")).body[0]
    assert "BLOCK" in stored(fn)


def test_a_helper_s_constexpr_parameter_is_not_a_compile_time_choice():
    """A @jit helper's parameter is a constant only where its call passes one: annotated
    tl.constexpr or not, an if on it may be an scf.if (a kernel passing a loaded value), so two
    sites in its arms read after it are refused there, and not in the kernel launched alone."""
    arms = "    if T:\n        " + P + "    else:\n        " + P.replace("x_ptr", "y_ptr") + "    x = tl.load(p)\n"
    helper = HEAD + "def h(x_ptr, y_ptr, n, B: tl.constexpr, T: tl.constexpr):\n" + arms
    launched = (HEAD.replace("@triton.jit\n", "") + "@triton.jit\ndef h(x_ptr, y_ptr, n, B: tl.constexpr, "
                "T: tl.constexpr):\n" + arms + "\n\ndef run(x, y):\n    h[(1,)](x, y, 4, B=4, T=True)\n")
    assert lower(launched)[1] == []
    called = helper + "\n\n@triton.jit\ndef k(x_ptr, y_ptr, n, c):\n    h(x_ptr, y_ptr, n, 4, c > 0)\n"
    assert "two tl.make_block_ptr sites" in lower(called)[1][0][1]
    handed = launched + "\n\ndef alias(x, y):\n    g = h\n    g[(1,)](x, y, 4, B=4, T=True)\n"
    assert "two tl.make_block_ptr sites" in lower(handed)[1][0][1]


@pytest.mark.parametrize("annotation,prelude,constant", [
    ("tl.constexpr", "", True),
    ("triton.language.constexpr", "", True),
    ("constexpr", "from triton.language import constexpr\n", True),
    ("'tl.constexpr'", "", True),
    ("i32_constexpr", "i32_constexpr = tl.int32\n", False),  # red team rt67: Triton reads "int32"
    ("i32_constexpr", "from __future__ import annotations\ni32_constexpr = tl.int32\n", True),  # the text
    ("tl.int32", "", False),
])
def test_a_constexpr_is_one_as_triton_reads_the_annotation(annotation, prelude, constant):
    """block_pointer_calls.constexpr_parameters: an if on a parameter is a compile-time choice only
    where Triton's KernelParam.is_constexpr holds ("constexpr" in the normalized annotation)."""
    arms = "    if T:\n        " + P + "    else:\n        " + P.replace("x_ptr", "y_ptr") + "    x = tl.load(p)\n"
    source = (prelude + HEAD.replace("@triton.jit\n", "") + "@triton.jit\ndef h(x_ptr, y_ptr, n, B: tl.constexpr, "
              f"T: {annotation}):\n" + arms + "\n\ndef run(x, y):\n    h[(1,)](x, y, 4, 4, True)\n")
    problems = lower(source)[1]
    assert (problems == []) if constant else ("two tl.make_block_ptr sites" in problems[0][1])
