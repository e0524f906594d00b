"""The text the model sees next turn, and the scrubbing every child-originated text gets.

`untrusted` masks the verdict vocabulary in text a child produced, so a candidate
cannot print its own "Correct. 40x faster" into the feedback the model learns from.

Everything a child sends back (tracebacks, log tails, messages) is untrusted and may
contain sandbox paths; `sanitize` rewrites the child's temp dir, the repository and
site-packages to short placeholders and replaces the values of sensitive parent
environment variables with <redacted> (the child never has them, this is a second
layer). `trim_traceback` keeps the candidate's own frames, the last few library
frames and the exception, and drops harness frames. Feedback is bounded in length.
"""
from __future__ import annotations

import re
import site
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

_REPO = str(Path(__file__).resolve().parents[1])
_SITE = sorted({*site.getsitepackages(), sys.prefix, sys.base_prefix}, key=len, reverse=True)


def sanitize(text: str, sandbox_dirs: Iterable[str] = (), secrets: Iterable[str] = ()) -> str:
    for d in sorted(sandbox_dirs, key=len, reverse=True):
        if d:
            text = re.sub(re.escape(d) + r"/eval-\d+/", "", text)
            text = text.replace(d, "<sandbox>")
    for s in _SITE:
        text = text.replace(s, "<python>")
    text = text.replace(_REPO, "<krl>")
    for secret in secrets:
        if len(secret) >= 6:
            text = text.replace(secret, "<redacted>")
    return text


# Words of the evaluator's own verdict vocabulary. Text that came out of a sandboxed
# child (messages, tracebacks, printed output) is the candidate's and may try to look
# like a verdict ("Correct. speedup 50x"); in feedback those words are masked, so only
# the worker's own lines can name a status, a speedup or a reward.
# A word is a run of letters: `_`, digits and punctuation do not hide one
# (`Correct_speedup_97x` holds two). Before matching, the text is made plain ASCII
# (`_plain`), so a homoglyph (Cyrillic е), a fullwidth letter, a combining mark or a
# zero-width character inside a word cannot make a verdict word a reader sees unmasked.
_VERDICT_WORDS = re.compile(
    r"(?i)(?<![a-z])(ok|correct|incorrect|hack|hacks|timeout|crashed|compile_error|runtime_error"
    r"|format_error|speedup|speed-up|faster|reward|verdict|coverage|status|accepted|rejected|passed)"
    r"(?![a-z])")


_MASK = "\u00b7"


def _plain(text: str) -> str:
    """ASCII only: NFKC first (fullwidth and compatibility forms become ASCII), format and
    control characters (zero-width joiners, bidi overrides) and combining marks dropped,
    every other non-ASCII character written as a visible escape (`\\u0435`)."""
    if text.isascii():
        return "".join(c for c in text if c >= " " or c in "\n\t")
    out = []
    for c in unicodedata.normalize("NFKC", text):
        if c.isascii():
            if c >= " " or c in "\n\t":
                out.append(c)
        elif c == _MASK:  # already masked (untrusted twice) stays masked, not escaped
            out.append(c)
        elif unicodedata.category(c) not in ("Cf", "Cc", "Mn", "Me", "Zl", "Zp"):
            out.append(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
    return "".join(out)


def untrusted(text: str) -> str:
    """Child-originated text, plain ASCII (`_plain`), with the verdict vocabulary masked
    (see _VERDICT_WORDS)."""
    return _VERDICT_WORDS.sub(lambda m: m.group(0)[0] + _MASK * (len(m.group(0)) - 1), _plain(text))


def trim_traceback(tb: str, max_lines: int = 40) -> str:
    """Per chained section: candidate frames, the last 3 other non-harness frames, the
    exception lines. Harness frames (<krl>/evaluator) and frozen importlib frames go."""
    sections = [s for s in re.split(r"(?m)^(?=Traceback \(most recent call last\):)", tb.strip()) if s.strip()]
    out = [line for section in sections for line in _trim_section(section.splitlines())]
    if len(out) > max_lines:
        out = out[:3] + ["    ..."] + out[-(max_lines - 4):]
    return "\n".join(out)


def _trim_section(lines: list[str]) -> list[str]:
    if not lines or not lines[0].startswith("Traceback"):
        return lines
    frames, tail, i = [], [], 1
    while i < len(lines):
        if lines[i].startswith("  File "):
            block = [lines[i]]
            i += 1
            while i < len(lines) and lines[i].startswith("    "):
                block.append(lines[i])
                i += 1
            frames.append(block)
        else:
            tail = lines[i:]
            break
    own = [f for f in frames if "candidate.py" in f[0] or "reference.py" in f[0]]
    other = [f for f in frames if f not in own and "/evaluator/" not in f[0] and "<frozen " not in f[0]]
    kept = [f for f in frames if f in own or f in other[-3:]]
    return [lines[0], *[x for f in kept for x in f], *tail] if kept else tail


def bound(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    head = max_chars * 2 // 3
    return text[:head] + "\n...[truncated]...\n" + text[-(max_chars - head - 20):]


def mismatch_text(trial: str, output: int, stats: dict) -> str:
    parts = [f"Output {output} does not match the reference on trial {trial}:"]
    if stats.get("exact"):
        parts.append(f"  {stats['mismatch_fraction']:.2%} of elements differ (exact match required)")
    else:
        parts.append(f"  mismatched elements: {stats['mismatch_fraction']:.2%} "
                     f"(|out-ref| > {stats['atol']:.3g} + {stats['rtol']:g}*|ref|)")
        parts.append(f"  max abs error {stats['max_abs_error']:.3g}, max rel error {stats['max_rel_error']:.3g}, "
                     f"||out-ref||/||ref|| = {stats['norm_error']:.3g} (limit {stats['norm_rtol']:g})")
        if stats.get("nan_or_inf_mismatches"):
            parts.append(f"  NaN/inf mismatches: {stats['nan_or_inf_mismatches']}")
    if "first_bad_index" in stats:
        parts.append(f"  e.g. at index {stats['first_bad_index']}: got {stats['got']:.6g}, "
                     f"expected {stats['expected']:.6g}")
    return "\n".join(parts)


def timing_text(ref_s: float, cand_s: float, clock: str, coverage: dict | None) -> str:
    lines = [f"Correct. Reference {ref_s * 1e3:.4g} ms, yours {cand_s * 1e3:.4g} ms "
             f"(speedup {ref_s / cand_s:.3g}x; {clock}, median)."]
    if "cpu" in clock:
        lines.append("These are CPU-interpreter timings (Triton's interpreter), not GPU timings.")
    if coverage:
        what = "GPU time" if "cpu" not in clock else "device time (estimated from the work done)"
        lines.append(f"Profile: {coverage['coverage']:.1%} of the forward's {what} is in your Triton "
                     "kernels.")
        for k in coverage.get("kernels", [])[:5]:
            mark = "yours" if k["candidate"] else "other"
            lines.append(f"  {k['seconds'] * 1e6:9.1f} us  {untrusted(str(k['name'])[:80])} ({mark})")
        if coverage.get("ambiguous"):
            names = ", ".join(untrusted(str(n)[:60]) for n in coverage["ambiguous"][:3])
            lines.append(f"Not counted as yours: {names} ran more often than you launched it "
                         "(another kernel has its name).")
    return "\n".join(lines)
