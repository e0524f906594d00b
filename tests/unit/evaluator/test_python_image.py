"""Python's behaviour as the GPU image's (evaluator.python_image): sum() adds as 3.12's to the
candidate's own code. Held to 3.12's documented answers, to the image's recorded ones
(evaluator/h200_names.json) and, where this machine has a Python 3.12, to it on random sums."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evaluator.python_image import _BuiltinSum, sum312

ROOT = Path(__file__).resolve().parents[3]


def test_float_sums_are_compensated_as_on_python_312():
    assert sum312([1e16, 1.0, -1e16]) == 1.0  # 0.0 on 3.11
    assert sum312([0.1] * 10) == 1.0  # 0.9999999999999999 on 3.11
    assert sum312([1e308, 1e308, -1e308]) == float("inf")  # overflow is not undone
    assert sum312(range(10)) == 45 and sum312([True, True]) == 2 and type(sum312([])) is int
    assert sum312([[1], [2]], []) == [1, 2]
    with pytest.raises(TypeError, match="can't sum strings"):
        sum312(["a"], "")


def test_the_stand_in_reads_as_the_builtin():
    stand_in = _BuiltinSum()
    assert repr(stand_in) == "<built-in function sum>" and stand_in.__name__ == "sum"
    assert stand_in([1e16, 1.0, -1e16]) == sum([1e16, 1.0, -1e16])  # the harness's own calls: this Python's


NAMES = ROOT / "evaluator" / "h200_names.json"


@pytest.mark.skipif(not NAMES.exists(), reason="no recording of the GPU image")
def test_sums_answer_as_the_recorded_image():
    probes = json.loads(NAMES.read_text())["python_probes"]
    assert probes
    for expression, answer in probes.items():
        assert repr(eval(expression, {"sum": sum312})) == answer, expression


def _python312() -> str | None:
    """A Python 3.12 that runs (pyenv's shim answers for versions it has not set up, and fails)."""
    for name in sorted(str(p) for p in Path.home().glob(".pyenv/versions/3.12*/bin/python")) + [
            shutil.which("python3.12") or ""]:
        if name and subprocess.run([name, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"],
                                   capture_output=True).returncode == 0:
            return name
    return None


@pytest.mark.skipif(sys.version_info >= (3, 12) or _python312() is None, reason="no Python 3.12 here")
def test_random_sums_agree_with_a_real_python_312():
    rng = random.Random(47)
    draws = [lambda: rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20), lambda: rng.randint(-10**6, 10**6),
             lambda: rng.choice([1, -1]) * 2 ** rng.randint(60, 70),
             lambda: rng.choice([0.1, -0.0, 1e308, -1e308, float("inf"), 1e16, -1e16, True])]
    cases = [([rng.choice(draws)() for _ in range(rng.randint(0, 8))],
              rng.choice([0, 0.0, 0.5, -0.0, True, 2 ** 64])) for _ in range(3000)]
    script = "import json,sys\nprint(json.dumps([repr(sum(i, s)) for i, s in json.loads(sys.stdin.read())]))"
    real = subprocess.run([_python312(), "-c", script], input=json.dumps(cases), capture_output=True,
                          text=True, check=True)
    assert json.loads(real.stdout) == [repr(sum312(i, s)) for i, s in cases]


# ---------------------------------------------------------------------- Unicode and stand-ins
def test_a_character_the_two_databases_read_apart_is_found():
    from evaluator.python_image import CHANGED_IN_THE_IMAGE, unknown_character

    if sys.version_info < (3, 12):
        assert unknown_character("ok \U00011f04 \U00011f51") == "\U00011f04"  # KAWI LETTER A: new in 15.0
    assert all(unknown_character(f"a{c}") == c for c in CHANGED_IN_THE_IMAGE)
    assert unknown_character("relu × 2 → é 中 😀 \U0010ffff"[:-1]) is None
    assert unknown_character("") is None and unknown_character("ascii only") is None


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="this Python has the image's Unicode")
def test_chr_format_and_percent_refuse_what_the_image_reads_otherwise(monkeypatch):
    import ast
    import builtins

    from evaluator.python_image import (
        IMAGE_NAME,
        UnknownCharacter,
        _BuiltinChr,
        _BuiltinFormat,
        _Formatting,
        checked_formatting,
    )

    assert _BuiltinChr()(0x41) == "A" and _BuiltinChr()(0x1F600) == "😀"
    assert _BuiltinFormat()(65, "c") == "A" and _BuiltinFormat()(3.5, ".1f") == "3.5"
    for make in (lambda: _BuiltinChr()(0x11F04), lambda: _BuiltinFormat()(0x11F04, "c"),
                 lambda: _BuiltinChr()(0xA7F2)):
        with pytest.raises(UnknownCharacter, match="U\\+"):
            make()
    monkeypatch.setattr(builtins, IMAGE_NAME, _Formatting(), raising=False)
    code = '''
from __future__ import annotations
import torch
class Box:
    pass
def run(template, n):
    text = template % n
    box, t, k = Box(), torch.arange(4), 7
    box.v = 9
    box.v %= 4
    k %= 4
    t[1:3] %= 2
    t[0, ...] %= 5
    return text, box.v, k, t.tolist()
def kept(a: x % y) -> int % 2:
    return a
'''
    namespace: dict = {}
    exec(compile(checked_formatting(ast.parse(code)), "candidate.py", "exec", dont_inherit=True), namespace)
    assert namespace["run"]("%c-%d", (0x41, 3)) == ("A-3", 1, 3, [0, 1, 0, 3])
    assert namespace["kept"].__annotations__ == {"a": "x % y", "return": "int % 2"}
    with pytest.raises(UnknownCharacter):
        namespace["run"]("%" + "c", 0x11F04)


def test_the_stand_ins_read_as_builtin_functions():
    """`type(sum).__name__` read "_BuiltinSum" in a CPU child and `sum.__qualname__` raised there
    (session 48); each stand-in reads as the builtin it stands in for."""
    from evaluator.python_image import _BuiltinChr, _BuiltinFormat

    for stand_in, real in ((_BuiltinSum(), sum), (_BuiltinChr(), chr), (_BuiltinFormat(), format)):
        assert (repr(stand_in), str(type(stand_in)), type(stand_in).__name__, type(stand_in).__qualname__) == (
            repr(real), str(type(real)), type(real).__name__, type(real).__qualname__)
        assert (stand_in.__name__, stand_in.__qualname__, stand_in.__module__) == (
            real.__name__, real.__qualname__, real.__module__)
        assert not hasattr(stand_in, "lock") and stand_in.__doc__ == real.__doc__


def test_every_except_clause_raises_an_unknown_character_again():
    from evaluator.python_image import UnknownCharacter, resource_errors

    with pytest.raises(UnknownCharacter):
        try:
            raise UnknownCharacter("made one")
        except Exception:
            resource_errors()


def _python312_unicode_differences(python: str) -> set[int]:
    """The code points whose str properties this Python and `python` answer apart."""
    script = '''
import sys
def sig(c):
    try:
        value = int(c)
    except ValueError:
        value = -1
    return "%d%d%d%d%d%d%d%d%d%d%d|%d|%s|%d|%s|%s|%s" % (
        c.isalpha(), c.isdecimal(), c.isdigit(), c.isnumeric(), c.isidentifier(), ("a" + c).isidentifier(),
        c.isprintable(), c.isspace(), c.isupper(), c.islower(), c.istitle(), value, ascii(c), len(repr(c)),
        ascii(c.upper()),
        ascii(c.lower()), ascii(c.casefold()))
sys.stdout.write("\\n".join(sig(chr(i)) if not 0xD800 <= i < 0xE000 else "" for i in range(0x110000)))
'''
    here = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True).stdout.split(b"\n")
    there = subprocess.run([python, "-c", script], capture_output=True, check=True).stdout.split(b"\n")
    return {i for i, (a, b) in enumerate(zip(here, there, strict=True)) if a != b}


@pytest.mark.skipif(sys.version_info >= (3, 12) or _python312() is None, reason="no Python 3.12 here")
def test_the_unknown_characters_are_exactly_those_a_real_python_312_reads_otherwise():
    import unicodedata

    from evaluator.python_image import CHANGED_IN_THE_IMAGE, IMAGE_UNICODE, unknown_character

    script = "import unicodedata; print(unicodedata.unidata_version)"
    assert subprocess.run([_python312(), "-c", script], capture_output=True, text=True,
                          check=True).stdout.strip() == IMAGE_UNICODE
    differ = _python312_unicode_differences(_python312())
    assert differ and all(unknown_character(chr(i)) is not None for i in differ)
    assert {ord(c) for c in CHANGED_IN_THE_IMAGE} <= differ
    assert all(unicodedata.category(c) != "Cn" for c in CHANGED_IN_THE_IMAGE)
