"""Session 52's widenings for honest public kernels (a manager held in a local and entered by its
only read: fla's input_guard `with ctx:`) and (honest round s52: SGLang's prefill attention
reads `CUDA_CAPABILITY`, bound only under `if is_cuda_available:`, inside a function under
`if is_cuda_available and CUDA_CAPABILITY[0] > 8`) and its edges: a name only another arm of an
unsettled module-level `if` binds is unbound in this arm's file, so a read of it inside a
function raises NameError if it runs (as the names of a dropped import fallback); the arm that
binds it is judged in its own file, and a read at module level is still undefined."""
from __future__ import annotations

import pytest
from static_snippets import check_snippet
from test_static_widened_narrow import assert_narrow

ACCEPTED = {
    # fla's input_guard (honest round s52): a manager held in a local, entered by its only read
    "held_manager_local_entered_once": '''
        import contextlib


        def device_ctx(index):
            return torch.cuda.device(index)


        def run(x):
            if x.is_cuda:
                ctx = device_ctx(x.device.index)
            else:
                ctx = contextlib.nullcontext()
            with ctx:
                return x + 1
    ''',
    "other_arm_name_read_in_a_function_under_its_condition": '''
        is_cuda_available = torch.cuda.is_available()
        if is_cuda_available:
            CUDA_CAPABILITY = torch.cuda.get_device_capability()


        def block_size():
            if is_cuda_available and CUDA_CAPABILITY[0] > 8:
                return 128
            return 64
    ''',
}

REJECTED = {
    # a held manager read anywhere but its one `with` is the object handled as before
    "held_manager_read_twice": ('''
        def run(x):
            ctx = torch.no_grad()
            with ctx:
                with ctx:  # <-
                    return x + 1
    ''', "forbidden_syntax"),
    "held_manager_attribute_read": ('''
        def run(x):
            ctx = torch.cuda.device(0)
            i = ctx.idx
            with ctx:  # <-
                return x + i
    ''', "forbidden_syntax"),
    "held_manager_bound_to_something_else_too": ('''
        def run(x, other):
            ctx = torch.no_grad()
            if x.numel() > 4:
                ctx = other
            with ctx:  # <-
                return x + 1
    ''', "forbidden_syntax"),
    "held_manager_with_as": ('''
        def run(x):
            ctx = torch.no_grad()
            with ctx as c:  # <-
                return x + 1
    ''', "forbidden_syntax"),
    "held_manager_at_module_level": ('''
        CTX = torch.no_grad()


        def run(x):
            with CTX:  # <-
                return x + 1
    ''', "forbidden_syntax"),
    # the arm that binds the name is judged whole in its own file, and the read there as what it binds
    "other_arm_binds_eval_read_in_a_function": ('''
        HAVE_GPU = torch.cuda.is_available()
        if HAVE_GPU:
            FAST = eval  # <-


        def run(x):
            return FAST("x")
    ''', "dynamic_code"),
    "other_arm_binds_a_module_used_as_a_value": ('''
        HAVE_GPU = torch.cuda.is_available()
        if HAVE_GPU:
            LIB = torch.cuda


        def run(x):
            return LIB  # <-
    ''', "reflection"),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_s52_widened_construct_is_accepted(name):
    report = check_snippet(ACCEPTED[name])
    assert report.status is None, report.findings


@pytest.mark.parametrize("name", list(REJECTED))
def test_s52_widened_construct_stays_narrow(name):
    assert_narrow(*REJECTED[name])


def test_other_arm_name_read_at_module_level_is_still_undefined():
    report = check_snippet('''
        HAVE_GPU = torch.cuda.is_available()
        if HAVE_GPU:
            CAP = torch.cuda.get_device_capability()
        BLOCK = 128 if CAP[0] > 8 else 64
    ''')
    assert report.status == "compile_error", report.findings
    assert "undefined_name" in {f.code for f in report.findings}, report.findings
