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
# What a strict-policy refusal of PyTorch's compute tells the author to write instead: an
# honest two-stage reduction finished by `partials.sum() / n` was refused with no hint of the
# fix (honest round, session 25).
TF32_NOTE = ("\nAccepted at TF32 precision: this float32 problem's outputs differ from the strict "
             "float32 reference by about what PyTorch's TF32 mode gives.")
STRICT_INSTEAD = ("Under the strict policy only your Triton kernels compute the output: finish the "
                  "work in a kernel (a second launch over the partial results, tl.atomic_add into "
                  "the output, or the scaling folded into the kernel) and use PyTorch only to "
                  "allocate, view, reshape or copy.")
# ...and where the op PyTorch ran is a library GEMM or convolution (nn.Linear or nn.Conv kept,
# a Triton epilogue after it: a paper-policy solution), what to write is the GEMM itself
_LIBRARY_OPS = re.compile(r"aten::(addmm|mm|bmm|baddbmm|matmul|linear|_?convolution|cudnn_convolution|conv)")
STRICT_GEMM = (" Here that includes the GEMM or convolution: write it in your kernel too (tl.dot over "
               "tiles of the input and the weight), with the epilogue fused after the accumulation.")


def strict_instead(found: str) -> str:
    """What to write instead under the strict policy, for the op PyTorch was seen computing."""
    return STRICT_INSTEAD + (STRICT_GEMM if _LIBRARY_OPS.search(found) else "")


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
# child (messages, tracebacks, printed output, kernel names) is the candidate's and may
# try to look like a verdict ("Correct. speedup 50x"); in feedback those words are
# masked, so only the worker's own lines can name a status, a speedup or a reward.
# The match is on what a reader sees, not on code points (`_tokens`):
# - the text is made plain ASCII first: NFKD (fullwidth and compatibility forms become
#   ASCII, accents come apart), format and control characters and combining marks
#   dropped, any other non-ASCII character written as a visible escape (`\u0435`);
# - a word is a run of letters: `_`, digits and punctuation do not hide one
#   (`Correct_speedup_97x` holds two), and neither does spacing inside it
#   ("C o r r e c t", "C.o.r.r.e.c.t", "Corr ect"; not across a line break);
# - a position of a word is taken by its letter, by a non-ASCII letter (a homoglyph
#   shown escaped, which a reader may decode), by an escape written out in ASCII that
#   names a letter (`\u0435`, `\x65`, `&#101;`; a written `\n` or `\t` is a break
#   between words, not a letter), or by a look-alike digit or sign
#   ("C0rr3ct", "5peedup", "0K"; not at a number's edge: "10k" stays).
# A match shows its first character, then a middle dot per further character.
_VOCABULARY = ("incorrect", "correct", "ok", "hacks", "hack", "timeout", "crashed", "compile_error",
               "runtime_error", "format_error", "speedup", "faster", "reward", "verdict", "coverage",
               "status", "accepted", "rejected", "passed")
_ANY = "\x00"   # skeleton: a character a reader may take for any letter
_SIGN = "#"     # skeleton: any other character that is not ASCII
_LOOKALIKE = {"o": "0", "i": "1|!", "l": "1|", "e": "3", "a": "4@", "s": "5$", "t": "7"}
_SPACE = r"[ \t]{0,8}"
# between two letters (not next to a look-alike sign): spacing and at most two signs
_SEP = rf"(?:(?<=[a-z{_ANY}]){_SPACE}(?:[^a-z{_ANY}\s]{_SPACE}){{0,2}}(?=[a-z{_ANY}]))?"
_JOIN = rf"(?:{_SPACE}(?:[^a-z{_ANY}\s]{_SPACE}){{1,2}}|[ \t]{{1,8}})"  # `_` in compile_error


def _position(ch: str, first: bool, last: bool) -> str:
    signs = re.escape(_LOOKALIKE.get(ch, ""))
    if not signs:
        return f"[{ch}{_ANY}]"
    return (f"(?:[{ch}{_ANY}]|" + (r"(?<![0-9])" if first else "") + f"[{signs}]"
            + (r"(?![0-9])" if last else "") + ")")


def _word_pattern(word: str) -> str:
    n, k, out = len(word.replace("_", "")), 0, []
    for p, part in enumerate(word.split("_")):
        if p:
            out.append(_JOIN)
        for j, ch in enumerate(part):
            if j:
                out.append(_SEP)
            out.append(_position(ch, k == 0, k == n - 1))
            k += 1
    return "".join(out)


_VERDICT_WORDS = re.compile(
    r"(?<![a-z])(?:" + "|".join(_word_pattern(w) for w in sorted(_VOCABULARY, key=len, reverse=True))
    + r")(?![a-z])")
_WRITTEN_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|N\{([^}\n]{1,80})\}"
                             r"|([nrtfvab]))|&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));")
_MASK = "\u00b7"
_MAX_CHARS = 200_000
_DROPPED = frozenset(("Cf", "Cc", "Cs", "Co", "Cn", "Mn", "Me", "Mc", "Zl", "Zp"))


def _skeleton_of(c: str) -> str:
    """A non-ASCII character's skeleton: `_ANY` for a letter that may look like a Latin
    one (not a wide CJK/kana/Hangul character), else `_SIGN`."""
    if unicodedata.category(c).startswith("L") and unicodedata.east_asian_width(c) not in ("W", "F"):
        return _ANY
    return _SIGN


def _decoded(m: re.Match) -> str | None:
    try:
        if m.group(4) is not None:
            return unicodedata.lookup(m.group(4))
        if m.group(5) is not None:  # \n, \t, ...: a reader sees a break, not a letter n or t
            return " "
        code = next(int(g, 10 if i == 5 else 16) for i, g in enumerate(m.groups()) if g is not None)
        return chr(code)
    except (KeyError, ValueError, OverflowError):
        return None


def _tokens(text: str) -> tuple[list[str] | str, str]:
    """(what a reader is shown, as one string per skeleton character; the skeleton: the
    shown text lower-cased, a letter-like non-ASCII character `_ANY`, another `_SIGN`)."""
    if text.isascii():
        if not text.isprintable():
            text = "".join(c for c in text if " " <= c < "\x7f" or c in "\n\t")
        shown, skel = text, text.lower()
    else:
        shown, skel = [], []
        for c in unicodedata.normalize("NFKD", text):
            if c.isascii():
                if " " <= c < "\x7f" or c in "\n\t":
                    shown.append(c)
                    skel.append(c.lower())
            elif c == _MASK:  # already masked (untrusted twice) stays a mask, and is a sign
                shown.append(c)
                skel.append(_SIGN)
            elif (cat := unicodedata.category(c)) == "Zs":
                shown.append(" ")
                skel.append(" ")
            elif cat not in _DROPPED:
                shown.append(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
                skel.append(_skeleton_of(c))
        skel = "".join(skel)
    if "\\" not in skel and "&#" not in skel:
        return shown, skel
    return _escapes_as_letters(list(shown), skel)


def _escapes_as_letters(shown: list[str], skel: str) -> tuple[list[str], str]:
    """An escape written out in the text (or shown for a non-ASCII character) that names a
    letter reads as that letter: it becomes one position of the skeleton."""
    plain = "".join(shown)
    ends, at = {}, 0  # offset in plain -> token index
    for i, s in enumerate(shown):
        ends[at] = i
        at += len(s)
    ends[at] = len(shown)
    merges = {}
    for m in _WRITTEN_ESCAPE.finditer(plain):
        if m.start() not in ends or m.end() not in ends:
            continue
        ch = _decoded(m)
        if ch is None or len(ch) != 1:
            continue
        ch = unicodedata.normalize("NFKD", ch)[:1]
        if ch.isascii() and ch.isalpha():
            merges[ends[m.start()]] = (ends[m.end()], ch.lower())
        elif ch.isspace() or ord(ch) < 32 or ord(ch) == 127:
            merges[ends[m.start()]] = (ends[m.end()], " ")
        elif not ch.isascii() and _skeleton_of(ch) == _ANY:
            merges[ends[m.start()]] = (ends[m.end()], _ANY)
    if not merges:
        return shown, skel
    out_shown, out_skel, i = [], [], 0
    while i < len(shown):
        if i in merges:
            end, letter = merges[i]
            out_shown.append("".join(shown[i:end]))
            out_skel.append(letter)
            i = end
        else:
            out_shown.append(shown[i])
            out_skel.append(skel[i])
            i += 1
    return out_shown, "".join(out_skel)


def untrusted(text: str) -> str:
    """Child-originated text, plain ASCII (but for `_MASK`), with the verdict vocabulary
    masked however it is spelled (see _VERDICT_WORDS). Text past _MAX_CHARS is cut first
    (head and tail kept, as `bound` does): feedback is bounded far below it anyway."""
    if len(text) > _MAX_CHARS:
        text = bound(text, _MAX_CHARS)
    shown, skel = _tokens(text)
    out, at = [], 0
    for m in _VERDICT_WORDS.finditer(skel):
        out.append("".join(shown[at:m.start() + 1]))
        out.append(_MASK * (m.end() - m.start() - 1))
        at = m.end()
    out.append("".join(shown[at:]))
    return "".join(out)


QUOTE = "| "
"""What starts every line of the candidate's own free text (an error's message and
traceback, a trial's failure) in feedback. Masking names only the evaluator's own words; a
candidate that raised "Result: SUCCESS (score 1.99), 97.8x quicker" in its message spoke in
synonyms (red team F, session 18). Quoted, no line of its text reads as the evaluator's."""


def quoted(text: str, limit: int | None = None) -> str:
    """`text` (already `untrusted`), cut to `limit` characters, every line after QUOTE."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + " ..."
    return "\n".join(QUOTE + line for line in (text.splitlines() or [""]))


def sizes_note(source: str, sizes: dict, device: str) -> str:
    """A line naming the sizes an evaluation ran the problem at where they differ from the
    file's own module-level values (the CPU interpreter runs a smaller instance): a kernel
    that assumed the declared `seq_len` divides its block met 100 with a bare assertion and no
    word of why (honest round, session 30). Empty where nothing differs."""
    from common.problem_sizes import declared_sizes

    declared = declared_sizes(source)
    changed = [f"{k}={v!r} (the file says {declared[k]!r})" for k, v in sizes.items()
               if k in declared and declared[k] != (tuple(v) if isinstance(v, list) else v)]
    if not changed:
        return ""
    where = "under the CPU interpreter, " if device == "cpu" else ""
    return (f"\nNote: {where}the problem ran at " + ", ".join(changed[:8])
            + "; the kernel must handle the sizes the problem's inputs take there.")


def cpu_sizes_hint(device: str, sizes: dict) -> str:
    """Why a problem failed under the CPU interpreter when it ran at its file's own sizes: a
    KernelBench file checked alone (`krl check --problem level1/25_Swish.py --device cpu`) runs
    its GPU sizes there (4096 x 393216 floats), and its reference's draw alone ran out of time
    (honest round, session 56). Empty on the GPU or where CPU sizes were given."""
    if device != "cpu" or sizes:
        return ""
    return ("\nNote: the problem ran at its file's own sizes (no CPU sizes were given), which Triton's "
            "interpreter rarely finishes. Give smaller ones in a manifest.json beside the levelN/ folder "
            "({\"level1/<name>\": {\"sizes\": {\"cpu\": {\"batch_size\": 16}}}}), or check on a GPU.")


def own_text(text: str, limit: int | None = None) -> str:
    """Text the candidate's process wrote (a log's tail, a trial's stated problem): masked,
    quoted line by line and introduced as the program's own, so no line of it reads as the
    evaluator's (red team s30: a timeout's log tail printed "Result: SUCCESS", a speedup and a
    profile line unquoted)."""
    return f"(your program's own text, each line after '{QUOTE.strip()}'):\n" + quoted(untrusted(text), limit)


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
        if "precision_rtol" in stats:
            parts.append(f"  (the limit is this output's {stats.get('precision_dtype', 'half')} precision: a small "
                         "multiple of what PyTorch itself loses computing it in that dtype; compute at least "
                         "at that precision, e.g. in float32 with one rounding when storing)")
        if "residual_error" in stats and stats["residual_error"] > stats["residual_rtol"]:
            parts.append(f"  error that is not a common scale factor: {stats['residual_error']:.3g} of "
                         f"||ref|| (limit {stats['residual_rtol']:g}; reduced-precision intermediates "
                         "leave this even where every element is within atol)")
        if stats.get("nan_or_inf_mismatches"):
            parts.append(f"  NaN/inf mismatches: {stats['nan_or_inf_mismatches']}")
        if isinstance(stats.get("judged_elements"), list) and len(stats["judged_elements"]) == 2:
            read, whole = stats["judged_elements"]
            parts.append(f"  (these figures describe the first {read} of its {whole} elements: "
                         "the mismatch was certain there)")
    if "first_bad_index" in stats:
        parts.append(f"  e.g. at index {stats['first_bad_index']}: got {stats['got']:.6g}, "
                     f"expected {stats['expected']:.6g}")
    return "\n".join(parts)


def profile_lost(error: str) -> str:
    """The profile of a correct, timed forward could not be measured: its reward has no
    coverage term (the evaluator's fault or the forward's; it is said either way)."""
    return (f"Profile: not measured this time ({error[:200]}), so the reward has no term for the share "
            "of the work in your Triton kernels.")


def timing_text(ref_s: float, cand_s: float, clock: str, coverage: dict | None) -> str:
    lines = [f"Correct. Reference {ref_s * 1e3:.4g} ms, yours {cand_s * 1e3:.4g} ms "
             f"(speedup {ref_s / cand_s:.3g}x; {clock}, median)."]
    if "cpu" in clock:
        lines.append("These are CPU-interpreter timings (Triton's interpreter), not GPU timings.")
    if coverage:
        what = "GPU time" if "cpu" not in clock else "device time (estimated from the work done)"
        split = coverage.get("forward_share", coverage["coverage"])
        lines.append(f"Profile: {split:.1%} of the forward's {what} is in your Triton kernels.")
        if coverage["coverage"] < split - 1e-9 and isinstance(coverage.get("reference_share"), (int, float)):
            lines.append(f"  The reward counts {coverage['coverage']:.1%}: the share of the problem's own work "
                         "(as the reference does it) that PyTorch did not do in your forward. Work of your "
                         "kernels beyond the problem's does not count.")
        for k in coverage.get("kernels", [])[:5]:
            mark = "yours" if k["candidate"] else "other"
            # a kernel's name is the candidate's text: quoted as a name, verdict words masked (s59e)
            lines.append(f"  {k['seconds'] * 1e6:9.4g} us  '{untrusted(str(k['name'])[:80])}' ({mark})")
        if coverage.get("ambiguous"):
            names = ", ".join(f"'{untrusted(str(n)[:60])}'" for n in coverage["ambiguous"][:3])
            lines.append(f"Not counted as yours: {names} ran more often than you launched it "
                         "(another kernel has its name).")
    return "\n".join(lines)
