"""Idioms of Inductor-generated Triton as people paste it into a kernel file (honest round
s50h): a module-level alias of an importable module (`tl_math = tl.math`, for Inductor's
`from torch._inductor.runtime.triton_helpers import math as tl_math`), held like the import;
and the edges that stay refused beside it."""
from __future__ import annotations

import pytest

from tests.unit.evaluator.static_snippets import check_snippet

ACCEPTED = {
    "tl_math_alias": '''
        tl_math = tl.math


        @triton.jit
        def exp_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, tl_math.exp(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)
    ''',
    "libdevice_module_alias": '''
        import triton.language.extra
        ld = triton.language.extra.libdevice


        @triton.jit
        def tanh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, ld.tanh(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)
    ''',
}

REFUSED = {
    # each use is the name written out: an attribute the module does not list stays refused
    "alias_private_attribute": ('''
        tl_math = tl.math
        HIDDEN = tl_math.__dict__
    ''', "reflection"),
    # the alias as a value is the module as a value
    "alias_handed_on": ('''
        tl_math = tl.math
        MODS = [tl_math]
    ''', "reflection"),
    # bound twice: no alias
    "alias_rebound": ('''
        tl_math = tl.math
        tl_math = tl.math
        MODS = tl_math.exp
    ''', "reflection"),
    # not at module level
    "alias_in_function": ('''
        def pick():
            m = tl.math
            return m.exp
    ''', "reflection"),
    # a module whose import is refused is refused as an alias too
    "attribute_only_module": ('''
        backends = torch.backends
        backends.cuda.matmul.allow_tf32 = True
    ''', "reflection"),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_s50h_inductor_idiom_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, [(f.code, f.line, f.message) for f in report.findings]


@pytest.mark.parametrize("name", list(REFUSED))
def test_s50h_inductor_edge_is_refused(name):
    source, code = REFUSED[name]
    report = check_snippet(source)
    assert report.status == "hack", name
    assert code in {f.code for f in report.findings}, [(f.code, f.message) for f in report.findings]
